// UTF-8 helpers every component shares, so that text is decoded, checked, cut and counted one
// way everywhere. Header-only and absl-only, so that engine/schema (absl only) can use it.
//
// What is well-formed. Every check rejects what is not UTF-8 at all: a continuation byte
// (80..BF) where a character should start, the lead bytes C0, C1 and F5..FF, a sequence cut
// short or broken by a byte that is not a continuation, an overlong form (a character written
// with more bytes than it needs: C0 AF, E0 80 AF, F0 80 80 AF) and code points above U+10FFFF
// (F4 90 and up). The checks differ only on the surrogates U+D800..U+DFFF (ED A0 80..ED BF BF):
//   * Utf8Check::kUtf8mb4 accepts them, as MariaDB's (and MySQL's) utf8mb4 does: an INSERT of
//     X'EDA080' into a utf8mb4 column succeeds there, while X'C0AF', X'E080AF', X'F4908080' and
//     X'E282' fail with 1366. For text that MySQL clients send and read.
//   * Utf8Check::kUnicode rejects them, as RFC 3629 does: for text that other readers check
//     (YAML, protobuf string fields).
//
// Stepping through text that may be malformed (Utf8StepLength, Utf8CharCount) takes a byte that
// starts no well-formed character as one character, as MariaDB's my_numchars_mb and
// my_charpos_mb do: for counting or stepping through text that is already checked, or where
// malformed text needs no error of its own.
#pragma once

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace shoal {

// Which characters count as well-formed; see the file comment.
enum class Utf8Check : uint8_t {
  kUtf8mb4,  // MariaDB's utf8mb4: surrogates are accepted
  kUnicode,  // RFC 3629: surrogates are malformed
};

// One decoded character: its code point and how many bytes it takes (1 to 4), or `length` 0
// when the text does not start with a well-formed character.
struct Utf8Char {
  char32_t code_point = 0;
  size_t length = 0;
};

// The character at the front of `s`, decoded as `check` says; {0, 0} if `s` is empty or does
// not start with a well-formed character. Never reads past `s`.
inline Utf8Char DecodeUtf8(absl::string_view s, Utf8Check check) {
  if (s.empty()) return {};
  auto byte = [&](size_t i) { return static_cast<uint8_t>(s[i]); };
  const uint8_t lead = byte(0);
  if (lead < 0x80) return {lead, 1};
  // The lead byte gives the length and the range the second byte must be in: the bounds shut
  // out overlongs (E0 80..9F, F0 80..8F), code points above U+10FFFF (F4 90..BF) and, for
  // kUnicode, the surrogates (ED A0..BF).
  size_t length;
  uint8_t low = 0x80, high = 0xBF;
  if (lead < 0xC2) {
    return {};  // a continuation byte, or C0/C1 (always overlong)
  } else if (lead < 0xE0) {
    length = 2;
  } else if (lead < 0xF0) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED && check == Utf8Check::kUnicode) high = 0x9F;
  } else if (lead < 0xF5) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return {};
  }
  if (s.size() < length || byte(1) < low || byte(1) > high) return {};
  char32_t cp = lead & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return {};
    cp = (cp << 6) | (byte(i) & 0x3F);
  }
  return {cp, length};
}

// True if all of `s` is well-formed as `check` says.
inline bool IsValidUtf8(absl::string_view s, Utf8Check check) {
  for (size_t i = 0; i < s.size();) {
    const size_t length = DecodeUtf8(s.substr(i), check).length;
    if (length == 0) return false;
    i += length;
  }
  return true;
}

// Bytes of the character at the front of `s` (kUtf8mb4), or 1 for a byte that starts no
// well-formed character; 0 only for an empty `s`. Steps through possibly malformed text one
// character at a time, a bad byte counting as one.
inline size_t Utf8StepLength(absl::string_view s) {
  if (s.empty()) return 0;
  const size_t length = DecodeUtf8(s, Utf8Check::kUtf8mb4).length;
  return length == 0 ? 1 : length;
}

// Characters in `s`, as Utf8StepLength steps: each byte that starts no well-formed character
// counts as one (MariaDB's CHAR_LENGTH of malformed text).
inline size_t Utf8CharCount(absl::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); i += Utf8StepLength(s.substr(i))) ++n;
  return n;
}

// The first `max_chars` characters of `s`, as Utf8StepLength steps (all of `s` if it has
// fewer).
inline absl::string_view Utf8FirstChars(absl::string_view s, size_t max_chars) {
  size_t i = 0;
  for (size_t n = 0; n < max_chars && i < s.size(); ++n) i += Utf8StepLength(s.substr(i));
  return s.substr(0, i);
}

// The longest prefix of `s` of at most `max_bytes` bytes that does not split a character:
// a character cut in two leaves invalid UTF-8 (which protobuf string fields, MySQL clients and
// YAML readers reject). Bytes of a malformed `s` are kept as they are.
inline absl::string_view Utf8Prefix(absl::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t end = max_bytes;
  while (end > 0 && (static_cast<uint8_t>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

}  // namespace shoal
