// Validation and evaluation of pushed-down filters and update programs (formats in program.h).
// Validation walks every byte with bounds checks so that evaluation, which runs per row, can
// walk the same bytes without them; neither allocates unless a step fails.
#include "engine/schema/program.h"

#include <bit>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "engine/schema/bytes.h"
#include "engine/schema/collation.h"

namespace shoal::schema {
namespace {

using internal::AppendLe;
using internal::LoadLe;

constexpr int kMaxFilterDepth = 32;
constexpr int kMaxSteps = 255;

// Bounds-checked reads for validation.
struct Cursor {
  absl::string_view in;

  bool U8(uint8_t* v) {
    if (in.empty()) return false;
    *v = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
    return true;
  }
  bool U16(uint16_t* v) {
    if (in.size() < 2) return false;
    *v = LoadLe<uint16_t>(in.data());
    in.remove_prefix(2);
    return true;
  }
  bool Skip(size_t n) {
    if (in.size() < n) return false;
    in.remove_prefix(n);
    return true;
  }
  // A non-NULL value packed as a field of `column`.
  bool Value(const ColumnDef& column) {
    Field field;
    size_t used;
    return ReadField(column, in, &field, &used) && Skip(used);
  }
  bool Pattern() {
    uint16_t n;
    return U16(&n) && Skip(n);
  }
};

absl::Status FilterError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("filter: ", what));
}

absl::Status ValidateCompare(const TableDef& table, Cursor* c) {
  uint16_t column;
  uint8_t op;
  if (!c->U16(&column) || !c->U8(&op)) return FilterError("truncated comparison");
  if (column >= table.columns.size()) return FilterError(absl::StrCat("no column ", column));
  const ColumnDef& def = table.columns[column];
  switch (static_cast<CompareOp>(op)) {
    case CompareOp::kEq:
    case CompareOp::kNe:
    case CompareOp::kLt:
    case CompareOp::kLe:
    case CompareOp::kGt:
    case CompareOp::kGe:
      if (!c->Value(def)) return FilterError("malformed operand");
      return absl::OkStatus();
    case CompareOp::kIsNull:
    case CompareOp::kIsNotNull:
      return absl::OkStatus();
    case CompareOp::kLike:
    case CompareOp::kNotLike:
      if (FixedSize(def.type) > 0) return FilterError("LIKE needs a string column");
      if (!c->Pattern()) return FilterError("malformed pattern");
      return absl::OkStatus();
  }
  return FilterError(absl::StrCat("unknown comparison ", op));
}

absl::Status ValidateNode(const TableDef& table, Cursor* c, int depth) {
  if (depth > kMaxFilterDepth) return FilterError("nested too deeply");
  uint8_t node;
  if (!c->U8(&node)) return FilterError("truncated");
  switch (static_cast<FilterNode>(node)) {
    case FilterNode::kAnd:
    case FilterNode::kOr: {
      uint8_t n;
      if (!c->U8(&n)) return FilterError("truncated");
      for (int i = 0; i < n; ++i) {
        if (absl::Status s = ValidateNode(table, c, depth + 1); !s.ok()) return s;
      }
      return absl::OkStatus();
    }
    case FilterNode::kNot:
      return ValidateNode(table, c, depth + 1);
    case FilterNode::kCompare:
      return ValidateCompare(table, c);
  }
  return FilterError(absl::StrCat("unknown node ", node));
}

// SQL's three truth values.
enum class Truth : uint8_t { kFalse, kTrue, kUnknown };

Truth FromBool(bool b) { return b ? Truth::kTrue : Truth::kFalse; }

Truth Not(Truth t) { return t == Truth::kUnknown ? t : FromBool(t == Truth::kFalse); }

// LIKE with MySQL's wildcards and `\` escape, byte-exact (binary collation). Backtracks only to
// the last `%`, which is enough for patterns without character classes: O(text × pattern). With
// `utf8`, `_` matches one character (Utf8StepLength: a malformed byte is one).
bool Like(absl::string_view text, absl::string_view pattern, bool utf8) {
  size_t t = 0, p = 0;
  size_t star_p = absl::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size()) {
      char c = pattern[p];
      if (c == '%') {
        star_p = ++p;
        star_t = t;
        continue;
      }
      if (c == '_') {
        t += utf8 ? Utf8StepLength(text.substr(t)) : 1;
        ++p;
        continue;
      }
      size_t width = 1;
      if (c == '\\' && p + 1 < pattern.size()) {
        c = pattern[p + 1];
        width = 2;
      }
      if (text[t] == c) {
        ++t;
        p += width;
        continue;
      }
    }
    if (star_p == absl::string_view::npos) return false;
    p = star_p;
    star_t += utf8 ? Utf8StepLength(text.substr(star_t)) : 1;
    t = star_t;
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

