// Column metadata and whole result sets, independent of how they are encoded on the wire
// (text or binary protocol; see codec.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/constants.h"
#include "protocol/value.h"

namespace shoal::mysql {

// ColumnDefinition41 fields (catalog is always "def").
struct ColumnDefinition {
  std::string schema;
  std::string table;      // alias
  std::string org_table;  // physical table
  std::string name;       // alias
  std::string org_name;   // physical column
  uint16_t charset = charset::kBinary;
  uint32_t length = 0;  // display length in bytes (chars × 4 for utf8mb4)
  ColumnType type = ColumnType::kVarString;
  uint16_t flags = 0;
  uint8_t decimals = 0;
};

struct ResultSet {
  std::vector<ColumnDefinition> columns;
  std::vector<std::vector<Value>> rows;  // each row has columns.size() values
};

}  // namespace shoal::mysql
