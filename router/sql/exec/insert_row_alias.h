// INSERT … VALUES … AS new [(a, b, …)] ON DUPLICATE KEY UPDATE (MySQL 8.0.19, which deprecates
// VALUES(col) for it; Django and Rails write it to MySQL 8): the names under which the
// assignments read the row the statement would have inserted — new.col for every column, or,
// with column aliases, new.a / a for the inserted columns in order.
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/schema/schema.h"
#include "protocol/sql_error.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

struct NewRowColumns {
  std::string alias;                                 // empty: the statement has none
  std::vector<std::pair<std::string, int>> columns;  // a name, and the table column it reads
};

// 1066 when the alias is the table's own name; 1136 when the column aliases are not as many
// as the inserted columns.
std::variant<NewRowColumns, mysql::SqlError> NameNewRow(const InsertStmt& stmt,
                                                        const schema::TableDef& table);

}  // namespace shoal::sql::internal
