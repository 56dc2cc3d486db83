// ALTER TABLE: the forms Shoal runs so far (see parse_alter.cc).
#include "absl/strings/str_cat.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {

StatementResult ExecuteAlterTable(const AlterTableStmt& stmt, const ExecContext& ctx) {
  SessionState* s = ctx.state;
  auto resolved = ResolveTable(stmt.table, *s);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  if (auto err = CheckTableLock(stmt.table, "", *s, /*write=*/true)) return *err;
  // DISABLE/ENABLE KEYS: every index is kept up to date by each write, and, as with InnoDB,
  // there is no switch to defer it. MySQL answers with this note and changes nothing.
  const schema::TableDef& table = *std::get<api::TablePtr>(resolved);
  AddWarning(s, Diagnostic::Level::kNote, 1031,
             absl::StrCat("Table storage engine for '", table.name, "' doesn't have this option"));
  // ALTER TABLE commits the open transaction, as every DDL statement does.
  s->in_transaction = false;
  s->read_only_transaction = false;
  return EndNativeTransaction(ctx, true, OkResult{});
}

}  // namespace shoal::sql::internal
