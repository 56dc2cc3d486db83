#include "engine/node/ldm/copy_sweep.h"

#include <vector>

#include "common/logging.h"
#include "engine/schema/collation.h"

namespace shoal::node {

void CopySweep::Begin(const wire::CopyEdge& edge) {
  open_.emplace(edge.table_id, edge.partition);
  named_.clear();
}

void CopySweep::Named(absl::string_view key) {
  const TableState* table = open_ ? tables_->Table(open_->first) : nullptr;
  if (table == nullptr) return;
  named_.emplace(schema::KeyForm(*table->def, 0, key, &form_));
}

void CopySweep::NamedRow(const schema::TableDef& table, absl::string_view row) {
  key_.clear();
  if (schema::KeyOfRow(table, 0, row, &key_))
    named_.emplace(schema::KeyForm(table, 0, key_, &form_));
}

void CopySweep::End(const wire::CopyEdge& edge) {
  if (!open(edge.table_id, edge.partition)) return;
  open_.reset();
  storage::Partition* partition = tables_->Find(edge.table_id, edge.partition);
  if (partition == nullptr) return;  // dropped meanwhile
  std::vector<std::string> gone;
  partition->Export(
      [&](storage::TxnId txn, absl::string_view key, absl::string_view, uint64_t) {
        if (txn == storage::kAutocommit && !named_.contains(key)) gone.emplace_back(key);
      },
      &scratch_);
  // Deleted while this node was down: gone here too, and from its redo.
  RedoTap::EpochScope logged_in(&context_->redo, context_->CurrentEpoch());
  for (const std::string& key : gone) partition->Delete(storage::kAutocommit, key);
  context_->stats.copy_dropped_rows += gone.size();
  named_.clear();
}

}  // namespace shoal::node
