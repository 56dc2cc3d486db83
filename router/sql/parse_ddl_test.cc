#include <gtest/gtest.h>

#include "router/sql/parser.h"
