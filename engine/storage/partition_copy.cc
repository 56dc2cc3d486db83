// Partition: exporting every row version, for copying a partition to a new replica.
#include "engine/storage/partition_impl.h"

namespace shoal::storage {

void Partition::Impl::Export(Partition::ExportFn emit, schema::RowWriter* scratch) {
  for (Row* h : pk_) {
    const Row* committed = HeadVersion(h, kAutocommit);
    if (committed == nullptr) continue;  // inserted by a transaction still open
    scratch->Clear();
    Output(committed, layout_.all, scratch);
    emit(kAutocommit, h->key(), scratch->view(), committed->epoch);
  }
  for (const auto& [txn, rows] : txns_) {
    for (const Row* h : rows) {
      if (h == nullptr) continue;
      if (h->flags & kDeleted) {
        emit(txn, h->key(), {}, 0);
        continue;
      }
      scratch->Clear();
      Output(h, layout_.all, scratch);
      emit(txn, h->key(), scratch->view(), 0);
    }
  }
  scratch->Clear();
}

void Partition::Export(ExportFn emit, schema::RowWriter* scratch) { impl_->Export(emit, scratch); }

}  // namespace shoal::storage
