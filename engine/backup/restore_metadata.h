// A restore's metadata, made on the target cluster through its dictionary master: the
// backup's databases (kept when the target has them), its tables — each created anew, the
// target's master assigning its id and partition count (the target may have other data nodes
// and node groups), parents of foreign keys first (OrderForCreation), copies of an ALTER in
// progress left out — then its views, and, when asked for, its accounts.
//
// Used from one thread, the one that uses the SyncClient.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/api/sync_client.h"
#include "engine/backup/backup_dictionary.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::backup {

// One line of progress or a note for the operator.
using NoteFn = std::function<void(const std::string& line)>;

// Sends `request` to the target's dictionary master and waits for its answer. A MySQL error
// comes back as kFailedPrecondition "<what>: error <code>: <message>"; no answer (no data
// node serves, in 30 s) as kUnavailable.
absl::StatusOr<wire::DictConf> AskMaster(api::SyncClient* client, wire::DictReq request,
                                         absl::string_view what);

// The target's dictionary as its master has it now (installed in the client's Cluster too).
absl::StatusOr<std::shared_ptr<const api::Dictionary>> FetchTargetDictionary(
    api::SyncClient* client);

// kAlreadyExists naming the first table or view of the backup the target already has (by
// database and name), as ndb_restore refuses to restore over a table: a restore of the
// metadata creates everything anew. `target` is the target's dictionary.
absl::Status CheckNotOnTarget(const BackupDictionary& backup, const api::Dictionary& target);

struct MetadataStats {
  size_t databases = 0;  // created (those the target had are not counted)
  size_t tables = 0;
  size_t views = 0;
};

// Creates the backup's databases, tables and views on the target (CheckNotOnTarget first).
// Stops at the first refusal, naming what was refused; what was created before it stays.
absl::StatusOr<MetadataStats> CreateMetadata(const BackupDictionary& backup,
                                             api::SyncClient* client, const NoteFn& note);

// Replaces the target's accounts and privileges with the backup's (SetAccessControl based on
// the target's generation, asked again if another change slips in between). A backup whose
// cluster never changed its accounts (generation 0: its routers used the configuration's
// `users:`) holds none: the target's are then left alone, with a note.
absl::Status RestoreAccounts(const BackupDictionary& backup, api::SyncClient* client,
                             const NoteFn& note);

}  // namespace shoal::backup
