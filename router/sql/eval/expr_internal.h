// The engine behind TypeOf/Evaluate, shared by expr_eval.cc (operators, variables, literals)
// and functions.cc (built-in functions). Internal to router/sql.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "router/sql/eval/expr_eval.h"
#include "router/sql/eval/result_columns.h"

namespace shoal::sql::internal {

// The families MySQL's type rules tell apart.
enum class Cls : uint8_t { kNull, kInt, kDecimal, kReal, kString, kTemporal };
Cls ClassOf(const mysql::ColumnDefinition& c);
Cls ClassOf(const mysql::Value& v);
bool NotNull(const mysql::ColumnDefinition& c);
// Exact integer view of an int64/uint64 value.
__int128 Int128(const mysql::Value& v);
// `v` in decimal digits, with a leading minus when negative.
std::string Int128Text(__int128 v);
long double ToLongDouble(const mysql::Value& v, bool* truncated);

// The result type of an arithmetic operator (+ - * / DIV %) over operands of types `a` and `b`.
mysql::ColumnDefinition ArithmeticType(BinaryOp op, const mysql::ColumnDefinition& a,
                                       const mysql::ColumnDefinition& b);

// The result type of CASE and IF over their possible results (case_cast.cc): integers stay
// integers, numbers widen to DECIMAL or DOUBLE, one temporal type stays itself, anything else
// is a string.
mysql::ColumnDefinition AggregateResultTypes(const std::vector<mysql::ColumnDefinition>& types,
                                             const SessionState& state, Nullability n);

// One typing or evaluation pass. The first error is kept; later calls return placeholders.
class ExprEngine {
 public:
  explicit ExprEngine(const EvalContext& ctx) : ctx_(ctx) {}

  mysql::ColumnDefinition Type(const Expr& e);
  // Whether `a` and `b` (the values of `x` and `y`) are strings one of which is binary
  // (BINARY, VARBINARY, BLOB, CAST … AS BINARY, x'…') or of a _bin collation (a column declared
  // COLLATE utf8mb4_bin): they then compare and match byte for byte, not with the connection's
  // case-insensitive collation.
  bool BinaryStrings(const mysql::Value& a, const mysql::Value& b, const Expr& x, const Expr& y);
  // Whether strings of `x` and `y` compare byte for byte: an explicit COLLATE on either decides
  // (x's first), else either side's binary collation.
  bool BinaryCollation(const Expr& x, const Expr& y);
  // `args[0] COLLATE name`: the operand's type with that collation; 1273 or 1253 when it
  // cannot have it.
  mysql::ColumnDefinition CollateType(const Expr& e);
  // Two strings compared under a binary collation (BinaryStrings): their bytes (NO PAD, as the
  // keys over such a column compare). nullopt: not so.
  std::optional<int> CompareBinary(const mysql::Value& a, const mysql::Value& b, const Expr& x,
                                   const Expr& y);
  mysql::Value Eval(const Expr& e);

  mysql::ColumnDefinition FunctionType(const Expr& e);
  mysql::Value FunctionEval(const Expr& e);
  // CASE and CAST / CONVERT (case_cast.cc).
  mysql::ColumnDefinition CaseType(const Expr& e);
  mysql::Value CaseValue(const Expr& e);
  mysql::ColumnDefinition CastType(const Expr& e);
  // Whether `e` is typed JSON, checked without typing it whole where that is cheap: a
  // column, a JSON_… function, CAST AS JSON (other expressions of JSON values are not).
  bool JsonTyped(const Expr& e);
  // An ENUM or SET column's value `a` or `b` against a number: compared by the number the
  // column stores, as MySQL's numeric context reads it; nullopt otherwise.
  std::optional<int> CompareStoredNumber(const mysql::Value& a, const mysql::Value& b,
                                         const Expr& x, const Expr& y);
  mysql::Value CastToJson(const Expr& arg, mysql::Value v);
  mysql::Value CastValue(const Expr& e);
  // 1525 for a temporal literal whose text is not such a value.
  mysql::Value IncorrectLiteral(const CastTarget& cast, const mysql::Value& v);
  // An arithmetic operator (+ - * / DIV %) over two values, as MySQL computes it.
  mysql::Value Arithmetic(BinaryOp op, const mysql::Value& a, const mysql::Value& b);

