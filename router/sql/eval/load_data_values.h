// LOAD DATA's (and INSERT IGNORE's) conversion of a value into a column: field_codec's strict
// conversion when the value fits, and otherwise what mysqld does under IGNORE (which LOCAL
// implies) — store the nearest value the column can hold and note a warning instead of
// failing the statement:
//   not a number ('abc', '')      1366, 0         a number with trailing text   1265, the number
//   out of range                  1264, clipped   a string too long             1265, cut
//   NULL into NOT NULL            1263, 0 or ''   a bad date or time            1292, zero
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/schema/row.h"
#include "engine/schema/schema.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"
#include "router/sql/eval/session.h"

namespace shoal::sql {

// Appends `value` (a field's text, NULL, or what a SET expression gave) converted for
// `column` to `out`, with the warnings above appended to `warnings`; `row` is 1-based, for the
// messages; a TIMESTAMP is read in the time zone `utc_offset` seconds east of UTC (the
// session's). Errors only for what no IGNORE turns into a warning.
// INSERT IGNORE warns about NULL into NOT NULL with 1048 where LOAD DATA says 1263.
enum class IgnoredBy : uint8_t { kLoadData, kInsert };
std::optional<mysql::SqlError> AppendLoadedValue(const schema::ColumnDef& column,
                                                 const mysql::Value& value, uint64_t row,
                                                 int utc_offset, schema::RowWriter* out,
                                                 std::vector<Diagnostic>* warnings,
                                                 IgnoredBy statement = IgnoredBy::kLoadData);

// What a column missing from a short row gets (mysqld's Field::reset): NULL when the column's
// default is NULL, else its type's zero — not its DEFAULT.
std::optional<mysql::SqlError> AppendMissingValue(const schema::ColumnDef& column, uint64_t row,
                                                  schema::RowWriter* out);

}  // namespace shoal::sql
