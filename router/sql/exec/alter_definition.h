// What an ALTER TABLE makes of a table: the new definition, where each of its columns comes
// from, and whether the data nodes can take it in place or the rows must be copied
// (docs/architecture.md, "ALTER TABLE"). Pure: no dictionary, no data nodes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/schema/schema.h"
#include "protocol/sql_error.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql {

struct AlterPlan {
  enum class Way : uint8_t {
    kNothing,  // the definition stays as it is (DISABLE KEYS, ENGINE = InnoDB, …)
    kInPlace,  // a new version of the same table: names, defaults, secondary keys, a rename
    kCopy,     // a new table filled from the old one's rows, then put in its place
  };
  Way way = Way::kNothing;
  // The new definition: database, name, id, version and partitions of the old one, or of the
  // RENAME target.
  schema::TableDef table;
  // Per column of `table`: the column of the old table its values come from, or -1 (its
  // default, or a generated value).
  std::vector<int> source;
  std::optional<uint64_t> auto_increment;  // AUTO_INCREMENT = n
  bool disable_or_enable_keys = false;     // answered with MySQL's note 1031
  // Foreign keys the ALTER adds: the last this many of table.foreign_keys. Rows already there
  // must satisfy them (with foreign_key_checks on: a copy checks each row it copies).
  size_t new_foreign_keys = 0;
};

// Plans `stmt` on `table`; `database` is the session's (for an unqualified RENAME target).
// MySQL's errors: 1060, 1054, 1091, 1090, 1061, 1068, 1072, 1176, 1280, 1286, 1046, what
// CREATE TABLE checks of a column (1067, 1074, …), and 1846 when ALGORITHM=INSTANT or INPLACE
// asks for a change that needs a copy.
std::variant<AlterPlan, mysql::SqlError> PlanAlter(const schema::TableDef& table,
                                                   const AlterTableStmt& stmt,
                                                   const std::string& database);

}  // namespace shoal::sql
