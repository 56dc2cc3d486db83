#include "router/sql/table_spec.h"
