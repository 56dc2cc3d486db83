// See charsets.h. Rows copied from MySQL 8.0.36's SHOW CHARACTER SET / SHOW COLLATION, cut
// down to the sets a client of Shoal plausibly names.
#include "router/sql/parse/charsets.h"

#include <bitset>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace shoal::sql {
namespace {

constexpr CharsetInfo kCharsets[] = {
    {"ascii", "US ASCII", "ascii_general_ci", 1},
    {"binary", "Binary pseudo charset", "binary", 1},
    {"latin1", "cp1252 West European", "latin1_swedish_ci", 1},
    {"latin2", "ISO 8859-2 Central European", "latin2_general_ci", 1},
    {"ucs2", "UCS-2 Unicode", "ucs2_general_ci", 2},
    {"utf16", "UTF-16 Unicode", "utf16_general_ci", 4},
    {"utf32", "UTF-32 Unicode", "utf32_general_ci", 4},
    {"utf8mb3", "UTF-8 Unicode", "utf8mb3_general_ci", 3},
    {"utf8mb4", "UTF-8 Unicode", "utf8mb4_0900_ai_ci", 4},
};

constexpr CollationInfo kCollations[] = {
    {"ascii_bin", "ascii", 65, false, 1, "PAD SPACE"},
    {"ascii_general_ci", "ascii", 11, true, 1, "PAD SPACE"},
    {"binary", "binary", 63, true, 1, "NO PAD"},
    {"latin1_bin", "latin1", 47, false, 1, "PAD SPACE"},
    {"latin1_general_ci", "latin1", 48, false, 1, "PAD SPACE"},
    {"latin1_general_cs", "latin1", 49, false, 1, "PAD SPACE"},
    {"latin1_swedish_ci", "latin1", 8, true, 1, "PAD SPACE"},
    {"latin2_bin", "latin2", 77, false, 1, "PAD SPACE"},
    {"latin2_general_ci", "latin2", 9, true, 1, "PAD SPACE"},
    {"ucs2_bin", "ucs2", 90, false, 1, "PAD SPACE"},
    {"ucs2_general_ci", "ucs2", 35, true, 1, "PAD SPACE"},
    {"utf16_bin", "utf16", 55, false, 1, "PAD SPACE"},
    {"utf16_general_ci", "utf16", 54, true, 1, "PAD SPACE"},
    {"utf32_bin", "utf32", 61, false, 1, "PAD SPACE"},
    {"utf32_general_ci", "utf32", 60, true, 1, "PAD SPACE"},
    {"utf8mb3_bin", "utf8mb3", 83, false, 1, "PAD SPACE"},
    {"utf8mb3_general_ci", "utf8mb3", 33, true, 1, "PAD SPACE"},
    {"utf8mb3_unicode_ci", "utf8mb3", 192, false, 8, "PAD SPACE"},
    {"utf8mb4_0900_ai_ci", "utf8mb4", 255, true, 0, "NO PAD"},
    {"utf8mb4_0900_as_ci", "utf8mb4", 305, false, 0, "NO PAD"},
    {"utf8mb4_0900_as_cs", "utf8mb4", 278, false, 0, "NO PAD"},
    {"utf8mb4_0900_bin", "utf8mb4", 309, false, 1, "NO PAD"},
    {"utf8mb4_bin", "utf8mb4", 46, false, 1, "PAD SPACE"},
    {"utf8mb4_general_ci", "utf8mb4", 45, false, 1, "PAD SPACE"},
    {"utf8mb4_unicode_520_ci", "utf8mb4", 246, false, 8, "PAD SPACE"},
    {"utf8mb4_unicode_ci", "utf8mb4", 224, false, 8, "PAD SPACE"},
};

// "utf8" -> "utf8mb3", "utf8_bin" -> "utf8mb3_bin"; anything else unchanged (lower-cased).
std::string Canonical(absl::string_view name) {
  std::string lower = absl::AsciiStrToLower(name);
  if (lower == "utf8") return "utf8mb3";
  if (absl::StartsWith(lower, "utf8_")) return absl::StrCat("utf8mb3", lower.substr(4));
  return lower;
}

}  // namespace

const CharsetInfo* FindCharset(absl::string_view name) {
  std::string key = Canonical(name);
  for (const CharsetInfo& c : kCharsets) {
    if (c.name == key) return &c;
  }
  return nullptr;
}

const CollationInfo* FindCollation(absl::string_view name) {
  std::string key = Canonical(name);
  for (const CollationInfo& c : kCollations) {
    if (c.name == key) return &c;
  }
  return nullptr;
}

const CollationInfo* FindCollationById(uint16_t id) {
  for (const CollationInfo& c : kCollations) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

// Collation ids are below this (MySQL's compiled ones; user-defined ones start at 1024).
constexpr uint16_t kMaxCollationId = 1023;

bool IsBinaryCollationId(uint16_t id) {
  // Asked for every value grouped, sorted or compared: a table made once, not a search.
  static const std::bitset<kMaxCollationId + 1> binary = [] {
    std::bitset<kMaxCollationId + 1> bits;
    bits.set(63);  // binary
    for (const CollationInfo& c : kCollations) {
      if (c.id <= kMaxCollationId && absl::EndsWith(c.name, "_bin")) bits.set(c.id);
    }
    return bits;
  }();
  return id <= kMaxCollationId && binary.test(id);
}

uint16_t BinCollationIdOf(uint16_t collation_id) {
  const CollationInfo* collation = FindCollationById(collation_id);
  if (collation == nullptr) return collation_id;
  const CollationInfo* bin = FindCollation(absl::StrCat(collation->charset, "_bin"));
  return bin != nullptr ? bin->id : collation_id;
}

bool IsKnownCharset(absl::string_view name) { return FindCharset(name) != nullptr; }

bool IsUtf8Alias(absl::string_view name) {
  return absl::EqualsIgnoreCase(name, "utf8") || absl::StartsWithIgnoreCase(name, "utf8_");
}

absl::Span<const CharsetInfo> AllCharsets() { return kCharsets; }
absl::Span<const CollationInfo> AllCollations() { return kCollations; }

}  // namespace shoal::sql
