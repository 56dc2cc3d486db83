// From CREATE TABLE's syntax tree to the dictionary's table definition, with the errors MySQL
// gives for definitions it refuses; and back, for SHOW CREATE TABLE.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/schema/schema.h"
#include "protocol/sql_error.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql {

// Builds the TableDef a CREATE TABLE asks for (database and name as given; id, version and,
// when the statement names none, partitions are left 0 for the dictionary master). Checks
// what MySQL checks before it creates anything: known types and their lengths (1074, 1439,
// 1425, 1426, 1427), duplicate columns (1060) and keys (1061), key columns that exist (1072),
// one primary key (1068), defaults that fit the column (1067), AUTO_INCREMENT only on an
// indexed integer column (1075, 1063), the storage engine (ndbcluster, ndb, innodb, memory,
// shoal and myisam all mean Shoal; others 1286). Unsupported but valid MySQL answers 1235.
std::variant<schema::TableDef, mysql::SqlError> TableDefFromSpec(const CreateTableStmt& stmt,
                                                                 const std::string& database);

// One column as CREATE TABLE or ALTER TABLE defines it, with TableDefFromSpec's checks;
// `in_primary_key`: it is (or becomes) part of the primary key, so NOT NULL.
std::variant<schema::ColumnDef, mysql::SqlError> ColumnDefFromSpec(const ColumnSpec& spec,
                                                                   bool in_primary_key);
// The collation a table's COLLATE = `name` makes its text columns' default: binary for a
// `_bin` one, else case-insensitive.
schema::Collation TableCollation(absl::string_view name);
// Gives `column`, made from `spec`, the table's collation `table` when it is a CHAR, VARCHAR
// or TEXT column that names neither a collation nor a charset of its own, as MySQL does in
// CREATE TABLE and in ALTER TABLE's new and redefined columns.
void TakeTableCollation(const ColumnSpec& spec, schema::Collation table, schema::ColumnDef* column);
// DEFAULT `expr` for `column` (ALTER TABLE … SET DEFAULT), with the same checks (1067, 1101).
std::optional<mysql::SqlError> SetColumnDefault(const Expr& expr, bool in_primary_key,
                                                schema::ColumnDef* column);
// Orders a definition's keys as MySQL lists them: the primary key, unique keys over NOT NULL
// columns, other unique keys, then the rest.
void SortIndexesAsMysql(schema::TableDef* table);
// The MySQL error a schema::ValidateAndComplete status ("<code>: <message>") stands for.
mysql::SqlError SqlErrorFromSchemaStatus(const absl::Status& status);
// Whether ENGINE = `engine` means Shoal (ndbcluster, ndb, innodb, memory, shoal, myisam).
bool IsShoalEngineName(absl::string_view engine);

// A FOREIGN KEY clause as the dictionary keeps it, but for its child columns, which the
// caller places: the constraint's name (MySQL's `<table>_ibfk_<n>` when none is given, n one
// past `*last_number`, which it advances), the parent (in `database` unless the clause names
// one) and the actions. 1239 when the column lists differ in length; SET DEFAULT answers
// 1235, as InnoDB and NDB refuse it.
std::variant<schema::ForeignKeyDef, mysql::SqlError> ForeignKeyFromSpec(
    const ForeignKeySpec& spec, const std::string& table_name, const std::string& database,
    int* last_number);
// Whether some index of `table` begins with `columns`, in that order: a foreign key needs one
// over its child columns, which CREATE TABLE and ALTER TABLE add when there is none, named as
// ForeignKeyIndexName says (empty: after its first column, as any unnamed key).
bool IndexBeginsWith(const schema::TableDef& table, const std::vector<int>& columns);
std::string ForeignKeyIndexName(const ForeignKeySpec& spec);
// `CONSTRAINT `fk` FOREIGN KEY (`a`) REFERENCES `parent` (`id`) ON DELETE CASCADE`: how SHOW
// CREATE TABLE and the 1451/1452 messages spell a foreign key of `child`.
std::string ForeignKeyClause(const schema::TableDef& child, const schema::ForeignKeyDef& fk);
// An action as information_schema.REFERENTIAL_CONSTRAINTS shows it (none given: NO ACTION).
std::string ReferenceRuleText(schema::ReferenceAction action);

// `name` between backquotes, a backquote inside doubled: `a``b`.
std::string QuoteIdentifier(absl::string_view name);

// A column's type as MySQL 8.0 spells it in SHOW CREATE TABLE and SHOW COLUMNS: no display
// widths (TINYINT(1) excepted), "int unsigned", "decimal(10,2)", "datetime(3)".
std::string ColumnTypeText(const schema::ColumnDef& column);

// The collation of a CHAR, VARCHAR or TEXT column as MySQL 8.0 names it: utf8mb4_0900_ai_ci
// (case-insensitive), or utf8mb4_bin for a binary one (a `_bin` collation, or a definition
// older than column collations: its keys are bytes). Empty for the other types.
absl::string_view ColumnCollationName(const schema::ColumnDef& column);

// MySQL's SHOW CREATE TABLE text for `table` (ENGINE=ndbcluster). Column comments, column
// character sets and partitioning are not kept in a TableDef, so they are not shown.
std::string ShowCreateTableText(const schema::TableDef& table);
// The same with ` AUTO_INCREMENT=n` after the engine, as MySQL shows it when the table's next
// auto-increment value is above 1. (CreateTableStmt::auto_increment is the AUTO_INCREMENT = n
// a CREATE TABLE asks for; the caller seeds the table's counter from it.)
std::string ShowCreateTableText(const schema::TableDef& table, uint64_t next_auto_increment);

}  // namespace shoal::sql
