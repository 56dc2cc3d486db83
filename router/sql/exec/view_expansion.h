// Views in statements (docs/architecture.md, "Views"). The dictionary keeps a view's SELECT as
// text; a statement that names a view is parsed again with each such name replaced by the
// view's SELECT as a derived table of the view's name, so every executor path that reads
// derived tables reads views too. A view's unqualified tables are those of the database that
// was current when it was made, as in MySQL.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/schema/schema.h"
#include "engine/wire/dictionary.pb.h"
#include "protocol/column.h"
#include "protocol/sql_error.h"
#include "router/sql/eval/session.h"
#include "router/sql/parse/ast.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql::internal {

// Whether `stmt` names a view of the session's dictionary. Free when there is no view.
bool NamesView(const Statement& stmt, const SessionState& state);

// The session's dictionary as (incarnation, version); {0, 0} when there is none.
std::pair<uint64_t, uint32_t> DictionaryStamp(const SessionState& state);

// Replaces each view `stmt` names with its SELECT as a derived table, views in views too.
// Errors: 1462 for a view that reaches itself, 1356 for one whose tables are gone, 1146 when
// no dictionary is known yet (or the wait for a fresh one: WantRefresh's).
std::optional<mysql::SqlError> ExpandViews(Statement* stmt, const SessionState& state);

// The SELECT `select_text` as a view made in `default_database` under the parse `options`
// would run it: tables qualified, views in it expanded; `making` names the view (db.name)
// being made, which its own SELECT may not reach (1462).
std::variant<Statement, mysql::SqlError> ParseViewSelect(const std::string& select_text,
                                                         const std::string& default_database,
                                                         const std::string& making,
                                                         const SessionState& state,
                                                         const ParseOptions& options);

// How `view`'s SELECT is parsed: under the quoting modes of the session that made it.
ParseOptions ViewParseOptions(const wire::View& view);

// A result column as the column of a table MySQL would make for it: a view's, CREATE TABLE …
// SELECT's. `charset_maxlen`: the bytes per character of the result's text columns.
schema::ColumnDef ColumnFromResult(const mysql::ColumnDefinition& c, int charset_maxlen);

// The view's columns as a table definition without rows or keys: what SHOW COLUMNS,
// information_schema.COLUMNS and COM_FIELD_LIST show of it. Typed from its SELECT now, as
// MySQL does.
std::variant<schema::TableDef, mysql::SqlError> ViewAsTable(const wire::View& view,
                                                            const SessionState& state);

// The view `name` names (in the session's database when unqualified), from a fresh
// dictionary; nullopt when it names none. An error only while a fresh one is fetched.
std::variant<std::optional<wire::View>, mysql::SqlError> LookUpView(const TableName& name,
                                                                    const SessionState& state);

// Whether INSERT, UPDATE and DELETE may write through the view (view_writes.h):
// information_schema.VIEWS.IS_UPDATABLE.
bool ViewIsUpdatable(const wire::View& view, const SessionState& state);

// SHOW CREATE VIEW's text (MySQL's form, with the SELECT as it was written).
std::string ShowCreateViewText(const wire::View& view);

}  // namespace shoal::sql::internal
