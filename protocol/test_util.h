// Helpers shared by the protocol tests: byte strings from hex and back.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace shoal::mysql::testing {

// "00 01 ff" -> the three bytes (spaces ignored).
inline std::string FromHex(absl::string_view hex) {
  return absl::HexStringToBytes(absl::StrReplaceAll(hex, {{" ", ""}, {"\n", ""}}));
}

inline std::string ToHex(absl::string_view bytes) { return absl::BytesToHexString(bytes); }

inline absl::Span<const uint8_t> Span(const std::string& s) {
  return absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

}  // namespace shoal::mysql::testing
