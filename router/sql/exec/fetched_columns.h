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

// How MySQL orders an ENUM or a SET column: by the number it stores (an ENUM's position, a
// SET's member bits), not by its text. Found through the table the column definition names;
// empty for any other column (or a table gone since).
class MemberOrder {
 public:
  static MemberOrder Of(const mysql::ColumnDefinition& column, const SessionState& state);

  bool empty() const { return positions_.empty(); }
  // The number `text` (a value of the column) is stored as; 0 for anything else.
  uint64_t StoredNumber(absl::string_view text) const;

 private:
  bool set_ = false;
  absl::flat_hash_map<std::string, int> positions_;  // member -> 1-based position
};

// EvalContext::stored_number: MemberOrder::Of(column).StoredNumber(text).
std::optional<uint64_t> StoredMemberNumber(const mysql::ColumnDefinition& column,
                                           const SessionState& state, absl::string_view text);

}  // namespace shoal::sql::internal
