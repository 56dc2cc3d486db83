// Conversions between Values as MySQL does them: the text a value prints as, numbers from
// strings, decimal formatting, character counts, time zone offsets.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "protocol/value.h"

namespace shoal::sql {

// MySQL's NOT_FIXED_DEC: the `decimals` of strings and floating-point values.
inline constexpr uint8_t kNotFixedDec = 31;

// The text form MySQL gives a value (CONCAT, SHOW, error messages). NULL -> "NULL".
std::string ValueText(const mysql::Value& v);
// The text two values that compare equal share: ValueText, with strings folded as the
// connection's case-insensitive, PAD SPACE collation compares them (trailing spaces dropped,
// then case and accents folded: engine/schema/text_fold.h). For grouping, DISTINCT and hash
// joins.
std::string CollationKeyText(const mysql::Value& v);
// The same under collation `collation_id`: for a binary one (IsBinaryCollationId) a string's
// bytes; else CollationKeyText. Binary collations are NO PAD here ('a' and 'a ' differ), as
// the data nodes' keys over such columns compare (docs/architecture.md, "Collations and keys").
std::string CollationKeyText(const mysql::Value& v, uint16_t collation_id);
// Two strings under a binary collation: their bytes. -1, 0 or 1.
int CompareBinaryText(absl::string_view x, absl::string_view y);
// Doubles as MySQL prints them: shortest round-trip digits, plain notation for moderate
// exponents (1e10 -> "10000000000"), "1e20" style beyond.
std::string FormatDouble(double d);
// `d` rounded to `scale` digits after the point ("1.50"), half away from zero.
std::string FormatFixed(double d, int scale);

// The numeric value of `v` as a double. Strings convert by their longest numeric prefix;
// *truncated is set when that was not the whole string (MySQL then warns 1292).
double ToDouble(const mysql::Value& v, bool* truncated);

// A temporal value as the number MySQL reads from it in a numeric context (`d + 0`, SUM(d)):
// a DATE as YYYYMMDD, a DATETIME as YYYYMMDDhhmmss, a TIME as [-]hhmmss — an integer, or a
// decimal with the value's fraction digits (DATETIME(3): 20240101100000.123). Any other
// value is returned as it is.
mysql::Value TemporalNumber(const mysql::Value& v);

// UTF-8 characters in `s` (Utf8CharCount: a malformed byte counts as one), as a column length.
uint32_t CharLength(absl::string_view s);

// "+05:30" / "-08:00" -> seconds east of UTC. False when not of that form or out of range.
bool ParseTimeZoneOffset(absl::string_view tz, int* seconds);

}  // namespace shoal::sql
