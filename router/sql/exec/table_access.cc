#include "router/sql/exec/table_access.h"

#include "absl/strings/str_cat.h"
#include "engine/api/client.h"
#include "router/sql/eval/system_variables.h"

namespace shoal::sql {

std::optional<mysql::SqlError> RequireDataNodes(const SessionState& state) {
  if (state.data != nullptr) return std::nullopt;
  return ClusterFailure();
}

std::variant<std::string, mysql::SqlError> DatabaseOf(const TableName& name,
                                                      const SessionState& state) {
  if (!name.database.empty()) return name.database;
  if (state.database.empty()) return mysql::errors::NoDatabaseSelected();
  return state.database;
}

mysql::SqlError WantDictionary(const SessionState& state, DictionaryFetch fetch) {
  state.wanted = std::make_shared<DictionaryFetch>(std::move(fetch));
  // Code 0 is no MySQL error: should one ever slip through, it is not mistaken for another.
  return mysql::SqlError{0, "HY000", "waiting for the dictionary"};
}

std::optional<mysql::SqlError> WantRefresh(const SessionState& state) {
  // Without data nodes (a router not yet connected) there is nothing to look at again.
  if (state.data == nullptr || state.dictionary_fetched != DictionaryFetched::kNo) {
    return std::nullopt;
  }
  DictionaryFetch fetch;
  fetch.request.mutable_get_dictionary();
  return WantDictionary(state, std::move(fetch));
}

bool DictionaryBehind(const SessionState& state) {
  if (state.data == nullptr) return false;
  api::Client& client = state.data->client();
  const std::shared_ptr<const api::Dictionary>& dictionary = client.dictionary();
  return dictionary == nullptr || dictionary->version < client.seen_dictionary_version();
}

std::optional<mysql::SqlError> RequireCurrentDictionary(const SessionState& state) {
  // On a failed fetch the statement goes on with what is cached.
  if (DictionaryBehind(state)) return WantRefresh(state);
  return std::nullopt;
}

void FetchDictionary(DataAccess* data, std::shared_ptr<DictionaryFetch> fetch,
                     absl::AnyInvocable<void(std::optional<mysql::SqlError>)> then) {
  wire::DictReq request = fetch->request;
  absl::Duration timeout = fetch->timeout;
  data->client().Dictionary(
      std::move(request),
      [fetch = std::move(fetch),
       then = std::move(then)](absl::StatusOr<wire::DictConf> conf) mutable {
        fetch->answered = conf.ok();
        std::optional<mysql::SqlError> error;
        if (fetch->apply) error = fetch->apply(conf);
        then(std::move(error));
      },
      timeout);
  data->Flush();
}

void NoteFetched(const DictionaryFetch& fetch, SessionState* state) {
  if (!fetch.request.has_get_dictionary()) return;
  state->dictionary_fetched = fetch.answered ? DictionaryFetched::kYes : DictionaryFetched::kFailed;
}

std::variant<absl::flat_hash_map<uint32_t, uint64_t>, mysql::SqlError> NextAutoIncrements(
    absl::Span<const api::TablePtr> tables, const SessionState& state) {
  absl::flat_hash_map<uint32_t, uint64_t> out;
  if (state.data == nullptr) return out;
  if (state.auto_increment_read == nullptr) {
    DictionaryFetch fetch;
    wire::ReadAutoIncrement* read = fetch.request.mutable_read_auto_increment();
    for (const api::TablePtr& table : tables) {
      if (table->auto_increment_column() >= 0) read->add_table_ids(table->id);
    }
    if (read->table_ids().empty()) return out;
    auto counters = std::make_shared<absl::flat_hash_map<uint32_t, uint64_t>>();
    state.auto_increment_read = counters;
    fetch.apply =
        [counters](const absl::StatusOr<wire::DictConf>& conf) -> std::optional<mysql::SqlError> {
      if (auto err = DictionaryAnswerError(conf)) return err;
      for (const auto& [id, next] : conf->next_auto_increment()) (*counters)[id] = next;
      return std::nullopt;
    };
    return WantDictionary(state, std::move(fetch));
  }
  for (const api::TablePtr& table : tables) {
    auto it = state.auto_increment_read->find(table->id);
    if (it == state.auto_increment_read->end()) continue;
    uint64_t next = it->second;
    auto held = state.data->auto_increment.find(table->id);
    if (held != state.data->auto_increment.end() && held->second.table_version == table->version &&
        held->second.end == next) {
      AutoIncrementRange range = held->second;
      if (std::optional<uint64_t> first = range.Take(1)) next = *first;
    }
    out[table->id] = next;
  }
  return out;
}

std::optional<mysql::SqlError> DictionaryAnswerError(const absl::StatusOr<wire::DictConf>& conf) {
  if (!conf.ok()) {
    return EngineError(
        wire::kErTemporary,
        absl::StrCat(wire::TemporaryError(wire::kNdbClusterFailure, "Cluster Failure"), " (",
                     conf.status().message(), ")"));
  }
  if (conf->error_code() != 0) return EngineError(conf->error_code(), conf->error_message());
  return std::nullopt;
}

std::optional<mysql::SqlError> AwaitAlter(const schema::TableDef& table,
                                          const SessionState& state) {
  // On every write: the worker's snapshot by reference, no copy of the pointer.
  if (state.data == nullptr) return std::nullopt;
  const std::shared_ptr<const api::Dictionary>& dictionary = state.data->client().dictionary();
  if (dictionary == nullptr || !dictionary->altering.contains(table.id)) return std::nullopt;
  DictionaryFetch fetch;
  fetch.request.mutable_await_alter()->set_table_id(table.id);
  uint64_t seconds = 50;
  if (const SysVarDef* def = FindSysVar("innodb_lock_wait_timeout")) {
    mysql::Value value = SessionValue(*def, state);
    if (const auto* u = std::get_if<uint64_t>(&value)) seconds = *u;
    if (const auto* i = std::get_if<int64_t>(&value); i != nullptr && *i > 0) seconds = *i;
  }
  fetch.timeout = absl::Seconds(seconds);
  fetch.apply = [](const absl::StatusOr<wire::DictConf>& conf) -> std::optional<mysql::SqlError> {
    if (conf.ok()) return std::nullopt;
    return mysql::SqlError{1205, "HY000", "Lock wait timeout exceeded; try restarting transaction"};
  };
  return WantDictionary(state, std::move(fetch));
}

std::shared_ptr<const api::Dictionary> CurrentDictionary(const SessionState& state) {
  if (state.data == nullptr) return nullptr;
  return state.data->client().dictionary();
}

std::variant<api::TablePtr, mysql::SqlError> ResolveTable(const TableName& name,
                                                          const SessionState& state) {
  if (auto err = RequireDataNodes(state)) return *err;
  auto db = DatabaseOf(name, state);
  if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
  const std::string& database = std::get<std::string>(db);
  if (auto err = RequireCurrentDictionary(state)) return *err;
  std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(state);
  if (dictionary != nullptr) {
    if (api::TablePtr table = dictionary->Find(database, name.name)) return table;
    // Statements that read views read them expanded (view_expansion.h): this one needs a table.
    if (dictionary->FindView(database, name.name) != nullptr) {
      return mysql::SqlError{1347, "HY000",
                             absl::StrCat("'", database, ".", name.name, "' is not BASE TABLE")};
    }
  }
  if (auto err = WantRefresh(state)) return *err;
  if (state.dictionary_fetched == DictionaryFetched::kFailed) return ClusterFailure();
  return mysql::errors::NoSuchTable(database, name.name);
}

std::shared_ptr<api::Transaction> StatementTransaction(SessionState* state) {
  if (!state->in_transaction) return nullptr;
  if (state->txn == nullptr) {
    state->txn = std::make_shared<api::Transaction>(state->data->client().Begin());
  }
  return state->txn;
}

namespace {

// Owns itself and the transaction until the rollback's answer arrives.
class BackgroundRollback : public api::Completion {
 public:
  explicit BackgroundRollback(std::shared_ptr<api::Transaction> txn) : txn_(std::move(txn)) {}
  api::Transaction* txn() { return txn_.get(); }
  void Done(const api::Outcome&) override { delete this; }

