// Filters (comparisons, three-valued logic, LIKE, validation of hostile bytes) and update
// programs (SET, SET NULL, ADD with per-width overflow and MySQL's 1690 text, SET IF CHANGED).
#include "engine/schema/program.h"

#include <bit>
#include <cfloat>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/schema/schema_test_util.h"
#include "gtest/gtest.h"

namespace shoal::schema {
namespace {

using testutil::Column;

enum Col { kId, kK, kC, kB, kD, kF, kNn, kHidden, kColumns };

// db.t (id BIGINT UNSIGNED NOT NULL, k INT, c VARCHAR(20), b VARBINARY(10), d DECIMAL(10,2),
//       f DOUBLE, nn INT NOT NULL, $PK hidden)
TableDef Table() {
  TableDef t;
  t.database = "db";
  t.name = "t";
  t.columns = {Column("id", ColumnType::kBigInt),     Column("k", ColumnType::kInt),
               Column("c", ColumnType::kVarChar, 20), Column("b", ColumnType::kVarBinary, 10),
               Column("d", ColumnType::kDecimal),     Column("f", ColumnType::kDouble),
               Column("nn", ColumnType::kInt),        Column("$PK", ColumnType::kBigInt)};
  t.columns[kId].is_unsigned = true;
  t.columns[kId].nullable = false;
  t.columns[kD].precision = 10;
  t.columns[kD].scale = 2;
  t.columns[kNn].nullable = false;
  t.columns[kHidden].is_unsigned = true;
  t.columns[kHidden].nullable = false;
  t.columns[kHidden].hidden = true;
  return t;
}

// A split row with owned storage; the bytes live on the heap so that moving a Row keeps
// `fields` valid.
struct Row {
  std::shared_ptr<const std::string> storage;
  absl::string_view bytes;
  std::vector<Field> fields;
};

Row Split(const TableDef& t, absl::string_view packed) {
  Row row;
  row.storage = std::make_shared<const std::string>(packed);
  row.bytes = *row.storage;
  row.fields.resize(t.columns.size());
  std::vector<uint16_t> columns(t.columns.size());
  for (size_t i = 0; i < columns.size(); ++i) columns[i] = static_cast<uint16_t>(i);
  size_t consumed;
  EXPECT_TRUE(SplitRow(t, columns, row.bytes, row.fields.data(), &consumed));
  EXPECT_EQ(consumed, row.bytes.size());
  return row;
}

Row MakeRow(const TableDef& t, const std::vector<std::string>& values,
            const std::vector<bool>& nulls) {
  RowWriter w;
  w.BeginRow(static_cast<int>(t.columns.size()));
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (nulls[i]) {
      w.Null();
    } else {
      w.Raw(t.columns[i], Field{values[i], false});
    }
  }
  return Split(t, w.view());
}

std::string Int(const ColumnDef& c, int64_t v) {
  RowWriter w;
  w.BeginKey();
  w.Int(c, v);
  return std::string(w.view());
}

std::string Dbl(double v) {
  RowWriter w;
  w.Double(v);
  return std::string(w.view());
}

// id 1, k = `k` (NULL when null_k), c "hello", b "\x01\x02", d "12.50", f 2.5, nn 0.
Row Sample(const TableDef& t, int64_t k, bool null_k = false) {
  return MakeRow(t,
                 {Int(t.columns[kId], 1), Int(t.columns[kK], k), "hello", "\x01\x02", "12.50",
                  Dbl(2.5), Int(t.columns[kNn], 0), Int(t.columns[kHidden], 9)},
                 {false, null_k, false, false, false, false, false, false});
}

bool Passes(const TableDef& t, const std::string& filter, const Row& row) {
  absl::Status status = ValidateFilter(t, filter);
  EXPECT_TRUE(status.ok()) << status;
  return status.ok() && FilterPasses(t, filter, row.fields.data());
}

TEST(FilterTest, EmptyPassesEverything) {
  TableDef t = Table();
  EXPECT_TRUE(Passes(t, "", Sample(t, 1)));
}

TEST(FilterTest, ComparisonTruthTable) {
  TableDef t = Table();
  const ColumnDef& k = t.columns[kK];
  struct Case {
    CompareOp op;
    bool less, equal, greater;  // row k = 4, 5, 6 against 5
  };
  const Case cases[] = {
      {CompareOp::kEq, false, true, false}, {CompareOp::kNe, true, false, true},
      {CompareOp::kLt, true, false, false}, {CompareOp::kLe, true, true, false},
      {CompareOp::kGt, false, false, true}, {CompareOp::kGe, false, true, true},
  };
  for (const Case& c : cases) {
    std::string f = FilterBuilder().CompareInt(k, kK, c.op, 5).bytes();
    std::string not_f = FilterBuilder().Not().CompareInt(k, kK, c.op, 5).bytes();
    EXPECT_EQ(Passes(t, f, Sample(t, 4)), c.less);
    EXPECT_EQ(Passes(t, f, Sample(t, 5)), c.equal);
    EXPECT_EQ(Passes(t, f, Sample(t, 6)), c.greater);
    // Against NULL every comparison is UNKNOWN, and so is its negation.
    EXPECT_FALSE(Passes(t, f, Sample(t, 5, true)));
    EXPECT_FALSE(Passes(t, not_f, Sample(t, 5, true)));
  }
  std::string is_null = FilterBuilder().IsNull(kK, true).bytes();
  std::string is_not_null = FilterBuilder().IsNull(kK, false).bytes();
  EXPECT_TRUE(Passes(t, is_null, Sample(t, 5, true)));
  EXPECT_FALSE(Passes(t, is_null, Sample(t, 5)));
  EXPECT_FALSE(Passes(t, is_not_null, Sample(t, 5, true)));
  EXPECT_TRUE(Passes(t, is_not_null, Sample(t, 5)));
}

TEST(FilterTest, TypedComparisons) {
  TableDef t = Table();
  Row row = Sample(t, 1);
  auto cmp = [&](int column, CompareOp op, std::string operand) {
    return FilterBuilder()
        .CompareBytes(t.columns[column], column, op, EncodeValue(t.columns[column], operand))
        .bytes();
  };
  EXPECT_TRUE(Passes(t, cmp(kC, CompareOp::kEq, "hello"), row));
  EXPECT_TRUE(Passes(t, cmp(kC, CompareOp::kGt, "hell"), row));
  EXPECT_TRUE(Passes(t, cmp(kC, CompareOp::kLt, "help"), row));
  EXPECT_TRUE(Passes(t, cmp(kD, CompareOp::kGt, "9.99"), row));  // numeric, not text, order
  EXPECT_TRUE(Passes(t, cmp(kD, CompareOp::kEq, "12.5"), row));
  EXPECT_TRUE(Passes(t, cmp(kF, CompareOp::kLt, Dbl(10)), row));
  EXPECT_TRUE(Passes(t, cmp(kB, CompareOp::kGe, std::string("\x01\x02", 2)), row));
  // CompareInt spells integers as DECIMAL text with the column's scale: 12.00.
  EXPECT_FALSE(
      Passes(t, FilterBuilder().CompareInt(t.columns[kD], kD, CompareOp::kEq, 12).bytes(), row));
  EXPECT_TRUE(
      Passes(t, FilterBuilder().CompareInt(t.columns[kD], kD, CompareOp::kGt, 12).bytes(), row));
  EXPECT_TRUE(
      Passes(t, FilterBuilder().CompareInt(t.columns[kId], kId, CompareOp::kEq, 1).bytes(), row));
}

// Leaves with a known truth value: TRUE (id IS NOT NULL), FALSE (id IS NULL), UNKNOWN (k = 1
// with k NULL).
void Leaf(const TableDef& t, int truth, FilterBuilder* b) {
  if (truth == 2) {
    b->CompareInt(t.columns[kK], kK, CompareOp::kEq, 1);
  } else {
    b->IsNull(kId, truth == 0);
  }
}

// 0 FALSE, 1 TRUE, 2 UNKNOWN, as the filter evaluates: passes → TRUE, NOT passes → FALSE.
int Evaluate(const TableDef& t, const std::string& filter, const Row& row) {
  if (Passes(t, filter, row)) return 1;
  if (Passes(t, std::string(1, static_cast<char>(FilterNode::kNot)) + filter, row)) return 0;
  return 2;
}

TEST(FilterTest, ThreeValuedLogic) {
  TableDef t = Table();
  Row row = Sample(t, 0, true);
  const int kAnd[3][3] = {{0, 0, 0}, {0, 1, 2}, {0, 2, 2}};
  const int kOr[3][3] = {{0, 1, 2}, {1, 1, 1}, {2, 1, 2}};
  for (int x = 0; x < 3; ++x) {
    FilterBuilder leaf;
    Leaf(t, x, &leaf);
    EXPECT_EQ(Evaluate(t, leaf.bytes(), row), x);
    for (int y = 0; y < 3; ++y) {
      FilterBuilder a, o;
      a.And(2);
      o.Or(2);
      Leaf(t, x, &a);
      Leaf(t, y, &a);
      Leaf(t, x, &o);
      Leaf(t, y, &o);
      EXPECT_EQ(Evaluate(t, a.bytes(), row), kAnd[x][y]) << x << " AND " << y;
      EXPECT_EQ(Evaluate(t, o.bytes(), row), kOr[x][y]) << x << " OR " << y;
    }
  }
  EXPECT_EQ(Evaluate(t, FilterBuilder().And(0).bytes(), row), 1);
  EXPECT_EQ(Evaluate(t, FilterBuilder().Or(0).bytes(), row), 0);
  // Short-circuited children are still walked: (FALSE AND UNKNOWN) OR TRUE.
  FilterBuilder b;
  b.Or(2).And(2);
  Leaf(t, 0, &b);
  Leaf(t, 2, &b);
  Leaf(t, 1, &b);
  EXPECT_EQ(Evaluate(t, b.bytes(), row), 1);
}

TEST(FilterTest, Like) {
  TableDef t = Table();
  struct Case {
    const char* text;
    const char* pattern;
    bool want;
  };
  const Case cases[] = {
      {"abc", "abc", true},     {"abc", "a%", true},
      {"abc", "%c", true},      {"abc", "%b%", true},
      {"abc", "a_c", true},     {"abc", "a_", false},
      {"abc", "", false},       {"", "", true},
      {"", "%", true},          {"", "_", false},
      {"a%c", "a\\%c", true},   {"abc", "a\\%c", false},
      {"a_c", "a\\_c", true},   {"abc", "a\\_c", false},
      {"a\\c", "a\\\\c", true}, {"abc\\", "abc\\", true},
      {"ABC", "abc", false},    {"aaa", "%a%a%a%", true},
      {"aa", "%a%a%a%", false}, {"mississippi", "%iss%ppi", true},
      {"abcd", "%%%d", true},   {"abcd", "_%_", true},
      {"héllo", "h_llo", true}, {"héllo", "h__llo", false},
      {"abcab", "%ab", true},   {"abcabd", "%ab_", true},
  };
  for (const Case& c : cases) {
    Row row = MakeRow(t,
                      {Int(t.columns[kId], 1), "", c.text, "", "0.00", Dbl(0),
                       Int(t.columns[kNn], 0), Int(t.columns[kHidden], 1)},
                      {false, true, false, true, false, false, false, false});
    std::string pattern = EncodeValue(t.columns[kC], c.pattern);
    std::string like =
        FilterBuilder().CompareBytes(t.columns[kC], kC, CompareOp::kLike, pattern).bytes();
    std::string not_like =
        FilterBuilder().CompareBytes(t.columns[kC], kC, CompareOp::kNotLike, pattern).bytes();
    EXPECT_EQ(Passes(t, like, row), c.want) << c.text << " LIKE " << c.pattern;
    EXPECT_EQ(Passes(t, not_like, row), !c.want) << c.text << " NOT LIKE " << c.pattern;
  }
  // On binary columns `_` is one byte.
  Row row = MakeRow(t,
                    {Int(t.columns[kId], 1), "", "", "h\xC3\xA9llo", "0.00", Dbl(0),
                     Int(t.columns[kNn], 0), Int(t.columns[kHidden], 1)},
                    {false, true, true, false, false, false, false, false});
  auto like = [&](int column, const char* pattern, CompareOp op = CompareOp::kLike) {
    return FilterBuilder()
        .CompareBytes(t.columns[column], column, op, EncodeValue(t.columns[column], pattern))
        .bytes();
  };
  EXPECT_TRUE(Passes(t, like(kB, "h__llo"), row));
  EXPECT_FALSE(Passes(t, like(kB, "h_llo"), row));
  // NULL LIKE anything is UNKNOWN.
  EXPECT_FALSE(Passes(t, like(kC, "%"), row));
  EXPECT_FALSE(Passes(t, like(kC, "%", CompareOp::kNotLike), row));
}

TEST(FilterTest, LikeOnAColumnThatFoldsCaseMatchesForms) {
  TableDef t = Table();
  t.columns[kC].collation = Collation::kCaseInsensitive;
  Row row = MakeRow(t,
                    {Int(t.columns[kId], 1), "", "Jos\xC3\xA9 \xC3\x81lvarez", "", "0.00", Dbl(0),
                     Int(t.columns[kNn], 0), Int(t.columns[kHidden], 1)},
                    {false, true, false, true, false, false, false, false});
  auto like = [&](const char* pattern, bool negated = false) {
    return FilterBuilder().Like(t.columns[kC], kC, negated, pattern).bytes();
  };
  EXPECT_TRUE(Passes(t, like("jose%"), row));
  EXPECT_TRUE(Passes(t, like("JOS\xC3\x89 _LVAREZ"), row));  // JOSÉ _LVAREZ
  EXPECT_TRUE(Passes(t, like("%alv%"), row));
  EXPECT_FALSE(Passes(t, like("%alv%", /*negated=*/true), row));
  EXPECT_FALSE(Passes(t, like("josx%"), row));
  EXPECT_TRUE(Passes(t, like("jos\\e%"), row));  // an escaped letter is still folded
  // NULL LIKE anything is UNKNOWN.
  EXPECT_FALSE(Passes(t, FilterBuilder().Like(t.columns[kB], kB, false, "%").bytes(), row));
  t.columns[kC].collation = Collation::kBinary;
  EXPECT_FALSE(Passes(t, like("jose%"), row));
  EXPECT_TRUE(Passes(t, like("Jos\xC3\xA9%"), row));
}

TEST(FilterTest, LikeBacktrackingStaysFast) {
  TableDef t = Table();
  std::string text(20, 'a');
  Row row = MakeRow(t,
                    {Int(t.columns[kId], 1), "", text, "", "0.00", Dbl(0), Int(t.columns[kNn], 0),
                     Int(t.columns[kHidden], 1)},
                    {false, true, false, true, false, false, false, false});
  std::string pattern = EncodeValue(t.columns[kC], "%a%a%a%a%a%a%a%a%a%a%a%a%b");
  EXPECT_FALSE(Passes(
      t, FilterBuilder().CompareBytes(t.columns[kC], kC, CompareOp::kLike, pattern).bytes(), row));
}

std::string Compare(uint16_t column, uint8_t op, std::string operand) {
  std::string f(1, static_cast<char>(FilterNode::kCompare));
  f.push_back(static_cast<char>(column));
  f.push_back(static_cast<char>(column >> 8));
  f.push_back(static_cast<char>(op));
  return f + operand;
}

TEST(FilterTest, ValidationRejectsHostileBytes) {
  TableDef t = Table();
  const std::string k5 = Int(t.columns[kK], 5);
  const std::vector<std::pair<const char*, std::string>> bad = {
      {"unknown node", std::string(1, '\x05')},
      {"zero node", std::string(1, '\0')},
      {"unknown op", Compare(kK, 11, k5)},
      {"op zero", Compare(kK, 0, k5)},
      {"no column", Compare(kColumns, 1, k5)},
      {"huge column", Compare(0xFFFF, 7, "")},
      {"short operand", Compare(kK, 1, "\x05")},
      {"trailing bytes", Compare(kK, 1, k5) + "x"},
      {"two roots", Compare(kK, 7, "") + Compare(kK, 7, "")},
      {"LIKE on INT", Compare(kK, 9, std::string("\x01\x00%", 3))},
      {"operand too long", Compare(kC, 1, EncodeValue(t.columns[kC], std::string(81, 'x')))},
      {"length past end", Compare(kC, 1,
                                  std::string("\x05\x00"
                                              "ab",
                                              4))},
      {"pattern past end", Compare(kC, 9,
                                   std::string("\x05\x00"
                                               "ab",
                                               4))},
      {"AND short", std::string("\x01\x02", 2) + Compare(kK, 7, "")},
      {"AND no count", std::string("\x01", 1)},
      {"NOT nothing", std::string("\x03", 1)},
  };
  for (const auto& [what, filter] : bad) {
    absl::Status status = ValidateFilter(t, filter);
    EXPECT_TRUE(absl::IsInvalidArgument(status)) << what;
  }
  // Nesting: 32 levels pass, 33 do not.
  std::string leaf = Compare(kK, 7, "");
  EXPECT_TRUE(ValidateFilter(t, std::string(31, '\x03') + leaf).ok());
  EXPECT_FALSE(ValidateFilter(t, std::string(32, '\x03') + leaf).ok());
  EXPECT_FALSE(ValidateFilter(t, std::string(100000, '\x03') + leaf).ok());
}

TEST(FilterTest, EveryTruncationRejected) {
  TableDef t = Table();
  FilterBuilder b;
  b.And(3)
      .CompareInt(t.columns[kK], kK, CompareOp::kGe, 5)
      .Or(2)
      .CompareBytes(t.columns[kC], kC, CompareOp::kLike, EncodeValue(t.columns[kC], "a%"))
      .Not()
      .IsNull(kD, true)
      .CompareBytes(t.columns[kD], kD, CompareOp::kNe, EncodeValue(t.columns[kD], "1.00"));
  std::string filter = b.bytes();
  ASSERT_TRUE(ValidateFilter(t, filter).ok());
  for (size_t n = 1; n < filter.size(); ++n) {
    EXPECT_FALSE(ValidateFilter(t, filter.substr(0, n)).ok()) << n;
  }
}

// ---------------------------------------------------------------------------------------------

Row Apply(const TableDef& t, const std::string& program, const Row& row, absl::Status* status) {
  absl::Status valid = ValidateUpdate(t, program);
  EXPECT_TRUE(valid.ok()) << valid;
  RowWriter out;
  *status = ApplyUpdate(t, program, row.fields.data(), &out);
  if (!status->ok()) {
    EXPECT_TRUE(out.view().empty());
    return Row{};
  }
  return Split(t, out.view());
}

TEST(UpdateTest, SetSetNullAdd) {
  TableDef t = Table();
  Row row = Sample(t, 10);
  std::string program = UpdateBuilder()
                            .AddInt(kK, 5)
                            .SetBytes(kC, "world")
                            .SetNull(kB)
                            .AddDouble(kF, -0.5)
                            .SetField(t.columns[kD], kD, EncodeValue(t.columns[kD], "-1.25"))
                            .SetInt(t.columns[kNn], kNn, -7)
                            .AddInt(kK, 100)  // runs on the value the first step left
                            .Finish();
  absl::Status status;
  Row out = Apply(t, program, row, &status);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(FieldInt(t.columns[kK], out.fields[kK].bytes), 115);
  EXPECT_EQ(out.fields[kC].bytes, "world");
  EXPECT_TRUE(out.fields[kB].null);
  EXPECT_EQ(FieldDouble(t.columns[kF], out.fields[kF].bytes), 2.0);
  EXPECT_EQ(out.fields[kD].bytes, "-1.25");
  EXPECT_EQ(FieldInt(t.columns[kNn], out.fields[kNn].bytes), -7);
  EXPECT_EQ(FieldUint(t.columns[kId], out.fields[kId].bytes), 1u);
  EXPECT_EQ(FieldUint(t.columns[kHidden], out.fields[kHidden].bytes), 9u);
}

TEST(UpdateTest, OrderWithinAColumn) {
  TableDef t = Table();
  absl::Status status;
  Row out = Apply(
      t,
      UpdateBuilder().SetNull(kK).AddInt(kK, 1).SetInt(t.columns[kK], kK, 3).AddInt(kK, 1).Finish(),
      Sample(t, 10), &status);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(FieldInt(t.columns[kK], out.fields[kK].bytes), 4);
  // NULL + x is NULL.
  out = Apply(t, UpdateBuilder().AddInt(kK, 1).Finish(), Sample(t, 0, true), &status);
  ASSERT_TRUE(status.ok());
  EXPECT_TRUE(out.fields[kK].null);
  // The empty program and zero steps copy the row.
  for (std::string program : {std::string(), UpdateBuilder().Finish()}) {
    Row same = Apply(t, program, Sample(t, 10), &status);
    ASSERT_TRUE(status.ok());
    EXPECT_EQ(same.bytes, Sample(t, 10).bytes);
  }
}

// ON UPDATE CURRENT_TIMESTAMP as the router sends it: `nn` plays the time column.
TEST(UpdateTest, SetIfChangedOnlyWhenTheRowChanges) {
  TableDef t = Table();
  const std::string stamp = Int(t.columns[kNn], 42);
  auto run = [&](UpdateBuilder b, bool* changed) {
    std::string program = b.SetFieldIfChanged(kNn, stamp).Finish();
    EXPECT_TRUE(ValidateUpdate(t, program).ok());
    RowWriter out;
    absl::Status status = ApplyUpdate(t, program, Sample(t, 10).fields.data(), &out, changed);
    EXPECT_TRUE(status.ok()) << status;
    return Split(t, out.view());
  };
  bool changed = false;
  // k changes: nn takes the stamp.
  Row out = run(UpdateBuilder().SetInt(t.columns[kK], kK, 11), &changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(FieldInt(t.columns[kK], out.fields[kK].bytes), 11);
  EXPECT_EQ(FieldInt(t.columns[kNn], out.fields[kNn].bytes), 42);
  // k set to the value it has, c too, k + 0: the row is left as it was, nn included.
  out = run(UpdateBuilder().SetInt(t.columns[kK], kK, 10).SetBytes(kC, "hello").AddInt(kK, 0),
            &changed);
  EXPECT_FALSE(changed);
  EXPECT_EQ(out.bytes, Sample(t, 10).bytes);
  // Nothing but the conditional step: nothing changes.
  out = run(UpdateBuilder(), &changed);
  EXPECT_FALSE(changed);
  EXPECT_EQ(out.bytes, Sample(t, 10).bytes);
  // NULL where there was a value is a change.
  out = run(UpdateBuilder().SetNull(kK), &changed);
  EXPECT_TRUE(changed);
  EXPECT_TRUE(out.fields[kK].null);
  EXPECT_EQ(FieldInt(t.columns[kNn], out.fields[kNn].bytes), 42);
  // A failing step still fails, with the output restored.
  std::string program =
      UpdateBuilder().AddInt(kK, INT64_MAX).SetFieldIfChanged(kNn, stamp).Finish();
  RowWriter failed;
  EXPECT_TRUE(absl::IsOutOfRange(ApplyUpdate(t, program, Sample(t, 10).fields.data(), &failed)));
  EXPECT_TRUE(failed.view().empty());
  // A truncated operand is refused like SET's.
  program = UpdateBuilder().SetFieldIfChanged(kNn, stamp.substr(0, 2)).Finish();
  EXPECT_FALSE(ValidateUpdate(t, program).ok());
}

TEST(UpdateTest, ValidationRejectsHostileBytes) {
  TableDef t = Table();
  auto step = [](uint16_t column, uint8_t op, std::string operand) {
    std::string s(1, static_cast<char>(column));
    s.push_back(static_cast<char>(column >> 8));
    s.push_back(static_cast<char>(op));
    return s + operand;
  };
  const std::string one(8, '\x01');
  const std::vector<std::pair<const char*, std::string>> bad = {
      {"count without steps", std::string(1, '\x01')},
      {"unknown op", "\x01" + step(kK, 5, "")},
      {"op zero", "\x01" + step(kK, 0, "")},
      {"no column", "\x01" + step(kColumns, 2, "")},
      {"hidden column", "\x01" + step(kHidden, 3, one)},
      {"short SET", "\x01" + step(kK, 1, "ab")},
      {"short ADD", "\x01" + step(kK, 3, "abc")},
      {"ADD to VARCHAR", "\x01" + step(kC, 3, one)},
      {"ADD to DECIMAL", "\x01" + step(kD, 3, one)},
      {"SET too long", "\x01" + step(kC, 1, EncodeValue(t.columns[kC], std::string(81, 'x')))},
      {"trailing", "\x01" + step(kK, 2, "") + "x"},
      {"fewer steps", "\x02" + step(kK, 2, "")},
  };
  for (const auto& [what, program] : bad) {
    EXPECT_TRUE(absl::IsInvalidArgument(ValidateUpdate(t, program))) << what;
  }
  EXPECT_EQ(ValidateUpdate(t, "\x01" + step(kNn, 2, "")).message(),
            "1048: Column 'nn' cannot be null");
  std::string program =
      UpdateBuilder().AddInt(kK, 1).SetBytes(kC, "abc").SetNull(kB).AddDouble(kF, 1).Finish();
  ASSERT_TRUE(ValidateUpdate(t, program).ok());
  for (size_t n = 1; n < program.size(); ++n) {
    EXPECT_FALSE(ValidateUpdate(t, program.substr(0, n)).ok()) << n;
  }
}

struct Width {
  ColumnType type;
  bool is_unsigned;
  int64_t min;
  uint64_t max;
  const char* label;
};

TEST(UpdateTest, OverflowPerWidth) {
  const Width widths[] = {
      {ColumnType::kTinyInt, false, INT8_MIN, INT8_MAX, "TINYINT"},
      {ColumnType::kTinyInt, true, 0, UINT8_MAX, "TINYINT UNSIGNED"},
      {ColumnType::kSmallInt, false, INT16_MIN, INT16_MAX, "SMALLINT"},
      {ColumnType::kSmallInt, true, 0, UINT16_MAX, "SMALLINT UNSIGNED"},
      {ColumnType::kMediumInt, false, -8388608, 8388607, "MEDIUMINT"},
      {ColumnType::kMediumInt, true, 0, 16777215, "MEDIUMINT UNSIGNED"},
      {ColumnType::kInt, false, INT32_MIN, INT32_MAX, "INT"},
      {ColumnType::kInt, true, 0, UINT32_MAX, "INT UNSIGNED"},
      {ColumnType::kBigInt, false, INT64_MIN, INT64_MAX, "BIGINT"},
      {ColumnType::kBigInt, true, 0, UINT64_MAX, "BIGINT UNSIGNED"},
  };
  for (const Width& w : widths) {
    SCOPED_TRACE(w.label);
    TableDef t;
    t.database = "db";
    t.name = "t";
    t.columns = {Column("k", w.type)};
    t.columns[0].is_unsigned = w.is_unsigned;
    const ColumnDef& k = t.columns[0];
    Row at_max = MakeRow(t, {Int(k, static_cast<int64_t>(w.max))}, {false});
    Row at_min = MakeRow(t, {Int(k, w.min)}, {false});
    absl::Status status;
    std::string plus = UpdateBuilder().AddInt(0, 1).Finish();
    std::string minus = UpdateBuilder().AddInt(0, -1).Finish();

    // As MySQL: `k + 1` is computed in BIGINT [UNSIGNED]; a sum outside that is 1690 on the
    // expression, one that only misses the column is 1264 ("1264: " names it) on the column.
    const bool bigint = w.type == ColumnType::kBigInt;
    const std::string expression = w.is_unsigned ? "BIGINT UNSIGNED" : "BIGINT";
    const std::string column_range = "1264: Out of range value for column 'k' at row 1";
    Apply(t, plus, at_max, &status);
    EXPECT_TRUE(absl::IsOutOfRange(status));
    EXPECT_EQ(status.message(), bigint
                                    ? expression + " value is out of range in '(`db`.`t`.`k` + 1)'"
                                    : column_range);
    Apply(t, minus, at_min, &status);
    EXPECT_TRUE(absl::IsOutOfRange(status));
    EXPECT_EQ(status.message(), bigint || w.is_unsigned
                                    ? expression + " value is out of range in '(`db`.`t`.`k` - 1)'"
                                    : column_range);

    Row down = Apply(t, minus, at_max, &status);
    ASSERT_TRUE(status.ok());
    Row up = Apply(t, plus, down, &status);
    ASSERT_TRUE(status.ok());
    EXPECT_EQ(up.bytes, at_max.bytes);
    Row min_up = Apply(t, plus, at_min, &status);
    ASSERT_TRUE(status.ok());
    if (w.is_unsigned) {
      EXPECT_EQ(FieldUint(k, min_up.fields[0].bytes), 1u);
    } else {
      EXPECT_EQ(FieldInt(k, min_up.fields[0].bytes), w.min + 1);
    }
    // The most extreme deltas.
    Apply(t, UpdateBuilder().AddInt(0, INT64_MIN).Finish(), at_min, &status);
    EXPECT_TRUE(absl::IsOutOfRange(status));
    Apply(t, UpdateBuilder().AddInt(0, INT64_MAX).Finish(), at_max, &status);
    EXPECT_TRUE(absl::IsOutOfRange(status));
  }
}

TEST(UpdateTest, UnsignedBigIntFullRange) {
  TableDef t;
  t.database = "db";
  t.name = "t";
  t.columns = {Column("k", ColumnType::kBigInt)};
  t.columns[0].is_unsigned = true;
  Row zero = MakeRow(t, {Int(t.columns[0], 0)}, {false});
  absl::Status status;
  Row big = Apply(t, UpdateBuilder().AddInt(0, INT64_MAX).Finish(), zero, &status);
  ASSERT_TRUE(status.ok());
  Row bigger = Apply(t, UpdateBuilder().AddInt(0, INT64_MAX).AddInt(0, 1).Finish(), big, &status);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(FieldUint(t.columns[0], bigger.fields[0].bytes), UINT64_MAX);
  Row back = Apply(t, UpdateBuilder().AddInt(0, INT64_MIN).Finish(), bigger, &status);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(FieldUint(t.columns[0], back.fields[0].bytes), uint64_t{INT64_MAX});
  Apply(t, UpdateBuilder().AddInt(0, INT64_MIN).Finish(), zero, &status);
  EXPECT_EQ(status.message(),
            "BIGINT UNSIGNED value is out of range in '(`db`.`t`.`k` - 9223372036854775808)'");
}

TEST(UpdateTest, FloatingOverflow) {
  TableDef t;
  t.database = "db";
  t.name = "t";
  t.columns = {Column("f", ColumnType::kFloat), Column("d", ColumnType::kDouble)};
  RowWriter w;
  w.Float(3e38f);
  std::string f(w.view());
  Row row = MakeRow(t, {f, Dbl(DBL_MAX)}, {false, false});
  absl::Status status;
  Apply(t, UpdateBuilder().AddDouble(0, 1e38).Finish(), row, &status);
  EXPECT_TRUE(absl::IsOutOfRange(status));
  EXPECT_EQ(status.message(), "FLOAT value is out of range in '(`db`.`t`.`f` + 1e+38)'");
  Apply(t, UpdateBuilder().AddDouble(1, DBL_MAX).Finish(), row, &status);
  EXPECT_TRUE(absl::IsOutOfRange(status));
  Row ok =
      Apply(t, UpdateBuilder().AddDouble(0, -3e38).AddDouble(1, -DBL_MAX).Finish(), row, &status);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(FieldDouble(t.columns[1], ok.fields[1].bytes), 0.0);
}

TEST(UpdateTest, FirstFailingStepReportedAndOutputRestored) {
  TableDef t = Table();
  Row row = MakeRow(t,
                    {Int(t.columns[kId], -1), Int(t.columns[kK], INT32_MAX), "", "", "0.00", Dbl(0),
                     Int(t.columns[kNn], INT32_MIN), Int(t.columns[kHidden], 1)},
                    {false, false, false, false, false, false, false, false});
  std::string program = UpdateBuilder().AddInt(kNn, -1).AddInt(kId, 1).AddInt(kK, 1).Finish();
  ASSERT_TRUE(ValidateUpdate(t, program).ok());
  RowWriter out;
  out.buffer() = "prefix";
  absl::Status status = ApplyUpdate(t, program, row.fields.data(), &out);
  EXPECT_EQ(status.message(), "1264: Out of range value for column 'nn' at row 1");
  EXPECT_EQ(out.view(), "prefix");
}

}  // namespace
}  // namespace shoal::schema
