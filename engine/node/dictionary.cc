// DDL on the dictionary master, and installing the master's dictionary elsewhere. Error codes
// and texts are MySQL 8.0's, so the router can pass them on unchanged.
#include "engine/node/dictionary.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/wire/errors.h"

namespace shoal::node {
namespace {

constexpr uint32_t kMaxPartitions = 1024;
// How far past a range the master raises a table's ceiling: a reservation waits for the other
// data nodes once per this many values (at 256 per range, one in four or five), and a node
// that takes over skips at most this many.
constexpr uint64_t kAutoIncrementCeilingAhead = 1024;

void Fail(wire::DictConf* conf, uint32_t code, std::string message) {
  conf->set_error_code(code);
  conf->set_error_message(std::move(message));
}

void Note(wire::DictConf* conf, uint32_t code, std::string message) {
  conf->set_note_code(code);
  conf->set_note_message(std::move(message));
}

// schema::ValidateAndComplete reports "<code>: <message>".
void FailFromStatus(wire::DictConf* conf, const absl::Status& status) {
  absl::string_view text = status.message();
  uint32_t code = 0;
  size_t colon = text.find(": ");
  if (colon != absl::string_view::npos && absl::SimpleAtoi(text.substr(0, colon), &code)) {
    Fail(conf, code, std::string(text.substr(colon + 2)));
  } else {
    Fail(conf, 1064, std::string(text));
  }
}

bool HasUniqueSecondaryIndex(const schema::TableDef& table) {
  return absl::c_any_of(
      table.indexes, [](const schema::IndexDef& index) { return index.unique && !index.primary; });
}

// Rows are placed by primary key, and a partition checks uniqueness among its own rows only;
// until unique indexes are kept as tables of their own (placed by the unique key, as NDB does),
// a table with one is a single partition so that its unique keys hold across the table.
bool UniqueIndexesHold(const schema::TableDef& table, wire::DictConf* conf) {
  if (!HasUniqueSecondaryIndex(table) || table.partitions <= 1) return true;
  Fail(conf, wire::kErNotSupportedYet,
       "This version of Shoal doesn't yet support 'UNIQUE secondary indexes on a table with more "
       "than one partition'");
  return false;
}

// A definition a client sent (schema::AppendTableDef bytes), or null after failing `conf`.
std::shared_ptr<schema::TableDef> ParseRequested(absl::string_view bytes, wire::DictConf* conf) {
  absl::StatusOr<schema::TableDef> parsed = schema::ParseTableDef(&bytes);
  if (!parsed.ok()) {
    Fail(conf, 1064, absl::StrCat("Malformed table definition: ", parsed.status().message()));
    return nullptr;
  }
  return std::make_shared<schema::TableDef>(std::move(*parsed));
}

}  // namespace

TablePtr Dictionary::FindTable(uint32_t id) const {
  auto it = tables_.find(id);
  return it == tables_.end() ? nullptr : it->second;
}

TablePtr Dictionary::FindByName(const std::string& db, const std::string& name) const {
  for (const auto& [id, table] : tables_) {
    if (table->database == db && table->name == name) return table;
  }
  return nullptr;
}

bool Dictionary::NameTaken(const std::string& db, const std::string& name) const {
  return views_.contains(std::make_pair(db, name)) || FindByName(db, name) != nullptr;
}

void Dictionary::Publish(std::shared_ptr<schema::TableDef> table, DictionaryDelta* delta) {
  TablePtr published = std::move(table);
  tables_[published->id] = published;
  delta->created.push_back(std::move(published));
}

void Dictionary::Apply(const wire::DictReq& req, wire::DictConf* conf, DictionaryDelta* delta,
                       DdlOwner owner) {
  switch (req.op_case()) {
    case wire::DictReq::kCreateDatabase: {
      const std::string& name = req.create_database().name();
      if (name.empty() || name.size() > 64) {
        Fail(conf, 1102, absl::StrCat("Incorrect database name '", name, "'"));
      } else if (databases_.contains(name)) {
        if (req.create_database().if_not_exists()) {
          Note(conf, 1007, absl::StrCat("Can't create database '", name, "'; database exists"));
        } else {
          Fail(conf, 1007, absl::StrCat("Can't create database '", name, "'; database exists"));
        }
      } else {
        databases_.insert(name);
        ++version_;
      }
      break;
    }
    case wire::DictReq::kDropDatabase:
      DropDatabase(req.drop_database(), conf, delta);
      break;
    case wire::DictReq::kCreateTable:
      CreateTable(req.create_table(), conf, delta);
      break;
    case wire::DictReq::kDropTable:
      DropTable(req.drop_table(), conf, delta);
      break;
    case wire::DictReq::kTruncateTable: {
      const wire::TruncateTable& t = req.truncate_table();
      TablePtr table = FindByName(t.database(), t.name());
      if (table == nullptr) {
        Fail(conf, 1146, absl::StrCat("Table '", t.database(), ".", t.name(), "' doesn't exist"));
        break;
      }
      if (alter_locks_.contains(table->id)) {
        Fail(conf, 1205, "Lock wait timeout exceeded; try restarting transaction");
        break;
      }
      auto copy = std::make_shared<schema::TableDef>(*table);
      ++copy->version;
      delta->truncated.push_back(copy->id);
      ResetAutoIncrement(copy->id, 1);
      Publish(std::move(copy), delta);
      ++version_;
      break;
    }
    case wire::DictReq::kCreateIndex:
    case wire::DictReq::kDropIndex:
      ChangeIndexes(req, conf, delta);
      break;
    case wire::DictReq::kReplaceTable:
      ReplaceTable(req.replace_table(), conf, delta);
      break;
    case wire::DictReq::kLockForAlter:
      LockForAlter(req.lock_for_alter(), owner, conf, delta);
      break;
    case wire::DictReq::kFinishAlter:
      FinishAlter(req.finish_alter(), conf, delta);
      break;
    case wire::DictReq::kCreateView:
      CreateView(req.create_view(), conf, delta);
      break;
    case wire::DictReq::kDropViews:
      DropViews(req.drop_views(), conf, delta);
      break;
    case wire::DictReq::kRenameView:
      RenameView(req.rename_view(), conf, delta);
      break;
    case wire::DictReq::kSetAccessControl:
      SetAccessControl(req.set_access_control(), conf);
      break;
    case wire::DictReq::kGetDictionary:
      break;
    default:
      Fail(conf, wire::kErNotSupportedYet,
           "This version of Shoal doesn't yet support this dictionary request");
      return;
  }
  if (conf->error_code() == 0) {
    ToProto(conf->mutable_dictionary());
  }
}

void Dictionary::CreateTable(const wire::CreateTable& req, wire::DictConf* conf,
                             DictionaryDelta* delta) {
  std::shared_ptr<schema::TableDef> table = ParseRequested(req.table(), conf);
  if (table == nullptr) return;
  if (!databases_.contains(table->database)) {
    Fail(conf, 1049, absl::StrCat("Unknown database '", table->database, "'"));
    return;
  }
  if (NameTaken(table->database, table->name)) {
    std::string message = absl::StrCat("Table '", table->name, "' already exists");
    if (req.if_not_exists()) {
      Note(conf, 1050, std::move(message));
    } else {
      Fail(conf, 1050, std::move(message));
    }
    return;
  }
  if (absl::Status status = schema::ValidateAndComplete(table.get()); !status.ok()) {
    FailFromStatus(conf, status);
    return;
  }
  if (!UniqueIndexesHold(*table, conf)) return;
  if (table->partitions == 0) {
    table->partitions = HasUniqueSecondaryIndex(*table) ? 1 : default_partitions_;
  }
  if (table->partitions > kMaxPartitions) {
    Fail(conf, 1499, "Too many partitions (including subpartitions) were defined");
    return;
  }
  table->id = next_table_id_++;
  table->version = 1;
  ResetAutoIncrement(table->id, std::max<uint64_t>(1, req.auto_increment()));
  Publish(std::move(table), delta);
  ++version_;
}

void Dictionary::DropTable(const wire::DropTable& req, wire::DictConf* conf,
                           DictionaryDelta* delta) {
  TablePtr table = FindByName(req.database(), req.name());
  if (table == nullptr) {
    std::string message = absl::StrCat("Unknown table '", req.database(), ".", req.name(), "'");
    if (req.if_exists()) {
      Note(conf, 1051, std::move(message));
    } else {
      Fail(conf, 1051, std::move(message));
    }
    return;
  }
  if (!req.ignore_foreign_keys()) {
    for (const auto& [id, child] : tables_) {
      if (id == table->id) continue;
      for (const schema::ForeignKeyDef& fk : child->foreign_keys) {
        if (fk.parent_database != table->database || fk.parent_table != table->name) continue;
        Fail(conf, 3730,
             absl::StrCat("Cannot drop table '", table->name,
                          "' referenced by a foreign key constraint '", fk.name, "' on table '",
                          child->name, "'."));
        return;
      }
    }
  }
  tables_.erase(table->id);
  auto_increment_.erase(table->id);
  alter_locks_.erase(table->id);
  delta->dropped.push_back(table->id);
  ++version_;
}

void Dictionary::FollowParent(const schema::TableDef& before, const schema::TableDef& after,
                              bool in_place, DictionaryDelta* delta) {
  std::vector<TablePtr> children;
  for (const auto& [id, child] : tables_) {
    if (id == before.id) continue;  // a table referencing itself is replaced as a whole
    for (const schema::ForeignKeyDef& fk : child->foreign_keys) {
      if (fk.parent_database == before.database && fk.parent_table == before.name) {
        children.push_back(child);
        break;
      }
    }
  }
  for (const TablePtr& child : children) {
    auto copy = std::make_shared<schema::TableDef>(*child);
    for (schema::ForeignKeyDef& fk : copy->foreign_keys) {
      FollowParentIn(before, after, in_place, &fk);
    }
    ++copy->version;
    Publish(std::move(copy), delta);
  }
}

void Dictionary::FollowParentIn(const schema::TableDef& before, const schema::TableDef& after,
                                bool in_place, schema::ForeignKeyDef* fk) {
  if (fk->parent_database != before.database || fk->parent_table != before.name) return;
  fk->parent_database = after.database;
  fk->parent_table = after.name;
  // An in-place change keeps every column where it was: a new name at a position is a rename.
  if (!in_place) return;
  for (std::string& name : fk->parent_columns) {
    int c = before.FindColumn(name);
    if (c >= 0) name = after.columns[c].name;
  }
}

void Dictionary::DropDatabase(const wire::DropDatabase& req, wire::DictConf* conf,
                              DictionaryDelta* delta) {
  const std::string& name = req.name();
  if (!databases_.contains(name)) {
    std::string message = absl::StrCat("Can't drop database '", name, "'; database doesn't exist");
    if (req.if_exists()) {
      Note(conf, 1008, std::move(message));
    } else {
      Fail(conf, 1008, std::move(message));
    }
    return;
  }
  std::vector<uint32_t> doomed;
  for (const auto& [id, table] : tables_) {
    if (table->database == name) doomed.push_back(id);
  }
  for (uint32_t id : doomed) {
    tables_.erase(id);
    auto_increment_.erase(id);
    alter_locks_.erase(id);
    delta->dropped.push_back(id);
  }
  absl::erase_if(views_, [&](const auto& view) { return view.first.first == name; });
  databases_.erase(name);
  ++version_;
}

void Dictionary::CreateView(const wire::CreateView& req, wire::DictConf* conf,
                            DictionaryDelta* delta) {
  const wire::View& view = req.view();
  const auto key = std::make_pair(view.database(), view.name());
  if (!databases_.contains(view.database())) {
    Fail(conf, 1049, absl::StrCat("Unknown database '", view.database(), "'"));
    return;
  }
  if (FindByName(view.database(), view.name()) != nullptr) {
    if (req.or_replace() || req.must_exist()) {
      Fail(conf, 1347, absl::StrCat("'", view.database(), ".", view.name(), "' is not VIEW"));
    } else {
      Fail(conf, 1050, absl::StrCat("Table '", view.name(), "' already exists"));
    }
    return;
  }
  const bool exists = views_.contains(key);
  if (exists && !req.or_replace() && !req.must_exist()) {
    Fail(conf, 1050, absl::StrCat("Table '", view.name(), "' already exists"));
    return;
  }
  if (!exists && req.must_exist()) {
    Fail(conf, 1146, absl::StrCat("Table '", view.database(), ".", view.name(), "' doesn't exist"));
    return;
  }
  if (exists) BumpReads(views_[key], delta);
  views_[key] = view;
  ++version_;
}

void Dictionary::RenameView(const wire::RenameView& req, wire::DictConf* conf,
                            DictionaryDelta* delta) {
  const wire::ObjectName& from = req.from();
  const wire::ObjectName& to = req.to();
  auto it = views_.find(std::make_pair(from.database(), from.name()));
  if (it == views_.end()) {
    Fail(conf, 1146, absl::StrCat("Table '", from.database(), ".", from.name(), "' doesn't exist"));
    return;
  }
  if (to.database() != from.database()) {
    Fail(conf, 1450,
         absl::StrCat("Changing schema from '", from.database(), "' to '", to.database(),
                      "' is not allowed."));
    return;
  }
  if (NameTaken(to.database(), to.name())) {
    Fail(conf, 1050, absl::StrCat("Table '", to.name(), "' already exists"));
    return;
  }
  wire::View view = std::move(it->second);
  views_.erase(it);
  BumpReads(view, delta);  // a router that still has the old name reads it no more
  view.set_name(to.name());
  views_[std::make_pair(to.database(), to.name())] = std::move(view);
  ++version_;
}

void Dictionary::BumpReads(const wire::View& view, DictionaryDelta* delta) {
  for (const wire::ObjectName& read : view.reads()) {
    if (TablePtr table = FindByName(read.database(), read.name())) Bump(table, delta);
  }
}

void Dictionary::DropViews(const wire::DropViews& req, wire::DictConf* conf,
                           DictionaryDelta* delta) {
  std::vector<std::string> missing;
  for (const wire::ObjectName& name : req.names()) {
    if (FindByName(name.database(), name.name()) != nullptr) {
      Fail(conf, 1347, absl::StrCat("'", name.database(), ".", name.name(), "' is not VIEW"));
      return;
    }
    if (!views_.contains(std::make_pair(name.database(), name.name()))) {
      missing.push_back(absl::StrCat(name.database(), ".", name.name()));
    }
  }
  if (!missing.empty()) {
    std::string message = absl::StrCat("Unknown table '", absl::StrJoin(missing, ","), "'");
    if (!req.if_exists()) return Fail(conf, 1051, std::move(message));
    Note(conf, 1051, std::move(message));
  }
  bool dropped = false;
  for (const wire::ObjectName& name : req.names()) {
    auto it = views_.find(std::make_pair(name.database(), name.name()));
    if (it == views_.end()) continue;
    BumpReads(it->second, delta);
    views_.erase(it);
    dropped = true;
  }
  if (dropped) ++version_;
}

void Dictionary::ChangeIndexes(const wire::DictReq& req, wire::DictConf* conf,
                               DictionaryDelta* delta) {
  bool create = req.has_create_index();
  const std::string& db = create ? req.create_index().database() : req.drop_index().database();
  const std::string& name = create ? req.create_index().table() : req.drop_index().table();
  const std::string& index = create ? req.create_index().name() : req.drop_index().name();
  TablePtr table = FindByName(db, name);
  if (table == nullptr) {
    Fail(conf, 1146, absl::StrCat("Table '", db, ".", name, "' doesn't exist"));
    return;
  }
  if (alter_locks_.contains(table->id)) {
    Fail(conf, 1205, "Lock wait timeout exceeded; try restarting transaction");
    return;
  }
  auto copy = std::make_shared<schema::TableDef>(*table);
  int existing = copy->FindIndex(index);
  if (create) {
    if (existing >= 0) {
      Fail(conf, 1061, absl::StrCat("Duplicate key name '", index, "'"));
      return;
    }
    schema::IndexDef def;
    def.name = index;
    def.unique = req.create_index().unique();
    for (const std::string& column : req.create_index().columns()) {
      int position = copy->FindColumn(column);
      if (position < 0 || copy->columns[position].hidden) {
        Fail(conf, 1072, absl::StrCat("Key column '", column, "' doesn't exist in table"));
        return;
      }
      def.columns.push_back(position);
    }
    if (def.columns.empty()) {
      Fail(conf, 1064, "An index needs at least one column");
      return;
    }
    if (def.unique) {
      // Rows already there may break it, and a partition that finds so would have to undo
      // the change on every node: DDL has no such second phase yet.
      Fail(conf, wire::kErNotSupportedYet,
           "This version of Shoal doesn't yet support 'adding a UNIQUE index to an existing "
           "table (declare it in CREATE TABLE)'");
      return;
    }
    copy->indexes.push_back(std::move(def));
  } else {
    if (existing < 0) {
      Fail(conf, 1091, absl::StrCat("Can't DROP '", index, "'; check that column/key exists"));
      return;
    }
    if (existing == 0) {
      Fail(conf, wire::kErNotSupportedYet,
           "This version of Shoal doesn't yet support 'dropping the primary key'");
      return;
    }
    copy->indexes.erase(copy->indexes.begin() + existing);
  }
  ++copy->version;
  Publish(std::move(copy), delta);
  ++version_;
}

const wire::AlterLock* Dictionary::AlterLockOf(uint32_t table_id) const {
  auto it = alter_locks_.find(table_id);
  return it == alter_locks_.end() ? nullptr : &it->second;
}

void Dictionary::Bump(const TablePtr& table, DictionaryDelta* delta) {
  auto copy = std::make_shared<schema::TableDef>(*table);
  ++copy->version;
  Publish(std::move(copy), delta);
}

void Dictionary::ReplaceTable(const wire::ReplaceTable& req, wire::DictConf* conf,
                              DictionaryDelta* delta) {
  std::shared_ptr<schema::TableDef> table = ParseRequested(req.table(), conf);
  if (table == nullptr) return;
  TablePtr old = FindTable(table->id);
  if (old == nullptr || old->version != table->version) {
    Fail(conf, wire::kErTableDefChanged, "Table definition has changed, please retry transaction");
    return;
  }
  if (alter_locks_.contains(old->id)) {
    Fail(conf, 1205, "Lock wait timeout exceeded; try restarting transaction");
    return;
  }
  if (!databases_.contains(table->database)) {
    Fail(conf, 1049, absl::StrCat("Unknown database '", table->database, "'"));
    return;
  }
  if ((table->database != old->database || table->name != old->name) &&
      NameTaken(table->database, table->name)) {
    Fail(conf, 1050, absl::StrCat("Table '", table->name, "' already exists"));
    return;
  }
  if (absl::Status status = schema::ValidateAndComplete(table.get()); !status.ok()) {
    FailFromStatus(conf, status);
    return;
  }
  if (!schema::StoredAlike(*old, *table)) {
    Fail(conf, wire::kErNotSupportedYet,
         "This version of Shoal doesn't yet support 'this change in place (it needs a copy)'");
    return;
  }
  for (const schema::IndexDef& index : table->indexes) {
    if (!index.unique || index.primary) continue;
    bool kept = absl::c_any_of(old->indexes, [&](const schema::IndexDef& o) {
      return o.unique && o.columns == index.columns;
    });
    if (!kept) {
      // Rows already there may break it: a copying ALTER checks them as it copies.
      Fail(conf, wire::kErNotSupportedYet,
           "This version of Shoal doesn't yet support 'adding a UNIQUE index in place'");
      return;
    }
  }
  table->partitions = old->partitions;
  ++table->version;
  // As MySQL: the foreign keys that reference the table follow its new name and column names.
  FollowParent(*old, *table, /*in_place=*/true, delta);
  for (schema::ForeignKeyDef& fk : table->foreign_keys) FollowParentIn(*old, *table, true, &fk);
  Publish(std::move(table), delta);
  ++version_;
}

void Dictionary::LockForAlter(const wire::LockForAlter& req, DdlOwner owner, wire::DictConf* conf,
                              DictionaryDelta* delta) {
  TablePtr table = FindByName(req.database(), req.name());
  if (table == nullptr) {
    Fail(conf, 1146, absl::StrCat("Table '", req.database(), ".", req.name(), "' doesn't exist"));
    return;
  }
  if (table->version != req.version()) {
    Fail(conf, wire::kErTableDefChanged, "Table definition has changed, please retry transaction");
    return;
  }
  if (alter_locks_.contains(table->id)) {
    Fail(conf, 1205, "Lock wait timeout exceeded; try restarting transaction");
    return;
  }
  if (FindByName(req.database(), req.temp_table()) == nullptr) {
    Fail(conf, 1146,
         absl::StrCat("Table '", req.database(), ".", req.temp_table(), "' doesn't exist"));
    return;
  }
  wire::AlterLock& lock = alter_locks_[table->id];
  lock.set_table_id(table->id);
  lock.set_temp_table(req.temp_table());
  lock.set_owner_node(owner.node);
  lock.set_owner_conn(owner.conn);
  lock.set_owner_run(owner.run);
  Bump(table, delta);
  ++version_;
}

void Dictionary::FinishAlter(const wire::FinishAlter& req, wire::DictConf* conf,
                             DictionaryDelta* delta) {
  TablePtr table = FindByName(req.database(), req.name());
  const wire::AlterLock* lock = table == nullptr ? nullptr : AlterLockOf(table->id);
  if (lock == nullptr) {
    Fail(conf, 1146,
         absl::StrCat("Table '", req.database(), ".", req.name(),
                      "' has no ALTER TABLE in progress"));
    return;
  }
  TablePtr copy = FindByName(req.database(), lock->temp_table());
  std::string database = req.new_database().empty() ? table->database : req.new_database();
  std::string name = req.new_name().empty() ? table->name : req.new_name();
  // A commit that cannot be done changes nothing: the client then ends the ALTER without.
  if (req.commit()) {
    if (copy == nullptr) {
      Fail(conf, 1146,
           absl::StrCat("Table '", req.database(), ".", lock->temp_table(), "' doesn't exist"));
      return;
    }
    if (!databases_.contains(database)) {
      Fail(conf, 1049, absl::StrCat("Unknown database '", database, "'"));
      return;
    }
    if ((database != table->database || name != table->name) && NameTaken(database, name)) {
      Fail(conf, 1050, absl::StrCat("Table '", name, "' already exists"));
      return;
    }
  }
  alter_locks_.erase(table->id);
  ++version_;
  if (!req.commit()) {
    if (copy != nullptr) {
      tables_.erase(copy->id);
      auto_increment_.erase(copy->id);
      delta->dropped.push_back(copy->id);
    }
    Bump(table, delta);
    return;
  }
  // The copy takes the table's place in one change: no reader ever finds neither.
  uint64_t counter = std::max<uint64_t>(1, req.next_auto_increment());
  if (req.keep_counter()) counter = std::max(counter, auto_increment_[table->id].next);
  tables_.erase(table->id);
  auto_increment_.erase(table->id);
  delta->dropped.push_back(table->id);
  auto renamed = std::make_shared<schema::TableDef>(*copy);
  renamed->database = std::move(database);
  renamed->name = std::move(name);
  ++renamed->version;
  FollowParent(*table, *renamed, /*in_place=*/false, delta);
  for (schema::ForeignKeyDef& fk : renamed->foreign_keys)
    FollowParentIn(*table, *renamed, false, &fk);
  ResetAutoIncrement(renamed->id, counter);
  Publish(std::move(renamed), delta);
}

std::optional<wire::AutoIncrementCeiling> Dictionary::ReserveAutoIncrement(
    const wire::ReserveAutoIncrement& req, wire::DictConf* conf) {
  auto it = auto_increment_.find(req.table_id());
  if (it == auto_increment_.end()) {
    Fail(conf, 1146, absl::StrCat("Table with id ", req.table_id(), " doesn't exist"));
    return std::nullopt;
  }
  AutoIncrement& counter = it->second;
  uint64_t count = std::max<uint64_t>(1, std::min<uint64_t>(req.count(), 1 << 20));
  uint64_t first = std::max(counter.next, req.at_least());
  if (first > UINT64_MAX - count) {
    Fail(conf, 1467, "Failed to read auto-increment value from storage engine");
    return std::nullopt;
  }
  counter.next = first + count;
  conf->set_auto_increment_first(first);
  conf->set_auto_increment_count(count);
  if (counter.next <= counter.ceiling) return std::nullopt;
  // Raised well past the range, so that most ranges wait for no other data node: what lies
  // between the counter and the ceiling is skipped when another node takes over.
  const uint64_t ahead = std::max(kAutoIncrementCeilingAhead, 4 * count);
  counter.ceiling = counter.next > UINT64_MAX - ahead ? UINT64_MAX : counter.next + ahead;
  wire::AutoIncrementCeiling raised;
  raised.set_table_id(req.table_id());
  raised.set_ceiling(counter.ceiling);
  return raised;
}

void Dictionary::ReadAutoIncrement(const wire::ReadAutoIncrement& req, wire::DictConf* conf) const {
  for (uint32_t id : req.table_ids()) {
    if (auto it = auto_increment_.find(id); it != auto_increment_.end()) {
      (*conf->mutable_next_auto_increment())[id] = it->second.next;
    }
  }
}

void Dictionary::RaiseCeilings(const wire::RaiseAutoIncrement& raise) {
  for (const wire::AutoIncrementCeiling& c : raise.ceilings()) {
    AutoIncrement& counter = auto_increment_[c.table_id()];
    counter.ceiling = std::max(counter.ceiling, c.ceiling());
    counter.next = std::max(counter.next, counter.ceiling);
  }
}

void Dictionary::Ceilings(wire::RaiseAutoIncrement* out) const {
  std::vector<std::pair<uint32_t, uint64_t>> sorted;
  for (const auto& [id, counter] : auto_increment_) sorted.emplace_back(id, counter.ceiling);
  std::sort(sorted.begin(), sorted.end());
  for (const auto& [id, ceiling] : sorted) {
    wire::AutoIncrementCeiling* c = out->add_ceilings();
    c->set_table_id(id);
    c->set_ceiling(ceiling);
  }
}

void Dictionary::SetAccessControl(const wire::SetAccessControl& req, wire::DictConf* conf) {
  if (req.based_on() != access_.generation()) {
    Fail(conf, 1213, "Deadlock found when trying to get lock; try restarting transaction");
    return;
  }
  access_ = req.access();
  access_.set_generation(req.based_on() + 1);
  ++version_;
}

absl::Status Dictionary::Install(const wire::Dictionary& dictionary,
                                 absl::Span<const uint32_t> truncated, DictionaryDelta* delta) {
  // Two nodes may send us the same dictionaries for a while (the master, and the node we copy
  // from while we restart): one we have, or a late older one, changes nothing.
  if (dictionary.incarnation() == incarnation_ && dictionary.version() <= version_ &&
      version_ > 0) {
    // Its ceilings may be newer than ours all the same (they change with no new version).
    for (const wire::AutoIncrementCeiling& c : dictionary.auto_increment_ceilings()) {
      if (auto it = auto_increment_.find(c.table_id()); it != auto_increment_.end()) {
        it->second.ceiling = std::max(it->second.ceiling, c.ceiling());
        it->second.next = std::max(it->second.next, it->second.ceiling);
      }
    }
    return absl::OkStatus();
  }
  absl::flat_hash_map<uint32_t, TablePtr> tables;
  for (const std::string& bytes : dictionary.tables()) {
    absl::string_view in = bytes;
    absl::StatusOr<schema::TableDef> table = schema::ParseTableDef(&in);
    if (!table.ok()) return table.status();
    TablePtr old = FindTable(table->id);
    // What the master made always passes; anything else must not reach the partitions.
    if (table->partitions == 0 || table->partitions > kMaxPartitions || table->columns.empty() ||
        table->indexes.empty() || !table->indexes[0].primary ||
        (old != nullptr &&
         (old->columns.size() != table->columns.size() || old->partitions != table->partitions))) {
      return absl::InvalidArgumentError(
          absl::StrCat("inconsistent definition of table ", table->database, ".", table->name));
    }
    if (old != nullptr && old->version == table->version) {
      tables.emplace(table->id, old);
      continue;
    }
    auto fresh = std::make_shared<const schema::TableDef>(std::move(*table));
    tables.emplace(fresh->id, fresh);
    delta->created.push_back(fresh);
  }
  for (const auto& [id, table] : tables_) {
    if (!tables.contains(id)) delta->dropped.push_back(id);
  }
  delta->truncated.assign(truncated.begin(), truncated.end());
  absl::flat_hash_map<uint32_t, uint32_t> old_versions;
  for (const auto& [id, table] : tables_) old_versions[id] = table->version;
  tables_ = std::move(tables);
  databases_ = {dictionary.databases().begin(), dictionary.databases().end()};
  version_ = dictionary.version();
  incarnation_ = dictionary.incarnation();
  next_table_id_ = dictionary.next_table_id();
  InstallCeilings(dictionary, old_versions);
  alter_locks_.clear();
  for (const wire::AlterLock& lock : dictionary.alter_locks()) {
    alter_locks_[lock.table_id()] = lock;
  }
  views_.clear();
  for (const wire::View& view : dictionary.views()) {
    views_[std::make_pair(view.database(), view.name())] = view;
  }
  access_ = dictionary.access();
  return absl::OkStatus();
}

void Dictionary::InstallCeilings(const wire::Dictionary& dictionary,
                                 const absl::flat_hash_map<uint32_t, uint32_t>& old_versions) {
  absl::flat_hash_map<uint32_t, uint64_t> carried;
  for (const wire::AutoIncrementCeiling& c : dictionary.auto_increment_ceilings()) {
    carried[c.table_id()] = c.ceiling();
  }
  absl::flat_hash_map<uint32_t, AutoIncrement> counters;
  for (const auto& [id, table] : tables_) {
    auto c = carried.find(id);
    const uint64_t ceiling = c == carried.end() ? 1 : std::max<uint64_t>(1, c->second);
    AutoIncrement counter{ceiling, ceiling};
    // A table of the same version was not reset since: a ceiling raised here meanwhile (the
    // dictionary may come from a node that had not heard of it yet) stays.
    auto old = old_versions.find(id);
    auto mine = auto_increment_.find(id);
    if (old != old_versions.end() && old->second == table->version &&
        mine != auto_increment_.end()) {
      counter.ceiling = std::max(counter.ceiling, mine->second.ceiling);
      counter.next = std::max(counter.ceiling, mine->second.next);
    }
    counters.emplace(id, counter);
  }
  auto_increment_ = std::move(counters);
}

void Dictionary::ToProto(wire::Dictionary* out) const {
  out->set_version(version_);
  out->set_incarnation(incarnation_);
  out->set_next_table_id(next_table_id_);
  for (const std::string& db : databases_) out->add_databases(db);
  for (const auto& [id, table] : tables_) schema::AppendTableDef(*table, out->add_tables());
  for (const auto& [id, lock] : alter_locks_) *out->add_alter_locks() = lock;
  for (const auto& [key, view] : views_) *out->add_views() = view;
  if (access_.generation() > 0) *out->mutable_access() = access_;
  wire::RaiseAutoIncrement ceilings;
  Ceilings(&ceilings);
  *out->mutable_auto_increment_ceilings() = std::move(*ceilings.mutable_ceilings());
}

}  // namespace shoal::node