bool IsText(ColumnType type) {
  return type == ColumnType::kChar || type == ColumnType::kVarChar || type == ColumnType::kText;
}

// Walks a validated filter. Nodes whose value cannot change the result are walked with
// live = false, which skips their comparisons.
class Evaluator {
 public:
  Evaluator(const TableDef& table, const Field* row, const char* p)
      : table_(table), row_(row), p_(p) {}

  Truth Node(bool live) {
    switch (static_cast<FilterNode>(Byte())) {
      case FilterNode::kAnd: {
        int n = Byte();
        Truth result = Truth::kTrue;
        for (int i = 0; i < n; ++i) {
          bool child_live = live && result != Truth::kFalse;
          Truth t = Node(child_live);
          if (child_live && t != Truth::kTrue) result = t;
        }
        return result;
      }
      case FilterNode::kOr: {
        int n = Byte();
        Truth result = Truth::kFalse;
        for (int i = 0; i < n; ++i) {
          bool child_live = live && result != Truth::kTrue;
          Truth t = Node(child_live);
          if (child_live && t != Truth::kFalse) result = t;
        }
        return result;
      }
      case FilterNode::kNot:
        return Not(Node(live));
      case FilterNode::kCompare:
        return Compare(live);
    }
    return Truth::kUnknown;  // unreachable after validation
  }

 private:
  uint8_t Byte() { return static_cast<uint8_t>(*p_++); }
  absl::string_view Take(size_t n) {
    absl::string_view s(p_, n);
    p_ += n;
    return s;
  }
  absl::string_view Variable() {
    size_t n = LoadLe<uint16_t>(p_);
    p_ += 2;
    return Take(n);
  }

  Truth Compare(bool live) {
    uint16_t column = LoadLe<uint16_t>(p_);
    p_ += 2;
    CompareOp op = static_cast<CompareOp>(Byte());
    const ColumnDef& def = table_.columns[column];
    const Field& field = row_[column];
    if (op == CompareOp::kIsNull || op == CompareOp::kIsNotNull) {
      return FromBool(field.null == (op == CompareOp::kIsNull));
    }
    int fixed = FixedSize(def.type);
    bool like = op == CompareOp::kLike || op == CompareOp::kNotLike;
    absl::string_view operand = fixed > 0 && !like ? Take(fixed) : Variable();
    if (!live || field.null) return Truth::kUnknown;
    if (like) {
      absl::string_view text = field.bytes;
      if (FoldsCase(def) && !IsOwnForm(text)) {
        thread_local std::string form;
        form.clear();
        AppendFoldedText(text, &form);
        text = form;
      }
      return FromBool(Like(text, operand, IsText(def.type)) == (op == CompareOp::kLike));
    }
    int c = CompareField(def, field.bytes, operand);
    switch (op) {
      case CompareOp::kEq:
        return FromBool(c == 0);
      case CompareOp::kNe:
        return FromBool(c != 0);
      case CompareOp::kLt:
        return FromBool(c < 0);
      case CompareOp::kLe:
        return FromBool(c <= 0);
      case CompareOp::kGt:
        return FromBool(c > 0);
      default:
        return FromBool(c >= 0);
    }
  }

  const TableDef& table_;
  const Field* row_;
  const char* p_;
};

// ---------------------------------------------------------------------------------------------
// Update programs.

absl::Status UpdateError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("update: ", what));
}

