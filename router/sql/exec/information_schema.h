// information_schema, computed by the router from its dictionary when a statement reads it:
// each view becomes rows with MySQL 8.0's columns, which the row pipeline then finishes like
// a derived table (WHERE, GROUP BY, ORDER BY, DISTINCT, LIMIT). Views about what Shoal does
// not have (stored programs, tablespace files, views) are empty, with their
// columns, so that tools that ask get MySQL's answer for a server without any.
#pragma once

#include <variant>

#include "absl/strings/string_view.h"
#include "router/sql/exec/row_pipeline.h"

namespace shoal::sql::internal {

// Whether `database` names information_schema (any case, as MySQL).
bool IsInformationSchema(absl::string_view database);
// Whether FROM `from` names a view of information_schema (by its database, or the session's),
// or mysql.user, which is computed the same way from the accounts.
bool ReadsInformationSchema(const TableRef& from, const SessionState& state);
// The schema of such a view: "information_schema" or "mysql".
absl::string_view SystemSchemaOf(const TableRef& from, const SessionState& state);

// The rows of `schema`.`view` as the session may see them now; 1109 for a view there is none
// of. May stop the statement to refresh the dictionary (table_access.h).
std::variant<FetchedRows, mysql::SqlError> InformationSchemaRows(
    absl::string_view view, const SessionState& state,
    absl::string_view schema = "information_schema");

// The columns alone, for COM_STMT_PREPARE.
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> InformationSchemaColumns(
    absl::string_view view, const SessionState& state,
    absl::string_view schema = "information_schema");

}  // namespace shoal::sql::internal
