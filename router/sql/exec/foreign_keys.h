// FOREIGN KEY constraints at run time (docs/architecture.md, "Foreign keys"): what a
// statement's row changes to one table ask of the tables it references (each new reference
// must find its parent row) and of the tables that reference it (the children of a removed or
// changed parent row are refused, deleted, updated or cleared, as the constraint says).
//
// The router checks them inside the statement's transaction, after the statement's own
// writes and before its commit, so that what it reads is what the statement leaves (a row
// that references itself, a parent and its child inserted by one statement). Every row it
// finds it locks until the commit, as InnoDB's and NDB's checks do: a parent row found for a
// new child cannot be deleted before that child commits, and the children found for a deleted
// parent cannot be joined by another until it commits.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "engine/api/client.h"
#include "engine/api/cluster.h"
#include "engine/schema/schema.h"
#include "protocol/sql_error.h"
#include "router/sql/eval/session.h"

namespace shoal::sql::internal {

// One row a statement changed, packed over every column of its table.
struct RowChange {
  std::string before;  // empty for an inserted row
  std::string after;   // empty for a deleted row
};

// Whether rows inserted into `table` must be checked: ForeignKeysApply, and either the rows
// reference parents or (`replace`) they may replace rows that children reference. A plain
// INSERT into a table that is only a parent needs no check (and no transaction of its own).
bool ForeignKeysApplyToInserts(const schema::TableDef& table, const SessionState& state,
                               bool replace);

// The session's foreign_key_checks.
bool ForeignKeyChecksOn(const SessionState& state);

// Before checking writes to `table` in a transaction that records its undo for savepoints
// (savepoint_undo.h): a key with CASCADE or SET NULL may change rows the undo would not know
// of, so the savepoints set so far become unrestorable.
void NoteCascades(SessionState* state, const schema::TableDef& table);

// Whether writes to `table` must be checked: foreign_key_checks is on in the session and the
// table has foreign keys or is referenced by one. Cheap when the dictionary has none at all.
bool ForeignKeysApply(const schema::TableDef& table, const SessionState& state);

// Checks `changes` to `table` inside `txn` (which the caller ends): 1452 when a new or changed
// reference finds no parent row; for the children of each deleted parent row, or of one whose
// referenced columns changed, the constraint's action: RESTRICT and NO ACTION refuse (1451),
// CASCADE deletes or updates them, SET NULL clears their referencing columns — and those
// changes are checked in turn, at most 15 levels deep (3008). `done` gets the first error, or
// nullopt, once every operation this started has completed; it may run before this returns.
void CheckForeignKeys(DataAccess* data, std::shared_ptr<const api::Dictionary> dictionary,
                      api::Transaction* txn, api::TablePtr table, std::vector<RowChange> changes,
                      absl::AnyInvocable<void(std::optional<mysql::SqlError>)> done);

// For INSERT IGNORE, before its writes: which of `rows` (new rows of `table`) find no parent
// row for some foreign key, each with the 1452 it would give (the statement skips them with
// that warning, as MySQL does). The parents found are locked as CheckForeignKeys locks them.
using MissingParents = std::vector<std::optional<mysql::SqlError>>;
void FindMissingParents(
    DataAccess* data, std::shared_ptr<const api::Dictionary> dictionary, api::Transaction* txn,
    api::TablePtr table, const std::vector<std::string>& rows,
    absl::AnyInvocable<void(std::optional<mysql::SqlError>, MissingParents)> done);

}  // namespace shoal::sql::internal
