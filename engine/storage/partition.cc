// Partition: construction, reads, and the public entry points (see partition_impl.h for the
// version model; writes are in partition_write.cc, scans in partition_scan.cc, transaction
// ends and SetTable in partition_txn.cc).
#include "engine/storage/partition.h"

#include "common/logging.h"
#include "engine/storage/partition_impl.h"

namespace shoal::storage {

IndexState::IndexState(const Layout* layout, const schema::IndexDef& def)
    : ordered(IndexLess{&info}) {
  info.layout = layout;
  for (int c : def.columns) info.columns.push_back(static_cast<uint16_t>(c));
  info.cmp_columns = info.columns;
  info.primary = def.primary;
  info.unique = def.unique && !def.primary;
  if (!def.primary) {
    info.cmp_columns.insert(info.cmp_columns.end(), layout->pk.begin(), layout->pk.end());
  }
  info.ChoosePrefix();
  if (info.unique) {
    unique = std::make_unique<UniqueIndex>(0, UniqueHash{&info}, UniqueEq{&info});
  }
}

Partition::Impl::Impl(const schema::TableDef* table, MemoryBudget* budget)
    : table_(table), layout_(*table), arena_(budget) {
  SHOAL_CHECK(!table->indexes.empty() && table->indexes.size() <= kMaxIndexes)
      << "table " << table->name << " has " << table->indexes.size() << " indexes";
  for (const schema::IndexDef& def : table->indexes) {
    indexes_.push_back(std::make_unique<IndexState>(&layout_, def));
  }
  auto_increment_column_ = table->auto_increment_column();
  if (auto_increment_column_ < 0 && table->has_hidden_key()) {
    auto_increment_column_ = static_cast<int>(table->columns.size()) - 1;
  }
  const size_t n = table->columns.size();
  fields_.resize(n);
  new_fields_.resize(n);
  probe_fields_.resize(n * 2 + 1);
  bound_fields_.resize(n * 3 + 1);
}

Partition::Impl::~Impl() {
  for (Row* h : pk_) {
    if (h->other != nullptr) FreeBlock(h->other);
    FreeBlock(h);
  }
}

Row* Partition::Impl::HeadVersion(Row* h, TxnId txn) {
  if (h->owner == 0) return h;
  if (h->owner == txn) return (h->flags & kDeleted) ? nullptr : h;
  if (h->flags & kInserted) return nullptr;
  return h->other != nullptr ? h->other : h;
}

Row* Partition::Impl::View(Row* e, int index, TxnId txn, LockMode lock, OpResult* result) const {
  if (lock == LockMode::kNone) {
    if (e->is_before_image()) return e->other->owner == txn ? nullptr : e;
    if (e->owner == 0) return e;
    if (e->owner == txn) return (e->flags & kDeleted) ? nullptr : e;
    if (e->flags & kInserted) return nullptr;
    Row* b = e->other;
    if (b == nullptr) return e;
    return ((b->split_mask >> index) & 1) ? nullptr : b;
  }
  Row* head = e->head();
  if (head->owner != 0 && head->owner != txn) {
    *result = Locked(head->owner);
    return nullptr;
  }
  if (e != head || (head->flags & kDeleted)) return nullptr;
  return head;
}

void Partition::Impl::Touch(TxnId txn, Row* h) {
  if (h->owner == txn) return;
  SHOAL_DCHECK(h->owner == 0);
  h->owner = txn;
  auto [it, inserted] = txns_.try_emplace(txn);
  if (inserted && !spare_lists_.empty()) {
    it->second = std::move(spare_lists_.back());
    spare_lists_.pop_back();
  }
  h->txn_slot = static_cast<uint32_t>(it->second.size());
  it->second.push_back(h);
}

bool Partition::Impl::ColumnsValid(absl::Span<const uint16_t> columns) const {
  for (uint16_t c : columns) {
    if (c >= layout_.columns.size()) return false;
  }
  return true;
}

void Partition::Impl::Output(const Row* v, absl::Span<const uint16_t> columns,
                             schema::RowWriter* out) {
  out->BeginRow(static_cast<int>(columns.size()));
  const char* data = v->row_data();
  const bool split = columns.size() > 2;
  if (split) SplitStored(layout_, data, fields_.data());
  for (uint16_t c : columns) {
    schema::Field f = split ? fields_[c] : FieldAt(layout_, data, c);
    if (f.null) {
      out->Null();
    } else {
      out->Raw(layout_.columns[c], f);
    }
  }
}

Row* Partition::Impl::FindFoldedHead(absl::string_view key) {
  absl::string_view form;
  if (!KeyFormOf(layout_, layout_.pk, key, &key_form_, &form)) return nullptr;
  auto it = pk_.find(form);
  return it == pk_.end() ? nullptr : *it;
}

OpResult Partition::Impl::Read(TxnId txn, absl::string_view key, absl::Span<const uint16_t> columns,
                               LockMode lock, schema::RowWriter* out) {
  if (!ColumnsValid(columns)) return BadRequest("column out of range");
  Row* h = FindHead(key);
  if (h == nullptr) return Result(OpCode::kNotFound);
  Row* v;
  if (lock == LockMode::kNone) {
    v = HeadVersion(h, txn);
  } else {
    if (h->owner != 0 && h->owner != txn) return Locked(h->owner);
    if (txn != kAutocommit) Touch(txn, h);
    v = (h->flags & kDeleted) ? nullptr : h;
  }
  if (v == nullptr) return Result(OpCode::kNotFound);
  Output(v, columns, out);
  return OpResult();
}

OpResult Partition::Impl::ReadUnique(TxnId txn, int index, absl::string_view key,
                                     absl::Span<const uint16_t> columns, LockMode lock,
                                     schema::RowWriter* out) {
  if (index <= 0 || index >= index_count() || !indexes_[index]->info.unique) {
    return BadRequest("not a unique index");
  }
  if (!ColumnsValid(columns)) return BadRequest("column out of range");
  IndexState& ix = *indexes_[index];
  int n = 0;
  if (!ParseKeyPrefix(layout_, ix.info.columns, key, probe_fields_.data(), &n) ||
      n != static_cast<int>(ix.info.columns.size())) {
    return BadRequest("malformed unique key");
  }
  // Fast path: the hash hint names an unlocked head (committed, so the only match).
  absl::string_view form;
  if (!KeyFormOf(layout_, ix.info.columns, key, &key_form_, &form)) {
    return BadRequest("malformed unique key");
  }
  auto hint = ix.unique->find(form);
  if (hint != ix.unique->end() && (*hint)->owner == 0) {
    Row* h = *hint;
    if (lock != LockMode::kNone && txn != kAutocommit) Touch(txn, h);
    Output(h, columns, out);
    return OpResult();
  }
  if (hint == ix.unique->end() && txns_.empty()) return Result(OpCode::kNotFound);
  // Slow path: every version with this key, in the ordered index.
  KeyProbe probe{probe_fields_.data(), n, -1};
  for (auto it = ix.ordered.lower_bound(probe); it != ix.ordered.end(); ++it) {
    if (CompareToProbe(ix.info, *it, KeyProbe{probe_fields_.data(), n, 0}) != 0) break;
    OpResult result;
    Row* v = View(*it, index, txn, lock, &result);
    if (result.code == OpCode::kLocked) return result;
    if (v == nullptr) continue;
    if (lock != LockMode::kNone && txn != kAutocommit) Touch(txn, v);
    Output(v, columns, out);
    return OpResult();
  }
  return Result(OpCode::kNotFound);
}

// Public entry points.

Partition::Partition(const schema::TableDef* table, MemoryBudget* budget)
    : impl_(std::make_unique<Impl>(table, budget)) {}
Partition::~Partition() = default;

OpResult Partition::SetTable(const schema::TableDef* table) { return impl_->SetTable(table); }
void Partition::SetObserver(CommitObserver* observer, uint32_t index) {
  impl_->SetObserver(observer, index);
}
OpResult Partition::Read(TxnId txn, absl::string_view key, absl::Span<const uint16_t> columns,
                         LockMode lock, schema::RowWriter* out) {
  return impl_->Read(txn, key, columns, lock, out);
}
OpResult Partition::ReadUnique(TxnId txn, int index, absl::string_view key,
                               absl::Span<const uint16_t> columns, LockMode lock,
                               schema::RowWriter* out) {
  return impl_->ReadUnique(txn, index, key, columns, lock, out);
}
OpResult Partition::Insert(TxnId txn, absl::string_view row) {
  return impl_->Insert(txn, row, /*replace=*/false);
}
OpResult Partition::Write(TxnId txn, absl::string_view row) {
  return impl_->Insert(txn, row, /*replace=*/true);
}
OpResult Partition::Update(TxnId txn, absl::string_view key, absl::string_view program) {
  return impl_->Modify(txn, key, {}, program, /*is_delete=*/false);
}
OpResult Partition::Delete(TxnId txn, absl::string_view key) {
  return impl_->Modify(txn, key, {}, {}, /*is_delete=*/true);
}
OpResult Partition::UpdateIf(TxnId txn, absl::string_view key, absl::string_view filter,
                             absl::string_view program) {
  return impl_->Modify(txn, key, filter, program, /*is_delete=*/false);
}
OpResult Partition::DeleteIf(TxnId txn, absl::string_view key, absl::string_view filter) {
  return impl_->Modify(txn, key, filter, {}, /*is_delete=*/true);
}
ScanBatch Partition::Scan(const ScanSpec& spec, schema::RowWriter* out) {
  return impl_->Scan(spec, out);
}
void Partition::Commit(TxnId txn) {
  if (txn != kAutocommit) impl_->Commit(txn);
}
void Partition::Abort(TxnId txn) {
  if (txn != kAutocommit) impl_->Abort(txn);
}
bool Partition::HasTransaction(TxnId txn) const { return impl_->HasTransaction(txn); }
uint64_t Partition::row_count() const { return impl_->row_count(); }
uint64_t Partition::memory_bytes() const { return impl_->memory_bytes(); }
uint64_t Partition::max_auto_increment() const { return impl_->max_auto_increment(); }

}  // namespace shoal::storage
