#include "engine/api/sync_client.h"

#include <optional>

#include "absl/strings/str_cat.h"

namespace shoal::api {

class SyncClient::Recorder : public Completion {
 public:
  explicit Recorder(SyncClient* owner) : owner_(owner) {}
  void Done(const Outcome& outcome) override {
    owner_->last_.code = outcome.code;
    owner_->last_.row = std::string(outcome.row);
    owner_->last_.message = std::string(outcome.message);
    owner_->done_ = true;
  }

 private:
  SyncClient* owner_;
};

SyncOutcome SyncClient::Wait() {
  client_.Send();
  while (!done_) client_.Poll(absl::Seconds(1));
  done_ = false;
  return std::move(last_);
}

SyncOutcome SyncClient::Read(const schema::TableDef& table, absl::string_view key,
                             absl::Span<const uint16_t> columns, Transaction* txn, Lock lock) {
  Recorder done(this);
  client_.Read(table, key, columns, &done, txn, lock);
  return Wait();
}

SyncOutcome SyncClient::ReadUnique(const schema::TableDef& table, int index, absl::string_view key,
                                   absl::Span<const uint16_t> columns, Transaction* txn,
                                   Lock lock) {
  Recorder done(this);
  client_.ReadUnique(table, index, key, columns, &done, txn, lock);
  return Wait();
}

SyncOutcome SyncClient::Insert(const schema::TableDef& table, absl::string_view row,
                               Transaction* txn) {
  Recorder done(this);
  client_.Insert(table, row, &done, txn);
  return Wait();
}

SyncOutcome SyncClient::Write(const schema::TableDef& table, absl::string_view row,
                              Transaction* txn) {
  Recorder done(this);
  client_.Write(table, row, &done, txn);
  return Wait();
}

SyncOutcome SyncClient::Update(const schema::TableDef& table, absl::string_view key,
                               absl::string_view program, Transaction* txn) {
  Recorder done(this);
  client_.Update(table, key, program, &done, txn);
  return Wait();
}

SyncOutcome SyncClient::Delete(const schema::TableDef& table, absl::string_view key,
                               Transaction* txn) {
  Recorder done(this);
  client_.Delete(table, key, &done, txn);
  return Wait();
}

SyncOutcome SyncClient::Commit(Transaction* txn) {
  Recorder done(this);
  client_.Commit(txn, &done);
  return Wait();
}

SyncOutcome SyncClient::Rollback(Transaction* txn) {
  Recorder done(this);
  client_.Rollback(txn, &done);
  return Wait();
}

absl::StatusOr<std::vector<std::string>> SyncClient::Scan(ScanRequest request) {
  class Collector : public ScanReceiver {
   public:
    void Row(absl::string_view row) override { rows.emplace_back(row); }
    void Done(uint16_t c, absl::string_view m) override {
      code = c;
      message = std::string(m);
      done = true;
    }
    std::vector<std::string> rows;
    uint16_t code = 0;
    std::string message;
    bool done = false;
  } collector;
  client_.Scan(std::move(request), &collector);
  client_.Send();
  while (!collector.done) client_.Poll(absl::Seconds(1));
  if (collector.code != 0) {
    return absl::AbortedError(absl::StrCat(collector.code, ": ", collector.message));
  }
  return std::move(collector.rows);
}

absl::StatusOr<wire::DictConf> SyncClient::Dictionary(wire::DictReq request) {
  std::optional<absl::StatusOr<wire::DictConf>> answer;
  client_.Dictionary(std::move(request),
                     [&answer](absl::StatusOr<wire::DictConf> conf) { answer = std::move(conf); });
  client_.Send();
  while (!answer.has_value()) client_.Poll(absl::Seconds(1));
  return *std::move(answer);
}

absl::StatusOr<TablePtr> SyncClient::Table(absl::string_view db, absl::string_view name) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::shared_ptr<const api::Dictionary> dictionary = client_.dictionary();
    if (dictionary != nullptr && dictionary->version >= client_.seen_dictionary_version()) {
      if (TablePtr table = dictionary->Find(db, name); table != nullptr) return table;
      if (attempt == 1) break;
    }
    wire::DictReq refresh;
    refresh.mutable_get_dictionary();
    if (absl::StatusOr<wire::DictConf> conf = Dictionary(std::move(refresh)); !conf.ok()) {
      return conf.status();
    }
  }
  return absl::NotFoundError(absl::StrCat("Table '", db, ".", name, "' doesn't exist"));
}

}  // namespace shoal::api
