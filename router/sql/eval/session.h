// The per-connection SQL state the executor reads and changes (current database, variables,
// transaction flags, warnings, SQL-level prepared statements) and the server facts it reports
// (ServerInfo).
//
// A SessionState is owned by one router Session and used only on that session's worker
// thread; nothing here is shared between connections except the immutable ServerInfo.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/any_invocable.h"
#include "absl/time/time.h"
#include "common/metrics.h"
#include "protocol/value.h"
#include "router/sql/eval/auto_increment_range.h"
#include "router/sql/eval/process_list.h"
#include "router/sql/eval/user_lock_calls.h"

namespace shoal::schema {
struct TableDef;
}

namespace shoal::api {
class Client;
class Cluster;
struct Transaction;
}  // namespace shoal::api

namespace shoal::wire {
class AccessControl;
}

namespace shoal::access {
class ResourceCounts;  // router/access/resource_limits.h
}  // namespace shoal::access

namespace shoal::sql {

// The data nodes as one router worker thread reaches them: the thread's native client (with
// its own snapshot of the dictionary) and a way to have defined operations sent.
class DataAccess {
 public:
  virtual ~DataAccess() = default;
  virtual api::Client& client() = 0;
  // Operations were defined on client(): send them (in one batch with every other session's)
  // before the thread next sleeps.
  virtual void Flush() = 0;
  // Runs `callback` once on this thread after `delay`, from the thread's event loop (SLEEP
  // waits so: exec/exec_sleep.cc). False where there is no loop to wait on (tests): nothing
  // will run.
  virtual bool After(absl::Duration /*delay*/, absl::AnyInvocable<void()> /*callback*/) {
    return false;
  }

  // AUTO_INCREMENT values this thread reserved from the dictionary master and has not used
  // yet, by table id: reserved in batches, as NDB's ndb_autoincrement_prefetch_sz, so that an
  // insert does not cost a round trip to the master (auto_increment_range.h).
  using AutoIncrementRange = ::shoal::sql::AutoIncrementRange;
  absl::flat_hash_map<uint32_t, AutoIncrementRange> auto_increment;
  // The user-level locks this thread's sessions hold (exec/user_locks.h).
  UserLockHolds user_locks;
};

class ResultSink;
class AsyncStatement;
class LocalInfile;       // executor.h
struct DictionaryFetch;  // table_access.h

// Whether the statement being run has fetched the dictionary (see SessionState).
enum class DictionaryFetched : uint8_t { kNo, kYes, kFailed };

// Filled once by the router process; outlives every session. Read-only after startup.
struct ServerInfo {
  std::string version = "8.0.36-shoal";  // e.g. "8.0.36-shoal-0.1.0"
  std::string hostname;
  int port = 0;
  std::string socket;
  uint64_t max_allowed_packet = 64 << 20;
  int max_connections = 1024;
  absl::Time started = absl::UnixEpoch();      // for Uptime
  std::function<int64_t()> threads_connected;  // for SHOW STATUS (may be empty)
  std::function<absl::Time()> now;             // the clock (empty = absl::Now); tests inject one
  // LOAD DATA LOCAL: local_infile's global value, which SET GLOBAL changes for every session of
  // this router (one atomic, shared by the copies of this struct); rows per native batch (one
  // transaction each) and batches in flight before the client's file stops being read.
  std::shared_ptr<std::atomic<bool>> local_infile = std::make_shared<std::atomic<bool>>(true);
  uint32_t load_data_batch_rows = 1000;
  // TLS for clients: whether it is offered, the files it was set up from (empty: made in
  // memory), and require_secure_transport, which SET GLOBAL changes for every session of this
  // router (one atomic, shared as local_infile).
  bool have_ssl = false;
  std::string ssl_ca, ssl_cert, ssl_key;
  std::shared_ptr<std::atomic<bool>> require_secure_transport =
      std::make_shared<std::atomic<bool>>(false);
  uint32_t load_data_batches_in_flight = 2;
  // LOAD DATA's progress in /metrics (null without a registry).
  Counter* load_data_rows = nullptr;
  Counter* load_data_bytes = nullptr;
  // Joins in /metrics (null without a registry): statements, native batches (one per step
  // that reads its table), rows read for them.
  Counter* join_statements = nullptr;
  Counter* join_batches = nullptr;
  Counter* join_rows = nullptr;
  // MAX_QUERIES_PER_HOUR and the other hourly limits, counted by this router (null: none are
  // counted), shared by the copies of this struct.
  std::shared_ptr<access::ResourceCounts> resource_counts;
  // This router's sessions (SHOW PROCESSLIST, KILL), shared by the copies of this struct.
  std::shared_ptr<ProcessList> processes = std::make_shared<ProcessList>();
  // The accounts of the configuration's `users:`, enforced until the cluster's accounts are
  // first changed (exec/privilege_check.h). Null: no accounts, nothing is checked.
  std::shared_ptr<const wire::AccessControl> seed_access;
};

// One entry of SHOW WARNINGS: a note, warning or error of the last statement.
struct Diagnostic {
  enum class Level : uint8_t { kNote, kWarning, kError };
  Level level = Level::kWarning;
  uint16_t code = 0;
  std::string message;
};

class PreparedStatement;

struct SessionState {
  const ServerInfo* server = nullptr;
  std::string user, host, database;  // database empty = none selected
  std::string account_host;          // the host part of the account `user` logged in as
  // The roles active (SET ROLE; the account's default roles at login), as (user, host).
  std::vector<std::pair<std::string, std::string>> active_roles;
  uint32_t connection_id = 0;
  // The connection's TLS, as Ssl_version and Ssl_cipher show it (empty without TLS).
  std::string ssl_version, ssl_cipher;
  bool autocommit = true;
  bool in_transaction = false;
  bool read_only_transaction = false;  // START TRANSACTION READ ONLY
  // SET TRANSACTION READ ONLY / READ WRITE without SESSION or GLOBAL: the next transaction's
  // access mode, over the session's (transaction_read_only). Taken by the next transaction —
  // one begun, an autocommit statement that reads or writes tables — or by COMMIT or ROLLBACK.
  std::optional<bool> next_transaction_read_only;
  uint64_t last_insert_id = 0;
  int64_t row_count = -1;  // ROW_COUNT(): the last statement's affected rows, -1 after a SELECT
  // FOUND_ROWS(): the rows the last SELECT returned, or found before its LIMIT with
  // SQL_CALC_FOUND_ROWS; that count is left in `calc_found_rows` by the SELECT as it applies
  // its LIMIT, for FinishStatement to take.
  uint64_t found_rows = 0;
  std::optional<uint64_t> calc_found_rows;
  uint64_t questions = 0;  // statements run, for SHOW STATUS
  // Derived from sql_mode (SetSessionVar keeps them in step, as the default mode has them):
  // how statements are read (exec/executor.cc: SessionParseOptions), and whether grouped
  // SELECTs are checked (exec/full_group_by.h).
  bool no_backslash_escapes = false;
  bool ansi_quotes = false;
  bool pipes_as_concat = false;
  bool only_full_group_by = true;
  // sql_select_limit, derived the same way: nullopt for its default, no limit.
  std::optional<uint64_t> select_limit;
  // RAND()'s generator (MySQL's my_rnd: two seeds below 0x3FFFFFFF), seeded from the system's
  // randomness at its first use, as MySQL seeds one per connection.
  struct RandomSeeds {
    uint64_t seed1 = 0, seed2 = 0;
  };
  std::optional<RandomSeeds> random;
  // RAND(n) with a constant n: each call's own generator, seeded at its first value in the
  // statement being run (`statement`: `questions` then), as MySQL's Item_func_rand keeps one.
  struct SeededRandom {
    const void* call = nullptr;
    uint64_t statement = 0;
    RandomSeeds seeds;
  };
  std::vector<SeededRandom> seeded_random;

