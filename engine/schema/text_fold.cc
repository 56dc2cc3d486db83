#include "engine/schema/text_fold.h"

#include <algorithm>
#include <iterator>

#include "common/utf8.h"
#include "engine/schema/text_fold_table.inc"

namespace shoal::schema {
namespace {

// Where `code_point`'s form is in the pool: 0 for the character itself, 1 for nothing.
uint16_t FormOffset(char32_t code_point) {
  if (code_point <= 0xFFFF) {
    return text_fold_table::kBlocks[text_fold_table::kBlockOf[code_point >> 8]][code_point & 0xFF];
  }
  const auto* begin = std::begin(text_fold_table::kSupplementary);
  const auto* end = std::end(text_fold_table::kSupplementary);
  const auto* at = std::lower_bound(
      begin, end, code_point,
      [](const text_fold_table::Supplementary& s, char32_t cp) { return s.code_point < cp; });
  return at != end && at->code_point == code_point ? at->form : 0;
}

// The form of the character `rest` starts with, a byte of 0x80 or more: a view of its own
// bytes, of the pool, or empty (ignorable); *consumed says how many bytes of `rest` it is. A
// malformed byte is itself.
absl::string_view CharacterForm(absl::string_view rest, size_t* consumed) {
  const Utf8Char c = DecodeUtf8(rest, Utf8Check::kUtf8mb4);
  if (c.length == 0) {
    *consumed = 1;
    return rest.substr(0, 1);
  }
  *consumed = c.length;
  const uint16_t at = FormOffset(c.code_point);
  if (at == 0) return rest.substr(0, c.length);
  const unsigned char* form = &text_fold_table::kPool[at];
  return absl::string_view(reinterpret_cast<const char*>(form + 1), at == 1 ? 0 : form[0]);
}

}  // namespace

int FoldedText::AsciiForm(unsigned char byte) { return text_fold_table::kAscii[byte]; }

int FoldedText::NextOfCharacter() {
  while (!rest_.empty()) {
    const auto byte = static_cast<unsigned char>(rest_[0]);
    if (byte < 0x80) {
      rest_.remove_prefix(1);
      const int folded = AsciiForm(byte);
      if (folded >= 0) return folded;
      continue;
    }
    size_t consumed;
    const absl::string_view form = CharacterForm(rest_, &consumed);
    rest_.remove_prefix(consumed);
    if (form.empty()) continue;
    pending_ = reinterpret_cast<const unsigned char*>(form.data()) + 1;
    pending_end_ = pending_ + form.size() - 1;
    return static_cast<unsigned char>(form[0]);
  }
  return -1;
}

int CompareFoldedText(absl::string_view a, absl::string_view b) {
  // ASCII first, byte against byte: equal bytes fold equally, and an ASCII byte's form is one
  // byte or none. At the first byte that is not ASCII, or an ignorable one, or the end of
  // either text (the other may go on with ignorables), the forms take over from there.
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  for (; i < n; ++i) {
    const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (x == y && x < 0x80) continue;
    if ((x | y) >= 0x80) break;
    const int fx = text_fold_table::kAscii[x], fy = text_fold_table::kAscii[y];
    if (fx < 0 || fy < 0) break;
    if (fx != fy) return fx < fy ? -1 : 1;
  }
  if (i == a.size() && i == b.size()) return 0;
  FoldedText x(a.substr(i)), y(b.substr(i));
  for (;;) {
    const int p = x.Next(), q = y.Next();
    if (p != q) return p < q ? -1 : 1;
    if (p < 0) return 0;
  }
}

void AppendFoldedText(absl::string_view text, std::string* out) {
  const size_t at = out->size();
  out->resize(at + text.size());
  char* write = out->data() + at;
  while (!text.empty()) {
    const auto byte = static_cast<unsigned char>(text[0]);
    if (byte < 0x80) {
      const int folded = text_fold_table::kAscii[byte];
      if (folded >= 0) *write++ = static_cast<char>(folded);
      text.remove_prefix(1);
      continue;
    }
    size_t consumed;
    const absl::string_view form = CharacterForm(text, &consumed);
    write = std::copy(form.begin(), form.end(), write);
    text.remove_prefix(consumed);
  }
  out->resize(write - out->data());
}

size_t FoldedPrefix(absl::string_view text, char* out, size_t capacity) {
  FoldedText folded(text);
  size_t n = 0;
  for (int byte; n < capacity && (byte = folded.Next()) >= 0; ++n) out[n] = static_cast<char>(byte);
  return n;
}

}  // namespace shoal::schema
