#include "router/sql/table_spec.h"

#include <gtest/gtest.h>