  // System variables whose session value differs from the global one, by lower-case name.
  // Values as the variable's type (see system_variables.h): bool/int as int64 or uint64,
  // strings and enums as std::string, NULL where the variable allows it. Changed only through
  // SetSessionVar/EraseSessionVar, which keep `result_encoding`, `utc_offset` and the fields
  // derived from sql_mode and sql_select_limit in step.
  absl::flat_hash_map<std::string, mysql::Value> session_vars;
  // How result columns are described, derived from session_vars on first use after a change:
  // every result set needs it, and deriving it takes several lookups by name.
  struct ResultEncoding {
    uint16_t collation_id;
    int charset_maxlen;        // bytes per character of collation_connection's charset
    int table_charset_maxlen;  // 0 when character_set_results is NULL
  };
  mutable std::optional<ResultEncoding> result_encoding;
  // The time_zone's offset east of UTC in seconds (SYSTEM: UTC), derived the same way: every
  // TIMESTAMP value read or written converts through it (SessionUtcOffset).
  mutable std::optional<int> utc_offset;
  // User variables (@x), by lower-case name (MySQL's user variable names ignore case).
  absl::flat_hash_map<std::string, mysql::Value> user_vars;
  // Notes, warnings and the error of the last non-diagnostic statement (SHOW WARNINGS).
  std::vector<Diagnostic> warnings;
  // SQL-level prepared statements (PREPARE name FROM …), by lower-case name.
  absl::flat_hash_map<std::string, std::shared_ptr<const PreparedStatement>> sql_prepared;