absl::Status ValidateStep(const TableDef& table, Cursor* c) {
  uint16_t column;
  uint8_t op;
  if (!c->U16(&column) || !c->U8(&op)) return UpdateError("truncated step");
  if (column >= table.columns.size() || table.columns[column].hidden) {
    return UpdateError(absl::StrCat("no column ", column));
  }
  const ColumnDef& def = table.columns[column];
  switch (static_cast<UpdateOp>(op)) {
    case UpdateOp::kSet:
    case UpdateOp::kSetIfChanged:
      if (!c->Value(def)) return UpdateError("malformed value");
      return absl::OkStatus();
    case UpdateOp::kSetNull:
      if (!def.nullable) {
        return absl::InvalidArgumentError(
            absl::StrCat("1048: Column '", def.name, "' cannot be null"));
      }
      return absl::OkStatus();
    case UpdateOp::kAdd:
      if (!IsInteger(def.type) && def.type != ColumnType::kFloat &&
          def.type != ColumnType::kDouble) {
        return UpdateError(absl::StrCat("cannot add to ", ColumnTypeName(def.type)));
      }
      if (!c->Skip(8)) return UpdateError("truncated delta");
      return absl::OkStatus();
  }
  return UpdateError(absl::StrCat("unknown step ", op));
}

struct Step {
  uint16_t column;
  UpdateOp op;
  uint8_t index;              // position in the program, for reporting the first failure
  absl::string_view operand;  // the packed value's bytes (no length) or the 8-byte delta
};

// Reads the steps of a validated program.
int ReadSteps(const TableDef& table, absl::string_view program, Step* steps) {
  if (program.empty()) return 0;
  const char* p = program.data();
  int n = static_cast<uint8_t>(*p++);
  for (int i = 0; i < n; ++i) {
    Step& s = steps[i];
    s.column = LoadLe<uint16_t>(p);
    s.op = static_cast<UpdateOp>(p[2]);
    s.index = static_cast<uint8_t>(i);
    p += 3;
    if (s.op == UpdateOp::kSet || s.op == UpdateOp::kSetIfChanged) {
      int fixed = FixedSize(table.columns[s.column].type);
      size_t length = fixed > 0 ? fixed : LoadLe<uint16_t>(p);
      if (fixed == 0) p += 2;
      s.operand = absl::string_view(p, length);
      p += length;
    } else if (s.op == UpdateOp::kAdd) {
      s.operand = absl::string_view(p, 8);
      p += 8;
    }
  }
  return n;
}

// Orders steps by column, keeping program order within a column (steps are few).
void SortSteps(Step* steps, int n) {
  for (int i = 1; i < n; ++i) {
    Step s = steps[i];
    int j = i;
    for (; j > 0 && steps[j - 1].column > s.column; --j) steps[j] = steps[j - 1];
    steps[j] = s;
  }
}

std::string TypeLabel(const ColumnDef& column) {
  return absl::StrCat(ColumnTypeName(column.type), column.is_unsigned ? " UNSIGNED" : "");
}

// How an ADD step failed. MySQL computes `k + 1` in BIGINT (or DOUBLE): a sum outside that
// is ER_DATA_OUT_OF_RANGE (1690) on the expression; a sum that only misses the column's range
// is ER_WARN_DATA_OUT_OF_RANGE (1264) on the column.
enum class StepResult { kOk, kColumnRange, kExpressionRange };

absl::Status OutOfRange(const TableDef& table, const ColumnDef& column, absl::string_view delta,
                        StepResult how) {
  if (how == StepResult::kColumnRange) {
    return absl::OutOfRangeError(
        absl::StrCat("1264: Out of range value for column '", column.name, "' at row 1"));
  }
  std::string label = IsInteger(column.type) ? (column.is_unsigned ? "BIGINT UNSIGNED" : "BIGINT")
                                             : TypeLabel(column);
  return absl::OutOfRangeError(absl::StrCat(label, " value is out of range in '(`", table.database,
                                            "`.`", table.name, "`.`", column.name, "` ", delta,
                                            ")'"));
}

// "+ 1", "- 1", "+ 0.5" as MySQL prints `k + 1`, `k - 1`.
std::string DeltaText(const ColumnDef& column, absl::string_view operand) {
  if (IsInteger(column.type)) {
    int64_t d = static_cast<int64_t>(LoadLe<uint64_t>(operand.data()));
    uint64_t magnitude = d < 0 ? 0 - static_cast<uint64_t>(d) : static_cast<uint64_t>(d);
    return absl::StrCat(d < 0 ? "- " : "+ ", magnitude);
  }
  double d = std::bit_cast<double>(LoadLe<uint64_t>(operand.data()));
  return absl::StrCat(std::signbit(d) ? "- " : "+ ", std::fabs(d));
}

struct IntRange {
  int64_t min;
  int64_t max;
};

