// UTF-8 helpers every component shares, so that text is cut and counted one way everywhere.
#pragma once

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace shoal {

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
