// ALTER TABLE: the forms Shoal runs so far. Dumps wrap each table's rows in
// ALTER TABLE t DISABLE KEYS … ENABLE KEYS; other alterations answer 1235.
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {

bool Parser::ParseAlterTable(AlterTableStmt* out) {
  Advance();  // ALTER
  if (!ExpectKeyword("TABLE") || !ParseTableName(&out->table)) return false;
  if (AcceptKeyword("DISABLE")) {
    out->action = AlterTableStmt::Action::kDisableKeys;
  } else if (AcceptKeyword("ENABLE")) {
    out->action = AlterTableStmt::Action::kEnableKeys;
  } else {
    return NotSupported("ALTER TABLE");
  }
  return ExpectKeyword("KEYS");
}

}  // namespace shoal::sql::internal
