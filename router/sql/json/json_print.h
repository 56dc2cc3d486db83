// JsonValue to text as MySQL 8.0 prints JSON (Json_wrapper::to_string): `[1, 2, "a"]`,
// `{"a": 1, "b": [true, null]}`, `[]`, `{}`; members in stored key order.
//
// Strings: `"` and `\` are escaped, and the control characters as \b \f \n \r \t or, the
// others below 0x20, as \u00xx with lowercase hex digits (\u001f); `/`, DEL and non-ASCII
// bytes are written as they are.
//
// Doubles: my_gcvt's choice for MySQL's field width, with ".0" added where that looks like an
// integer. The digits are the shortest that read back as the same double (dtoa mode 4 at that
// width is the shortest round trip). Written d.ddd x 10^e, the number is printed
//   * plainly when -15 <= e <= 14, or e == 15 with 17 significant digits (it then has a
//     fraction): 0.1, 100.0, 0.000000000000001, 999999999999999.0, 1234567890123456.8;
//     "-0.0" for negative zero;
//   * else in scientific notation, mantissa digits "d" or "d.ddd", then "e", a "-" for a
//     negative exponent and the exponent without leading zeros: 1e15, 1e-16, 1.5e300,
//     -2.5e-100, 1.2345678901234568e20.
// This is what my_gcvt(x, MY_GCVT_ARG_DOUBLE, MY_GCVT_MAX_FIELD_WIDTH = 34) decides: every
// double fits that width either way, so only MAX_DECPT_FOR_F_FORMAT (15) picks the notation.
#pragma once

#include <string>

#include "absl/strings/string_view.h"
#include "router/sql/json/json_value.h"

namespace shoal::sql {

// REQUIRES: JsonDepth(v) stays modest (the printer recurses); MySQL refuses to print beyond
// kJsonMaxDepth, so callers check JsonDepth first where a value may have grown that deep.
std::string PrintJson(const JsonValue& v);
void AppendJson(const JsonValue& v, std::string* out);

// JSON_QUOTE: `s` as a JSON string literal.
std::string QuoteJsonString(absl::string_view s);
void AppendQuotedJsonString(absl::string_view s, std::string* out);

// JSON_UNQUOTE of a JSON value, and ->>: a string's own bytes, any other value's JSON text.
std::string JsonUnquotedText(const JsonValue& v);

// A JSON double's text (see above).
std::string FormatJsonDouble(double d);

}  // namespace shoal::sql
