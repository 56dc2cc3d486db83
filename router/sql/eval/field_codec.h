// Values between the MySQL protocol's form (mysql::Value) and the packed row format of the
// data nodes (engine/schema/row.h), for one column at a time, with MySQL's strict-mode
// conversions and errors; and the result-set metadata of a table column.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/schema/row.h"
#include "engine/schema/schema.h"
#include "protocol/column.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"

namespace shoal::sql {

// Converts `value` to what `column` stores and appends it to `out` (RowWriter::Int/Float/
// Double/Bytes, or Null()). Strict mode as MySQL 8.0's default sql_mode: out-of-range numbers
// are ER_WARN_DATA_OUT_OF_RANGE 1264 "Out of range value for column 'c' at row N", strings
// too long are ER_DATA_TOO_LONG 1406 "Data too long for column 'c' at row N", text that is
// not a number for a numeric column is ER_TRUNCATED_WRONG_VALUE_FOR_FIELD 1366 "Incorrect
// integer value: 'abc' for column 'c' at row N", bad dates 1292, NULL into NOT NULL 1048
// "Column 'c' cannot be null". Numbers round as MySQL does (3.5 → 4 into INT; DECIMAL
// rounds half away from zero to its scale). `row` is 1-based, for the messages.
// TIMESTAMP values are taken in the session's time zone, `utc_offset` seconds east of UTC
// (SessionUtcOffset), and stored in UTC, as MySQL converts them; 0 keeps them as given (a
// value already in UTC, or one that only moves between columns). The caller turns NULL or 0
// for an AUTO_INCREMENT column into the next value before calling.
// JSON columns take JSON text, stored in MySQL's canonical form; other values are 3140
// "Invalid JSON text: … in value for column '<table>.<column>'." (`table` names the column's
// table in that message).
std::optional<mysql::SqlError> AppendField(const schema::ColumnDef& column,
                                           const mysql::Value& value, int row,
                                           schema::RowWriter* out, absl::string_view table = {},
                                           int utc_offset = 0);

// The same conversion into one packed field (row.h EncodeValue form): for keys, defaults,
// filter operands and update programs. NULL is not allowed here.
std::variant<std::string, mysql::SqlError> EncodeField(const schema::ColumnDef& column,
                                                       const mysql::Value& value, int row,
                                                       int utc_offset = 0);

// The Value a stored field reads as: integers as int64_t (uint64_t when unsigned), FLOAT and
// DOUBLE as double (a FLOAT as the double nearest its shortest decimal form: 1.1f reads as
// 1.1), DECIMAL as mysql::Decimal, strings as std::string (CHAR without its trailing spaces,
// BINARY with its 0x00 padding), DATE/DATETIME/TIMESTAMP as mysql::DateTime, TIME as
// mysql::Time. A TIMESTAMP reads in the time zone `utc_offset` seconds east of UTC (the
// session's, SessionUtcOffset; 0: as stored, in UTC).
mysql::Value DecodeField(const schema::ColumnDef& column, const schema::Field& field,
                         int utc_offset = 0);

// A packed row a data node sent for `columns` of `table`, decoded into `*out` (appended);
// `scratch` is reused between rows. False when the row is malformed.
bool DecodeRow(const schema::TableDef& table, const std::vector<uint16_t>& columns,
               absl::string_view packed, std::vector<schema::Field>* scratch,
               std::vector<mysql::Value>* out, int utc_offset = 0);

// The type's zero, what a column holds in mysqld's empty record (Field::reset): 0, 0.0, a
// DECIMAL's zero at its scale, the zero date or time, an empty string; for ENUM and SET "0",
// the text their position 0 (shown as '') is stored from.
mysql::Value ZeroValue(const schema::ColumnDef& column);

// MySQL's reading of `text` as a date or a date and time ('2024-02-29', '2024-02-29 12:00:00.5',
// '20240229'): how a string compares with a temporal value. nullopt if it is not one.
std::optional<mysql::DateTime> DateTimeFromText(absl::string_view text);

// MySQL's reading of `text` as a TIME ('12:34:56.789', '-838:59:59', '1 02:03:04', '123456'),
// in signed microseconds. nullopt if it is not one.
std::optional<int64_t> TimeMicrosFromText(absl::string_view text);

// The column definition a result set carries for `column` of `table` (type, length in
// characters × the result charset's bytes, flags NOT_NULL/PRI_KEY/UNIQUE_KEY/MULTIPLE_KEY/
// UNSIGNED/AUTO_INCREMENT/BINARY/BLOB, decimals), as MySQL 8.0 sends it. `charset_max_len` 0:
// results are not converted (character_set_results NULL), lengths are the column's bytes.
mysql::ColumnDefinition ResultColumn(const schema::TableDef& table, int column,
                                     uint16_t collation_id, int charset_max_len);

}  // namespace shoal::sql
