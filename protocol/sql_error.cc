// The SqlError factories: codes, SQLSTATEs and messages as MySQL 8.0 gives them.
#include "protocol/sql_error.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace shoal::mysql::errors {
namespace {

SqlError Make(uint16_t code, absl::string_view sqlstate, std::string message) {
  return SqlError{code, std::string(sqlstate), std::move(message)};
}

}  // namespace

SqlError AccessDenied(absl::string_view user, absl::string_view host, bool using_password) {
  return Make(1045, "28000",
              absl::StrCat("Access denied for user '", user, "'@'", host,
                           "' (using password: ", using_password ? "YES" : "NO", ")"));
}

SqlError TooManyConnections() { return Make(1040, "08004", "Too many connections"); }

SqlError UnknownCommand() { return Make(1047, "08S01", "Unknown command"); }

SqlError UnknownDatabase(absl::string_view db) {
  return Make(1049, "42000", absl::StrCat("Unknown database '", db, "'"));
}

SqlError NoDatabaseSelected() { return Make(1046, "3D000", "No database selected"); }

SqlError ParseError(absl::string_view near, int line) {
  return Make(1064, "42000",
              absl::StrCat("You have an error in your SQL syntax; check the manual that "
                           "corresponds to your MySQL server version for the right syntax to "
                           "use near '",
                           near, "' at line ", line));
}

SqlError NotSupportedYet(absl::string_view what) {
  return Make(1235, "42000",
              absl::StrCat("This version of MySQL doesn't yet support '", what, "'"));
}

SqlError UnknownSystemVariable(absl::string_view name) {
  return Make(1193, "HY000", absl::StrCat("Unknown system variable '", name, "'"));
}

SqlError WrongValueForVariable(absl::string_view name, absl::string_view value) {
  return Make(1231, "42000",
              absl::StrCat("Variable '", name, "' can't be set to the value of '", value, "'"));
}

SqlError WrongTypeForVariable(absl::string_view name) {
  return Make(1232, "42000", absl::StrCat("Incorrect argument type to variable '", name, "'"));
}

SqlError ReadOnlyVariable(absl::string_view name) {
  return Make(1238, "HY000", absl::StrCat("Variable '", name, "' is a read only variable"));
}

SqlError SessionOnlyVariable(absl::string_view name) {
  return Make(1228, "HY000",
              absl::StrCat("Variable '", name,
                           "' is a SESSION variable and can't be used with SET GLOBAL"));
}

SqlError GlobalOnlyVariable(absl::string_view name) {
  return Make(
      1229, "HY000",
      absl::StrCat("Variable '", name, "' is a GLOBAL variable and should be set with SET GLOBAL"));
}

SqlError UnknownCollation(absl::string_view name) {
  return Make(1273, "HY000", absl::StrCat("Unknown collation: '", name, "'"));
}

SqlError UnknownCharacterSet(absl::string_view name) {
  return Make(1115, "42000", absl::StrCat("Unknown character set: '", name, "'"));
}

SqlError PacketTooLarge() {
  return Make(1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes");
}

SqlError UnknownStatementHandler(absl::string_view id, absl::string_view where) {
  return Make(1243, "HY000",
              absl::StrCat("Unknown prepared statement handler (", id, ") given to ", where));
}

SqlError WrongArguments(absl::string_view where) {
  return Make(1210, "HY000", absl::StrCat("Incorrect arguments to ", where));
}

SqlError UnsupportedPreparedStatement() {
  return Make(1295, "HY000",
              "This command is not supported in the prepared statement protocol yet");
}

SqlError NoSuchTable(absl::string_view db, absl::string_view table) {
  return Make(1146, "42S02", absl::StrCat("Table '", db, ".", table, "' doesn't exist"));
}

SqlError UnknownColumn(absl::string_view column, absl::string_view where) {
  return Make(1054, "42S22", absl::StrCat("Unknown column '", column, "' in '", where, "'"));
}

SqlError AmbiguousColumn(absl::string_view column, absl::string_view where) {
  return Make(1052, "23000", absl::StrCat("Column '", column, "' in ", where, " is ambiguous"));
}

SqlError NotUniqueTable(absl::string_view alias) {
  return Make(1066, "42000", absl::StrCat("Not unique table/alias: '", alias, "'"));
}

SqlError UnknownTable(absl::string_view table) {
  return Make(1051, "42S02", absl::StrCat("Unknown table '", table, "'"));
}

SqlError UnknownFunction(absl::string_view name) {
  return Make(1305, "42000", absl::StrCat("FUNCTION ", name, " does not exist"));
}

SqlError EmptyQuery() { return Make(1065, "42000", "Query was empty"); }

SqlError MalformedPacket() { return Make(1835, "HY000", "Malformed communication packet."); }

SqlError Internal(absl::string_view what) { return Make(1105, "HY000", std::string(what)); }

SqlError DerivedTableNeedsAlias() {
  return Make(1248, "42000", "Every derived table must have its own alias");
}

SqlError DifferentColumnCounts() {
  return Make(1222, "21000", "The used SELECT statements have a different number of columns");
}

SqlError ColumnCannotBeNull(absl::string_view column) {
  return Make(1048, "23000", absl::StrCat("Column '", column, "' cannot be null"));
}

SqlError OutOfRangeValue(absl::string_view column, int row) {
  return Make(1264, "22003",
              absl::StrCat("Out of range value for column '", column, "' at row ", row));
}

SqlError DataTruncated(absl::string_view column, int row) {
  return Make(1265, "01000", absl::StrCat("Data truncated for column '", column, "' at row ", row));
}

SqlError DataTooLong(absl::string_view column, int row) {
  return Make(1406, "22001", absl::StrCat("Data too long for column '", column, "' at row ", row));
}

SqlError IncorrectValueForColumn(absl::string_view type, absl::string_view value,
                                 absl::string_view column, int row) {
  return Make(1366, "HY000",
              absl::StrCat("Incorrect ", type, " value: '", value, "' for column '", column,
                           "' at row ", row));
}

SqlError IncorrectStringValue(absl::string_view value, absl::string_view column, int row) {
  return IncorrectValueForColumn("string", value, column, row);
}

SqlError IncorrectTemporalValue(absl::string_view type, absl::string_view value,
                                absl::string_view column, int row) {
  return Make(1292, "22007",
              absl::StrCat("Incorrect ", type, " value: '", value, "' for column '", column,
                           "' at row ", row));
}

SqlError UnknownThreadId(uint64_t id) {
  return Make(1094, "HY000", absl::StrCat("Unknown thread id: ", id));
}

SqlError QueryInterrupted() { return Make(1317, "70100", "Query execution was interrupted"); }
SqlError UserLockWrongName(absl::string_view name) {
  return Make(3057, "42000", absl::StrCat("Incorrect user-level lock name '", name, "'."));
}

}  // namespace shoal::mysql::errors
