#include "tests/fault/workload.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/api/client.h"
#include "engine/schema/program.h"
#include "engine/schema/row.h"
#include "engine/wire/errors.h"

namespace shoal::testing {

schema::ColumnDef NotNullColumn(const std::string& name, schema::ColumnType type) {
  schema::ColumnDef c;
  c.name = name;
  c.type = type;
  c.nullable = false;
  return c;
}

absl::Status RecreateTable(api::SyncClient* client, const schema::TableDef& table) {
  wire::DictReq db;
  db.mutable_create_database()->set_name(table.database);
  db.mutable_create_database()->set_if_not_exists(true);
  wire::DictReq drop;
  drop.mutable_drop_table()->set_database(table.database);
  drop.mutable_drop_table()->set_name(table.name);
  drop.mutable_drop_table()->set_if_exists(true);
  wire::DictReq create;
  schema::AppendTableDef(table, create.mutable_create_table()->mutable_table());
  for (wire::DictReq* request : {&db, &drop, &create}) {
    absl::StatusOr<wire::DictConf> conf = client->Dictionary(*request);
    if (!conf.ok()) return conf.status();
    if (conf->error_code() != 0) {
      return absl::InternalError(absl::StrCat(conf->error_code(), ": ", conf->error_message()));
    }
  }
  return absl::OkStatus();
}

schema::TableDef AckedTableDef() {
  schema::TableDef t;
  t.database = kFaultDatabase;
  t.name = kAckedTable;
  t.columns = {NotNullColumn("id", schema::ColumnType::kBigInt),
               NotNullColumn("writer", schema::ColumnType::kInt),
               NotNullColumn("seq", schema::ColumnType::kBigInt),
               NotNullColumn("value", schema::ColumnType::kBigInt),
               NotNullColumn("partner", schema::ColumnType::kBigInt)};
  schema::IndexDef primary;
  primary.name = "PRIMARY";
  primary.columns = {kIdCol};
  primary.primary = primary.unique = true;
  t.indexes = {primary};
  return t;
}

absl::Status CreateAckedTable(api::SyncClient* client) {
  return RecreateTable(client, AckedTableDef());
}

std::string AckedKey(const schema::TableDef& table, int64_t id) {
  schema::RowWriter w;
  w.BeginKey();
  w.Int(table.columns[kIdCol], id);
  return std::string(w.view());
}

std::string AckedRow(const schema::TableDef& table, int64_t id, int writer, int64_t seq,
                     int64_t partner) {
  const std::vector<schema::ColumnDef>& c = table.columns;
  schema::RowWriter w;
  w.BeginRow(5);
  w.Int(c[kIdCol], id);
  w.Int(c[kWriterCol], writer);
  w.Int(c[kSeqCol], seq);
  w.Int(c[kValueCol], ValueOf(writer, seq));
  w.Int(c[kPartnerCol], partner);
  return std::string(w.view());
}

bool IsTemporary(uint16_t code) {
  return code == wire::kErTemporary || code == wire::kErLockWaitTimeout ||
         code == wire::kErTableDefChanged;
}

const char* FateName(Fate fate) {
  switch (fate) {
    case Fate::kAcknowledged:
      return "acknowledged";
    case Fate::kInDoubt:
      return "in doubt (temporary error)";
    case Fate::kRolledBack:
      return "rolled back before commit";
    case Fate::kRefused:
      return "refused";
  }
  return "?";
}

// ResumeClock

void ResumeClock::Arm() {
  absl::MutexLock lock(&mutex_);
  armed_at_ = absl::Now();
  std::fill(first_ack_.begin(), first_ack_.end(), std::nullopt);
}

void ResumeClock::Acknowledged(uint32_t partition, absl::Time issued) {
  absl::Time now = absl::Now();
  absl::MutexLock lock(&mutex_);
  if (!armed_at_.has_value() || issued < *armed_at_ || partition >= first_ack_.size()) return;
  if (!first_ack_[partition].has_value()) first_ack_[partition] = now;
}

std::optional<absl::Duration> ResumeClock::FirstCommit() const {
  absl::MutexLock lock(&mutex_);
  std::optional<absl::Duration> first;
  for (const std::optional<absl::Time>& t : first_ack_) {
    if (t.has_value() && (!first.has_value() || *t - *armed_at_ < *first)) first = *t - *armed_at_;
  }
  return first;
}

std::optional<absl::Duration> ResumeClock::EveryPartition() const {
  absl::MutexLock lock(&mutex_);
  absl::Duration last = absl::ZeroDuration();
  for (const std::optional<absl::Time>& t : first_ack_) {
    if (!t.has_value()) return std::nullopt;
    last = std::max(last, *t - *armed_at_);
  }
  return last;
}

// Writer

absl::StatusOr<std::unique_ptr<Writer>> Writer::Create(int id, int mgmd_port, ResumeClock* clock) {
  absl::StatusOr<control::ClusterView> view =
      api::Cluster::FetchView("127.0.0.1", mgmd_port, absl::Seconds(5));
  if (!view.ok()) return view.status();
  std::unique_ptr<Writer> writer(new Writer(id, clock));
  api::Cluster::Options options;
  options.client_id = static_cast<uint32_t>(100 + id);
  writer->cluster_ = std::make_unique<api::Cluster>(options);
  writer->cluster_->SetView(*view);
  writer->client_ = std::make_unique<api::SyncClient>(writer->cluster_.get());
  absl::StatusOr<api::TablePtr> table = writer->client_->Table(kFaultDatabase, kAckedTable);
  if (!table.ok()) return table.status();
  writer->table_ = *table;
  writer->next_single_ = int64_t{id} * kKeySpace;
  writer->next_pair_key_ = int64_t{id} * kKeySpace + kPairKeysFrom;
  return writer;
}

// The mix: 10% inserts of new rows, 55% updates of rows written before, 35% transactions on
// pairs.
void Writer::Run(const std::atomic<bool>& stop) {
  while (!stop.load(std::memory_order_relaxed)) {
    uint64_t dice = rng_() % 100;
    if (single_keys_.empty() || (dice < 10 && single_keys_.size() < kMaxSingles)) {
      InsertSingle();
    } else if (dice < 65) {
      UpdateSingle();
    } else {
      WritePair();
    }
  }
}

uint32_t Writer::PartitionOf(int64_t key) const {
  return api::Client::PartitionOf(*table_, Key(key));
}

int64_t Writer::NextSeq(Fate initial) {
  fates_.push_back(initial);
  return static_cast<int64_t>(fates_.size()) - 1;
}

void Writer::NoteTemporary(uint16_t code) {
  ++temporary_errors_[code];
  if (code == wire::kErTableDefChanged) {
    if (absl::StatusOr<api::TablePtr> t = client_->Table(kFaultDatabase, kAckedTable); t.ok()) {
      table_ = *t;
    }
  }
}

void Writer::Fail(const std::string& what) {
  ++failure_count_;
  if (failures_.size() < 5) failures_.push_back(absl::StrCat("writer ", id_, ": ", what));
}

api::SyncOutcome Writer::WriteRow(const History& history, int64_t key, int64_t seq, int64_t partner,
                                  api::Transaction* txn) {
  if (history.acked.has_value()) {
    const std::vector<schema::ColumnDef>& c = table_->columns;
    std::string program = schema::UpdateBuilder()
                              .SetInt(c[kSeqCol], kSeqCol, seq)
                              .SetInt(c[kValueCol], kValueCol, ValueOf(id_, seq))
                              .Finish();
    return client_->Update(*table_, Key(key), program, txn);
  }
  if (history.maybe_written()) return client_->Write(*table_, Row(key, seq, partner), txn);
  return client_->Insert(*table_, Row(key, seq, partner), txn);
}

void Writer::Settle(History* history, int64_t seq, const api::SyncOutcome& outcome,
                    uint32_t partition, absl::Time issued, const std::string& what) {
  int64_t value = ValueOf(id_, seq);
  if (outcome.ok()) {
    history->acked = value;
    history->in_doubt.clear();
    fates_[seq] = Fate::kAcknowledged;
    acknowledged_.fetch_add(1, std::memory_order_relaxed);
    clock_->Acknowledged(partition, issued);
    return;
  }
  if (IsTemporary(outcome.code)) {
    history->in_doubt.push_back(value);
    fates_[seq] = Fate::kInDoubt;
    NoteTemporary(outcome.code);
    return;
  }
  fates_[seq] = Fate::kRefused;
  if (outcome.not_found() && history->acked.has_value()) {
    history->lost = true;
    Fail(absl::StrCat(what, " (seq ", seq, "): the row is gone, but seq ", SeqOf(*history->acked),
                      " was acknowledged there"));
  } else if (outcome.code == wire::kErDupEntry && !history->maybe_written()) {
    history->lost = true;
    Fail(absl::StrCat(what, " (seq ", seq, "): a row exists that no write ever made"));
  } else {
    // Unexpected: the write may or may not have happened.
    history->in_doubt.push_back(value);
    Fail(absl::StrCat(what, " (seq ", seq, "): error ", outcome.code, " ", outcome.message));
  }
}

void Writer::InsertSingle() {
  int64_t key = next_single_++;
  History& history = singles_[key];
  single_keys_.push_back(key);
  int64_t seq = NextSeq(Fate::kInDoubt);
  absl::Time issued = absl::Now();
  api::SyncOutcome outcome = client_->Insert(*table_, Row(key, seq, kNoPartner));
  Settle(&history, seq, outcome, PartitionOf(key), issued, absl::StrCat("insert of key ", key));
}

void Writer::UpdateSingle() {
  int64_t key = single_keys_[rng_() % single_keys_.size()];
  History& history = singles_[key];
  if (history.lost) return;
  int64_t seq = NextSeq(Fate::kInDoubt);
  absl::Time issued = absl::Now();
  api::SyncOutcome outcome = WriteRow(history, key, seq, kNoPartner, nullptr);
  Settle(&history, seq, outcome, PartitionOf(key), issued, absl::StrCat("update of key ", key));
}

// A transaction writing both rows of a pair (a new pair a fifth of the time) with one value.
void Writer::WritePair() {
  if (pairs_.empty() || (rng_() % 5 == 0 && pairs_.size() < kMaxPairs)) {
    Pair& fresh = pairs_.emplace_back();
    fresh.a = next_pair_key_++;
    uint32_t partition = PartitionOf(fresh.a);
    do {
      fresh.b = next_pair_key_++;
    } while (PartitionOf(fresh.b) != partition);
  } else {
    std::swap(pairs_[rng_() % pairs_.size()], pairs_.back());
  }
  Pair& pair = pairs_.back();
  if (pair.history.lost) return;
  int64_t seq = NextSeq(Fate::kInDoubt);
  std::string what = absl::StrCat("transaction on keys ", pair.a, " and ", pair.b);
  absl::Time issued = absl::Now();
  api::Transaction txn = client_->client().Begin();
  for (auto [key, partner] : {std::pair{pair.a, pair.b}, std::pair{pair.b, pair.a}}) {
    api::SyncOutcome outcome = WriteRow(pair.history, key, seq, partner, &txn);
    if (outcome.ok()) continue;
    // Never committed: its writes must not be seen, whatever the rollback says.
    api::SyncOutcome rollback = client_->Rollback(&txn);
    if (!rollback.ok() && !IsTemporary(rollback.code)) {
      Fail(absl::StrCat(what, ": rollback: error ", rollback.code, " ", rollback.message));
    }
    if (IsTemporary(outcome.code)) {
      fates_[seq] = Fate::kRolledBack;
      NoteTemporary(outcome.code);
      return;
    }
    Settle(&pair.history, seq, outcome, PartitionOf(pair.a), issued,
           absl::StrCat(what, ", writing key ", key));
    return;
  }
  api::SyncOutcome commit = client_->Commit(&txn);
  Settle(&pair.history, seq, commit, PartitionOf(pair.a), issued, absl::StrCat(what, ", commit"));
}

// ViewFollower

ViewFollower::ViewFollower(int mgmd_port, std::vector<api::Cluster*> clusters)
    : thread_([this, mgmd_port, clusters = std::move(clusters)] {
        while (!stop_.load()) {
          absl::StatusOr<control::ClusterView> view =
              api::Cluster::FetchView("127.0.0.1", mgmd_port, absl::Seconds(1));
          if (view.ok()) {
            for (api::Cluster* cluster : clusters) cluster->SetView(*view);
          }
          absl::SleepFor(absl::Milliseconds(100));
        }
      }) {}

ViewFollower::~ViewFollower() {
  stop_.store(true);
  thread_.join();
}

}  // namespace shoal::testing
