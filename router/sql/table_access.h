// What every table statement needs before it runs: the data nodes, the table's definition
// from the dictionary, and the MySQL form of an error a data node gave.
#pragma once

#include <cstdint>
#include <optional>
#include <variant>

#include "absl/strings/string_view.h"
#include "engine/api/cluster.h"
#include "engine/wire/errors.h"
#include "protocol/sql_error.h"
#include "router/sql/ast.h"
#include "router/sql/session.h"

namespace shoal::sql {

// 1297 when the router has no data nodes to ask (no cluster at all).
std::optional<mysql::SqlError> RequireDataNodes(const SessionState& state);

// The database a statement means: `name.database`, else the session's (1046 when none).
std::variant<std::string, mysql::SqlError> DatabaseOf(const TableName& name,
                                                      const SessionState& state);

// The current definition of the named table (1046, 1146). The cached dictionary is refreshed
// from a data node first when a data node has mentioned a newer one, and once more before
// answering 1146: another router may have just created the table.
std::variant<api::TablePtr, mysql::SqlError> ResolveTable(const TableName& name,
                                                          const SessionState& state);

// The cached dictionary, refreshed first when a data node has mentioned a newer one.
std::shared_ptr<const api::Dictionary> CurrentDictionary(const SessionState& state);

// The native transaction a table statement runs in: the session's (begun now by the
// transaction's first table statement) inside BEGIN … COMMIT or with autocommit off; null for
// an autocommit statement.
std::shared_ptr<api::Transaction> StatementTransaction(SessionState* state);

// Errors after which NDB aborts the whole transaction (lock wait timeout, a data node lost),
// so the session's transaction is rolled back rather than the statement alone.
inline bool AbortsTransaction(uint16_t code) { return code == 1205 || code == 1297; }

// Rolls `txn` back without waiting for the answer (a session that went away, or a
// transaction a failed statement left unusable).
void RollbackInBackground(DataAccess* data, std::shared_ptr<api::Transaction> txn);

// A data node's error (a MySQL error number and its text) as the client gets it, with the
// SQLSTATE MySQL gives that number.
mysql::SqlError EngineError(uint16_t code, absl::string_view message);
// 1297 "Got temporary error 4009 'Cluster Failure' from NDBCLUSTER": no data node answers.
mysql::SqlError ClusterFailure();

}  // namespace shoal::sql
