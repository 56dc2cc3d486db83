// LOAD DATA's input format: cuts the bytes of a file into rows and fields as mysqld's
// READ_INFO does (FIELDS TERMINATED BY / [OPTIONALLY] ENCLOSED BY / ESCAPED BY, LINES STARTING
// BY / TERMINATED BY), incrementally: bytes are fed as the client's packets arrive and rows
// come out as soon as they are whole, so a file of any size passes through a bounded buffer.
//
// What mysqld does, and so this: an escape character followed by 0 b n r t Z stands for NUL,
// backspace, newline, CR, tab and ^Z, followed by anything else for that character (escaped
// terminators and enclosures are data); a field that decodes to the single character of `\N`
// is NULL, and so is an unenclosed `NULL` when the format has an enclosure. A field that
// starts with the enclosure runs to an enclosure followed by a terminator (doubled
// enclosures are one); inside it the terminators are data. A line without the STARTING BY
// prefix is skipped up to the prefix. An empty line is a row of one empty field.
//
// Owned by one LOAD DATA statement; not thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace shoal::sql {

struct LoadDataFormat {
  std::string field_terminator = "\t";
  std::optional<char> enclosure;      // none: ENCLOSED BY ''
  std::optional<char> escape = '\\';  // none: ESCAPED BY ''
  std::string line_starting;          // empty: none
  // Never empty: the executor refuses fixed-size rows (an empty one is taken as "\n").
  std::string line_terminator = "\n";
};

// One field of a row. `text` is decoded (escapes resolved, enclosure and doubled enclosures
// removed) and points into the splitter: valid until its next Feed, Next or SkipLine.
struct LoadField {
  absl::string_view text;
  bool null = false;
};

class LoadDataSplitter {
 public:
  enum class Result {
    kRow,       // `*fields` holds the next row
    kNeedMore,  // the input ends inside a row: Feed more (or Finish)
    kEnd,       // Finish was called and every row was taken
    kTooLong,   // one row passed `max_row_bytes` without ending
  };

  // `max_row_bytes` bounds what is buffered for one row (one line, enclosed newlines and all).
  LoadDataSplitter(LoadDataFormat format, size_t max_row_bytes);

  // Appends input. Invalidates the fields returned before.
  void Feed(absl::string_view bytes);
  // No more input comes: a last line without its terminator is a row.
  void Finish();

  // The next row. On kRow, `*fields` points into this splitter (see LoadField).
  Result Next(std::vector<LoadField>* fields);
  // Skips one line as IGNORE n LINES does: up to the next line terminator, escapes honoured,
  // enclosures not (as mysqld). kRow when a line was skipped.
  Result SkipLine();

  // Bytes held (input not yet cut into rows).
  size_t buffered() const { return input_.size() - start_; }

 private:
  struct FieldSpan {
    size_t offset = 0;  // into decoded_
    size_t length = 0;
    bool null = false;
  };
  enum class Step { kOk, kNeedMore, kEnd };

  // Parses the row at the front of the input; on kOk `*used` bytes make it up.
  Step ParseRow(size_t* used);
  // Whether `term` is at input position `at` (kNeedMore when the input ends inside it and
  // more may come).
  Step Matches(absl::string_view term, size_t at) const;
  // Whether a row can end in the input seen so far: when more may come, a line terminator
  // must have arrived since the last attempt — so a long row is not re-parsed per packet.
  bool MayHaveRow();
  void Compact();

  LoadDataFormat format_;
  size_t max_row_bytes_;
  std::string input_;
  size_t start_ = 0;  // input_[start_, size) is not consumed yet
  bool finished_ = false;
  size_t searched_until_ = 0;  // input_[start_, searched_until_) held no line end that sufficed
  std::string decoded_;
  std::vector<FieldSpan> spans_;
};

}  // namespace shoal::sql