IntRange SignedRange(ColumnType type) {
  switch (type) {
    case ColumnType::kTinyInt:
      return {INT8_MIN, INT8_MAX};
    case ColumnType::kSmallInt:
      return {INT16_MIN, INT16_MAX};
    case ColumnType::kMediumInt:
      return {-(1 << 23), (1 << 23) - 1};
    case ColumnType::kInt:
      return {INT32_MIN, INT32_MAX};
    default:
      return {INT64_MIN, INT64_MAX};
  }
}

uint64_t UnsignedMax(ColumnType type) {
  switch (type) {
    case ColumnType::kTinyInt:
      return UINT8_MAX;
    case ColumnType::kSmallInt:
      return UINT16_MAX;
    case ColumnType::kMediumInt:
      return (1u << 24) - 1;
    case ColumnType::kInt:
      return UINT32_MAX;
    default:
      return UINT64_MAX;
  }
}

// value + delta into `out` (the packed field) when the sum fits the column.
StepResult AddInteger(const ColumnDef& column, absl::string_view value, int64_t delta, char* out) {
  uint64_t result;
  if (column.is_unsigned) {
    uint64_t v = FieldUint(column, value);
    uint64_t max = UnsignedMax(column.type);
    if (delta >= 0) {
      if (static_cast<uint64_t>(delta) > UINT64_MAX - v) return StepResult::kExpressionRange;
      result = v + static_cast<uint64_t>(delta);
    } else {
      uint64_t magnitude = 0 - static_cast<uint64_t>(delta);
      if (magnitude > v) return StepResult::kExpressionRange;  // below 0 in BIGINT UNSIGNED
      result = v - magnitude;
    }
    if (result > max) return StepResult::kColumnRange;
  } else {
    int64_t sum;
    IntRange range = SignedRange(column.type);
    if (__builtin_add_overflow(FieldInt(column, value), delta, &sum)) {
      return StepResult::kExpressionRange;
    }
    if (sum < range.min || sum > range.max) return StepResult::kColumnRange;
    result = static_cast<uint64_t>(sum);
  }
  for (int i = 0; i < FixedSize(column.type); ++i) out[i] = static_cast<char>(result >> (8 * i));
  return StepResult::kOk;
}

bool AddFloating(const ColumnDef& column, absl::string_view value, double delta, char* out) {
  double sum = FieldDouble(column, value) + delta;
  if (!std::isfinite(sum)) return false;
  uint64_t bits;
  if (column.type == ColumnType::kFloat) {
    if (std::fabs(sum) > FLT_MAX) return false;
    bits = std::bit_cast<uint32_t>(static_cast<float>(sum));
  } else {
    bits = std::bit_cast<uint64_t>(sum);
  }
  for (int i = 0; i < FixedSize(column.type); ++i) out[i] = static_cast<char>(bits >> (8 * i));
  return true;
}

// Applies one step to `*current`; `scratch` (8 bytes) holds an ADD's result.
StepResult ApplyStep(const ColumnDef& column, const Step& step, Field* current, char* scratch) {
  switch (step.op) {
    case UpdateOp::kSet:
    case UpdateOp::kSetIfChanged:
      *current = Field{step.operand, false};
      return StepResult::kOk;
    case UpdateOp::kSetNull:
      *current = Field{absl::string_view(), true};
      return StepResult::kOk;
    case UpdateOp::kAdd:
      break;
  }
  if (current->null) return StepResult::kOk;  // NULL + x is NULL
  uint64_t bits = LoadLe<uint64_t>(step.operand.data());
  StepResult result =
      IsInteger(column.type)
          ? AddInteger(column, current->bytes, static_cast<int64_t>(bits), scratch)
          : (AddFloating(column, current->bytes, std::bit_cast<double>(bits), scratch)
                 ? StepResult::kOk
                 : StepResult::kExpressionRange);
  if (result == StepResult::kOk) {
    *current = Field{absl::string_view(scratch, FixedSize(column.type)), false};
  }
  return result;
}

bool SameValue(const Field& a, const Field& b) {
  return a.null == b.null && (a.null || a.bytes == b.bytes);
}

struct RowPass {
  bool changed = false;          // some column's value differs from the old row's
  bool skipped = false;          // a SET IF CHANGED step was left out
  const Step* failed = nullptr;  // the first step (in program order) that failed
  StepResult failure = StepResult::kOk;
};

