// Column definitions as MySQL 8.0 describes its result columns: one helper per kind, so
// SELECT expressions, SHOW statements and variables all describe a type the same way.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "protocol/column.h"
#include "router/sql/eval/session.h"

namespace shoal::sql {

enum class Nullability : uint8_t { kNullable, kNotNull };

// LONGLONG (or LONG when `type` says so) with BINARY, charset 63.
mysql::ColumnDefinition IntColumn(uint32_t length, bool is_unsigned, Nullability n,
                                  mysql::ColumnType type = mysql::ColumnType::kLongLong);
// VAR_STRING in the connection's collation, `chars` characters long.
mysql::ColumnDefinition StringColumn(uint32_t chars, const SessionState& state, Nullability n);
mysql::ColumnDefinition DoubleColumn(Nullability n);
// NEWDECIMAL: `precision` digits, `scale` after the point.
mysql::ColumnDefinition DecimalColumn(uint32_t precision, uint8_t scale, Nullability n);
mysql::ColumnDefinition NullColumn();
// JSON (type 245) in the connection's character set with BINARY (MySQL's utf8mb4_bin), as
// MySQL types a JSON function's result; nullable.
mysql::ColumnDefinition JsonColumn(const SessionState& state);
// DATETIME / DATE / TIME with `fsp` fractional digits.
mysql::ColumnDefinition TemporalColumn(mysql::ColumnType type, uint8_t fsp, Nullability n);

// A named column for SHOW results (name and org_name set).
mysql::ColumnDefinition Named(mysql::ColumnDefinition col, absl::string_view name);

}  // namespace shoal::sql
