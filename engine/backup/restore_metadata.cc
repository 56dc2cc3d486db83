#include "engine/backup/restore_metadata.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "engine/schema/schema.h"

namespace shoal::backup {
namespace {

// SetAccessControl's answer when the accounts changed since the generation it was based on.
constexpr uint32_t kErDeadlock = 1213;
constexpr int kAccessAttempts = 5;

absl::Status CreateTable(const schema::TableDef& source, api::SyncClient* client) {
  // The target's master gives it an id and a version, and a partition count that suits the
  // target's node groups (a table with a unique secondary index keeps its one partition).
  schema::TableDef table = source;
  table.id = 0;
  table.version = 0;
  table.partitions = 0;
  wire::DictReq request;
  schema::AppendTableDef(table, request.mutable_create_table()->mutable_table());
  return AskMaster(client, std::move(request),
                   absl::StrCat("creating table ", source.database, ".", source.name))
      .status();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const api::Dictionary>> FetchTargetDictionary(
    api::SyncClient* client) {
  wire::DictReq request;
  request.mutable_get_dictionary();
  SHOAL_RETURN_IF_ERROR(
      AskMaster(client, std::move(request), "reading the target's dictionary").status());
  std::shared_ptr<const api::Dictionary> dictionary = client->client().dictionary();
  if (dictionary == nullptr) return absl::UnavailableError("the target sent no dictionary");
  return dictionary;
}

absl::StatusOr<wire::DictConf> AskMaster(api::SyncClient* client, wire::DictReq request,
                                         absl::string_view what) {
  absl::StatusOr<wire::DictConf> conf = client->Dictionary(std::move(request));
  if (!conf.ok()) {
    return absl::UnavailableError(absl::StrCat(what, ": ", conf.status().message()));
  }
  if (conf->error_code() != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(what, ": error ", conf->error_code(), ": ", conf->error_message()));
  }
  return conf;
}

absl::Status CheckNotOnTarget(const BackupDictionary& backup, const api::Dictionary& target) {
  auto on_target = [&](const std::string& db, const std::string& name) {
    return target.Find(db, name) != nullptr || target.FindView(db, name) != nullptr;
  };
  for (const auto& [id, table] : backup.tables) {
    if (IsAlterCopy(backup, table) || !on_target(table.database, table.name)) continue;
    return absl::AlreadyExistsError(absl::StrCat(
        "table ", table.database, ".", table.name,
        " already exists on the target; drop it first, or restore only the data (--no-metadata)"));
  }
  for (const wire::View& view : backup.proto.views()) {
    if (!on_target(view.database(), view.name())) continue;
    return absl::AlreadyExistsError(absl::StrCat(
        "view ", view.database(), ".", view.name(),
        " already exists on the target; drop it first, or restore only the data (--no-metadata)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<MetadataStats> CreateMetadata(const BackupDictionary& backup,
                                             api::SyncClient* client, const NoteFn& note) {
  SHOAL_ASSIGN_OR_RETURN(std::shared_ptr<const api::Dictionary> target,
                         FetchTargetDictionary(client));
  SHOAL_RETURN_IF_ERROR(CheckNotOnTarget(backup, *target));
  MetadataStats stats;
  for (const std::string& name : backup.proto.databases()) {
    wire::DictReq request;
    request.mutable_create_database()->set_name(name);
    request.mutable_create_database()->set_if_not_exists(true);
    SHOAL_ASSIGN_OR_RETURN(
        wire::DictConf conf,
        AskMaster(client, std::move(request), absl::StrCat("creating database ", name)));
    if (conf.note_code() == 0) ++stats.databases;
  }
  const CreationOrder order = OrderForCreation(backup);
  for (const std::string& cycle : order.cycles) {
    // The master does not ask for a foreign key's parent to exist (the router checks that,
    // with foreign_key_checks on), so a cycle is no obstacle: it only cannot be ordered.
    note(absl::StrCat("foreign keys form a cycle: ", cycle,
                      " (each table is created before some of its parents)"));
  }
  for (const schema::TableDef* table : order.tables) {
    SHOAL_RETURN_IF_ERROR(CreateTable(*table, client));
    ++stats.tables;
  }
  for (const wire::View& view : backup.proto.views()) {
    wire::DictReq request;
    *request.mutable_create_view()->mutable_view() = view;
    SHOAL_RETURN_IF_ERROR(
        AskMaster(client, std::move(request),
                  absl::StrCat("creating view ", view.database(), ".", view.name()))
            .status());
    ++stats.views;
  }
  note(absl::StrCat("metadata: ", stats.databases, " database(s), ", stats.tables, " table(s) and ",
                    stats.views, " view(s) created"));
  return stats;
}

absl::Status RestoreAccounts(const BackupDictionary& backup, api::SyncClient* client,
                             const NoteFn& note) {
  const wire::AccessControl& access = backup.proto.access();
  if (access.generation() == 0) {
    note(
        "accounts: the backup holds none (its cluster used the configuration's users:); "
        "the target's are left as they are");
    return absl::OkStatus();
  }
  for (int attempt = 1;; ++attempt) {
    SHOAL_ASSIGN_OR_RETURN(std::shared_ptr<const api::Dictionary> target,
                           FetchTargetDictionary(client));
    wire::DictReq request;
    wire::SetAccessControl* set = request.mutable_set_access_control();
    set->set_based_on(target->access.generation());
    *set->mutable_access() = access;
    // Every router's hourly counts start again only when this grows: never take it back.
    set->mutable_access()->set_resource_epoch(
        std::max(access.resource_epoch(), target->access.resource_epoch()));
    absl::StatusOr<wire::DictConf> conf = client->Dictionary(std::move(request));
    if (!conf.ok()) {
      return absl::UnavailableError(
          absl::StrCat("restoring the accounts: ", conf.status().message()));
    }
    if (conf->error_code() == kErDeadlock && attempt < kAccessAttempts) continue;
    if (conf->error_code() != 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "restoring the accounts: error ", conf->error_code(), ": ", conf->error_message()));
    }
    note(absl::StrCat("accounts: ", access.accounts_size(),
                      " account(s) restored, replacing the target's"));
    return absl::OkStatus();
  }
}

}  // namespace shoal::backup