  bool failed() const { return error_.has_value(); }
  const mysql::SqlError& error() const { return *error_; }
  void SetError(mysql::SqlError err) {
    if (!error_) error_ = std::move(err);
  }
  void Warn(uint16_t code, std::string message);
  void Note(uint16_t code, std::string message);
  const EvalContext& ctx() const { return ctx_; }

 private:
  mysql::ColumnDefinition LiteralType(const Expr& e);
  mysql::Value LiteralValue(const Expr& e);
  mysql::ColumnDefinition SysVarType(const Expr& e);
  mysql::Value SysVarValue(const Expr& e);
  mysql::ColumnDefinition BinaryType(const Expr& e);
  mysql::Value BinaryValue(const Expr& e);

  // Row operands (ExprKind::kRow), compared as MySQL's Arg_comparator does: element by element.
  // Whether `a` and `b` have the same number of columns; 1241 when not.
  bool SameShape(const Expr& a, const Expr& b);
  // Types the elements of two operands compared with each other; whether none can be NULL.
  bool TypeCompared(const Expr& a, const Expr& b);
  // The first difference between two rows of one shape (Compare's sign), or 0 with `null` set
  // when a pair of elements compared as NULL: the orderings stop at that pair, while = and <>
  // go on, since a later difference still decides them.
  struct RowOrder {
    int diff = 0;
    bool null = false;
  };
  RowOrder CompareRows(const Expr& a, const Expr& b, bool stop_at_null);
  bool RowsNullSafeEqual(const Expr& a, const Expr& b);
  mysql::Value RowComparisonValue(const Expr& e);  // e: a comparison with a row operand
  mysql::Value RowInValue(const Expr& e);          // e: [NOT] IN with row operands
  int ColumnIndex(const Expr& e);
  // The computed result of a subquery node; null (with the error set) when there is none.
  const SubqueryResult* SubqueryOf(const Expr& e);
  mysql::ColumnDefinition SubqueryType(const Expr& e);
  mysql::Value SubqueryValue(const Expr& e);
  // e: kQuantified over the computed `r`, `a` being its left operand's value; `binary`: strings
  // compare byte for byte.
  mysql::Value QuantifiedValue(const Expr& e, const SubqueryResult& r, const mysql::Value& a,
                               bool binary);

  const EvalContext& ctx_;
  std::optional<mysql::SqlError> error_;
};

// MySQL's 1241, for an operand that has not `columns` columns where that many belong.
mysql::SqlError OperandColumns(size_t columns);
// =, <=>, <>, <, <=, >, >=.
bool IsComparison(BinaryOp op);
// The number of columns of an operand: a row constructor's elements, else one.
size_t ColumnsOf(const Expr& e);
// Whether `e` (a comparison or an IN list) has a row constructor among its operands.
bool HasRowOperand(const Expr& e);

// Column metadata for a runtime value (parameters, user variables).
mysql::ColumnDefinition TypeOfValue(const mysql::Value& v, const SessionState& state);
// Three-way comparison as MySQL compares mixed types; nullopt when either is NULL.
std::optional<int> Compare(const mysql::Value& a, const mysql::Value& b);
// Whether `v` is an integer, a decimal or a float.
bool IsNumber(const mysql::Value& v);
// `v`, the value of `e`, as a number when `e` is a hex or bit literal (0x41: 65), as MySQL
// reads one in a numeric context; else `v` as it is.
mysql::Value HexNumber(const Expr& e, mysql::Value v);
// `v` as the 64 bits MySQL's bit operators work on.
uint64_t BitOperand(const mysql::Value& v);
// `text` (a decimal number) rounded or padded to `scale` digits after the point.
std::string RescaleDecimal(absl::string_view text, int scale);

}  // namespace shoal::sql::internal
