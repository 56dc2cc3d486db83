// SqlError: an error as a MySQL client sees it — the number, the SQLSTATE and the message a
// real MySQL 8.0 server gives — plus factories for the errors Shoal raises, so every place
// that raises one says it the same way.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace shoal::mysql {

struct SqlError {
  uint16_t code = 0;
  std::string sqlstate;  // five characters
  std::string message;
};

namespace errors {

// 1045 28000 Access denied for user '%s'@'%s' (using password: %s)
SqlError AccessDenied(absl::string_view user, absl::string_view host, bool using_password);
// 1040 08004 Too many connections
SqlError TooManyConnections();
// 1047 08S01 Unknown command
SqlError UnknownCommand();
// 1049 42000 Unknown database '%s'
SqlError UnknownDatabase(absl::string_view db);
// 1046 3D000 No database selected
SqlError NoDatabaseSelected();
// 1064 42000 You have an error in your SQL syntax; check the manual that corresponds to your
// MySQL server version for the right syntax to use near '%s' at line %d
SqlError ParseError(absl::string_view near, int line);
// 1235 42000 This version of MySQL doesn't yet support '%s'
SqlError NotSupportedYet(absl::string_view what);
// 1193 HY000 Unknown system variable '%s'
SqlError UnknownSystemVariable(absl::string_view name);
// 1231 42000 Variable '%s' can't be set to the value of '%s'
SqlError WrongValueForVariable(absl::string_view name, absl::string_view value);
// 1232 42000 Incorrect argument type to variable '%s'
SqlError WrongTypeForVariable(absl::string_view name);
// 1238 HY000 Variable '%s' is a read only variable
SqlError ReadOnlyVariable(absl::string_view name);
// 1228 HY000 Variable '%s' is a SESSION variable and can't be used with SET GLOBAL
SqlError SessionOnlyVariable(absl::string_view name);
// 1229 HY000 Variable '%s' is a GLOBAL variable and should be set with SET GLOBAL
SqlError GlobalOnlyVariable(absl::string_view name);
// 1273 HY000 Unknown collation: '%s'
SqlError UnknownCollation(absl::string_view name);
// 1115 42000 Unknown character set: '%s'
SqlError UnknownCharacterSet(absl::string_view name);
// 1153 08S01 Got a packet bigger than 'max_allowed_packet' bytes
SqlError PacketTooLarge();
// 1243 HY000 Unknown prepared statement handler (%s) given to %s
SqlError UnknownStatementHandler(absl::string_view id, absl::string_view where);
// 1210 HY000 Incorrect arguments to %s
SqlError WrongArguments(absl::string_view where);
// 1295 HY000 This command is not supported in the prepared statement protocol yet
SqlError UnsupportedPreparedStatement();
// 1146 42S02 Table '%s.%s' doesn't exist
SqlError NoSuchTable(absl::string_view db, absl::string_view table);
// 1054 42S22 Unknown column '%s' in '%s'
SqlError UnknownColumn(absl::string_view column, absl::string_view where);
// 1052 23000 Column '%s' in %s is ambiguous
SqlError AmbiguousColumn(absl::string_view column, absl::string_view where);
// 1066 42000 Not unique table/alias: '%s'
SqlError NotUniqueTable(absl::string_view alias);
// 1051 42S02 Unknown table '%s'
SqlError UnknownTable(absl::string_view table);
// 1305 42000 FUNCTION %s does not exist
SqlError UnknownFunction(absl::string_view name);
// 1065 42000 Query was empty
SqlError EmptyQuery();
// 2027-style malformed packets are client-side; the server answers 1835 (malformed packet):
// 1835 HY000 Malformed communication packet.
SqlError MalformedPacket();
// 1158/1159-style network errors are logged, not sent. 1105 HY000 for internal errors: %s
SqlError Internal(absl::string_view what);
// 1248 42000 Every derived table must have its own alias
SqlError DerivedTableNeedsAlias();
// 1222 21000 The used SELECT statements have a different number of columns
SqlError DifferentColumnCounts();
// 1048 23000 Column '%s' cannot be null
SqlError ColumnCannotBeNull(absl::string_view column);
// 1264 22003 Out of range value for column '%s' at row %ld
SqlError OutOfRangeValue(absl::string_view column, int row);
// 1265 01000 Data truncated for column '%s' at row %ld (an error in strict mode)
SqlError DataTruncated(absl::string_view column, int row);
// 1406 22001 Data too long for column '%s' at row %ld
SqlError DataTooLong(absl::string_view column, int row);
// 1366 HY000 Incorrect %s value: '%s' for column '%s' at row %ld ("integer", "decimal")
SqlError IncorrectValueForColumn(absl::string_view type, absl::string_view value,
                                 absl::string_view column, int row);
// 1366 HY000 Incorrect string value: '%s' for column '%s' at row %ld (`value` already printable)
SqlError IncorrectStringValue(absl::string_view value, absl::string_view column, int row);
// 1292 22007 Incorrect %s value: '%s' for column '%s' at row %ld ("date", "datetime", "time")
SqlError IncorrectTemporalValue(absl::string_view type, absl::string_view value,
                                absl::string_view column, int row);
// 1094 HY000 Unknown thread id: %lu
SqlError UnknownThreadId(uint64_t id);
// 1317 70100 Query execution was interrupted
SqlError QueryInterrupted();
// 3057 42000 Incorrect user-level lock name '%s'.
SqlError UserLockWrongName(absl::string_view name);

}  // namespace errors
}  // namespace shoal::mysql
