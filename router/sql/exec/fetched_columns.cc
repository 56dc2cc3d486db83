#include "router/sql/exec/fetched_columns.h"

#include "router/sql/eval/field_codec.h"

namespace shoal::sql::internal {

const std::string& QualifierOf(const TableRef& ref) {
  return ref.alias.empty() ? ref.table.name : ref.alias;
}

void QualifyColumns(absl::string_view qualifier, std::vector<mysql::ColumnDefinition>* columns) {
  for (mysql::ColumnDefinition& c : *columns) c.table = std::string(qualifier);
}

std::vector<mysql::ColumnDefinition> FetchedColumnDefs(const schema::TableDef& table,
                                                       const std::vector<uint16_t>& columns,
                                                       absl::string_view qualifier,
                                                       const SessionState& state) {
  std::vector<mysql::ColumnDefinition> defs;
  defs.reserve(columns.size());
  for (uint16_t c : columns) {
    defs.push_back(
        ResultColumn(table, c, ResultCollationId(state), TableResultCharsetMaxLen(state)));
    if (qualifier != table.name) defs.back().table = std::string(qualifier);  // an alias
  }
  return defs;
}

}  // namespace shoal::sql::internal
