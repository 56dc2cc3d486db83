#include "router/sql/exec/fetched_columns.h"

#include "protocol/constants.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/exec/table_access.h"

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

absl::flat_hash_map<std::string, int> EnumOrder(const mysql::ColumnDefinition& column,
                                                const SessionState& state) {
  absl::flat_hash_map<std::string, int> order;
  if ((column.flags & mysql::column_flag::kEnum) == 0) return order;
  std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(state);
  api::TablePtr table =
      dictionary == nullptr ? nullptr : dictionary->Find(column.schema, column.org_table);
  const int c = table == nullptr ? -1 : table->FindColumn(column.org_name);
  if (c < 0 || table->columns[c].type != schema::ColumnType::kEnum) return order;
  order.emplace("", 0);
  const std::vector<std::string>& members = table->columns[c].elements;
  for (size_t i = 0; i < members.size(); ++i) order[members[i]] = static_cast<int>(i) + 1;
  return order;
}

}  // namespace shoal::sql::internal