// Writes the row the sorted `steps` make of `row` to `out`: with the SET IF CHANGED steps
// (`conditional`) or without them.
RowPass WriteUpdatedRow(const TableDef& table, const Step* steps, int n, const Field* row,
                        bool conditional, RowWriter* out) {
  RowPass pass;
  const int columns = static_cast<int>(table.columns.size());
  out->BeginRow(columns);
  int k = 0;
  for (int c = 0; c < columns; ++c) {
    const ColumnDef& column = table.columns[c];
    Field current = row[c];
    char scratch[8];
    for (; k < n && steps[k].column == c; ++k) {
      if (steps[k].op == UpdateOp::kSetIfChanged && !conditional) {
        pass.skipped = true;
        continue;
      }
      StepResult result = ApplyStep(column, steps[k], &current, scratch);
      if (result == StepResult::kOk) continue;
      if (pass.failed == nullptr || steps[k].index < pass.failed->index) {
        pass.failed = &steps[k];
        pass.failure = result;
      }
      while (k < n && steps[k].column == c) ++k;
      break;
    }
    pass.changed = pass.changed || !SameValue(current, row[c]);
    out->Raw(column, current);
  }
  return pass;
}

}  // namespace

absl::Status ValidateFilter(const TableDef& table, absl::string_view filter) {
  if (filter.empty()) return absl::OkStatus();
  Cursor c{filter};
  if (absl::Status s = ValidateNode(table, &c, 1); !s.ok()) return s;
  if (!c.in.empty()) return FilterError("trailing bytes");
  return absl::OkStatus();
}

bool FilterPasses(const TableDef& table, absl::string_view filter, const Field* row) {
  if (filter.empty()) return true;
  return Evaluator(table, row, filter.data()).Node(true) == Truth::kTrue;
}

absl::Status ValidateUpdate(const TableDef& table, absl::string_view program) {
  Cursor c{program};
  uint8_t n = 0;
  if (!program.empty() && !c.U8(&n)) return UpdateError("truncated");
  for (int i = 0; i < n; ++i) {
    if (absl::Status s = ValidateStep(table, &c); !s.ok()) return s;
  }
  if (!c.in.empty()) return UpdateError("trailing bytes");
  return absl::OkStatus();
}

