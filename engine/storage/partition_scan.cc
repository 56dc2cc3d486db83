// Partition: ordered-index range scans.
//
// Resume token (ScanBatch::resume_after), opaque to clients: the packed row (row.h, with its
// null bitmap) over the index's comparison columns of the last entry examined — the index's
// columns, then the primary key's for a secondary index (just the primary key's for index 0).
// A token names a position, not a row, so it stays valid when that row goes away.
#include "engine/schema/program.h"
#include "engine/storage/partition_impl.h"

namespace shoal::storage {

void Partition::Impl::WriteToken(const IndexInfo& info, const Row* e, std::string* out) {
  token_.Clear();
  token_.BeginRow(static_cast<int>(info.cmp_columns.size()));
  for (uint16_t c : info.cmp_columns) {
    schema::Field f = FieldAt(layout_, e->row_data(), c);
    if (f.null) {
      token_.Null();
    } else {
      token_.Raw(layout_.columns[c], f);
    }
  }
  out->assign(token_.view().data(), token_.view().size());
}

ScanBatch Partition::Impl::Scan(const ScanSpec& spec, schema::RowWriter* out) {
  ScanBatch batch;
  if (spec.index < 0 || spec.index >= index_count()) {
    batch.result = BadRequest("no such index");
    return batch;
  }
  if (!ColumnsValid(spec.columns)) {
    batch.result = BadRequest("column out of range");
    return batch;
  }
  if (!spec.filter.empty()) {
    if (absl::Status s = schema::ValidateFilter(*table_, spec.filter); !s.ok()) {
      batch.result = BadRequest(std::string(s.message()));
      return batch;
    }
  }
  IndexState& ix = *indexes_[spec.index];
  const IndexInfo& info = ix.info;
  const int ncmp = static_cast<int>(info.cmp_columns.size());
  schema::Field* lower = bound_fields_.data();
  schema::Field* upper = bound_fields_.data() + ncmp;
  int nl = 0;
  int nu = 0;
  if (!ParseKeyPrefix(layout_, info.columns, spec.lower, lower, &nl) ||
      !ParseKeyPrefix(layout_, info.columns, spec.upper, upper, &nu)) {
    batch.result = BadRequest("malformed scan bound");
    return batch;
  }
  schema::Field* resume = probe_fields_.data();
  const bool resuming = !spec.resume_after.empty();
  if (resuming) {
    size_t consumed = 0;
    if (!schema::SplitRow(*table_, info.cmp_columns, spec.resume_after, resume, &consumed) ||
        consumed != spec.resume_after.size()) {
      batch.result = BadRequest("malformed resume token");
      return batch;
    }
  }

  OrderedIndex::iterator it;
  if (!spec.descending) {
    it = resuming ? ix.ordered.upper_bound(KeyProbe{resume, ncmp, 0})
         : nl > 0 ? ix.ordered.lower_bound(KeyProbe{lower, nl, spec.lower_exclusive ? 1 : -1})
                  : ix.ordered.begin();
  } else {
    it = resuming ? ix.ordered.lower_bound(KeyProbe{resume, ncmp, 0})
         : nu > 0 ? ix.ordered.lower_bound(KeyProbe{upper, nu, spec.upper_exclusive ? -1 : 1})
                  : ix.ordered.end();
  }
  const bool filtered = !spec.filter.empty();
  const bool locking = spec.lock != LockMode::kNone;
  const Row* last = nullptr;  // last entry examined: where the next batch resumes
  uint32_t examined = 0;
  bool more = false;
  while (true) {
    if (!spec.descending ? it == ix.ordered.end() : it == ix.ordered.begin()) break;
    if ((spec.max_rows != 0 && batch.rows >= spec.max_rows) ||
        (spec.max_examined != 0 && examined >= spec.max_examined)) {
      more = true;
      break;
    }
    Row* e;
    if (!spec.descending) {
      e = *it;
      ++it;
    } else {
      --it;
      e = *it;
    }
    // Bounds, in both directions: a row past the far bound ends the scan; a row whose NULL
    // makes a bound comparison unknown is skipped (SQL never matches it).
    bool skip = false;
    bool null_hit = false;
    if (nu > 0) {
      int c = CompareToBound(info, e, upper, nu, &null_hit);
      if (null_hit) {
        skip = true;
      } else if (c > 0 || (c == 0 && spec.upper_exclusive)) {
        if (!spec.descending) break;
        skip = true;
      }
    }
    if (nl > 0 && !skip) {
      int c = CompareToBound(info, e, lower, nl, &null_hit);
      if (null_hit) {
        skip = true;
      } else if (c < 0 || (c == 0 && spec.lower_exclusive)) {
        if (spec.descending) break;
        skip = true;
      }
    }
    OpResult locked;
    Row* v = skip ? nullptr : View(e, spec.index, spec.txn, spec.lock, &locked);
    if (locked.code == OpCode::kLocked && !spec.skip_locked) {
      batch.result = locked;
      more = true;
      break;
    }
    ++examined;
    last = e;
    if (v == nullptr) continue;
    if (filtered) {
      SplitStored(layout_, v->row_data(), fields_.data());
      if (!schema::FilterPasses(*table_, spec.filter, fields_.data())) continue;
    }
    if (locking && spec.txn != kAutocommit) Touch(spec.txn, v);
    Output(v, spec.columns, out);
    ++batch.rows;
  }
  batch.done = !more;
  batch.examined = examined;
  if (more) {
    if (last != nullptr) {
      WriteToken(info, last, &batch.resume_after);
    } else {
      batch.resume_after.assign(spec.resume_after.data(), spec.resume_after.size());
    }
  }
  return batch;
}

}  // namespace shoal::storage
