// The SQL entry points the router's session calls: prepare a statement once, execute it
// many times; COM_QUERY text is prepare + execute without parameters. Statements are planned
// at Prepare (parsed, result columns typed) so that, once tables exist, a prepared statement
// is checked against the dictionary once.
//
// All functions run on the calling session's thread and touch only the given SessionState.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "protocol/column.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"
#include "router/sql/eval/session.h"
#include "router/sql/parse/ast.h"
#include "router/sql/parse/split.h"

namespace shoal::sql {

struct OkResult {
  uint64_t affected_rows = 0;
  uint64_t last_insert_id = 0;
  uint16_t warnings = 0;
  std::string info;  // e.g. "Statement prepared"
};

// The statement runs on the data nodes: its result comes later through the session's
// ResultSink (see below).
struct Deferred {};

// Exactly one of: OK, a result set (send with WarningCount(state) in its EOF), an error, or
// Deferred.
using StatementResult = std::variant<OkResult, mysql::ResultSet, mysql::SqlError, Deferred>;

// Where a deferred statement's result goes: called exactly once, on the session's thread,
// with an OK, a result set or an error, unless the session went away first (see
// SessionState::in_flight). The session reads nothing more from its client until then, so
// one statement per session is in flight at a time.
class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual void StatementDone(StatementResult result) = 0;
  // A LOAD DATA LOCAL is ready for the client's file: just made (its file may be asked for
  // now, if the session already waits for it — a statement run again after a dictionary
  // fetch), or takes the file again after holding it back (LocalInfile::WantsData false).
  // Called on the session's thread.
  virtual void ReadyForInput() {}
};

// A LOAD DATA LOCAL statement waiting for the client's file (SessionState::local_infile), set
// when it returns Deferred. The session sends the client LocalInfileRequest for file_name(),
// hands it the payload of every packet that follows, and calls End() at the empty packet that
// ends the file; only after End() does the statement deliver its result (an error included:
// the rest of the file is drained first, so the connection stays in step). Owned by itself
// (an AsyncStatement); used only on the session's thread.
class LocalInfile {
 public:
  virtual const std::string& file_name() const = 0;
  // Whether the statement takes more of the file now. False: the session leaves the client's
  // packets unread (backpressure) until ResultSink::ReadyForInput.
  virtual bool WantsData() const = 0;
  // A packet of the file; `bytes` need not outlive the call.
  virtual void Data(absl::string_view bytes) = 0;
  // The file is over. The result may be delivered before this returns.
  virtual void End() = 0;
  // The session is gone (after AsyncStatement::Orphan): nothing more comes.
  virtual void Abandon() = 0;

 protected:
  ~LocalInfile() = default;
};

// A parsed statement with `?` placeholders. Immutable once built; the session (or a SQL-level
// PREPARE) owns it.
class PreparedStatement {
 public:
  // Which dictionary a statement's views were expanded on (view_expansion.h).
  using DictionaryStamp = std::pair<uint64_t, uint32_t>;  // incarnation, version

  PreparedStatement(std::string text, Statement stmt, std::vector<mysql::ColumnDefinition> columns,
                    std::optional<DictionaryStamp> views_expanded_on = std::nullopt)
      : text_(std::move(text)),
        stmt_(std::move(stmt)),
        columns_(std::move(columns)),
        views_expanded_on_(views_expanded_on) {}

  int param_count() const { return stmt_.param_count; }
  // Result metadata known at prepare time (empty for SET/BEGIN/…). A `?` in the select list
  // is typed VAR_STRING here; EXECUTE reports the types of the values actually bound.
  const std::vector<mysql::ColumnDefinition>& columns() const { return columns_; }
  const Statement& statement() const { return stmt_; }
  const std::string& text() const { return text_; }
  // Set when the statement named views, now expanded: it runs as it is while the dictionary
  // is the one they were expanded on, and is parsed and expanded again from its text once the
  // dictionary changed (a view may have).
  const std::optional<DictionaryStamp>& views_expanded_on() const { return views_expanded_on_; }
  // That expansion again, on the dictionary it was last run on. One session runs a statement
  // at a time, so this cache needs no lock.
  std::shared_ptr<const PreparedStatement>& reexpanded() const { return reexpanded_; }

 private:
  std::string text_;
  Statement stmt_;
  std::vector<mysql::ColumnDefinition> columns_;
  std::optional<DictionaryStamp> views_expanded_on_;
  mutable std::shared_ptr<const PreparedStatement> reexpanded_;
};

// COM_STMT_PREPARE (and SQL PREPARE): parses with `?` allowed and types the result columns.
// Errors as MySQL: 1064/1065/1235 from the parser, 1193/1054/1305 from typing, 1295 for
// statements that cannot be prepared (PREPARE, EXECUTE, DEALLOCATE, USE).
std::variant<std::unique_ptr<PreparedStatement>, mysql::SqlError> Prepare(
    absl::string_view sql, const SessionState& state);

// Runs `stmt` with one value per placeholder (1210 if the count differs). Table statements
// return Deferred when the session has data nodes (SessionState::data); a deferred one keeps
// `stmt`, and `params` need not outlive the call.
StatementResult Execute(std::shared_ptr<const PreparedStatement> stmt,
                        absl::Span<const mysql::Value> params, SessionState* state);

// COM_QUERY with one statement (split multi-statement text with SplitStatements first).
StatementResult ExecuteText(absl::string_view one_statement, SessionState* state);

// SERVER_STATUS_AUTOCOMMIT, IN_TRANS, IN_TRANS_READONLY and NO_BACKSLASH_ESCAPES for the
// OK/EOF packets after a statement.
uint16_t StatusFlags(const SessionState& state);

// Warnings (and errors) the last statement left, for OK/EOF packets; at most 65535.
uint16_t WarningCount(const SessionState& state);

}  // namespace shoal::sql
