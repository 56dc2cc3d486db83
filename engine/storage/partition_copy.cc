// Partition: exporting every row version, for copying a partition to a new replica.
#include "engine/storage/partition_impl.h"

namespace shoal::storage {

void Partition::Impl::Export(
    absl::FunctionRef<void(TxnId, absl::string_view, absl::string_view)> emit,
    schema::RowWriter* scratch) {
  for (Row* h : pk_) {
    const Row* committed = HeadVersion(h, kAutocommit);
    if (committed == nullptr) continue;  // inserted by a transaction still open
    scratch->Clear();
    Output(committed, layout_.all, scratch);
    emit(kAutocommit, h->key(), scratch->view());
  }
  for (const auto& [txn, rows] : txns_) {
    for (const Row* h : rows) {
      if (h == nullptr) continue;
      if (h->flags & kDeleted) {
        emit(txn, h->key(), {});
        continue;
      }
      scratch->Clear();
      Output(h, layout_.all, scratch);
      emit(txn, h->key(), scratch->view());
    }
  }
  scratch->Clear();
}

void Partition::Export(
    absl::FunctionRef<void(TxnId txn, absl::string_view key, absl::string_view row)> emit,
    schema::RowWriter* scratch) {
  impl_->Export(emit, scratch);
}

}  // namespace shoal::storage
