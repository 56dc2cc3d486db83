// CREATE and DROP of databases, tables and indexes; TRUNCATE; ANALYZE; EXPLAIN and DESCRIBE.
#include "router/sql/parser_internal.h"

namespace shoal::sql::internal {

bool Parser::ParseCreate(StatementNode*) { return NotSupported("CREATE"); }
bool Parser::ParseDrop(StatementNode*) { return NotSupported("DROP"); }
bool Parser::ParseTruncate(TruncateStmt*) { return NotSupported("TRUNCATE"); }
bool Parser::ParseAnalyze(AnalyzeStmt*) { return NotSupported("ANALYZE"); }
bool Parser::ParseExplain(StatementNode*) { return NotSupported("EXPLAIN"); }

}  // namespace shoal::sql::internal
