// REPLACE's collisions on unique keys worked out in the router (replace_plan.h).
#include "router/sql/exec/replace_plan.h"

#include <algorithm>
#include <utility>

#include "engine/schema/collation.h"
#include "engine/schema/row.h"

namespace shoal::sql::internal {

bool HasUniqueSecondaryIndex(const schema::TableDef& table) {
  return std::any_of(table.indexes.begin() + std::min<size_t>(1, table.indexes.size()),
                     table.indexes.end(), [](const schema::IndexDef& i) { return i.unique; });
}

ReplacePlanner::ReplacePlanner(const schema::TableDef& table) : table_(table) {
  for (size_t i = 1; i < table.indexes.size(); ++i) {
    if (table.indexes[i].unique) unique_indexes_.push_back(static_cast<int>(i));
  }
  holders_.resize(unique_indexes_.size());
}

std::optional<std::string> ReplacePlanner::KeyForm(int index, absl::string_view row) const {
  std::string key, scratch;
  if (!schema::KeyOfRow(table_, index, row, &key)) return std::nullopt;
  absl::string_view form = schema::KeyForm(table_, index, key, &scratch);
  return form.data() == key.data() ? std::move(key) : std::string(form);
}

void ReplacePlanner::Index(const std::string& pk, absl::string_view row) {
  for (size_t u = 0; u < unique_indexes_.size(); ++u) {
    if (std::optional<std::string> key = KeyForm(unique_indexes_[u], row)) {
      holders_[u][*key] = pk;
    }
  }
}

void ReplacePlanner::Unindex(const std::string& pk, absl::string_view row) {
  for (size_t u = 0; u < unique_indexes_.size(); ++u) {
    std::optional<std::string> key = KeyForm(unique_indexes_[u], row);
    if (!key) continue;
    if (auto it = holders_[u].find(*key); it != holders_[u].end() && it->second == pk) {
      holders_[u].erase(it);
    }
  }
}

void ReplacePlanner::Stored(absl::string_view row) {
  std::string pk = KeyForm(0, row).value_or("");
  auto [it, inserted] = rows_.try_emplace(pk, std::string(row));
  if (inserted) Index(pk, row);
}

void ReplacePlanner::Add(absl::string_view row, std::vector<ReplaceStep>* steps) {
  const std::string pk = KeyForm(0, row).value_or("");
  // The other rows holding one of its unique keys go first, each once (a row may hold several).
  std::vector<std::string> victims;
  for (size_t u = 0; u < unique_indexes_.size(); ++u) {
    std::optional<std::string> key = KeyForm(unique_indexes_[u], row);
    if (!key) continue;
    auto it = holders_[u].find(*key);
    if (it == holders_[u].end() || it->second == pk) continue;
    if (std::find(victims.begin(), victims.end(), it->second) == victims.end()) {
      victims.push_back(it->second);
    }
  }
  for (const std::string& victim : victims) {
    std::optional<std::string>& held = rows_[victim];
    if (!held) continue;  // cannot be: a key's holder is there
    Unindex(victim, *held);
    steps->push_back({ReplaceStep::Kind::kDelete, std::move(*held), std::nullopt});
    held.reset();
  }
  // Then the row itself, over whatever its primary key holds.
  std::optional<std::string>& own = rows_[pk];
  if (own) Unindex(pk, *own);
  steps->push_back({ReplaceStep::Kind::kWrite, std::string(row), std::move(own)});
  own = std::string(row);
  Index(pk, row);
}

}  // namespace shoal::sql::internal
