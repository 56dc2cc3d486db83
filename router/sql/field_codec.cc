#include "router/sql/field_codec.h"
