// Text as the _ci collations compare it: MySQL 8.0's utf8mb4_0900_ai_ci at its first level,
// where case and accents do not count — 'a', 'A', 'á', 'Ä' and 'ａ' are one letter, 'ß' is
// "ss", 'æ' is "ae", a combining accent and the C0 controls other than TAB … CR are nothing.
// Every script folds so (Greek 'Ά' is 'α', Cyrillic 'Ё' is 'е', katakana 'カ' is 'か').
//
// Each character has a *form* (text_fold_table.inc, made by scripts/gen_unicode_tables.py
// from the Unicode Collation Algorithm's DUCET): the representative characters of its
// primary weights. Two texts are equal when their forms are, and ordered by their forms'
// bytes, a prefix first — code point order of the representatives, not DUCET's order
// (punctuation before digits before letters): the router's checks and the data nodes' indexes
// agree because both order by the form. A form is never longer than its character (one that
// would be, such as '½' → "1⁄2", is the character itself), so folding never lengthens text,
// and the form of a form is itself. Contractions are not modelled. Malformed UTF-8 bytes
// stand for themselves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace shoal::schema {

// The form of a text, a byte at a time, without a copy.
class FoldedText {
 public:
  explicit FoldedText(absl::string_view text) : rest_(text) {}

  // The form's next byte, or -1 at its end.
  int Next() {
    if (pending_ != pending_end_) return *pending_++;
    while (!rest_.empty()) {
      const auto byte = static_cast<unsigned char>(rest_[0]);
      if (byte >= 0x80) return NextOfCharacter();
      rest_.remove_prefix(1);
      const int folded = AsciiForm(byte);
      if (folded >= 0) return folded;
    }
    return -1;
  }

 private:
  static int AsciiForm(unsigned char byte);
  // The first byte of the form of the (non-ASCII) character rest_ starts with.
  int NextOfCharacter();

  absl::string_view rest_;
  const unsigned char* pending_ = nullptr;  // the rest of the current character's form
  const unsigned char* pending_end_ = nullptr;
};

// Whether `text` is certainly its own form: printable ASCII without capitals (most values),
// which a caller may then use as it is instead of folding a copy.
inline bool IsOwnForm(absl::string_view text) {
  for (char c : text) {
    if (c < 0x20 || c >= 0x7F || (c >= 'A' && c <= 'Z')) return false;
  }
  return true;
}

// Three-way comparison of two texts' forms.
int CompareFoldedText(absl::string_view a, absl::string_view b);
// Appends the form of `text` to *out (at most text.size() bytes).
void AppendFoldedText(absl::string_view text, std::string* out);
// The first bytes of the form of `text`, at most `capacity`, into `out`; how many.
size_t FoldedPrefix(absl::string_view text, char* out, size_t capacity);

}  // namespace shoal::schema
