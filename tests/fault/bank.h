// A bank for fault tests of multi-partition transactions: accounts whose balances only ever
// move between each other, so that their total is constant whatever fails, as long as every
// transaction commits everywhere or nowhere.
//
//   bank.accounts(id BIGINT PRIMARY KEY, balance BIGINT NOT NULL)
//
// Tellers (one thread each, with a client of their own) move random amounts between two
// accounts of different partitions in native transactions; an Auditor reads the accounts back,
// by key (with or without locks) and by a full scan.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/api/cluster.h"
#include "engine/api/sync_client.h"
#include "engine/schema/schema.h"
#include "tests/fault/workload.h"

namespace shoal::testing {

inline constexpr char kBankDatabase[] = "bank";
inline constexpr char kAccountsTable[] = "accounts";
enum AccountColumn : uint16_t { kAccountIdCol = 0, kBalanceCol };
inline constexpr uint16_t kAccountColumns[] = {kAccountIdCol, kBalanceCol};

schema::TableDef AccountsTableDef();
std::string AccountKey(const schema::TableDef& table, int64_t id);
std::string AccountRow(const schema::TableDef& table, int64_t id, int64_t balance);

// Balances by account id.
using Balances = std::map<int64_t, int64_t>;

// A transfer whose commit got a temporary error: it may have happened, or not — or, where
// multi-partition commits are not atomic, on one of its two accounts only.
struct InDoubtTransfer {
  int64_t from = 0;
  int64_t to = 0;
  int64_t amount = 0;
  absl::Time at;  // when the commit answered
  uint16_t code = 0;
  std::string message;
};

// One teller thread's client and record. Created on the test's thread; Run() on the teller's
// own; the record's accessors (other than acknowledged()) only after Run() has returned.
class Teller {
 public:
  // `accounts`: ids 0..accounts-1; `clock` sees every acknowledged transfer (both partitions).
  static absl::StatusOr<std::unique_ptr<Teller>> Create(int id, int mgmd_port, int64_t accounts,
                                                        ResumeClock* clock);

  // Transfers until `stop` is set.
  void Run(const std::atomic<bool>& stop);
  api::Cluster* cluster() { return cluster_.get(); }
  int64_t acknowledged() const { return acknowledged_.load(std::memory_order_relaxed); }

  int64_t insufficient() const { return insufficient_; }  // transfers given up: source too poor
  const std::map<uint16_t, int64_t>& temporary_errors() const { return temporary_errors_; }
  const std::vector<InDoubtTransfer>& in_doubt() const { return in_doubt_; }
  // Errors that are not temporary: how many, and the first few described.
  int64_t failure_count() const { return failure_count_; }
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  Teller(int id, int64_t accounts, ResumeClock* clock)
      : id_(id), accounts_(accounts), clock_(clock), rng_(id) {}

  // One transfer: lock both accounts (lower id first, so tellers never deadlock), move a
  // random amount if the source has it, commit.
  void Transfer();
  // Two distinct accounts in different partitions: from, to.
  std::pair<int64_t, int64_t> PickAccounts();
  // An operation of `txn` failed with `outcome`: rolls back; goes on after a temporary error
  // and fails on any other.
  void Abandon(api::Transaction* txn, const api::SyncOutcome& outcome, const std::string& what);
  // Counts a temporary error; after 1412 takes the table's new definition.
  void NoteTemporary(uint16_t code);
  void Fail(const std::string& what);

  const int id_;
  const int64_t accounts_;
  ResumeClock* const clock_;
  std::mt19937_64 rng_;
  std::unique_ptr<api::Cluster> cluster_;
  std::unique_ptr<api::SyncClient> client_;
  api::TablePtr table_;
  std::vector<uint32_t> partition_of_;  // by account id
  std::atomic<int64_t> acknowledged_{0};
  int64_t insufficient_ = 0;
  std::map<uint16_t, int64_t> temporary_errors_;
  std::vector<InDoubtTransfer> in_doubt_;
  int64_t failure_count_ = 0;
  std::vector<std::string> failures_;
};

// Reads the accounts back through a client of its own, fetching the mgmd's view before every
// attempt and retrying temporary errors until a deadline. Used by one thread.
class Auditor {
 public:
  static absl::StatusOr<std::unique_ptr<Auditor>> Create(int mgmd_port);

  // Creates the table (dropping an old one).
  absl::Status CreateTable();
  // Inserts accounts 0..accounts-1 with `balance` each. REQUIRES: CreateTable() succeeded.
  absl::Status OpenAccounts(int64_t accounts, int64_t balance, absl::Duration timeout);
  const schema::TableDef& table() const { return *table_; }

  // Every account of 0..accounts-1 that exists, read by key. With Lock::kExclusive all are
  // read in one transaction, in id order (as tellers lock), then rolled back: the balances of
  // one moment, even under load. Without, each is a committed read of its own.
  absl::StatusOr<Balances> ReadByKey(int64_t accounts, api::Lock lock, absl::Duration timeout);
  // Every row of the table, by a full scan. An error when an id repeats or a row is malformed.
  absl::StatusOr<Balances> Scan(absl::Duration timeout);

 private:
  explicit Auditor(int mgmd_port) : mgmd_port_(mgmd_port) {}
  void FollowView();
  // One attempt of ReadByKey: a SyncOutcome with the first error, or ok.
  api::SyncOutcome TryReadByKey(int64_t accounts, api::Lock lock, Balances* out);

  const int mgmd_port_;
  std::unique_ptr<api::Cluster> cluster_;
  std::unique_ptr<api::SyncClient> client_;
  api::TablePtr table_;
};

// Sum of the balances.
int64_t Total(const Balances& balances);

}  // namespace shoal::testing
