#include "engine/node/ldm/txn_table.h"

#include <algorithm>

#include "absl/algorithm/container.h"

namespace shoal::node {

bool TxnRecord::Holds(const Touched& t) const { return absl::c_linear_search(touched, t); }

bool TxnRecord::HoldsPartition(uint32_t table_id, uint32_t index) const {
  return absl::c_any_of(
      touched, [&](const Touched& t) { return t.table_id == table_id && t.index == index; });
}

void TxnRecord::Add(const Touched& t) {
  if (!Holds(t)) touched.push_back(t);
}

void TxnTable::Touch(storage::TxnId txn, uint32_t conn, const Touched& touched) {
  TxnRecord& record = primary_[txn];
  record.conn = conn;
  record.Add(touched);
}

TxnRecord* TxnTable::Primary(storage::TxnId txn) {
  auto it = primary_.find(txn);
  return it == primary_.end() ? nullptr : &it->second;
}

TxnRecord* TxnTable::Replica(storage::TxnId txn) {
  auto it = replica_.find(txn);
  return it == replica_.end() ? nullptr : &it->second;
}

void TxnTable::Adopt(storage::TxnId txn) {
  auto replica = replica_.find(txn);
  if (replica == replica_.end()) return;
  TxnRecord& adopted = primary_[txn];
  if (replica->second.prepared()) adopted.Prepare(replica->second.tc);
  adopted.wrote_logged |= replica->second.wrote_logged;
  for (const Touched& t : replica->second.touched) adopted.Add(t);
  replica_.erase(replica);
}

namespace {

std::vector<storage::TxnId> UnpreparedOf(const TxnTable::Records& records, uint32_t conn) {
  std::vector<storage::TxnId> txns;
  for (const auto& [txn, record] : records) {
    if (record.conn == conn && !record.prepared()) txns.push_back(txn);
  }
  return txns;
}

}  // namespace

std::vector<storage::TxnId> TxnTable::UnpreparedPrimariesOf(uint32_t conn) const {
  return UnpreparedOf(primary_, conn);
}

std::vector<storage::TxnId> TxnTable::UnpreparedReplicasOf(uint32_t conn) const {
  return UnpreparedOf(replica_, conn);
}

const std::string* TxnTable::DoomedWhy(storage::TxnId txn) const {
  auto it = doomed_.find(txn);
  return it == doomed_.end() ? nullptr : &it->second;
}

void TxnTable::ForgetTable(uint32_t table_id) {
  auto forget = [table_id](Records& records) {
    for (auto& [txn, record] : records) {
      std::erase_if(record.touched,
                    [table_id](const Touched& t) { return t.table_id == table_id; });
    }
  };
  forget(primary_);
  forget(replica_);
}

}  // namespace shoal::node
