// The character sets and collations Shoal names: enough for SET NAMES, the character_set_*
// and collation_* variables, SHOW CHARACTER SET and SHOW COLLATION, and the handshake ids.
// Everything is stored as utf8mb4 whatever the name; these tables only make the names, ids
// and display lengths right. Immutable static data; safe from any thread.
#pragma once

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace shoal::sql {

struct CharsetInfo {
  absl::string_view name;
  absl::string_view description;
  absl::string_view default_collation;
  int maxlen;  // bytes per character; column lengths are characters × maxlen
};

struct CollationInfo {
  absl::string_view name;
  absl::string_view charset;
  uint16_t id;
  bool is_default;
  int sortlen;
  absl::string_view pad_attribute;  // "PAD SPACE" or "NO PAD"
};

// Case-insensitive. "utf8" is MySQL 8.0's alias of utf8mb3 (and "utf8_…" of "utf8mb3_…").
const CharsetInfo* FindCharset(absl::string_view name);
const CollationInfo* FindCollation(absl::string_view name);
const CollationInfo* FindCollationById(uint16_t id);
// binary (63) or a _bin collation (utf8mb4_bin): strings of it compare byte for byte.
bool IsBinaryCollationId(uint16_t id);
// The _bin collation of `collation_id`'s charset (utf8mb4_general_ci → utf8mb4_bin, 46);
// `collation_id` itself when it is unknown or its charset has none.
uint16_t BinCollationIdOf(uint16_t collation_id);
bool IsKnownCharset(absl::string_view name);
// True for the deprecated alias spellings ("utf8", "utf8_general_ci"), which warn.
bool IsUtf8Alias(absl::string_view name);

absl::Span<const CharsetInfo> AllCharsets();
absl::Span<const CollationInfo> AllCollations();

}  // namespace shoal::sql
