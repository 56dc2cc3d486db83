#include "engine/node/ldm/tables.h"

#include "absl/algorithm/container.h"
#include "common/logging.h"

namespace shoal::node {

LdmTables::Changes LdmTables::Apply(const DictionaryDelta& delta, uint64_t epoch) {
  Changes changes;
  for (uint32_t id : delta.dropped) {
    if (tables_.erase(id) > 0) changes.forgotten.push_back(id);
  }
  for (const TablePtr& def : delta.created) {
    TableState& state = tables_[def->id];
    bool truncate = absl::c_linear_search(delta.truncated, def->id);
    if (state.def != nullptr && !truncate) {
      for (auto& partition : state.partitions) {
        if (partition == nullptr) continue;
        storage::OpResult result = partition->SetTable(def.get());
        if (result.code != storage::OpCode::kOk) {
          SHOAL_LOG(kError) << "table " << def->database << "." << def->name
                            << ": a partition keeps version " << state.def->version
                            << " (its rows break a new unique index)";
          if (!absl::c_linear_search(state.kept, state.def)) state.kept.push_back(state.def);
        }
      }
      state.def = def;
      state.logged = schema::Logged(*def);
      continue;
    }
    changes.forgotten.push_back(def->id);
    const bool logged = schema::Logged(*def);
    if (truncate && logged) {
      for (uint32_t p = 0; p < state.partitions.size(); ++p) {
        if (state.partitions[p] != nullptr) redo_->Truncated(def->id, p, epoch);
      }
    }
    state.def = def;
    state.logged = logged;
    state.partitions.clear();
    state.partitions.resize(def->partitions);
    for (uint32_t p = 0; p < def->partitions; ++p) {
      if (placement_->Owns(p)) {
        state.partitions[p] = std::make_unique<storage::Partition>(def.get(), budget_);
        if (logged) state.partitions[p]->SetObserver(redo_, p);
        changes.created.emplace_back(def->id, p);
      }
    }
  }
  return changes;
}

bool LdmTables::Reset(uint32_t table_id, uint32_t partition) {
  auto it = tables_.find(table_id);
  if (it == tables_.end() || partition >= it->second.partitions.size() ||
      it->second.partitions[partition] == nullptr) {
    return false;
  }
  TableState& state = it->second;
  state.partitions[partition] = std::make_unique<storage::Partition>(state.def.get(), budget_);
  if (schema::Logged(*state.def)) state.partitions[partition]->SetObserver(redo_, partition);
  return true;
}

const TableState* LdmTables::Table(uint32_t table_id) const {
  auto it = tables_.find(table_id);
  return it == tables_.end() ? nullptr : &it->second;
}

storage::Partition* LdmTables::Find(uint32_t table_id, uint32_t partition) const {
  const TableState* table = Table(table_id);
  if (table == nullptr || partition >= table->partitions.size()) return nullptr;
  return table->partitions[partition].get();
}

uint64_t LdmTables::row_count() const {
  uint64_t rows = 0;
  for (const auto& [id, table] : tables_) {
    for (const auto& partition : table.partitions) {
      if (partition != nullptr) rows += partition->row_count();
    }
  }
  return rows;
}

}  // namespace shoal::node
