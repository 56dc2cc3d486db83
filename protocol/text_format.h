// Values as MySQL's text protocol shows them: integers in decimal, DOUBLE and FLOAT the way
// MySQL's my_gcvt prints them (shortest round-trip digits; 'e' notation for very large or
// small magnitudes: 0.1 -> "0.1", 1e300 -> "1e300", FLOAT with 6 significant digits), fixed
// decimals when the column has them, DECIMAL text as is, "YYYY-MM-DD", "YYYY-MM-DD
// hh:mm:ss[.ffffff]" and "[-]hh:mm:ss[.ffffff]" with as many fraction digits as the column's
// decimals.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "protocol/constants.h"
#include "protocol/value.h"

namespace shoal::mysql {

// `decimals` >= this means "not fixed" (MySQL's NOT_FIXED_DEC).
inline constexpr uint8_t kNotFixedDecimals = 31;

// Appends `v` formatted for a column of `type` with `decimals`. Appends nothing for Null
// (the row encoder writes NULL as 0xFB itself).
void AppendTextValue(const Value& v, ColumnType type, uint8_t decimals, std::string* out);

// Dates and times in MySQL's text layout, with `fraction_digits` (0..6; none and no point for
// 0) after the seconds: "YYYY-MM-DD", "YYYY-MM-DD hh:mm:ss[.ffffff]" and "[-]hh:mm:ss[.ffffff]"
// (hours past 23 for long durations). The one temporal formatter: results (AppendTextValue),
// SHOW CREATE TABLE defaults, and the router's text of values (CONCAT, messages).
void AppendDateText(const DateTime& t, std::string* out);
void AppendDateTimeText(const DateTime& t, int fraction_digits, std::string* out);
void AppendTimeText(const Time& t, int fraction_digits, std::string* out);

// MySQL's my_gcvt for DOUBLE (field width 22 for the choice of notation, every digit the value
// needs to read back exactly) and FLOAT (width 12, 6 significant digits).
void AppendDouble(double v, std::string* out);
void AppendFloat(float v, std::string* out);

// A string literal as SHOW CREATE statements write one (MySQL's append_unescaped): in single
// quotes, with NUL, newline, carriage return and backslash escaped and quotes doubled.
std::string QuoteSqlString(absl::string_view s);

}  // namespace shoal::mysql
