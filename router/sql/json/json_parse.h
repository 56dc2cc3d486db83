// JSON text to a JsonValue, as MySQL 8.0 reads it (rapidjson's reader under MySQL's handler):
// the same values and the same failures, each with rapidjson's reason text and byte offset,
// so callers can build MySQL's messages:
//   3140 Invalid JSON text: "<reason>" at position <offset> in value for column '<t.c>'.
//   3141 Invalid JSON text in argument <n> to function <f>: "<reason>" at position <offset>.
//   3157 The JSON document exceeds the maximum depth. (kTooDeep; no reason, no position)
//
// What MySQL does, and so this:
// * Any value may be the root. Whitespace is space, \t, \n and \r only.
// * The input ends at its end or at a NUL byte, whichever comes first: text after a NUL that
//   follows a complete value is ignored, as rapidjson's stream reads NUL as the end.
// * A number without fraction or exponent is INTEGER when negative or at most 2^32-1 and
//   UNSIGNED INTEGER above (rapidjson hands those to MySQL as uint64) up to 2^64-1; beyond,
//   and with a fraction or exponent, it is DOUBLE. "-0" is INTEGER 0, "-0.0" DOUBLE -0.0.
// * Of duplicate keys in an object the last wins.
// * More than kJsonMaxDepth nested arrays and objects fail with kTooDeep, which also bounds the
//   reader's recursion: any bytes are safe to parse.
//
// Beyond MySQL: strings must be well-formed UTF-8 (MySQL's rapidjson does not check; its
// callers convert to utf8mb4 first), reported as "Invalid encoding in string." at the first
// byte of the bad character. Doubles are rounded correctly, where rapidjson's fast path may
// be one unit in the last place off for long mantissas.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "router/sql/json/json_value.h"

namespace shoal::sql {

// rapidjson's ParseErrorCode values MySQL can meet, plus MySQL's depth limit.
enum class JsonParseErrorCode : uint8_t {
  kDocumentEmpty,
  kDocumentRootNotSingular,
  kValueInvalid,
  kObjectMissName,
  kObjectMissColon,
  kObjectMissCommaOrCurlyBracket,
  kArrayMissCommaOrSquareBracket,
  kStringUnicodeEscapeInvalidHex,
  kStringUnicodeSurrogateInvalid,
  kStringEscapeInvalid,
  kStringMissQuotationMark,
  kStringInvalidEncoding,
  kNumberTooBig,
  kNumberMissFraction,
  kNumberMissExponent,
  kTooDeep,  // MySQL 3157 rather than a syntax error
};

struct JsonParseError {
  JsonParseErrorCode code = JsonParseErrorCode::kValueInvalid;
  // Byte offset where rapidjson reports the problem: for an unexpected token, where it
  // starts; for a bad literal, the first byte that differs; for a bad escape, its backslash;
  // for a number out of range, the number's start; for kTooDeep, the opening bracket.
  size_t offset = 0;

  // rapidjson's English text, e.g. "Invalid value."; empty for kTooDeep.
  absl::string_view reason() const;
};

struct JsonParseResult {
  JsonValue value;  // the document, when ok()
  std::optional<JsonParseError> error;

  bool ok() const { return !error.has_value(); }
};

JsonParseResult ParseJson(absl::string_view text);

}  // namespace shoal::sql
