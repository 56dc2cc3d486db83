// The data node's copy of the dictionary: databases, tables, views and auto-increment counters.
//
// On the dictionary master (the lowest-id started data node) Apply() checks and performs DDL
// and hands back the new dictionary for the other data nodes; everywhere, Install() replaces
// the whole dictionary with one the master sent. Owned by the data node's main role (its io
// thread); LDMs get immutable TableDef snapshots.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine/schema/schema.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::node {

using TablePtr = std::shared_ptr<const schema::TableDef>;

// What a change did to tables, so the LDMs can follow.
struct DictionaryDelta {
  std::vector<TablePtr> created;    // new tables, and new versions of changed ones
  std::vector<uint32_t> dropped;    // table ids gone
  std::vector<uint32_t> truncated;  // table ids whose rows go (the id stays)
};

// Who asks for a DDL change: the master it asks and its connection there.
struct DdlOwner {
  uint32_t node = 0;
  uint32_t conn = 0;
  uint64_t run = 0;  // the master's run: connection ids start again with each
};

class Dictionary {
 public:
  // Partitions a table gets when CREATE TABLE names none.
  explicit Dictionary(uint32_t default_partitions) : default_partitions_(default_partitions) {}

  uint32_t version() const { return version_; }
  uint64_t incarnation() const { return incarnation_; }
  // A dictionary of its own, for a node that found no serving peer to fetch one from: empty,
  // and a new incarnation (wire::Dictionary), so clients drop what they cached of the last.
  void BeginIncarnation(uint64_t incarnation) { incarnation_ = incarnation; }
  TablePtr FindTable(uint32_t id) const;
  const absl::flat_hash_map<uint32_t, TablePtr>& tables() const { return tables_; }

  // Master only: performs one DDL request. On success `conf` carries the new dictionary (or a
  // note, for IF [NOT] EXISTS that did nothing) and `delta` what changed; on failure `conf`
  // carries the MySQL error and nothing changed. `owner` is who asks: a LockForAlter lasts
  // as long as that connection (AlterLock).
  void Apply(const wire::DictReq& req, wire::DictConf* conf, DictionaryDelta* delta,
             DdlOwner owner = DdlOwner());
  // The copying ALTER TABLE holding `table_id`, or null.
  const wire::AlterLock* AlterLockOf(uint32_t table_id) const;
  // After a restore: the table's counter goes on from at least `next`.
  void RaiseAutoIncrement(uint32_t table_id, uint64_t next) {
    uint64_t& counter = auto_increment_[table_id].next;
    counter = std::max(counter, next);
  }
  // Master only: reserves auto-increment values (ReserveAutoIncrement). When the range
  // reaches the table's ceiling, the ceiling is raised and given back: the range may be handed
  // out once every other data node has it (wire::RaiseAutoIncrement).
  std::optional<wire::AutoIncrementCeiling> ReserveAutoIncrement(
      const wire::ReserveAutoIncrement& req, wire::DictConf* conf);
  // Master only: the counters of the tables asked for (ReadAutoIncrement).
  void ReadAutoIncrement(const wire::ReadAutoIncrement& req, wire::DictConf* conf) const;
  // Not the master: ceilings the master raised. A counter never goes below its ceiling, so a
  // node that takes over as master hands out no value the last one may have handed out.
  void RaiseCeilings(const wire::RaiseAutoIncrement& raise);
  // Every table's ceiling, for a data node that begins to serve.
  void Ceilings(wire::RaiseAutoIncrement* out) const;

  // Replaces everything with a dictionary from the master. Tables whose definition is
  // unchanged keep their TablePtr, so LDMs keep their partitions.
  absl::Status Install(const wire::Dictionary& dictionary, absl::Span<const uint32_t> truncated,
                       DictionaryDelta* delta);
  void ToProto(wire::Dictionary* out) const;