 private:
  std::shared_ptr<api::Transaction> txn_;
};

}  // namespace

void RollbackInBackground(DataAccess* data, std::shared_ptr<api::Transaction> txn) {
  if (data == nullptr || txn == nullptr) return;
  auto* rollback = new BackgroundRollback(std::move(txn));
  data->client().Rollback(rollback->txn(), rollback);
  data->Flush();
}

mysql::SqlError ClusterFailure() {
  return EngineError(wire::kErTemporary,
                     wire::TemporaryError(wire::kNdbClusterFailure, "Cluster Failure"));
}

api::Lock ReadLock(const SelectStmt& select, bool in_transaction) {
  if (select.lock == LockMode::kNone || !in_transaction) return api::Lock::kNone;
  switch (select.lock_wait) {
    case LockWait::kNoWait:
      return api::Lock::kExclusiveNoWait;
    case LockWait::kSkipLocked:
      return api::Lock::kExclusiveSkipLocked;
    case LockWait::kWait:
      break;
  }
  return api::Lock::kExclusive;
}

mysql::SqlError EngineError(uint16_t code, absl::string_view message) {
  const char* sqlstate = "HY000";
  switch (code) {
    case 1048:
    case 1062:
      sqlstate = "23000";
      break;
    case 1049:
    case 1061:
    case 1072:
    case 1091:
    case 1235:
      sqlstate = "42000";
      break;
    case 1050:
      sqlstate = "42S01";
      break;
    case 1051:
    case 1146:
      sqlstate = "42S02";
      break;
    case 1264:
    case 1690:
      sqlstate = "22003";
      break;
    case 1317:  // ER_QUERY_INTERRUPTED: a scan its statement's KILL QUERY stopped
      sqlstate = "70100";
      break;
    case 1406:
      sqlstate = "22001";
      break;
    default:
      break;
  }
  return mysql::SqlError{code, sqlstate, std::string(message)};
}

}  // namespace shoal::sql
