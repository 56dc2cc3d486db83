// LOAD DATA's splitter: mysqld's reading of fields, enclosures, escapes and lines, and the
// same rows whatever the packets the input arrives in.
#include "router/sql/eval/load_data_format.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace shoal::sql {
namespace {

// Rows as vectors of field texts, NULL as "<NULL>"; the input is fed `piece` bytes at a time.
std::vector<std::vector<std::string>> Rows(const LoadDataFormat& format, const std::string& in,
                                           size_t piece = 1 << 20, int skip = 0) {
  LoadDataSplitter splitter(format, 1 << 16);
  std::vector<std::vector<std::string>> rows;
  std::vector<LoadField> fields;
  size_t fed = 0;
  for (;;) {
    auto r = skip > 0 ? splitter.SkipLine() : splitter.Next(&fields);
    if (r == LoadDataSplitter::Result::kRow) {
      if (skip > 0) {
        --skip;
        continue;
      }
      auto& row = rows.emplace_back();
      for (const LoadField& f : fields) row.push_back(f.null ? "<NULL>" : std::string(f.text));
      continue;
    }
    if (r == LoadDataSplitter::Result::kEnd) return rows;
    EXPECT_EQ(r, LoadDataSplitter::Result::kNeedMore);
    if (r != LoadDataSplitter::Result::kNeedMore) return rows;
    if (fed == in.size()) {
      splitter.Finish();
    } else {
      size_t n = std::min(piece, in.size() - fed);
      splitter.Feed(absl::string_view(in).substr(fed, n));
      fed += n;
    }
  }
}

using RowsT = std::vector<std::vector<std::string>>;

LoadDataFormat Csv() {
  LoadDataFormat f;
  f.field_terminator = ",";
  f.enclosure = '"';
  return f;
}

TEST(LoadDataSplitterTest, TabsAndDefaultEscapes) {
  std::string in = "1\ta\\tb\n2\t\\N\n3\tn\\Nn\t\\0\\Z\\\\\n\n";
  RowsT want = {{"1", "a\tb"},
                {"2", "<NULL>"},
                {"3", "nNn", std::string("\0\032\\", 3)},
                {""}};  // an empty line is one empty field
  EXPECT_EQ(Rows({}, in), want);
  for (size_t piece : {1, 2, 3, 7}) EXPECT_EQ(Rows({}, in, piece), want) << piece;
}

TEST(LoadDataSplitterTest, EnclosedFields) {
  std::string in = "1,\"a, b\",\"say \"\"hi\"\"\"\n2,NULL,\"NULL\"\n3,\"multi\nline\",x\"y\n";
  RowsT want = {{"1", "a, b", "say \"hi\""}, {"2", "<NULL>", "NULL"}, {"3", "multi\nline", "x\"y"}};
  EXPECT_EQ(Rows(Csv(), in), want);
  EXPECT_EQ(Rows(Csv(), in, 1), want);
}

TEST(LoadDataSplitterTest, QuoteNotFollowedByTerminatorIsData) {
  EXPECT_EQ(Rows(Csv(), "\"ab\"c\",d\n"), (RowsT{{"ab\"c", "d"}}));
  // An enclosure never closed: the field runs to the end, opening quote included.
  EXPECT_EQ(Rows(Csv(), "1,\"open"), (RowsT{{"1", "\"open"}}));
}

TEST(LoadDataSplitterTest, LastLineWithoutTerminator) {
  EXPECT_EQ(Rows({}, "1\ta\n2\tb"), (RowsT{{"1", "a"}, {"2", "b"}}));
  EXPECT_EQ(Rows({}, "1\ta\t"), (RowsT{{"1", "a"}}));  // the missing field is not there
}

TEST(LoadDataSplitterTest, MultiByteTerminatorsAcrossPieces) {
  LoadDataFormat f;
  f.field_terminator = "||";
  f.line_terminator = "<EOL>\r\n";
  std::string in = "1||a|b<EOL>\r\n2||c<EOL<EOL>\r\n";
  RowsT want = {{"1", "a|b"}, {"2", "c<EOL"}};
  for (size_t piece : {1, 2, 5, 100}) EXPECT_EQ(Rows(f, in, piece), want) << piece;
}

TEST(LoadDataSplitterTest, StartingBySkipsTextBeforeIt) {
  LoadDataFormat f;
  f.line_starting = "xxx";
  EXPECT_EQ(Rows(f, "xxx1\ta\nno prefix\nnoise xxx2\tb\n"), (RowsT{{"1", "a"}, {"2", "b"}}));
}

TEST(LoadDataSplitterTest, NoEscape) {
  LoadDataFormat f;
  f.escape.reset();
  EXPECT_EQ(Rows(f, "a\\tb\t\\N\n"), (RowsT{{"a\\tb", "\\N"}}));
}

TEST(LoadDataSplitterTest, SkipLineHonoursEscapesNotEnclosures) {
  EXPECT_EQ(Rows(Csv(), "h1,\"h\n2\"\nx,y\n", 1 << 20, 1), (RowsT{{"2\""}, {"x", "y"}}));
  EXPECT_EQ(Rows({}, "a\\\nb\nc\n", 1 << 20, 1), (RowsT{{"c"}}));
}

TEST(LoadDataSplitterTest, RowTooLong) {
  LoadDataSplitter splitter({}, 8);
  std::vector<LoadField> fields;
  splitter.Feed("0123456789abcdef");
  EXPECT_EQ(splitter.Next(&fields), LoadDataSplitter::Result::kTooLong);
}

}  // namespace
}  // namespace shoal::sql
