// MySQL 8.0 JSON path expressions (Json_path): the syntax and its parser.
//
//   path  := ws* '$' (ws* leg)* ws*
//   leg   := '.' ws* (name | '*')  |  '[' ws* (index | index ws 'to' ws index | '*') ws* ']'
//          | '**'                  (not last, and never '***')
//   index := digits (< 2^32) | 'last' [ws* '-' ws* digits]
//   name  := an ECMAScript identifier, its \ escapes decoded as in a JSON string
//          | a JSON string literal ("a b", "\u0041", "")
// Whitespace is MySQL's for utf8mb4: space and \t \n \v \f \r. A range whose ends count from
// the same side with the first past the last ([2 to 1], [last to last-1]) is refused, since it
// can never match.
//
// A failed parse gives the position MySQL reports in 3143 "Invalid JSON path expression. The
// error is around character position N.": the byte offset (0-based) where its reader
// stopped, which is past the offending byte when the reader had to consume it to see it was
// wrong: "a" -> 1, "$[" -> 2, "$.b[ 1 ]." -> 9, "$[1x]" -> 4, "$.foo[bar]" -> 6.
//
// Identifiers are judged as MySQL judges them, by the low byte of each code point against
// utf8mb4's ctype table (any byte 0x80..0xFE is a letter), so most non-ASCII names pass
// unquoted and a few (U+0100, whose low byte is NUL) do not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace shoal::sql {

// An array index: `index`, or `last - index` when from_end.
struct JsonArrayIndex {
  uint32_t index = 0;
  bool from_end = false;

  // Whether the index names an element of an array of `size` elements.
  bool Within(size_t size) const { return index < size; }
  // The position it names in such an array, clamped as MySQL clamps it (Json_array_index):
  // past the end gives `size`, before the start (last-N beyond the first element) gives 0.
  size_t Position(size_t size) const;

  friend bool operator==(const JsonArrayIndex& a, const JsonArrayIndex& b) {
    return a.index == b.index && a.from_end == b.from_end;
  }
};

enum class JsonPathLegType : uint8_t {
  kMember,          // .name
  kMemberWildcard,  // .*
  kArrayCell,       // [N], [last], [last-N]
  kArrayRange,      // [M to N]
  kArrayWildcard,   // [*]
  kEllipsis,        // **
};

struct JsonPathLeg {
  JsonPathLegType type = JsonPathLegType::kMember;
  std::string member;    // kMember
  JsonArrayIndex first;  // kArrayCell, kArrayRange
  JsonArrayIndex last;   // kArrayRange

  static JsonPathLeg Member(std::string name);
  static JsonPathLeg Cell(JsonArrayIndex index);
  static JsonPathLeg Range(JsonArrayIndex first, JsonArrayIndex last);
  static JsonPathLeg Of(JsonPathLegType type);  // the wildcards and **

  // [begin, end) of the positions a kArrayRange or kArrayWildcard selects in an array of
  // `size` elements.
  std::pair<size_t, size_t> Positions(size_t size) const;
  // MySQL's auto-wrapping: whether the leg matches a non-array value itself, as the one
  // element of an array — [0], [last] and ranges that include position 0 of a one-element
  // array.
  bool IsAutoWrap() const;

  friend bool operator==(const JsonPathLeg& a, const JsonPathLeg& b);
};

class JsonPath {
 public:
  JsonPath() = default;  // "$"
  explicit JsonPath(std::vector<JsonPathLeg> legs) : legs_(std::move(legs)) {}

  const std::vector<JsonPathLeg>& legs() const { return legs_; }
  bool empty() const { return legs_.empty(); }

  // Whether the path may match more than one value (it has *, ** or a range): what MySQL
  // refuses in paths to modify or measure with 3149 "In this situation, path expressions may
  // not contain the * and ** tokens or an array range."
  bool CanMatchMany() const;

  // MySQL's canonical text (Json_path::to_string): names that are identifiers bare, others
  // quoted; "[last-2]", "[1 to 3]", ".*", "[*]", "**". Parses back to the same path.
  std::string ToString() const;

  friend bool operator==(const JsonPath& a, const JsonPath& b) { return a.legs_ == b.legs_; }

 private:
  std::vector<JsonPathLeg> legs_;
};

struct JsonPathParseResult {
  JsonPath path;                         // when ok()
  std::optional<size_t> error_position;  // see the top of this file

  bool ok() const { return !error_position.has_value(); }
};

JsonPathParseResult ParseJsonPath(absl::string_view text);

}  // namespace shoal::sql
