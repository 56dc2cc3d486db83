// A blocking wrapper over Client for tools, tests and simple programs: each call defines one
// operation, sends it and polls until it is done. Same threading rules as Client.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/api/client.h"

namespace shoal::api {

// A finished operation, with its bytes copied out.
struct SyncOutcome {
  uint16_t code = 0;
  std::string row;
  std::string message;
  bool ok() const { return code == wire::kResultOk; }
  bool not_found() const { return code == wire::kResultNotFound; }
};

class SyncClient {
 public:
  explicit SyncClient(Cluster* cluster) : client_(cluster) {}

  Client& client() { return client_; }

  SyncOutcome Read(const schema::TableDef& table, absl::string_view key,
                   absl::Span<const uint16_t> columns, Transaction* txn = nullptr,
                   Lock lock = Lock::kNone);
  SyncOutcome ReadUnique(const schema::TableDef& table, int index, absl::string_view key,
                         absl::Span<const uint16_t> columns, Transaction* txn = nullptr,
                         Lock lock = Lock::kNone);
  SyncOutcome Insert(const schema::TableDef& table, absl::string_view row,
                     Transaction* txn = nullptr);
  SyncOutcome Write(const schema::TableDef& table, absl::string_view row,
                    Transaction* txn = nullptr);
  SyncOutcome Update(const schema::TableDef& table, absl::string_view key,
                     absl::string_view program, Transaction* txn = nullptr);
  SyncOutcome Delete(const schema::TableDef& table, absl::string_view key,
                     Transaction* txn = nullptr);
  SyncOutcome Commit(Transaction* txn);
  SyncOutcome Rollback(Transaction* txn);
  // Every row of the scan, in the order delivered; an error ends it with that MySQL error.
  absl::StatusOr<std::vector<std::string>> Scan(ScanRequest request);

  // DDL and other dictionary requests; a MySQL error comes back in DictConf::error_code. Polls
  // until Client::Dictionary's answer (at most its 30 s).
  absl::StatusOr<wire::DictConf> Dictionary(wire::DictReq request);
  // The table's current definition, refreshing the dictionary once if it is not known.
  absl::StatusOr<TablePtr> Table(absl::string_view db, absl::string_view name);

 private:
  SyncOutcome Wait();

  class Recorder;
  Client client_;
  SyncOutcome last_;
  bool done_ = false;
};

}  // namespace shoal::api
