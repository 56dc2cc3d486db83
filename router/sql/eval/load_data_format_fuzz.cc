// Fuzz target: LOAD DATA's splitter over any format and any bytes must not crash, must bound
// what it buffers, and must cut the same rows whether the input comes at once or in pieces
// (packets split rows, escapes and terminators anywhere).
//
// Input: byte 0 picks the piece size (1 + b % 64); bytes 1..5 the format (field terminator,
// enclosure, escape, line terminator, STARTING BY), each 0 for "none" where allowed; then the
// file.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "router/sql/eval/load_data_format.h"

namespace {

using shoal::sql::LoadDataFormat;
using shoal::sql::LoadDataSplitter;
using shoal::sql::LoadField;

constexpr size_t kMaxRow = 4096;

// Rows as "field|field|…" with NULL as "\N", and how the input ended.
std::vector<std::string> Split(const LoadDataFormat& format, const std::string& file, size_t piece,
                               bool skip_first) {
  LoadDataSplitter splitter(format, kMaxRow);
  std::vector<std::string> rows;
  std::vector<LoadField> fields;
  bool skipping = skip_first;
  size_t fed = 0;
  for (;;) {
    LoadDataSplitter::Result r = skipping ? splitter.SkipLine() : splitter.Next(&fields);
    if (r == LoadDataSplitter::Result::kRow) {
      if (skipping) {
        skipping = false;
        continue;
      }
      std::string row;
      for (const LoadField& f : fields) {
        row += f.null ? std::string("\\N") : std::string(f.text);
        row += '|';
      }
      rows.push_back(row);
      continue;
    }
    if (r == LoadDataSplitter::Result::kEnd) {
      rows.push_back("<end>");
      return rows;
    }
    if (r == LoadDataSplitter::Result::kTooLong) {
      rows.push_back("<too long>");
      return rows;
    }
    if (splitter.buffered() > kMaxRow + piece + 64) std::abort();  // bounded
    if (fed == file.size()) {
      splitter.Finish();
      continue;
    }
    size_t n = std::min(piece, file.size() - fed);
    splitter.Feed(absl::string_view(file).substr(fed, n));
    fed += n;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 6) return 0;
  LoadDataFormat format;
  auto ch = [&](int i) { return static_cast<char>(data[i]); };
  format.field_terminator = data[1] == 0 ? std::string() : std::string(1, ch(1));
  if (data[1] == '|') format.field_terminator = "||";  // a multi-byte one too
  if (data[2] != 0) format.enclosure = ch(2);
  format.escape = data[3] == 0 ? std::nullopt : std::optional<char>(ch(3));
  format.line_terminator = data[4] == 0 ? std::string("\r\n") : std::string(1, ch(4));
  if (data[5] != 0) format.line_starting = std::string(1, ch(5));
  std::string file(reinterpret_cast<const char*>(data + 6), size - 6);
  const bool skip_first = (data[0] & 0x80) != 0;
  std::vector<std::string> whole = Split(format, file, file.size() + 1, skip_first);
  std::vector<std::string> pieces = Split(format, file, 1 + data[0] % 64, skip_first);
  // A row too long shows when it is too long, which depends on the pieces; otherwise the
  // rows must be the same.
  if (whole.back() != "<too long>" && pieces.back() != "<too long>" && whole != pieces) {
    std::abort();
  }
  return 0;
}
