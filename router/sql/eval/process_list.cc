#include "router/sql/eval/process_list.h"

#include <utility>

namespace shoal::sql {

ProcessList::Entry::Entry(ProcessList* list, uint32_t id, std::string host,
                          absl::AnyInvocable<void()> close)
    : list_(list), close_(std::move(close)) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    row_.id = id;
    row_.host = std::move(host);
    row_.command = "Connect";
    row_.since = absl::Now();
  }
  if (list_ == nullptr) return;
  std::lock_guard<std::mutex> lock(list_->mu_);
  list_->entries_[id] = this;
}

ProcessList::Entry::~Entry() {
  if (list_ == nullptr) return;
  std::lock_guard<std::mutex> lock(list_->mu_);
  list_->entries_.erase(row_.id);  // the id never changes: no need for mu_
}

void ProcessList::Entry::SetUser(absl::string_view user) {
  std::lock_guard<std::mutex> lock(mu_);
  row_.user = std::string(user);
}

void ProcessList::Entry::Begin(absl::string_view command, std::optional<absl::string_view> info,
                               absl::Time now) {
  interrupted_.store(false, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mu_);
  busy_ = true;
  row_.command = std::string(command);
  row_.since = now;
  row_.state = "executing";
  if (info.has_value()) {
    // Assigned into the string kept from the last statement: no allocation once it is as
    // long as the statements this session sends.
    if (!row_.info.has_value()) row_.info.emplace();
    row_.info->assign(info->data(), info->size());
  } else {
    row_.info.reset();
  }
}

void ProcessList::Entry::End(absl::Time now, absl::string_view db) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!busy_) return;
  busy_ = false;
  if (db.empty()) {
    row_.db.reset();
  } else if (!row_.db.has_value() || *row_.db != db) {
    row_.db = std::string(db);
  }
  row_.command = "Sleep";
  row_.since = now;
  row_.state.clear();
  if (row_.info.has_value()) row_.info->clear();
}

void ProcessList::Entry::SetState(absl::string_view state) {
  std::lock_guard<std::mutex> lock(mu_);
  row_.state = std::string(state);
}

std::vector<ProcessList::Row> ProcessList::Snapshot() const {
  std::vector<Row> rows;
  std::lock_guard<std::mutex> lock(mu_);
  rows.reserve(entries_.size());
  for (const auto& [id, entry] : entries_) {
    std::lock_guard<std::mutex> entry_lock(entry->mu_);
    Row& row = rows.emplace_back(entry->row_);
    // An idle session's kept statement buffer is not a statement.
    if (!entry->busy_) row.info.reset();
  }
  return rows;
}

bool ProcessList::Kill(uint32_t id, bool connection) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return false;
  Entry* entry = it->second;
  entry->interrupted_.store(true, std::memory_order_relaxed);
  if (connection && entry->close_) entry->close_();
  return true;
}

}  // namespace shoal::sql