 private:
  TablePtr FindByName(const std::string& db, const std::string& name) const;
  // Whether a table or a view is called db.name: they share names, as in MySQL.
  bool NameTaken(const std::string& db, const std::string& name) const;
  void CreateView(const wire::CreateView& req, wire::DictConf* conf, DictionaryDelta* delta);
  void DropViews(const wire::DropViews& req, wire::DictConf* conf, DictionaryDelta* delta);
  void RenameView(const wire::RenameView& req, wire::DictConf* conf, DictionaryDelta* delta);
  void SetAccessControl(const wire::SetAccessControl& req, wire::DictConf* conf);
  // A new version of each table `view` reads: its old SELECT is read no more (View.reads).
  void BumpReads(const wire::View& view, DictionaryDelta* delta);
  void CreateTable(const wire::CreateTable& req, wire::DictConf* conf, DictionaryDelta* delta);
  void DropTable(const wire::DropTable& req, wire::DictConf* conf, DictionaryDelta* delta);
  void DropDatabase(const wire::DropDatabase& req, wire::DictConf* conf, DictionaryDelta* delta);
  void ChangeIndexes(const wire::DictReq& req, wire::DictConf* conf, DictionaryDelta* delta);
  void ReplaceTable(const wire::ReplaceTable& req, wire::DictConf* conf, DictionaryDelta* delta);
  void LockForAlter(const wire::LockForAlter& req, DdlOwner owner, wire::DictConf* conf,
                    DictionaryDelta* delta);
  void FinishAlter(const wire::FinishAlter& req, wire::DictConf* conf, DictionaryDelta* delta);
  // A new version of `table` (same everything else), so that operations planned on the old
  // one are refused (1412) and their clients look again.
  void Bump(const TablePtr& table, DictionaryDelta* delta);
  // `before` became `after` (a rename, or, `in_place`, renamed columns at the same positions):
  // the foreign keys of other tables that reference it follow, as MySQL's do.
  void FollowParent(const schema::TableDef& before, const schema::TableDef& after, bool in_place,
                    DictionaryDelta* delta);
  static void FollowParentIn(const schema::TableDef& before, const schema::TableDef& after,
                             bool in_place, schema::ForeignKeyDef* fk);
  void Publish(std::shared_ptr<schema::TableDef> table, DictionaryDelta* delta);
  // A table's counter starts again at `next` (CREATE, TRUNCATE, a copying ALTER), and so does
  // its ceiling, which reaches the other data nodes with the change.
  void ResetAutoIncrement(uint32_t table_id, uint64_t next) {
    auto_increment_[table_id] = AutoIncrement{next, next};
  }

  struct AutoIncrement {
    uint64_t next = 1;     // the master's counter: the next value it hands out
    uint64_t ceiling = 1;  // no value at or above it was handed out (RaiseAutoIncrement)
  };
  // After Install replaced tables_ (`old_versions`: the tables' versions before): the counters
  // go on from the dictionary's ceilings.
  void InstallCeilings(const wire::Dictionary& dictionary,
                       const absl::flat_hash_map<uint32_t, uint32_t>& old_versions);

  uint32_t default_partitions_;
  uint32_t version_ = 0;
  uint64_t incarnation_ = 0;
  uint32_t next_table_id_ = 1;
  // Names compare exactly, as MySQL on Linux (lower_case_table_names = 0).
  absl::btree_set<std::string> databases_;
  absl::flat_hash_map<uint32_t, TablePtr> tables_;
  absl::flat_hash_map<uint32_t, AutoIncrement> auto_increment_;  // by table id
  absl::flat_hash_map<uint32_t, wire::AlterLock> alter_locks_;   // by table id
  // By (database, name); ordered, so every node sends the same dictionary bytes.
  absl::btree_map<std::pair<std::string, std::string>, wire::View> views_;
  wire::AccessControl access_;  // accounts and privileges, as the routers last set them
};

}  // namespace shoal::node
