// The pieces of INSERT that other statements writing rows reuse (LOAD DATA, INSERT … SELECT):
// rows as values, packing one row with MySQL's defaults, and AUTO_INCREMENT values from the
// worker's reserved ranges. Defined in exec_insert.cc. Run on the session's worker thread.
#pragma once

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/functional/function_ref.h"
#include "engine/schema/row.h"
#include "engine/schema/schema.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"
#include "router/sql/eval/session.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/replace_plan.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {

// The rows of an INSERT as values, before they are packed: per row every column's value and
// whether it was given (else its default, or a generated value).
struct RowsToInsert {
  std::vector<std::vector<mysql::Value>> values;
  std::vector<std::vector<bool>> given;
  uint64_t generated = 0;  // AUTO_INCREMENT values the rows ask for

  // A row of values for `columns` (table positions); nullopt is DEFAULT.
  void Add(const schema::TableDef& table, const std::vector<int>& columns,
           std::vector<std::optional<mysql::Value>> row);
};

// The table columns an INSERT gives values for, in the order of its value lists (1054, 1110).
std::variant<std::vector<int>, mysql::SqlError> TargetColumns(const InsertStmt& stmt,
                                                              const schema::TableDef& table);

// Packs `rows` and writes them into `table` as `stmt` says (REPLACE, IGNORE, ON DUPLICATE KEY
// UPDATE): Deferred, or an error before anything was sent.
StatementResult InsertRows(const InsertStmt& stmt, api::TablePtr table, RowsToInsert rows,
                           const ExecContext& ctx);

// REPLACE into a table with a unique secondary index (exec_replace.cc): reads, in one batch
// with exclusive locks in `txn`, what the primary and unique keys of each of `rows` hold, and
// works out the deletes and writes that replace them (replace_plan.h). `done` gets those steps,
// or the reads' first error, once every read has answered; it may run before this returns.
// REQUIRES: `*rows` lives until then.
using ReplacePlanned =
    absl::AnyInvocable<void(std::variant<std::vector<ReplaceStep>, mysql::SqlError>)>;
void PlanReplace(DataAccess* data, api::Transaction* txn, api::TablePtr table,
                 const std::vector<std::string>* rows, ReplacePlanned done);

// REPLACE into a table with a unique secondary index, as a statement: the packed `rows`, each
// taking the place of every row it collides with on its primary key or a unique key, as in
// MySQL. Delivers the statement's result itself (the caller returns Deferred).
// `records_info`, `warned`: as InsertRows' OK says them.
void StartReplace(const ExecContext& ctx, api::TablePtr table, std::vector<std::string> rows,
                  uint64_t last_insert_id, bool records_info, uint64_t warned);

// The OK of a statement that wrote rows: `affected` and the first generated id (also the
// session's LAST_INSERT_ID when there is one), with MySQL's "Records: … Duplicates: …
// Warnings: …" info when `records_info` (a multi-row INSERT, REPLACE or INSERT … SELECT).
struct WriteCounts {
  uint64_t affected = 0;
  uint64_t last_insert_id = 0;
  uint64_t records = 0;
  uint64_t duplicates = 0;
  uint64_t warnings = 0;
};
OkResult WriteOk(const WriteCounts& counts, bool records_info, SessionState* state);

// INSERT … SELECT (exec_insert_select.cc): the SELECT runs first as a child statement, then its
// rows are inserted as a multi-row INSERT's.
StatementResult ExecuteInsertSelect(const InsertStmt& stmt, api::TablePtr table,
                                    std::vector<int> columns, const ExecContext& ctx);

// Whether the AUTO_INCREMENT column's value asks for a generated one: none given, NULL or 0.
bool WantsGeneratedValue(const mysql::Value& value, bool given);

// Packs one row of `table` into `out` (cleared first). Column c takes `append(c, out)` where
// `given[c]`, else a generated value (the AUTO_INCREMENT column, and the hidden key) taken from
// `*next_id` onwards, else its default (the statement's time for DEFAULT CURRENT_TIMESTAMP:
// column_defaults.h) or NULL; 1364 for a NOT NULL column without a default.
// `*first_auto` is set to the first value the AUTO_INCREMENT column was given, if it was 0.
using AppendGiven =
    absl::FunctionRef<std::optional<mysql::SqlError>(int column, schema::RowWriter* out)>;
std::optional<mysql::SqlError> PackRow(const schema::TableDef& table,
                                       const std::vector<bool>& given, AppendGiven append,
                                       const ExecContext& ctx, uint64_t* next_id,
                                       uint64_t* first_auto, schema::RowWriter* out);

// How many generated values PackRow takes for a row whose AUTO_INCREMENT column is given or
// not (`auto_given`): one for that column, one for the hidden key.
uint64_t GeneratedValuesPerRow(const schema::TableDef& table, bool auto_given);

// The worker's AUTO_INCREMENT values for `table` (emptied when the table has a new version).
AutoIncrementRange& WorkerAutoIncrement(const schema::TableDef& table, DataAccess* data);
// `count` AUTO_INCREMENT values for `table` from the worker's reserved range: the first, or
// nullopt when the range holds fewer (nothing is taken then).
std::optional<uint64_t> TakeAutoIncrement(const schema::TableDef& table, uint64_t count,
                                          DataAccess* data);
// The dictionary request that reserves at least `count` more values for `table`, from
// `at_least` on, into the worker's range (for FetchDictionary or WantDictionary).
DictionaryFetch ReserveAutoIncrement(const schema::TableDef& table, uint64_t count,
                                     DataAccess* data, uint64_t at_least = 0);
// The value a packed row of `table` holds in its AUTO_INCREMENT column, when it is one that
// moves the counter (positive; MySQL leaves the counter alone for zero, negatives and NULL).
std::optional<uint64_t> StoredAutoIncrement(const schema::TableDef& table,
                                            absl::string_view packed);

}  // namespace shoal::sql::internal