absl::Status ApplyUpdate(const TableDef& table, absl::string_view program, const Field* row,
                         RowWriter* out, bool* changed) {
  Step steps[kMaxSteps];
  int n = ReadSteps(table, program, steps);
  SortSteps(steps, n);
  const size_t start = out->buffer().size();
  RowPass pass = WriteUpdatedRow(table, steps, n, row, /*conditional=*/false, out);
  bool differs = pass.changed;
  if (pass.failed == nullptr && differs && pass.skipped) {
    // The row changes: written again, with its SET IF CHANGED steps this time.
    out->buffer().resize(start);
    pass = WriteUpdatedRow(table, steps, n, row, /*conditional=*/true, out);
  }
  if (pass.failed != nullptr) {
    out->buffer().resize(start);
    const ColumnDef& column = table.columns[pass.failed->column];
    return OutOfRange(table, column, DeltaText(column, pass.failed->operand), pass.failure);
  }
  if (changed != nullptr) *changed = differs;
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Builders.

namespace {

// `value` as a packed field of `column` (text for the variable-size types).
void AppendIntField(const ColumnDef& column, int64_t value, std::string* out) {
  RowWriter writer;
  writer.BeginKey();
  writer.Int(column, value);
  out->append(writer.view().data(), writer.view().size());
}

void AppendCompareHead(int column_id, CompareOp op, std::string* out) {
  out->push_back(static_cast<char>(FilterNode::kCompare));
  AppendLe(static_cast<uint16_t>(column_id), 2, out);
  out->push_back(static_cast<char>(op));
}

}  // namespace

FilterBuilder& FilterBuilder::And(int children) {
  assert(children >= 0 && children <= 255);
  bytes_.push_back(static_cast<char>(FilterNode::kAnd));
  bytes_.push_back(static_cast<char>(children));
  return *this;
}

FilterBuilder& FilterBuilder::Or(int children) {
  assert(children >= 0 && children <= 255);
  bytes_.push_back(static_cast<char>(FilterNode::kOr));
  bytes_.push_back(static_cast<char>(children));
  return *this;
}

FilterBuilder& FilterBuilder::Not() {
  bytes_.push_back(static_cast<char>(FilterNode::kNot));
  return *this;
}

FilterBuilder& FilterBuilder::CompareInt(const ColumnDef& column, int column_id, CompareOp op,
                                         int64_t value) {
  AppendCompareHead(column_id, op, &bytes_);
  if (op == CompareOp::kIsNull || op == CompareOp::kIsNotNull) return *this;
  if (op == CompareOp::kLike || op == CompareOp::kNotLike) {
    std::string text = absl::StrCat(value);
    AppendLe(text.size(), 2, &bytes_);
    bytes_.append(text);
    return *this;
  }
  AppendIntField(column, value, &bytes_);
  return *this;
}

FilterBuilder& FilterBuilder::CompareBytes(const ColumnDef& column, int column_id, CompareOp op,
                                           absl::string_view packed_field) {
  (void)column;  // the operand comes packed already
  AppendCompareHead(column_id, op, &bytes_);
  if (op != CompareOp::kIsNull && op != CompareOp::kIsNotNull)
    bytes_.append(packed_field.data(), packed_field.size());
  return *this;
}

FilterBuilder& FilterBuilder::Like(const ColumnDef& column, int column_id, bool negated,
                                   absl::string_view pattern) {
  AppendCompareHead(column_id, negated ? CompareOp::kNotLike : CompareOp::kLike, &bytes_);
  std::string form;
  // `%`, `_` and `\` are their own forms: folding the whole pattern keeps its wildcards.
  if (FoldsCase(column)) AppendFoldedText(pattern, &form);
  const absl::string_view operand = FoldsCase(column) ? absl::string_view(form) : pattern;
  AppendLe(static_cast<uint16_t>(operand.size()), 2, &bytes_);
  bytes_.append(operand.data(), operand.size());
  return *this;
}

FilterBuilder& FilterBuilder::IsNull(int column_id, bool is_null) {
  AppendCompareHead(column_id, is_null ? CompareOp::kIsNull : CompareOp::kIsNotNull, &bytes_);
  return *this;
}

namespace {

void AppendStepHead(int column_id, UpdateOp op, std::string* out) {
  AppendLe(static_cast<uint16_t>(column_id), 2, out);
  out->push_back(static_cast<char>(op));
}

}  // namespace

UpdateBuilder& UpdateBuilder::SetInt(const ColumnDef& column, int column_id, int64_t value) {
  AppendStepHead(column_id, UpdateOp::kSet, &bytes_);
  AppendIntField(column, value, &bytes_);
  ++steps_;
  return *this;
}

UpdateBuilder& UpdateBuilder::SetBytes(int column_id, absl::string_view value) {
  assert(value.size() <= 65535);
  AppendStepHead(column_id, UpdateOp::kSet, &bytes_);
  AppendLe(value.size(), 2, &bytes_);
  bytes_.append(value.data(), value.size());
  ++steps_;
  return *this;
}

UpdateBuilder& UpdateBuilder::SetField(const ColumnDef& column, int column_id,
                                       absl::string_view packed_field) {
  (void)column;  // the value comes packed already
  AppendStepHead(column_id, UpdateOp::kSet, &bytes_);
  bytes_.append(packed_field.data(), packed_field.size());
  ++steps_;
  return *this;
}

UpdateBuilder& UpdateBuilder::SetFieldIfChanged(int column_id, absl::string_view packed_field) {
  AppendStepHead(column_id, UpdateOp::kSetIfChanged, &bytes_);
  bytes_.append(packed_field.data(), packed_field.size());
  ++steps_;
  return *this;
}

UpdateBuilder& UpdateBuilder::SetNull(int column_id) {
  AppendStepHead(column_id, UpdateOp::kSetNull, &bytes_);
  ++steps_;
  return *this;
}

UpdateBuilder& UpdateBuilder::AddInt(int column_id, int64_t delta) {
  AppendStepHead(column_id, UpdateOp::kAdd, &bytes_);
  AppendLe(static_cast<uint64_t>(delta), 8, &bytes_);
  ++steps_;
  return *this;
}

UpdateBuilder& UpdateBuilder::AddDouble(int column_id, double delta) {
  AppendStepHead(column_id, UpdateOp::kAdd, &bytes_);
  AppendLe(std::bit_cast<uint64_t>(delta), 8, &bytes_);
  ++steps_;
  return *this;
}

std::string UpdateBuilder::Finish() const {
  assert(steps_ <= kMaxSteps);
  std::string out(1, static_cast<char>(steps_));
  out.append(bytes_);
  return out;
}

}  // namespace shoal::schema
