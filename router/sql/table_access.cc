#include "router/sql/table_access.h"

#include "absl/strings/str_cat.h"
#include "engine/api/client.h"

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

std::shared_ptr<const api::Dictionary> CurrentDictionary(const SessionState& state) {
  if (state.data == nullptr) return nullptr;
  api::Client& client = state.data->client();
  std::shared_ptr<const api::Dictionary> dictionary = state.data->cluster().dictionary();
  if (dictionary == nullptr || dictionary->version < client.seen_dictionary_version()) {
    (void)client.RefreshDictionary();  // on failure the statement goes on with what is cached
    dictionary = state.data->cluster().dictionary();
  }
  return dictionary;
}

std::variant<api::TablePtr, mysql::SqlError> ResolveTable(const TableName& name,
                                                          const SessionState& state) {
  if (auto err = RequireDataNodes(state)) return *err;
  auto db = DatabaseOf(name, state);
  if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
  const std::string& database = std::get<std::string>(db);
  std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(state);
  if (dictionary != nullptr) {
    if (api::TablePtr table = dictionary->Find(database, name.name)) return table;
  }
  if (!state.data->client().RefreshDictionary().ok()) {
    return ClusterFailure();
  }
  dictionary = state.data->cluster().dictionary();
  if (dictionary != nullptr) {
    if (api::TablePtr table = dictionary->Find(database, name.name)) return table;
  }
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
    case 1406:
      sqlstate = "22001";
      break;
    default:
      break;
  }
  return mysql::SqlError{code, sqlstate, std::string(message)};
}

}  // namespace shoal::sql
