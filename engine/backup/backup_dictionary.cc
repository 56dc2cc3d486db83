#include "engine/backup/backup_dictionary.h"

#include <algorithm>
#include <utility>

#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace shoal::backup {
namespace {

using TableName = std::pair<std::string, std::string>;  // database, table

std::string Qualified(const schema::TableDef& table) {
  return absl::StrCat(table.database, ".", table.name);
}

// The foreign-key graph of the tables a restore creates: each table's parents among them
// (itself excluded) and the reverse.
struct Graph {
  absl::btree_map<uint32_t, const schema::TableDef*> tables;
  absl::flat_hash_map<uint32_t, std::vector<uint32_t>> parents;
  absl::flat_hash_map<uint32_t, std::vector<uint32_t>> children;
};

Graph BuildGraph(const BackupDictionary& dictionary) {
  Graph graph;
  absl::flat_hash_map<TableName, uint32_t> by_name;
  for (const auto& [id, table] : dictionary.tables) {
    if (IsAlterCopy(dictionary, table)) continue;
    graph.tables[id] = &table;
    by_name[TableName(table.database, table.name)] = id;
  }
  for (const auto& [id, table] : graph.tables) {
    std::vector<uint32_t>& parents = graph.parents[id];
    for (const schema::ForeignKeyDef& fk : table->foreign_keys) {
      auto it = by_name.find(TableName(fk.parent_database, fk.parent_table));
      // A parent the backup lacks (a key made with foreign_key_checks off) orders nothing.
      if (it == by_name.end() || it->second == id) continue;
      if (std::find(parents.begin(), parents.end(), it->second) != parents.end()) continue;
      parents.push_back(it->second);
      graph.children[it->second].push_back(id);
    }
  }
  return graph;
}

// With every table not yet created waiting for a parent: walks from the lowest-id one to a
// parent not created yet, and on, until a table comes round again. Returns that cycle.
std::vector<uint32_t> FindCycle(const Graph& graph, const absl::btree_set<uint32_t>& created) {
  uint32_t at = 0;
  for (const auto& [id, table] : graph.tables) {
    if (!created.contains(id)) {
      at = id;
      break;
    }
  }
  std::vector<uint32_t> path;
  absl::flat_hash_map<uint32_t, size_t> position;
  while (!position.contains(at)) {
    position[at] = path.size();
    path.push_back(at);
    for (uint32_t parent : graph.parents.at(at)) {
      if (!created.contains(parent)) {
        at = parent;
        break;
      }
    }
  }
  return std::vector<uint32_t>(path.begin() + static_cast<ptrdiff_t>(position[at]), path.end());
}

}  // namespace

absl::StatusOr<BackupDictionary> ParseBackupDictionary(const Manifest& manifest) {
  BackupDictionary out;
  const std::string& bytes = manifest.dictionary();
  if (!out.proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::DataLossError(
        absl::StrCat("the dictionary in node ", manifest.node_id(), "'s manifest does not parse"));
  }
  for (const std::string& table_bytes : out.proto.tables()) {
    absl::string_view in = table_bytes;
    absl::StatusOr<schema::TableDef> table = schema::ParseTableDef(&in);
    if (!table.ok()) {
      return absl::DataLossError(
          absl::StrCat("a table definition in node ", manifest.node_id(),
                       "'s manifest does not parse: ", table.status().message()));
    }
    const uint32_t id = table->id;
    out.tables[id] = *std::move(table);
  }
  return out;
}

bool IsAlterCopy(const BackupDictionary& dictionary, const schema::TableDef& table) {
  if (absl::StartsWith(table.name, schema::kAlterCopyPrefix)) return true;
  for (const wire::AlterLock& lock : dictionary.proto.alter_locks()) {
    if (lock.temp_table() != table.name) continue;
    // The copy lives in the database of the table being altered.
    auto altered = dictionary.tables.find(lock.table_id());
    if (altered != dictionary.tables.end() && altered->second.database == table.database) {
      return true;
    }
  }
  return false;
}

CreationOrder OrderForCreation(const BackupDictionary& dictionary) {
  const Graph graph = BuildGraph(dictionary);
  CreationOrder order;
  absl::flat_hash_map<uint32_t, size_t> waiting_for;  // parents not created yet
  absl::btree_set<uint32_t> ready;                    // by id: the order is stable
  absl::btree_set<uint32_t> created;
  for (const auto& [id, table] : graph.tables) {
    waiting_for[id] = graph.parents.at(id).size();
    if (waiting_for[id] == 0) ready.insert(id);
  }
  while (created.size() < graph.tables.size()) {
    if (ready.empty()) {
      std::vector<uint32_t> cycle = FindCycle(graph, created);
      std::vector<std::string> names;
      for (uint32_t id : cycle) names.push_back(Qualified(*graph.tables.at(id)));
      names.push_back(names.front());
      order.cycles.push_back(absl::StrJoin(names, " -> "));
      ready.insert(*std::min_element(cycle.begin(), cycle.end()));
    }
    const uint32_t id = *ready.begin();
    ready.erase(ready.begin());
    created.insert(id);
    order.tables.push_back(graph.tables.at(id));
    auto children = graph.children.find(id);
    if (children == graph.children.end()) continue;
    for (uint32_t child : children->second) {
      if (--waiting_for[child] == 0 && !created.contains(child)) ready.insert(child);
    }
  }
  return order;
}

}  // namespace shoal::backup
