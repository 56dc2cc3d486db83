// UTF-8 as the JSON reader needs it: strict decoding (no overlong forms, no surrogates, nothing
// above U+10FFFF, as RFC 3629 and rapidjson's validator) and encoding of \u escapes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace shoal::sql::internal {

// The length (1 to 4) of the well-formed UTF-8 character at the start of `s`, its code point in
// `*codepoint`; 0 when `s` is empty or does not start with a well-formed character.
size_t DecodeUtf8(absl::string_view s, uint32_t* codepoint);

// REQUIRES: `codepoint` <= 0x10FFFF and not a surrogate.
void AppendUtf8(uint32_t codepoint, std::string* out);

}  // namespace shoal::sql::internal
