// A copying ALTER TABLE (docs/architecture.md, "ALTER TABLE"): for changes the stored rows
// cannot take as they are (a column added, dropped, moved or retyped; a new primary or unique
// key), the router creates the new definition as a hidden table ("#sql-alter-…"), locks the
// table against writes through the dictionary master (LockForAlter: writers wait, readers go
// on), copies every row — read under exclusive locks in one scan, so that transactions that
// wrote before the lock are waited for, converted with MySQL's strict rules, inserted in
// batches each committed on its own — and then has the master put the copy in the table's
// place in one dictionary change (FinishAlter). Any failure drops the copy and leaves the
// table as it was. Progress shows in SHOW PROCESSLIST; KILL QUERY stops it.
#pragma once

#include "router/sql/exec/alter_definition.h"
#include "router/sql/exec/exec_internal.h"

namespace shoal::sql::internal {

// Runs the copy `plan` asks for on `table`: Deferred, or an error before anything was done.
StatementResult RunAlterCopy(AlterPlan plan, api::TablePtr table, const ExecContext& ctx);

}  // namespace shoal::sql::internal
