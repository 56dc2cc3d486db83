// The dictionary a backup part carries (Manifest::dictionary, a serialized wire::Dictionary as
// of the stop epoch), parsed for a restore: its tables by id, which of them a restore creates,
// and in which order — a table's foreign keys' parents before it.
//
// Plain values and stateless functions; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/status/statusor.h"
#include "engine/backup/backup.pb.h"
#include "engine/schema/schema.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::backup {

struct BackupDictionary {
  wire::Dictionary proto;  // as the manifest has it (databases, views, accounts, …)
  // Every table definition of `proto`, by id (ordered, so that whatever walks them does so
  // the same way every run).
  absl::btree_map<uint32_t, schema::TableDef> tables;
};

// Parses `manifest.dictionary()` and each of its table definitions (kDataLoss, naming the
// node's manifest, when either does not parse).
absl::StatusOr<BackupDictionary> ParseBackupDictionary(const Manifest& manifest);

// Whether `table` is the copy a copying ALTER TABLE was filling when the backup was taken
// (named in `dictionary`'s alter locks, or named as such copies are, "#sql-alter-…"): a
// restore neither creates it nor loads its rows. The table being altered holds every row as
// it was; the ALTER did not happen as far as the backup is concerned.
bool IsAlterCopy(const BackupDictionary& dictionary, const schema::TableDef& table);

// The tables a restore creates, in an order that creates each table's foreign keys' parents
// (those among them) before it; otherwise by id. A table that references itself is fine.
struct CreationOrder {
  std::vector<const schema::TableDef*> tables;  // point into the BackupDictionary
  // Foreign keys that reference each other round a cycle (possible with foreign_key_checks
  // off) cannot be ordered: each cycle found is described here ("db.a -> db.b -> db.a") and
  // broken at its lowest-id table, which is then created before its parents.
  std::vector<std::string> cycles;
};
CreationOrder OrderForCreation(const BackupDictionary& dictionary);

}  // namespace shoal::backup
