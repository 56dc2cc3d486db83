#include "router/sql/field_codec.h"

#include <gtest/gtest.h>
