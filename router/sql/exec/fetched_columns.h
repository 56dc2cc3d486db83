// How the columns of rows read from a table are described to the row pipeline: typed as a
// result set carries them, and qualified by the name the statement gives the table, so that
// `alias.column` finds them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "engine/schema/schema.h"
#include "protocol/column.h"
#include "router/sql/eval/session.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

// What qualifies the columns of a FROM item: its alias, else its table's name.
const std::string& QualifierOf(const TableRef& ref);

// Sets every column's table (the alias clients see, and `q.column` matches) to `qualifier`.
void QualifyColumns(absl::string_view qualifier, std::vector<mysql::ColumnDefinition>* columns);

// The definitions of `columns` of `table`, qualified by `qualifier`.
std::vector<mysql::ColumnDefinition> FetchedColumnDefs(const schema::TableDef& table,
                                                       const std::vector<uint16_t>& columns,
                                                       absl::string_view qualifier,
                                                       const SessionState& state);

// An ENUM column's members by the position MySQL orders them in ('' is 0), found through the
// table the column definition names; empty for any other column (or a table gone since).
absl::flat_hash_map<std::string, int> EnumOrder(const mysql::ColumnDefinition& column,
                                                const SessionState& state);

}  // namespace shoal::sql::internal
