#include "tests/fault/bank.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/api/client.h"
#include "engine/schema/program.h"
#include "engine/schema/row.h"
#include "engine/wire/errors.h"

namespace shoal::testing {
namespace {

constexpr int64_t kMaxAmount = 100;
constexpr size_t kFailuresKept = 5;

// The id and balance of a packed row over kAccountColumns.
bool DecodeAccount(const schema::TableDef& table, absl::string_view row, int64_t* id,
                   int64_t* balance) {
  schema::Field f[2];
  size_t consumed = 0;
  if (!schema::SplitRow(table, kAccountColumns, row, f, &consumed) || f[0].null || f[1].null) {
    return false;
  }
  *id = schema::FieldInt(table.columns[kAccountIdCol], f[kAccountIdCol].bytes);
  *balance = schema::FieldInt(table.columns[kBalanceCol], f[kBalanceCol].bytes);
  return true;
}

std::string ErrorText(const api::SyncOutcome& outcome) {
  return absl::StrCat("error ", outcome.code, " ", outcome.message);
}

}  // namespace

schema::TableDef AccountsTableDef() {
  schema::TableDef t;
  t.database = kBankDatabase;
  t.name = kAccountsTable;
  t.columns = {NotNullColumn("id", schema::ColumnType::kBigInt),
               NotNullColumn("balance", schema::ColumnType::kBigInt)};
  schema::IndexDef primary;
  primary.name = "PRIMARY";
  primary.columns = {kAccountIdCol};
  primary.primary = primary.unique = true;
  t.indexes = {primary};
  return t;
}

std::string AccountKey(const schema::TableDef& table, int64_t id) {
  schema::RowWriter w;
  w.BeginKey();
  w.Int(table.columns[kAccountIdCol], id);
  return std::string(w.view());
}

std::string AccountRow(const schema::TableDef& table, int64_t id, int64_t balance) {
  schema::RowWriter w;
  w.BeginRow(2);
  w.Int(table.columns[kAccountIdCol], id);
  w.Int(table.columns[kBalanceCol], balance);
  return std::string(w.view());
}

int64_t Total(const Balances& balances) {
  int64_t total = 0;
  for (const auto& [id, balance] : balances) total += balance;
  return total;
}

// Teller

absl::StatusOr<std::unique_ptr<Teller>> Teller::Create(int id, int mgmd_port, int64_t accounts,
                                                       ResumeClock* clock) {
  absl::StatusOr<control::ClusterView> view =
      api::Cluster::FetchView("127.0.0.1", mgmd_port, absl::Seconds(5));
  if (!view.ok()) return view.status();
  std::unique_ptr<Teller> teller(new Teller(id, accounts, clock));
  api::Cluster::Options options;
  options.client_id = static_cast<uint32_t>(200 + id);
  teller->cluster_ = std::make_unique<api::Cluster>(options);
  teller->cluster_->SetView(*view);
  teller->client_ = std::make_unique<api::SyncClient>(teller->cluster_.get());
  absl::StatusOr<api::TablePtr> table = teller->client_->Table(kBankDatabase, kAccountsTable);
  if (!table.ok()) return table.status();
  teller->table_ = *table;
  for (int64_t a = 0; a < accounts; ++a) {
    teller->partition_of_.push_back(api::Client::PartitionOf(**table, AccountKey(**table, a)));
  }
  if (std::all_of(teller->partition_of_.begin(), teller->partition_of_.end(),
                  [&](uint32_t p) { return p == teller->partition_of_[0]; })) {
    return absl::FailedPreconditionError("every account is in the same partition");
  }
  return teller;
}

void Teller::Run(const std::atomic<bool>& stop) {
  while (!stop.load(std::memory_order_relaxed)) Transfer();
}

std::pair<int64_t, int64_t> Teller::PickAccounts() {
  int64_t from = static_cast<int64_t>(rng_() % static_cast<uint64_t>(accounts_));
  int64_t to = 0;
  do {
    to = static_cast<int64_t>(rng_() % static_cast<uint64_t>(accounts_));
  } while (partition_of_[to] == partition_of_[from]);
  return {from, to};
}

void Teller::Transfer() {
  auto [from, to] = PickAccounts();
  int64_t amount = 1 + static_cast<int64_t>(rng_() % kMaxAmount);
  std::string what = absl::StrCat("transfer of ", amount, " from account ", from, " to ", to);
  absl::Time issued = absl::Now();
  api::Transaction txn = client_->client().Begin();
  Balances balances;
  for (int64_t id : {std::min(from, to), std::max(from, to)}) {
    api::SyncOutcome read = client_->Read(*table_, AccountKey(*table_, id), kAccountColumns, &txn,
                                          api::Lock::kExclusive);
    int64_t read_id = 0;
    if (read.ok() &&
        (!DecodeAccount(*table_, read.row, &read_id, &balances[id]) || read_id != id)) {
      read.code = wire::kErInternal;
      read.message = "malformed row";
    }
    if (!read.ok()) return Abandon(&txn, read, absl::StrCat(what, ": reading account ", id));
  }
  if (balances[from] < amount) {
    ++insufficient_;
    api::SyncOutcome rollback = client_->Rollback(&txn);
    if (!rollback.ok() && !IsTemporary(rollback.code)) {
      Fail(absl::StrCat(what, ": rollback: ", ErrorText(rollback)));
    }
    return;
  }
  balances[from] -= amount;
  balances[to] += amount;
  const schema::ColumnDef& balance_column = table_->columns[kBalanceCol];
  for (int64_t id : {from, to}) {
    std::string program =
        schema::UpdateBuilder().SetInt(balance_column, kBalanceCol, balances[id]).Finish();
    api::SyncOutcome update = client_->Update(*table_, AccountKey(*table_, id), program, &txn);
    if (!update.ok()) return Abandon(&txn, update, absl::StrCat(what, ": updating account ", id));
  }
  api::SyncOutcome commit = client_->Commit(&txn);
  if (commit.ok()) {
    acknowledged_.fetch_add(1, std::memory_order_relaxed);
    clock_->Acknowledged(partition_of_[from], issued);
    clock_->Acknowledged(partition_of_[to], issued);
  } else if (IsTemporary(commit.code)) {
    // Unknown outcome: the total must hold either way.
    NoteTemporary(commit.code);
    in_doubt_.push_back({from, to, amount, absl::Now(), commit.code, commit.message});
  } else {
    Fail(absl::StrCat(what, ": commit: ", ErrorText(commit)));
  }
}

void Teller::Abandon(api::Transaction* txn, const api::SyncOutcome& outcome,
                     const std::string& what) {
  api::SyncOutcome rollback = client_->Rollback(txn);
  if (!rollback.ok() && !IsTemporary(rollback.code)) {
    Fail(absl::StrCat(what, ": rollback: ", ErrorText(rollback)));
  }
  if (IsTemporary(outcome.code)) {
    NoteTemporary(outcome.code);
  } else {
    Fail(absl::StrCat(what, ": ", outcome.not_found() ? "account missing" : ErrorText(outcome)));
  }
}

void Teller::NoteTemporary(uint16_t code) {
  ++temporary_errors_[code];
  if (code == wire::kErTableDefChanged) {
    if (absl::StatusOr<api::TablePtr> t = client_->Table(kBankDatabase, kAccountsTable); t.ok()) {
      table_ = *t;
    }
  }
}

void Teller::Fail(const std::string& what) {
  ++failure_count_;
  if (failures_.size() < kFailuresKept)
    failures_.push_back(absl::StrCat("teller ", id_, ": ", what));
}

// Auditor

absl::StatusOr<std::unique_ptr<Auditor>> Auditor::Create(int mgmd_port) {
  absl::StatusOr<control::ClusterView> view =
      api::Cluster::FetchView("127.0.0.1", mgmd_port, absl::Seconds(5));
  if (!view.ok()) return view.status();
  std::unique_ptr<Auditor> auditor(new Auditor(mgmd_port));
  auditor->cluster_ = std::make_unique<api::Cluster>(api::Cluster::Options{});
  auditor->cluster_->SetView(*view);
  auditor->client_ = std::make_unique<api::SyncClient>(auditor->cluster_.get());
  return auditor;
}

void Auditor::FollowView() {
  absl::StatusOr<control::ClusterView> view =
      api::Cluster::FetchView("127.0.0.1", mgmd_port_, absl::Seconds(1));
  if (view.ok()) cluster_->SetView(*view);
}

absl::Status Auditor::CreateTable() {
  if (absl::Status s = RecreateTable(client_.get(), AccountsTableDef()); !s.ok()) return s;
  absl::StatusOr<api::TablePtr> table = client_->Table(kBankDatabase, kAccountsTable);
  if (!table.ok()) return table.status();
  table_ = *table;
  return absl::OkStatus();
}

absl::Status Auditor::OpenAccounts(int64_t accounts, int64_t balance, absl::Duration timeout) {
  absl::Time deadline = absl::Now() + timeout;
  for (int64_t id = 0; id < accounts; ++id) {
    while (true) {
      api::SyncOutcome insert = client_->Insert(*table_, AccountRow(*table_, id, balance));
      if (insert.ok()) break;
      if (!IsTemporary(insert.code) || absl::Now() > deadline) {
        return absl::InternalError(absl::StrCat("opening account ", id, ": ", ErrorText(insert)));
      }
      absl::SleepFor(absl::Milliseconds(100));
      FollowView();
    }
  }
  return absl::OkStatus();
}

api::SyncOutcome Auditor::TryReadByKey(int64_t accounts, api::Lock lock, Balances* out) {
  api::Transaction txn = client_->client().Begin();
  api::Transaction* in = lock == api::Lock::kExclusive ? &txn : nullptr;
  api::SyncOutcome result;
  for (int64_t id = 0; id < accounts && result.ok(); ++id) {
    api::SyncOutcome read =
        client_->Read(*table_, AccountKey(*table_, id), kAccountColumns, in, lock);
    int64_t read_id = 0;
    int64_t balance = 0;
    if (read.ok() && DecodeAccount(*table_, read.row, &read_id, &balance) && read_id == id) {
      (*out)[id] = balance;
    } else if (read.ok()) {
      result = {wire::kErInternal, "", absl::StrCat("account ", id, ": malformed row")};
    } else if (!read.not_found()) {
      result = std::move(read);
    }
  }
  api::SyncOutcome rollback = client_->Rollback(&txn);
  if (result.ok() && !rollback.ok()) result = std::move(rollback);
  return result;
}

absl::StatusOr<Balances> Auditor::ReadByKey(int64_t accounts, api::Lock lock,
                                            absl::Duration timeout) {
  absl::Time deadline = absl::Now() + timeout;
  while (true) {
    FollowView();
    Balances balances;
    api::SyncOutcome outcome = TryReadByKey(accounts, lock, &balances);
    if (outcome.ok()) return balances;
    if (!IsTemporary(outcome.code) || absl::Now() > deadline) {
      return absl::InternalError(absl::StrCat("reading the accounts: ", ErrorText(outcome)));
    }
    absl::SleepFor(absl::Milliseconds(100));
  }
}

absl::StatusOr<Balances> Auditor::Scan(absl::Duration timeout) {
  absl::Time deadline = absl::Now() + timeout;
  absl::StatusOr<std::vector<std::string>> rows;
  while (true) {
    FollowView();
    api::ScanRequest scan;
    scan.table = table_.get();
    scan.columns.assign(std::begin(kAccountColumns), std::end(kAccountColumns));
    rows = client_->Scan(std::move(scan));
    if (rows.ok() || absl::Now() > deadline) break;
    absl::SleepFor(absl::Milliseconds(100));
  }
  if (!rows.ok()) return rows.status();
  Balances balances;
  for (const std::string& row : *rows) {
    int64_t id = 0;
    int64_t balance = 0;
    if (!DecodeAccount(*table_, row, &id, &balance)) {
      return absl::DataLossError("scan: malformed row");
    }
    if (!balances.emplace(id, balance).second) {
      return absl::DataLossError(absl::StrCat("scan: account ", id, " returned twice"));
    }
  }
  return balances;
}

}  // namespace shoal::testing
