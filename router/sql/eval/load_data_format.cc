// See load_data_format.h. The field reader follows the order of mysqld's checks (escape
// first, then the line terminator outside an enclosure, then the enclosure or the field
// terminator), since inputs that mix them are read differently in any other order.
#include "router/sql/eval/load_data_format.h"

#include <algorithm>
#include <utility>

namespace shoal::sql {
namespace {

// The character an escape sequence stands for; `\N` notes a possible NULL.
char Unescape(char c, bool* found_null) {
  switch (c) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case 'b':
      return '\b';
    case '0':
      return '\0';
    case 'Z':
      return '\032';
    case 'N':
      *found_null = true;
      return c;
    default:
      return c;
  }
}

// Keep at least this much consumed input before moving the rest to the front.
constexpr size_t kCompactAfter = 64 * 1024;

}  // namespace

LoadDataSplitter::LoadDataSplitter(LoadDataFormat format, size_t max_row_bytes)
    : format_(std::move(format)), max_row_bytes_(max_row_bytes) {
  if (format_.line_terminator.empty()) format_.line_terminator = "\n";  // see the header
}

void LoadDataSplitter::Feed(absl::string_view bytes) {
  Compact();
  input_.append(bytes.data(), bytes.size());
}

void LoadDataSplitter::Finish() { finished_ = true; }

void LoadDataSplitter::Compact() {
  if (start_ < kCompactAfter || start_ * 2 < input_.size()) return;
  input_.erase(0, start_);
  searched_until_ = searched_until_ > start_ ? searched_until_ - start_ : 0;
  start_ = 0;
}

LoadDataSplitter::Step LoadDataSplitter::Matches(absl::string_view term, size_t at) const {
  size_t have = std::min(term.size(), input_.size() - at);
  if (absl::string_view(input_).substr(at, have) != term.substr(0, have)) return Step::kEnd;
  if (have == term.size()) return Step::kOk;
  return finished_ ? Step::kEnd : Step::kNeedMore;
}

bool LoadDataSplitter::MayHaveRow() {
  if (finished_) return true;
  const std::string& term = format_.line_terminator;
  size_t from = std::max(start_, searched_until_);
  from = from - std::min(from - start_, term.size() - 1);
  if (input_.find(term, from) != std::string::npos) return true;
  searched_until_ = input_.size();
  return false;
}

LoadDataSplitter::Result LoadDataSplitter::Next(std::vector<LoadField>* fields) {
  fields->clear();
  size_t used = 0;
  Step step = MayHaveRow() ? ParseRow(&used) : Step::kNeedMore;
  if (step == Step::kNeedMore) {
    searched_until_ = input_.size();
    return buffered() > max_row_bytes_ ? Result::kTooLong : Result::kNeedMore;
  }
  start_ += used;
  if (step == Step::kEnd) return Result::kEnd;
  for (const FieldSpan& span : spans_) {
    fields->push_back({absl::string_view(decoded_).substr(span.offset, span.length), span.null});
  }
  return Result::kRow;
}

LoadDataSplitter::Result LoadDataSplitter::SkipLine() {
  const std::string& term = format_.line_terminator;
  for (size_t i = start_; i < input_.size(); ++i) {
    char c = input_[i];
    if (format_.escape && c == *format_.escape) {
      ++i;  // the escaped character, whatever it is
      continue;
    }
    if (c != term[0]) continue;
    Step match = Matches(term, i);
    if (match == Step::kNeedMore) return Result::kNeedMore;
    if (match == Step::kOk) {
      start_ = i + term.size();
      return Result::kRow;
    }
  }
  if (!finished_) return buffered() > max_row_bytes_ ? Result::kTooLong : Result::kNeedMore;
  start_ = input_.size();
  return Result::kEnd;
}

LoadDataSplitter::Step LoadDataSplitter::ParseRow(size_t* used) {
  spans_.clear();
  decoded_.clear();
  const absl::string_view ft = format_.field_terminator;
  const absl::string_view lt = format_.line_terminator;
  const size_t end = input_.size();
  size_t i = start_;
  if (!format_.line_starting.empty()) {
    size_t at = input_.find(format_.line_starting, i);
    if (at == std::string::npos) {
      if (!finished_) return Step::kNeedMore;
      *used = end - start_;
      return Step::kEnd;
    }
    i = at + format_.line_starting.size();
  }
  // One field per turn, as mysqld's read_field.
  for (;;) {
    if (i == end) {
      if (!finished_) return Step::kNeedMore;
      *used = end - start_;
      return spans_.empty() ? Step::kEnd : Step::kOk;  // no field here: the row ends short
    }
    const size_t begin = decoded_.size();
    const bool enclosed = format_.enclosure && input_[i] == *format_.enclosure;
    if (enclosed) decoded_.push_back(input_[i++]);  // kept if the field never closes
    bool closed = false;                            // ended by an enclosure and a terminator
    bool line_end = false;
    bool found_null = false;
    for (;;) {
      if (i == end) {
        if (!finished_) return Step::kNeedMore;
        line_end = true;
        break;
      }
      char c = input_[i++];
      if (format_.escape && c == *format_.escape) {
        if (i == end) {
          if (!finished_) return Step::kNeedMore;
          decoded_.push_back(c);
          continue;  // ends at the input's end, next turn
        }
        char next = input_[i++];
        if (format_.enclosure != format_.escape || next == c) {
          decoded_.push_back(Unescape(next, &found_null));
          continue;
        }
        --i;  // an escape that is also the enclosure: read as the enclosure
      }
      if (!enclosed && c == lt[0]) {
        Step match = Matches(lt, i - 1);
        if (match == Step::kNeedMore) return match;
        if (match == Step::kOk) {
          i += lt.size() - 1;
          line_end = true;
          break;
        }
      }
      if (enclosed && c == *format_.enclosure) {
        if (i == end) {
          if (!finished_) return Step::kNeedMore;
          closed = line_end = true;
          break;
        }
        if (input_[i] == c) {  // doubled: one enclosure character
          decoded_.push_back(c);
          ++i;
          continue;
        }
        Step at_line_end = input_[i] == lt[0] ? Matches(lt, i) : Step::kEnd;
        if (at_line_end == Step::kNeedMore) return at_line_end;
        if (at_line_end == Step::kOk) {
          i += lt.size();
          closed = line_end = true;
          break;
        }
        Step at_field_end = !ft.empty() && input_[i] == ft[0] ? Matches(ft, i) : Step::kEnd;
        if (at_field_end == Step::kNeedMore) return at_field_end;
        if (at_field_end == Step::kOk) {
          i += ft.size();
          closed = true;
          break;
        }
      } else if (!enclosed && !ft.empty() && c == ft[0]) {
        Step match = Matches(ft, i - 1);
        if (match == Step::kNeedMore) return match;
        if (match == Step::kOk) {
          i += ft.size() - 1;
          break;
        }
      }
      decoded_.push_back(c);
    }
    FieldSpan span;
    span.offset = begin + (closed ? 1 : 0);
    span.length = decoded_.size() - span.offset;
    absl::string_view text = absl::string_view(decoded_).substr(span.offset, span.length);
    span.null = (span.length == 1 && found_null) ||
                (!closed && format_.enclosure.has_value() && text == "NULL");
    spans_.push_back(span);
    if (line_end) break;
  }
  *used = i - start_;
  return Step::kOk;
}

}  // namespace shoal::sql
