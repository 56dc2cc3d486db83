// Partition writes: insert, replace, update, delete; index maintenance for a head whose data
// changes (with the before-image keeping committed readers' positions, partition_impl.h).
#include <bit>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/schema/program.h"
#include "engine/storage/partition_impl.h"

namespace shoal::storage {
namespace {

bool SameField(const schema::Field& a, const schema::Field& b) {
  return a.null == b.null && (a.null || a.bytes == b.bytes);
}

}  // namespace

Row* Partition::Impl::NewBlock(size_t data_bytes) {
  uint8_t size_class;
  uint32_t block_bytes;
  void* block = arena_.Allocate(sizeof(Row) + data_bytes, &size_class, &block_bytes);
  if (block == nullptr) return nullptr;
  Row* r = static_cast<Row*>(block);
  r->owner = 0;
  r->other = nullptr;
  r->size = 0;
  r->capacity = block_bytes - static_cast<uint32_t>(sizeof(Row));
  r->txn_slot = 0;
  r->epoch = 0;
  r->key_size = 0;
  r->size_class = size_class;
  r->flags = 0;
  return r;
}

void Partition::Impl::InsertEntry(int index, Row* r) {
  IndexState& ix = *indexes_[index];
  bool inserted = ix.ordered.insert(EntryOf(ix.info, r)).second;
  SHOAL_DCHECK(inserted);
  (void)inserted;
  ++index_entries_;
}

void Partition::Impl::EraseEntry(int index, Row* r) {
  IndexState& ix = *indexes_[index];
  size_t erased = ix.ordered.erase(EntryOf(ix.info, r));
  SHOAL_DCHECK(erased == 1);
  index_entries_ -= erased;
}

void Partition::Impl::UniquePut(int index, Row* h) {
  IndexState& ix = *indexes_[index];
  if (!ix.unique || !BuildIndexKey(ix.info, h, &key_scratch_)) return;
  auto it = ix.unique->find(absl::string_view(key_scratch_));
  if (it != ix.unique->end()) {
    if (*it == h) return;
    ix.unique->erase(it);
    --index_entries_;
  }
  ix.unique->insert(h);
  ++index_entries_;
}

bool Partition::Impl::UniqueEraseIf(int index, Row* h) {
  IndexState& ix = *indexes_[index];
  if (!ix.unique || !BuildIndexKey(ix.info, h, &key_scratch_)) return false;
  auto it = ix.unique->find(absl::string_view(key_scratch_));
  if (it == ix.unique->end() || *it != h) return false;
  ix.unique->erase(it);
  --index_entries_;
  return true;
}

void Partition::Impl::RemoveRow(Row* h) {
  for (int i = 0; i < index_count(); ++i) {
    EraseEntry(i, h);
    UniqueEraseIf(i, h);
  }
  FreeBeforeImage(h);
  pk_.erase(h->key());
  --index_entries_;
  FreeBlock(h);
}

void Partition::Impl::FreeBeforeImage(Row* h) {
  Row* b = h->other;
  if (b == nullptr) return;
  for (int i = 1; i < index_count(); ++i) {
    if ((b->split_mask >> i) & 1) {
      EraseEntry(i, b);
      --indexes_[i]->split_entries;
    }
  }
  FreeBlock(b);
  h->other = nullptr;
}

OpResult Partition::Impl::ValidateRow(absl::string_view row) {
  size_t consumed = 0;
  if (!schema::SplitRow(*table_, layout_.all, row, new_fields_.data(), &consumed) ||
      consumed != row.size()) {
    return BadRequest("malformed row");
  }
  for (size_t c = 0; c < layout_.columns.size(); ++c) {
    if (new_fields_[c].null && !layout_.columns[c].nullable) {
      return BadRequest(absl::StrCat("Column '", layout_.columns[c].name, "' cannot be null"));
    }
  }
  new_key_.clear();
  for (uint16_t c : layout_.pk) {
    if (new_fields_[c].null) return BadRequest("primary key column is NULL");
    AppendKeyField(layout_, c, new_fields_[c].bytes, &new_key_);
  }
  if (new_key_.size() > UINT16_MAX) return BadRequest("primary key too long");
  return OpResult();
}

OpResult Partition::Impl::CheckUnique(TxnId txn, int index, const schema::Field* fields,
                                      const Row* self) {
  IndexState& ix = *indexes_[index];
  const int n = static_cast<int>(ix.info.columns.size());
  for (int j = 0; j < n; ++j) {
    const schema::Field& f = fields[ix.info.columns[j]];
    if (f.null) return OpResult();  // NULLs never collide
    probe_fields_[j] = f;
  }
  KeyProbe probe{probe_fields_.data(), n, -1};
  for (auto it = ix.ordered.lower_bound(probe); it != ix.ordered.end(); ++it) {
    if (CompareToProbe(ix.info, *it, KeyProbe{probe_fields_.data(), n, 0}) != 0) break;
    Row* e = *it;
    Row* head = e->head();
    if (head == self) continue;
    if (head->owner == txn) {
      // This transaction moved that row away from the key or deleted it.
      if (e->is_before_image() || (head->flags & kDeleted)) continue;
      return DuplicateUnique(index, fields);
    }
    if (head->owner != 0) return Locked(head->owner);
    return DuplicateUnique(index, fields);
  }
  return OpResult();
}

// An update's new row never reaches the reply, so 1062's message takes the key from here.
OpResult Partition::Impl::DuplicateUnique(int index, const schema::Field* fields) const {
  OpResult result = Duplicate(index);
  for (uint16_t c : indexes_[index]->info.columns) {
    result.key += schema::EncodeValue(layout_.columns[c], fields[c].bytes);
  }
  return result;
}

void Partition::Impl::TrackAutoIncrement(const schema::Field* fields) {
  if (auto_increment_column_ < 0) return;
  const schema::Field& f = fields[auto_increment_column_];
  const schema::ColumnDef& column = layout_.columns[auto_increment_column_];
  if (f.null || !schema::IsInteger(column.type)) return;
  uint64_t v;
  if (column.is_unsigned) {
    v = schema::FieldUint(column, f.bytes);
  } else {
    int64_t s = schema::FieldInt(column, f.bytes);
    if (s <= 0) return;
    v = static_cast<uint64_t>(s);
  }
  if (v > max_auto_increment_) max_auto_increment_ = v;
}

OpResult Partition::Impl::Insert(TxnId txn, absl::string_view row, bool replace) {
  OpResult result = ValidateRow(row);
  if (result.code != OpCode::kOk) return result;
  const TxnId t = txn == kAutocommit ? kAutoTxn : txn;
  Row* h = FindHead(new_key_);
  if (h == nullptr) {
    result = InsertNew(t, row);
  } else if (h->owner != 0 && h->owner != t) {
    return Locked(h->owner);
  } else if (h->owner == t && (h->flags & kDeleted)) {
    result = ReplaceData(t, h, row, /*undelete=*/true);
  } else if (replace) {
    result = ReplaceData(t, h, row, /*undelete=*/false);
    result.replaced = result.code == OpCode::kOk;
  } else {
    return Duplicate(0);
  }
  if (result.code == OpCode::kOk) TrackAutoIncrement(new_fields_.data());
  FinishAutocommit(t);
  return result;
}

OpResult Partition::Impl::InsertNew(TxnId txn, absl::string_view row) {
  uint64_t entries = 1;
  for (int i = 0; i < index_count(); ++i) {
    ++entries;
    if (!indexes_[i]->unique) continue;
    ++entries;
    OpResult result = CheckUnique(txn, i, new_fields_.data(), nullptr);
    if (result.code != OpCode::kOk) return result;
  }
  if (!arena_.ReserveIndexEntries(index_entries_ + entries)) return Result(OpCode::kTableFull);
  Row* h = NewBlock(new_key_.size() + row.size());
  if (h == nullptr) return Result(OpCode::kTableFull);
  h->flags = kInserted;
  h->key_size = static_cast<uint16_t>(new_key_.size());
  h->size = static_cast<uint32_t>(row.size());
  std::memcpy(h->data(), new_key_.data(), new_key_.size());
  std::memcpy(h->data() + h->key_size, row.data(), row.size());
  pk_.insert(h);
  ++index_entries_;
  for (int i = 0; i < index_count(); ++i) {
    InsertEntry(i, h);
    UniquePut(i, h);
  }
  Touch(txn, h);
  return OpResult();
}

// Gives head `h` (free, or owned by `txn`) the new full row `row` (split in new_fields_),
// keeping the committed row in a before-image and every index in step.
OpResult Partition::Impl::ReplaceData(TxnId txn, Row* h, absl::string_view row, bool undelete) {
  uint64_t changed = 0;
  for (int i = 1; i < index_count(); ++i) {
    for (uint16_t c : indexes_[i]->info.columns) {
      if (!SameField(FieldAt(layout_, h->row_data(), c), new_fields_[c])) {
        changed |= uint64_t{1} << i;
        break;
      }
    }
  }
  for (int i = 1; i < index_count(); ++i) {
    // A deleted row coming back may meet rows this transaction gave its old keys to.
    if ((((changed >> i) & 1) || undelete) && indexes_[i]->unique) {
      OpResult result = CheckUnique(txn, i, new_fields_.data(), h);
      if (result.code != OpCode::kOk) return result;
    }
  }
  // Reserve everything before the first change, so that kTableFull leaves no trace.
  const uint64_t entries = index_entries_ + 2 * static_cast<uint64_t>(std::popcount(changed));
  if (!arena_.ReserveIndexEntries(entries)) return Result(OpCode::kTableFull);
  Row* before = nullptr;
  if (!(h->flags & kInserted) && h->other == nullptr) {
    before = NewBlock(h->key_size + h->size);
    if (before == nullptr) return Result(OpCode::kTableFull);
  }
  Row* moved = nullptr;
  if (h->key_size + row.size() > h->capacity) {
    moved = NewBlock(h->key_size + row.size());
    if (moved == nullptr) {
      if (before != nullptr) FreeBlock(before);
      return Result(OpCode::kTableFull);
    }
  }
  Touch(txn, h);
  if (undelete) h->flags &= ~kDeleted;
  if (before != nullptr) {
    std::memcpy(before->data(), h->data(), h->key_size + h->size);
    before->key_size = h->key_size;
    before->size = h->size;
    before->flags = kBeforeImage;
    before->other = h;
    before->split_mask = 0;
    before->epoch = h->epoch;
    h->other = before;
  }
  Row* b = h->other;
  for (int i = 1; i < index_count(); ++i) {
    if (!((changed >> i) & 1)) continue;
    EraseEntry(i, h);
    UniqueEraseIf(i, h);
    if (b != nullptr && !((b->split_mask >> i) & 1)) {
      InsertEntry(i, b);  // the committed row keeps its position for other readers
      b->split_mask |= uint64_t{1} << i;
      ++indexes_[i]->split_entries;
    }
  }
  Row* cur = h;
  if (moved != nullptr) {
    cur = Relocate(h, moved, row, changed);
  } else {
    std::memcpy(h->data() + h->key_size, row.data(), row.size());
    h->size = static_cast<uint32_t>(row.size());
  }
  for (int i = 1; i < index_count(); ++i) {
    if (!((changed >> i) & 1)) continue;
    IndexState& ix = *indexes_[i];
    if (b != nullptr && ((b->split_mask >> i) & 1) && ix.ordered.key_comp()(b, cur) == 0) {
      EraseEntry(i, b);  // back to the committed key: one entry serves both again
      b->split_mask &= ~(uint64_t{1} << i);
      --ix.split_entries;
    }
    InsertEntry(i, cur);
    UniquePut(i, cur);
  }
  return OpResult();
}

// Moves head `h` to the larger block `to`, writing `row` there. Indexes in `changed` no longer
// hold `h`; every other one does.
Row* Partition::Impl::Relocate(Row* h, Row* to, absl::string_view row, uint64_t changed) {
  to->owner = h->owner;
  to->other = h->other;
  to->txn_slot = h->txn_slot;
  to->key_size = h->key_size;
  to->flags = h->flags;
  to->epoch = h->epoch;
  to->size = static_cast<uint32_t>(row.size());
  std::memcpy(to->data(), h->data(), h->key_size);
  std::memcpy(to->data() + to->key_size, row.data(), row.size());
  pk_.erase(h->key());
  pk_.insert(to);
  for (int i = 0; i < index_count(); ++i) {
    if ((changed >> i) & 1) continue;
    IndexState& ix = *indexes_[i];
    ix.ordered.erase(EntryOf(ix.info, h));
    ix.ordered.insert(EntryOf(ix.info, to));
    if (UniqueEraseIf(i, h)) UniquePut(i, to);
  }
  if (to->other != nullptr) to->other->other = to;
  if (to->owner != 0) txns_[to->owner][to->txn_slot] = to;
  FreeBlock(h);
  return to;
}

void Partition::Impl::DeleteRow(TxnId txn, Row* h) {
  Touch(txn, h);
  if (h->flags & kInserted) {
    // Never committed: nothing to keep for anyone.
    txns_[txn][h->txn_slot] = nullptr;
    RemoveRow(h);
    return;
  }
  h->flags |= kDeleted;
}

OpResult Partition::Impl::Modify(TxnId txn, absl::string_view key, absl::string_view filter,
                                 absl::string_view program, bool is_delete) {
  if (!filter.empty()) {
    if (absl::Status s = schema::ValidateFilter(*table_, filter); !s.ok()) {
      return BadRequest(std::string(s.message()));
    }
  }
  if (!is_delete) {
    if (absl::Status s = schema::ValidateUpdate(*table_, program); !s.ok()) {
      return BadRequest(std::string(s.message()));
    }
  }
  const TxnId t = txn == kAutocommit ? kAutoTxn : txn;
  Row* h = FindHead(key);
  if (h == nullptr) return Result(OpCode::kNotFound);
  if (h->owner != 0 && h->owner != t) return Locked(h->owner);
  if (h->flags & kDeleted) return Result(OpCode::kNotFound);
  SplitStored(layout_, h->row_data(), fields_.data());
  if (!filter.empty() && !schema::FilterPasses(*table_, filter, fields_.data())) {
    return Result(OpCode::kNotFound);
  }
  OpResult result;
  if (is_delete) {
    DeleteRow(t, h);
  } else {
    update_.Clear();
    bool changed = false;
    if (absl::Status s = schema::ApplyUpdate(*table_, program, fields_.data(), &update_, &changed);
        !s.ok()) {
      OpResult failed;
      failed.code = absl::IsOutOfRange(s) ? OpCode::kOutOfRange : OpCode::kBadRequest;
      failed.message = std::string(s.message());
      return failed;
    }
    absl::string_view row = update_.view();
    size_t consumed = 0;
    if (!schema::SplitRow(*table_, layout_.all, row, new_fields_.data(), &consumed) ||
        consumed != row.size()) {
      return BadRequest("update produced a malformed row");
    }
    for (uint16_t c : layout_.pk) {
      if (!SameField(fields_[c], new_fields_[c])) {
        return BadRequest("updating the primary key is not supported");
      }
    }
    result = ReplaceData(t, h, row, /*undelete=*/false);
    if (result.code == OpCode::kOk) TrackAutoIncrement(new_fields_.data());
    result.unchanged = result.code == OpCode::kOk && !changed;
  }
  FinishAutocommit(t);
  return result;
}

}  // namespace shoal::storage
