// INSERT and REPLACE, UPDATE, DELETE, and the pieces SELECT shares with them (table names,
// ORDER BY).
#include "absl/strings/ascii.h"
#include "router/sql/parser_internal.h"

namespace shoal::sql::internal {

bool Parser::ParseInsert(InsertStmt*) { return NotSupported(absl::AsciiStrToUpper(Peek().text)); }
bool Parser::ParseUpdate(UpdateStmt*) { return NotSupported("UPDATE"); }
bool Parser::ParseDelete(DeleteStmt*) { return NotSupported("DELETE"); }
bool Parser::ParseOrderBy(std::vector<OrderItem>*) { return NotSupported("ORDER BY"); }
bool Parser::ParseTableName(TableName*) { return NotSupported("tables"); }

}  // namespace shoal::sql::internal
