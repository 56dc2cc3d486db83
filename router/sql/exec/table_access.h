// What every table statement needs before it runs: the data nodes, the table's definition
// from the dictionary, and the MySQL form of an error a data node gave.
//
// Planning never waits for the dictionary master. A statement that finds it needs the master
// first (the worker's dictionary is older than a data node said, a table or database it names
// is not known yet, it needs auto-increment values) asks for a DictionaryFetch and stops
// before it has done anything; the executor sends the request and, once it is answered, runs
// the statement again from the start (executor.cc). The worker's loop goes on meanwhile.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <variant>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "engine/api/cluster.h"
#include "engine/wire/dictionary.pb.h"
#include "engine/wire/errors.h"
#include "protocol/sql_error.h"
#include "router/sql/eval/session.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql {

// 1297 when the router has no data nodes to ask (no cluster at all).
std::optional<mysql::SqlError> RequireDataNodes(const SessionState& state);

// The database a statement means: `name.database`, else the session's (1046 when none).
std::variant<std::string, mysql::SqlError> DatabaseOf(const TableName& name,
                                                      const SessionState& state);

// A dictionary request a statement cannot plan without.
struct DictionaryFetch {
  wire::DictReq request;
  // Takes the answer (an auto-increment range into DataAccess::auto_increment); an error fails
  // the statement instead of running it again. Null for a refresh, whose answer the client
  // installs itself. Runs on the worker's thread; must not touch the session (it may be gone).
  absl::AnyInvocable<std::optional<mysql::SqlError>(const absl::StatusOr<wire::DictConf>&)> apply;
  bool answered = false;  // set by FetchDictionary: the master answered (a refresh took)
  absl::Duration timeout = absl::Seconds(30);  // how long the client keeps asking
};

// Sets `state.wanted` to `fetch` and returns the error the statement stops with. The error
// only carries the stop up the statement's usual error paths: the executor sees `wanted` and
// never sends it. REQUIRES: nothing of the statement has been done that running it again
// would repeat.
mysql::SqlError WantDictionary(const SessionState& state, DictionaryFetch fetch);
// WantDictionary for a refresh, unless this statement fetched the dictionary already.
std::optional<mysql::SqlError> WantRefresh(const SessionState& state);
// Whether a data node has mentioned a dictionary newer than the worker's (or it has none).
bool DictionaryBehind(const SessionState& state);
// WantRefresh when a data node has mentioned a dictionary newer than the worker's (or it
// has none): what a statement reading the dictionary calls first.
std::optional<mysql::SqlError> RequireCurrentDictionary(const SessionState& state);

// A statement about to write `table` (or change its definition) while a copying ALTER TABLE
// rebuilds it waits for the ALTER to end, as MySQL's writers wait for its metadata lock: a
// stop (WantDictionary) for the master's AwaitAlter answer, given within
// innodb_lock_wait_timeout or the statement fails with 1205. nullopt: no ALTER holds it.
std::optional<mysql::SqlError> AwaitAlter(const schema::TableDef& table, const SessionState& state);

// Sends `fetch->request` to the master and, once answered (or failed after the client's 30 s),
// applies the answer and calls `then` with the error to fail the statement with, if any.
// `then` runs inside the client's Poll() on the worker's thread; it may run the statement
// again at once (nothing waits in there).
void FetchDictionary(DataAccess* data, std::shared_ptr<DictionaryFetch> fetch,
                     absl::AnyInvocable<void(std::optional<mysql::SqlError>)> then);
// After `fetch` was answered: notes it in `state` so that the statement, run again, plans on
// what it got instead of asking again.
void NoteFetched(const DictionaryFetch& fetch, SessionState* state);

// The next AUTO_INCREMENT value of each of `tables` that has an AUTO_INCREMENT column, by table
// id, as SHOW CREATE TABLE and information_schema.TABLES show it: the master's counter, or,
// when this worker holds the last range the master handed out, the next value it would
// generate (so a session sees what MySQL would show it). Asks the master first
// (WantDictionary); a table the master no longer knows is left out.
std::variant<absl::flat_hash_map<uint32_t, uint64_t>, mysql::SqlError> NextAutoIncrements(
    absl::Span<const api::TablePtr> tables, const SessionState& state);

// The current definition of the named table (1046, 1146). Asks for a refresh first
// (WantDictionary) when a data node has mentioned a newer dictionary, and once more before
// answering 1146: another router may have just created the table.
std::variant<api::TablePtr, mysql::SqlError> ResolveTable(const TableName& name,
                                                          const SessionState& state);

// The worker's dictionary snapshot as it is (null without data nodes). Callers that need it
// current call RequireCurrentDictionary first.
std::shared_ptr<const api::Dictionary> CurrentDictionary(const SessionState& state);

// The native transaction a table statement runs in: the session's (begun now by the
// transaction's first table statement) inside BEGIN … COMMIT or with autocommit off; null for
// an autocommit statement.
std::shared_ptr<api::Transaction> StatementTransaction(SessionState* state);

// Errors after which NDB aborts the whole transaction (lock wait timeout, a data node lost),
// so the session's transaction is rolled back rather than the statement alone.
inline bool AbortsTransaction(uint16_t code) { return code == 1205 || code == 1297; }

// The row locks a SELECT's locking clause asks of the data nodes: none outside a transaction
// (an autocommit statement's locks would end with it), else exclusive, with its NOWAIT or
// SKIP LOCKED.
api::Lock ReadLock(const SelectStmt& select, bool in_transaction);

// Rolls `txn` back without waiting for the answer (a session that went away, or a
// transaction a failed statement left unusable).
void RollbackInBackground(DataAccess* data, std::shared_ptr<api::Transaction> txn);

// A data node's error (a MySQL error number and its text) as the client gets it, with the
// SQLSTATE MySQL gives that number.
mysql::SqlError EngineError(uint16_t code, absl::string_view message);
// The MySQL error a dictionary request's answer carries: the master's (conf->error_code), or
// 1297 when no data node answered in time; nullopt for success.
std::optional<mysql::SqlError> DictionaryAnswerError(const absl::StatusOr<wire::DictConf>& conf);
// 1297 "Got temporary error 4009 'Cluster Failure' from NDBCLUSTER": no data node answers.
mysql::SqlError ClusterFailure();

}  // namespace shoal::sql
