// Scans: one scan operation per partition, sent in parallel to each partition's primary, each
// continued batch by batch with the resume token the data node returns; ordered scans merge
// the partitions' rows by the index's columns.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/api/client.h"
#include "engine/api/client_state.h"
#include "engine/schema/row.h"
#include "engine/wire/errors.h"

namespace shoal::api {
namespace {

// MySQL's ER_QUERY_INTERRUPTED, what a receiver's Interrupted() ends its scan with.
constexpr uint16_t kErQueryInterrupted = 1317;

// Ordered scans ask for small batches: the merge can only run ahead as far as the slowest
// partition, and memory is per partition.
constexpr uint32_t kOrderedBatchRows = 256;

}  // namespace

void Client::Scan(ScanRequest request, ScanReceiver* receiver) {
  RefreshTopology();
  if (request.txn != nullptr) {
    if (std::string why = LostHolds(*request.txn); !why.empty()) {
      receiver->Done(wire::kErTemporary, why);
      return;
    }
  }
  auto scan = std::make_unique<ScanState>();
  scan->request = std::move(request);
  scan->receiver = receiver;
  const schema::TableDef& table = *scan->request.table;
  if (scan->request.index < 0 || static_cast<size_t>(scan->request.index) >= table.indexes.size()) {
    receiver->Done(1176, "Key does not exist in table");
    return;
  }
  if (scan->request.ordered) {
    for (int column : table.indexes[scan->request.index].columns) {
      auto it = absl::c_find(scan->request.columns, column);
      if (it == scan->request.columns.end()) {
        receiver->Done(wire::kErInternal,
                       "Internal error: an ordered scan must read the index's columns");
        return;
      }
      scan->key_positions.push_back(static_cast<int>(it - scan->request.columns.begin()));
    }
  }
  if (scan->request.ranges.size() > kMaxScanRanges) {
    receiver->Done(wire::kErInternal, "Internal error: too many ranges in one scan");
    return;
  }
  for (const ScanRequest::Range& range : scan->request.ranges) {
    if (range.lower.size() > UINT16_MAX || range.upper.size() > UINT16_MAX) {
      receiver->Done(wire::kErInternal, "Internal error: a scan bound is too long");
      return;
    }
    wire::AppendScanRange(range.lower, range.upper, &scan->range_list);
  }
  if (scan->range_list.size() > kMaxScanRangeBytes + 4 * kMaxScanRanges) {
    receiver->Done(wire::kErInternal, "Internal error: a scan's ranges are too long");
    return;
  }
  scan->a.resize(scan->request.columns.size());
  scan->b.resize(scan->request.columns.size());
  scan->parts.resize(table.partitions);
  for (uint32_t p = 0; p < table.partitions; ++p) scan->parts[p].partition = p;
  ScanState* raw = scan.get();
  scans_.push_back(std::move(scan));
  for (uint32_t p = 0; p < table.partitions && !raw->finished; ++p) {
    SendScanBatch(raw, static_cast<int>(p));
  }
}

void Client::ResumeScan(ScanReceiver* receiver) {
  for (const std::unique_ptr<ScanState>& scan : scans_) {
    if (scan->receiver != receiver || scan->finished) continue;
    for (size_t i = 0; i < scan->parts.size(); ++i) {
      if (!scan->parts[i].held) continue;
      scan->parts[i].held = false;
      SendScanBatch(scan.get(), static_cast<int>(i));
    }
  }
}

void Client::SendScanBatch(ScanState* scan, int slot) {
  ScanState::Part& part = scan->parts[slot];
  const ScanRequest& r = scan->request;
  const schema::TableDef& table = *r.table;
  int node = topology_ == nullptr ? -1 : topology_->PrimaryOf(part.partition);
  wire::Scan op;
  Address(table, wire::OpType::kScan, part.partition, node, r.txn, Locks(r.lock), &op);
  op.lock_exclusive = Locks(r.lock);
  op.lock_wait = LockWaitOf(r.lock);
  op.index = static_cast<uint16_t>(r.index);
  wire::ScanParams& params = op.params;
  params.flags = (r.lower_exclusive ? wire::kLowerExclusive : 0) |
                 (r.upper_exclusive ? wire::kUpperExclusive : 0) |
                 (r.descending ? wire::kDescending : 0) | (r.ranges.empty() ? 0 : wire::kRangeList);
  if (r.ordered) params.max_rows = kOrderedBatchRows;
  if (r.limit > 0) {
    uint64_t left = r.limit - std::min(r.limit, scan->delivered);
    params.max_rows = static_cast<uint32_t>(
        std::min<uint64_t>(std::max<uint64_t>(left, 1), params.max_rows ? params.max_rows : left));
  }
  std::string columns = wire::EncodeColumns(r.columns);
  op.lower = r.ranges.empty() ? absl::string_view(r.lower) : scan->range_list;
  op.upper = r.ranges.empty() ? absl::string_view(r.upper) : absl::string_view();
  op.resume = part.resume;
  op.filter = r.filter;
  op.columns = columns;
  part.waiting = true;
  ++scan->outstanding;
  Pending pending;
  pending.kind = Pending::Kind::kScan;
  pending.scan = scan;
  pending.slot = slot;
  Queue(node, op, pending);
}

void Client::OnScanBatch(ScanState* scan, int slot, const wire::Result& result) {
  ScanState::Part& part = scan->parts[slot];
  part.waiting = false;
  --scan->outstanding;
  if (!scan->finished) {
    if (result.code != wire::kResultOk || result.section_count != 3) {
      absl::string_view message = result.section_count > 0 ? result.sections[0] : "";
      FinishScan(scan, result.code == wire::kResultOk ? wire::kErInternal : result.code, message);
    } else {
      const ScanRequest& r = scan->request;
      absl::string_view rows = result.sections[0];
      // By count: a scan reading no columns (counting rows) has rows of zero bytes.
      uint32_t count = result.sections[1].size() == 4 ? wire::GetU32(result.sections[1].data()) : 0;
      size_t consumed = 0;
      for (uint32_t i = 0; i < count && !scan->finished; ++i) {
        if (!schema::SplitRow(*r.table, r.columns, rows, scan->a.data(), &consumed)) {
          FinishScan(scan, wire::kErInternal, "Internal error: malformed scan rows");
          break;
        }
        if (r.ordered) {
          part.rows.emplace_back(rows.substr(0, consumed));
        } else {
          scan->receiver->Row(rows.substr(0, consumed));
          if (++scan->delivered == r.limit) FinishScan(scan, 0, "");
        }
        rows.remove_prefix(consumed);
      }
      if (!scan->finished && !rows.empty()) {
        FinishScan(scan, wire::kErInternal, "Internal error: malformed scan rows");
      }
      part.more = (result.flags & wire::kMoreRows) != 0;
      part.resume = std::string(result.sections[2]);
      if (!scan->finished && part.more && scan->receiver->Interrupted()) {
        FinishScan(scan, kErQueryInterrupted, "Query execution was interrupted");
      }
      if (!scan->finished) {
        if (r.ordered) {
          DeliverScanRows(scan);
        } else if (part.more) {
          if (scan->receiver->Paused()) {
            part.held = true;
          } else {
            SendScanBatch(scan, slot);
          }
        }
      }
      if (!scan->finished && scan->outstanding == 0 &&
          absl::c_all_of(scan->parts,
                         [](const ScanState::Part& p) { return !p.more && p.rows.empty(); })) {
        FinishScan(scan, 0, "");
      }
    }
  }
  // A finished scan is freed by Poll, not here: callers up the stack may still hold it.
}

void Client::DeliverScanRows(ScanState* scan) {
  const ScanRequest& r = scan->request;
  const schema::TableDef& table = *r.table;
  const schema::IndexDef& index = table.indexes[r.index];
  while (!scan->finished) {
    int best = -1;
    for (size_t i = 0; i < scan->parts.size(); ++i) {
      ScanState::Part& part = scan->parts[i];
      if (part.rows.empty()) {
        if (!part.more) continue;
        if (!part.waiting) SendScanBatch(scan, static_cast<int>(i));
        return;  // this partition may still hold the next row in order
      }
      if (best < 0) {
        best = static_cast<int>(i);
        continue;
      }
      size_t consumed;
      schema::SplitRow(table, r.columns, part.rows.front(), scan->a.data(), &consumed);
      schema::SplitRow(table, r.columns, scan->parts[best].rows.front(), scan->b.data(), &consumed);
      int order = 0;
      for (size_t k = 0; k < index.columns.size() && order == 0; ++k) {
        const schema::Field& x = scan->a[scan->key_positions[k]];
        const schema::Field& y = scan->b[scan->key_positions[k]];
        if (x.null || y.null) {
          order = (x.null ? 0 : 1) - (y.null ? 0 : 1);  // NULL first, as MySQL orders
        } else {
          order = schema::CompareField(table.columns[index.columns[k]], x.bytes, y.bytes);
        }
      }
      if (r.descending ? order > 0 : order < 0) best = static_cast<int>(i);
    }
    if (best < 0) return;  // every partition is exhausted
    std::string row = std::move(scan->parts[best].rows.front());
    scan->parts[best].rows.pop_front();
    scan->receiver->Row(row);
    if (++scan->delivered == r.limit) FinishScan(scan, 0, "");
  }
}

void Client::FinishScan(ScanState* scan, uint16_t code, absl::string_view message) {
  if (scan->finished) return;
  scan->finished = true;
  for (ScanState::Part& part : scan->parts) part.rows.clear();
  scan->receiver->Done(code, message);
}

}  // namespace shoal::api
