// Partition: the end of a transaction (Commit, Abort) and table changes (SetTable).
#include "common/logging.h"
#include "engine/storage/partition_impl.h"

namespace shoal::storage {

void Partition::Impl::Commit(TxnId txn) {
  auto found = txns_.find(txn);
  if (found == txns_.end()) return;
  std::vector<Row*> rows = std::move(found->second);
  txns_.erase(found);
  for (Row* h : rows) {
    if (h == nullptr) continue;
    if (h->flags & kDeleted) {
      if (!(h->flags & kInserted)) {
        --row_count_;
        if (observer_ != nullptr) observer_->Committed(table_->id, index_, h->key(), {});
      }
      RemoveRow(h);
      continue;
    }
    const bool modified = (h->flags & kInserted) || h->other != nullptr;
    if (h->flags & kInserted) ++row_count_;
    FreeBeforeImage(h);
    h->flags = 0;
    h->owner = 0;
    if (modified) {
      for (int i = 1; i < index_count(); ++i) UniquePut(i, h);
      if (observer_ != nullptr) {
        h->epoch = observer_->epoch();
        observer_->Committed(table_->id, index_, h->key(), h->row());
      }
    }
  }
  rows.clear();
  spare_lists_.push_back(std::move(rows));
  arena_.ReserveIndexEntries(index_entries_);  // shrinking: gives back surplus pages
}

void Partition::Impl::Abort(TxnId txn) {
  auto found = txns_.find(txn);
  if (found == txns_.end()) return;
  std::vector<Row*> rows = std::move(found->second);
  txns_.erase(found);
  for (Row*& h : rows) {
    if (h == nullptr) continue;
    if (h->flags & kInserted) {
      RemoveRow(h);
      h = nullptr;
      continue;
    }
    if (Row* b = h->other; b != nullptr) {
      for (int i = 1; i < index_count(); ++i) {
        if (!((b->split_mask >> i) & 1)) continue;
        EraseEntry(i, h);
        UniqueEraseIf(i, h);
        EraseEntry(i, b);
        --indexes_[i]->split_entries;
      }
      // The head's block only ever grew, so the committed row fits.
      SHOAL_DCHECK(b->size + h->key_size <= h->capacity);
      std::memcpy(h->data() + h->key_size, b->row_data(), b->size);
      h->size = b->size;
      h->epoch = b->epoch;
      for (int i = 1; i < index_count(); ++i) {
        if ((b->split_mask >> i) & 1) InsertEntry(i, h);
      }
      FreeBlock(b);
      h->other = nullptr;
    }
    h->flags = 0;
    h->owner = 0;
  }
  // Only now, with every row restored, can a restored row reclaim its unique key's hint from
  // a row this transaction inserted.
  for (Row* h : rows) {
    if (h == nullptr) continue;
    for (int i = 1; i < index_count(); ++i) UniquePut(i, h);
  }
  rows.clear();
  spare_lists_.push_back(std::move(rows));
  arena_.ReserveIndexEntries(index_entries_);
}

namespace {

bool SameIndex(const schema::IndexDef& a, const schema::IndexDef& b) {
  return a.name == b.name && a.columns == b.columns && a.unique == b.unique &&
         a.primary == b.primary;
}

bool SameColumns(const Layout& layout, const schema::TableDef& table) {
  if (table.columns.size() != layout.columns.size()) return false;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const schema::ColumnDef& a = layout.columns[i];
    const schema::ColumnDef& b = table.columns[i];
    if (a.type != b.type || a.is_unsigned != b.is_unsigned || a.nullable != b.nullable ||
        schema::FoldsCase(a) != schema::FoldsCase(b)) {
      return false;
    }
  }
  return true;
}

}  // namespace

OpResult Partition::Impl::SetTable(const schema::TableDef* table) {
  if (!SameColumns(layout_, *table)) return BadRequest("a partition's columns cannot change");
  if (table->indexes.empty() || table->indexes.size() > kMaxIndexes ||
      !SameIndex(table->indexes[0], table_->indexes[0])) {
    return BadRequest("a partition's primary key cannot change");
  }
  const int n = static_cast<int>(table->indexes.size());
  std::vector<std::unique_ptr<IndexState>> next(n);
  std::vector<int> from(n, -1);
  std::vector<bool> used(indexes_.size());
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < index_count(); ++i) {
      if (!used[i] && SameIndex(table->indexes[j], table_->indexes[i])) {
        from[j] = i;
        used[i] = true;
        break;
      }
    }
  }
  // Build the added indexes aside; the partition is unchanged until all of them hold.
  uint64_t added = 0;
  for (int j = 0; j < n; ++j) {
    if (from[j] >= 0) continue;
    auto ix = std::make_unique<IndexState>(&layout_, table->indexes[j]);
    for (Row* h : pk_) {
      ix->ordered.insert(EntryOf(ix->info, h));
      if (Row* b = h->other; b != nullptr && ix->ordered.key_comp()(b, h) != 0) {
        ix->ordered.insert(EntryOf(ix->info, b));
        ++ix->split_entries;
      }
    }
    added += ix->ordered.size();
    if (ix->unique) {
      Row* prev = nullptr;
      std::vector<schema::Field> key(ix->info.columns.size());
      for (Row* e : ix->ordered) {
        if (!BuildIndexKey(ix->info, e, &key_scratch_)) {
          prev = nullptr;
          continue;
        }
        if (prev != nullptr && prev->head() != e->head()) {
          for (size_t k = 0; k < key.size(); ++k) {
            key[k] = FieldAt(layout_, prev->row_data(), ix->info.columns[k]);
          }
          if (CompareToProbe(ix->info, e, KeyProbe{key.data(), static_cast<int>(key.size()), 0}) ==
              0) {
            return Duplicate(j);
          }
        }
        prev = e;
      }
      for (Row* h : pk_) {
        if (BuildIndexKey(ix->info, h, &key_scratch_)) ix->unique->insert(h);
      }
      added += ix->unique->size();
    }
    next[j] = std::move(ix);
  }
  uint64_t dropped = 0;
  for (int i = 0; i < index_count(); ++i) {
    if (used[i]) continue;
    dropped += indexes_[i]->ordered.size();
    if (indexes_[i]->unique) dropped += indexes_[i]->unique->size();
  }
  if (added > dropped && !arena_.ReserveIndexEntries(index_entries_ + added - dropped)) {
    return Result(OpCode::kTableFull);
  }
  // Before-images record their own entries by index position: renumber.
  for (Row* h : pk_) {
    Row* b = h->other;
    if (b == nullptr) continue;
    uint64_t mask = 0;
    for (int j = 1; j < n; ++j) {
      bool split =
          from[j] >= 0 ? ((b->split_mask >> from[j]) & 1) : next[j]->ordered.key_comp()(b, h) != 0;
      if (split) mask |= uint64_t{1} << j;
    }
    b->split_mask = mask;
  }
  for (int j = 0; j < n; ++j) {
    if (from[j] >= 0) next[j] = std::move(indexes_[from[j]]);
  }
  indexes_ = std::move(next);
  index_entries_ = index_entries_ + added - dropped;
  arena_.ReserveIndexEntries(index_entries_);
  table_ = table;
  auto_increment_column_ = table->auto_increment_column();
  if (auto_increment_column_ < 0 && table->has_hidden_key()) {
    auto_increment_column_ = static_cast<int>(table->columns.size()) - 1;
  }
  return OpResult();
}

}  // namespace shoal::storage
