#include "engine/node/ldm/checkpointer.h"

#include <algorithm>
#include <numeric>

#include "common/logging.h"

namespace shoal::node {
namespace {

// A chunk's rows are buffered whole before they go to the I/O thread: keep it to about a scan
// batch's bytes even for wide rows.
constexpr size_t kChunkBytes = 256 << 10;

size_t MaxRowBytes(const schema::TableDef& table) {
  size_t bytes = (table.columns.size() + 7) / 8;
  for (const schema::ColumnDef& column : table.columns) bytes += 2 + schema::MaxValueBytes(column);
  return bytes;
}

}  // namespace

void CheckpointPart::Fail(const absl::Status& status) {
  std::lock_guard<std::mutex> lock(error_mu_);
  if (failed_.load(std::memory_order_relaxed)) return;
  error_ = status;
  failed_.store(true, std::memory_order_release);
}

absl::Status CheckpointPart::error() const {
  std::lock_guard<std::mutex> lock(error_mu_);
  return error_;
}

void Checkpointer::Start(std::shared_ptr<CheckpointPart> part, absl::Time now) {
  if (part_ != nullptr) {
    SHOAL_LOG(kWarning) << "LDM " << context_->placement.ldm_index << ": checkpoint " << part_->id
                        << " dropped for checkpoint " << part->id;
    Drop();
  }
  part_ = std::move(part);
  todo_.clear();
  resume_.clear();
  for (const auto& [id, table] : tables_->all()) {
    if (!schema::Logged(*table.def)) continue;  // restored empty: nothing to keep
    for (uint32_t p = 0; p < table.partitions.size(); ++p) {
      if (table.partitions[p] != nullptr) todo_.emplace_back(id, p);
    }
  }
  // Table by table in id order: a restore reads the file back in the same order, which keeps
  // its inserts to one partition together.
  std::sort(todo_.begin(), todo_.end());
  started_ = now;
  next_step_ = now;
}

bool Checkpointer::Step(absl::Time now) {
  if (part_ == nullptr) return false;
  if (part_->cancelled.load(std::memory_order_acquire)) {
    Drop();
    return false;
  }
  if (now < next_step_) return false;
  uint32_t added = 0;
  while (!todo_.empty() && added < part_->rows_per_step) {
    auto [table_id, p] = todo_.front();
    auto [rows, done] = ScanChunk(table_id, p, static_cast<uint32_t>(part_->rows_per_step - added));
    added += rows;
    if (!done && rows == 0) break;  // cannot happen without a filter; never spin on it
    if (done) {
      todo_.pop_front();
      resume_.clear();
    }
  }
  part_->rows.fetch_add(added, std::memory_order_relaxed);
  const size_t bytes = HandOver();
  if (todo_.empty()) {
    SHOAL_LOG(kInfo) << "LDM " << context_->placement.ldm_index << ": checkpoint " << part_->id
                     << " scanned, " << part_->rows.load() << " rows, "
                     << part_->bytes_handed.load() << " bytes in "
                     << absl::FormatDuration(now - started_);
    part_->scanned.store(true, std::memory_order_release);
    part_.reset();
    return true;
  }
  // The pace: the next chunk when this one's bytes have had their time at the write rate.
  if (part_->bytes_per_second != 0) {
    next_step_ = now + absl::Seconds(static_cast<double>(bytes) /
                                     static_cast<double>(part_->bytes_per_second));
  }
  return true;
}

std::pair<uint32_t, bool> Checkpointer::ScanChunk(uint32_t table_id, uint32_t p,
                                                  uint32_t max_rows) {
  storage::Partition* partition = tables_->Find(table_id, p);
  const TableState* table = tables_->Table(table_id);
  if (partition == nullptr || table == nullptr) return {0, true};  // dropped meanwhile
  const schema::TableDef& def = *table->def;
  if (columns_.size() != def.columns.size()) {
    columns_.resize(def.columns.size());
    std::iota(columns_.begin(), columns_.end(), uint16_t{0});
    fields_.resize(def.columns.size());
  }
  storage::ScanSpec spec;
  spec.index = 0;
  spec.resume_after = resume_;
  spec.columns = columns_;
  spec.max_rows = std::min<uint32_t>(
      max_rows, static_cast<uint32_t>(std::max<size_t>(1, kChunkBytes / MaxRowBytes(def))));
  spec.max_examined = spec.max_rows;
  spec.lock = storage::LockMode::kNone;  // the last committed image; never waits
  out_.Clear();
  storage::ScanBatch batch = partition->Scan(spec, &out_);
  if (batch.result.code != storage::OpCode::kOk) {
    // Only a malformed token could do this, and the token is the partition's own.
    SHOAL_LOG(kError) << "LDM " << context_->placement.ldm_index << ": checkpoint scan of table "
                      << table_id << " partition " << p << ": " << batch.result.message;
    return {0, true};
  }
  absl::string_view rows = out_.view();
  for (uint32_t i = 0; i < batch.rows; ++i) {
    size_t consumed = 0;
    SHOAL_CHECK(schema::SplitRow(def, columns_, rows, fields_.data(), &consumed))
        << "a partition's own row does not parse";
    // No key: a restore writes the row, whose key it holds.
    part_->file->AddRow(table_id, p, {}, rows.substr(0, consumed));
    rows.remove_prefix(consumed);
  }
  if (!batch.done) resume_ = std::move(batch.resume_after);
  return {batch.rows, batch.done};
}

void Checkpointer::Drop() {
  todo_.clear();
  resume_.clear();
  redo::RedoWriter* io = part_->io;
  // The last owner of an unfinished file removes it: let that be the I/O thread.
  if (io != nullptr) io->Post([part = std::move(part_)] {});
  part_.reset();
}

size_t Checkpointer::HandOver() {
  std::string bytes = part_->file->TakeBuffered();
  const size_t size = bytes.size();
  if (size == 0) return 0;
  part_->bytes_handed.fetch_add(size, std::memory_order_relaxed);
  auto write = [part = part_, bytes = std::move(bytes)] {
    if (part->failed()) return;  // the checkpoint is lost already; save the disk the bytes
    if (absl::Status written = part->file->Write(bytes); !written.ok()) part->Fail(written);
  };
  if (part_->io == nullptr) {
    write();
  } else {
    part_->io->Post(std::move(write));
  }
  return size;
}

}  // namespace shoal::node
