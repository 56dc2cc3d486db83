#include "router/sql/exec/fetched_columns.h"

#include <algorithm>

#include "absl/strings/str_split.h"
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

namespace {

// The ENUM or SET column `column` names, in the current dictionary (`*table` keeps it alive);
// null for any other column, or a table gone since.
const schema::ColumnDef* MemberColumn(const mysql::ColumnDefinition& column,
                                      const SessionState& state, api::TablePtr* table) {
  if ((column.flags & (mysql::column_flag::kEnum | mysql::column_flag::kSet)) == 0) {
    return nullptr;
  }
  std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(state);
  *table = dictionary == nullptr ? nullptr : dictionary->Find(column.schema, column.org_table);
  const int c = *table == nullptr ? -1 : (*table)->FindColumn(column.org_name);
  if (c < 0 || !schema::IsEnumOrSet((*table)->columns[c].type)) return nullptr;
  return &(*table)->columns[c];
}

// The number `text`, a value of an ENUM or SET column, is stored as: the member's position,
// or the members' bits; `position` gives a member's 1-based position (0: none).
template <typename Position>
uint64_t StoredNumberOf(bool set, absl::string_view text, const Position& position) {
  if (!set) return position(text);
  uint64_t bits = 0;
  for (absl::string_view member : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    if (uint64_t p = position(member); p > 0 && p <= 64) bits |= uint64_t{1} << (p - 1);
  }
  return bits;
}

}  // namespace

MemberOrder MemberOrder::Of(const mysql::ColumnDefinition& column, const SessionState& state) {
  MemberOrder order;
  api::TablePtr table;
  const schema::ColumnDef* def = MemberColumn(column, state, &table);
  if (def == nullptr) return order;
  order.set_ = def->type == schema::ColumnType::kSet;
  for (size_t i = 0; i < def->elements.size(); ++i) {
    order.positions_.emplace(def->elements[i], static_cast<int>(i) + 1);
  }
  return order;
}

uint64_t MemberOrder::StoredNumber(absl::string_view text) const {
  return StoredNumberOf(set_, text, [&](absl::string_view member) -> uint64_t {
    auto it = positions_.find(member);
    return it == positions_.end() ? 0 : it->second;
  });
}

std::optional<uint64_t> StoredMemberNumber(const mysql::ColumnDefinition& column,
                                           const SessionState& state, absl::string_view text) {
  api::TablePtr table;
  const schema::ColumnDef* def = MemberColumn(column, state, &table);
  if (def == nullptr) return std::nullopt;
  const std::vector<std::string>& members = def->elements;
  return StoredNumberOf(def->type == schema::ColumnType::kSet, text,
                        [&](absl::string_view member) -> uint64_t {
                          auto it = std::find(members.begin(), members.end(), member);
                          return it == members.end() ? 0 : (it - members.begin()) + 1;
                        });
}

}  // namespace shoal::sql::internal