  // SAVEPOINTs of the open transaction, oldest first, each with `transaction_writes` and the
  // size of `undo` when it was set; cleared when a transaction begins. `transaction_writes`
  // counts the statements of the open transaction that may have changed rows. `restorable`:
  // every row written since was recorded in `undo` (exec/savepoint_undo.h).
  struct Savepoint {
    std::string name;
    uint64_t writes = 0;
    size_t undo = 0;
    bool restorable = true;
  };
  std::vector<Savepoint> savepoints;
  uint64_t transaction_writes = 0;
  // While a savepoint is set: each row the transaction writes, as it was before (packed over
  // every column; empty when there was none), oldest first — what ROLLBACK TO SAVEPOINT puts
  // back.
  struct UndoRecord {
    std::shared_ptr<const schema::TableDef> table;
    std::string key;
    std::string before;
  };
  std::vector<UndoRecord> undo;
  size_t undo_bytes = 0;  // of the keys and images in `undo`
  // LOCK TABLES in force: "database.table" (and "database.alias" when one was given) → WRITE.
  absl::flat_hash_map<std::string, bool> locked_tables;

  // The data nodes; null when the router has no cluster (table statements then fail).
  DataAccess* data = nullptr;
  // Receives the results of deferred statements (the session).
  ResultSink* sink = nullptr;
  // The native transaction of the open SQL transaction (BEGIN … COMMIT, or autocommit off),
  // begun by its first table statement; null outside one.
  std::shared_ptr<api::Transaction> txn;
  // The deferred statement running now, if any. A session that goes away while one runs
  // calls in_flight->Orphan() so that its completion touches nothing of the session.
  AsyncStatement* in_flight = nullptr;
  // This session's row in server->processes (null in tests of the executor alone).
  ProcessList::Entry* process = nullptr;
  // The client said it can send files (CLIENT_LOCAL_FILES), set at login.
  bool client_local_files = false;
  // The client asked for found rows (CLIENT_FOUND_ROWS), set at login: an UPDATE's affected
  // rows are then the rows it matched, changed or not (what Django and ORMs' row checks need).
  bool client_found_rows = false;
  // A LOAD DATA LOCAL statement (in_flight too) waiting for the client's file: the session
  // asks the client for it and streams the file's packets to it (executor.h).
  LocalInfile* local_infile = nullptr;
  // What a statement that stopped to wait for the dictionary master asked for
  // (table_access.h); the executor (or, for COM_STMT_PREPARE and COM_FIELD_LIST, the session)
  // takes it, sends it, and runs the statement again once it is answered. Mutable because
  // planning reads the state as const, yet is where the need shows.
  mutable std::shared_ptr<DictionaryFetch> wanted;
  // GET_LOCK and its kin in the statement being run (user_lock_calls.h).
  UserLockCalls user_lock_calls;
  // The table a CREATE TABLE … SELECT made before it stopped, its rows not in yet (to fetch an
  // AUTO_INCREMENT range, exec/exec_create_select.cc): run again from the start (same
  // `questions`), the statement finds its table made and only inserts.
  struct CreatedBySelect {
    uint64_t statement = 0;  // `questions` when it was made
    std::string database, name;
  };
  std::optional<CreatedBySelect> created_by_select;
  // Whether the statement being run fetched the dictionary already: run again, it plans on
  // what it got (or, the fetch failed, on what was cached) instead of asking once more.
  DictionaryFetched dictionary_fetched = DictionaryFetched::kNo;
  // The AUTO_INCREMENT counters (table id → the master's next value) the statement being run
  // read from the master (NextAutoIncrements); null before it asked. Reset with
  // dictionary_fetched; shared with the fetch's answer, which must not touch the session.
  mutable std::shared_ptr<absl::flat_hash_map<uint32_t, uint64_t>> auto_increment_read;
  // The views ("db.name") whose SELECT typed without an error on the dictionary of
  // `views_checked_on` (incarnation, version): a statement that names one again skips that
  // check until the dictionary changes (exec/view_expansion.h). Mutable as `wanted`.
  mutable std::pair<uint64_t, uint32_t> views_checked_on;
  mutable absl::flat_hash_set<std::string> views_checked;
};

// Sets (or, for EraseSessionVar, returns to its global value) the session value of the system
// variable `name` (lower case).
void SetSessionVar(absl::string_view name, mysql::Value value, SessionState* state);
void EraseSessionVar(absl::string_view name, SessionState* state);

// The session's time_zone as seconds east of UTC: a fixed offset ('+02:00'), or 0 for SYSTEM
// (system_time_zone is UTC) and UTC.
int SessionUtcOffset(const SessionState& state);

// Sets character_set_client/connection/results and collation_connection from the collation
// id a client sent in its handshake (33, 45, 255…); unknown ids fall back to
// utf8mb4_general_ci.
void ApplyHandshakeCollation(uint16_t collation_id, SessionState* state);

// The collation id string results carry (the session's collation_connection) and the bytes
// per character of its charset (column lengths are characters × this).
uint16_t ResultCollationId(const SessionState& state);
int ResultCharsetMaxLen(const SessionState& state);
// The same for table columns, or 0 when character_set_results is NULL: results then travel
// unconverted and MySQL reports a column's own byte length (a TEXT is 65535, not 65535 × 4).
int TableResultCharsetMaxLen(const SessionState& state);

}  // namespace shoal::sql
