// Column definitions for the schema tests.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "engine/schema/schema.h"

namespace shoal::schema::testutil {

inline ColumnDef Column(std::string name, ColumnType type, uint32_t length = 0) {
  ColumnDef c;
  c.name = std::move(name);
  c.type = type;
  c.length = length;
  return c;
}

}  // namespace shoal::schema::testutil
