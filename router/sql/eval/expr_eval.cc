// See expr_eval.h. Numbers follow MySQL's classes: integer arithmetic is exact (128-bit
// intermediate, 1690 on overflow), integer division yields a DECIMAL with
// div_precision_increment (4) more digits, anything touching a string or a double is DOUBLE.
// DECIMAL arithmetic other than int/int division goes through long double (exact for the
// small values clients send; the storage engine will bring a real decimal type).
#include "router/sql/eval/expr_eval.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/schema/collation.h"
#include "router/sql/eval/decimal_arith.h"
#include "router/sql/eval/expr_internal.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/json_args.h"
#include "router/sql/eval/like.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql {
namespace internal {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;
namespace flag = mysql::column_flag;

Cls ClassOf(const ColumnDefinition& c) {
  switch (c.type) {
    case ColumnType::kNull:
      return Cls::kNull;
    case ColumnType::kTiny:
    case ColumnType::kShort:
    case ColumnType::kLong:
    case ColumnType::kInt24:
    case ColumnType::kLongLong:
    case ColumnType::kYear:
    case ColumnType::kBit:
      return Cls::kInt;
    case ColumnType::kDecimal:
    case ColumnType::kNewDecimal:
      return Cls::kDecimal;
    case ColumnType::kFloat:
    case ColumnType::kDouble:
      return Cls::kReal;
    case ColumnType::kDate:
    case ColumnType::kTime:
    case ColumnType::kDateTime:
    case ColumnType::kTimestamp:
      return Cls::kTemporal;
    default:
      return Cls::kString;
  }
}

Cls ClassOf(const Value& v) {
  if (IsNull(v)) return Cls::kNull;
  if (std::holds_alternative<int64_t>(v) || std::holds_alternative<uint64_t>(v)) return Cls::kInt;
  if (std::holds_alternative<mysql::Decimal>(v)) return Cls::kDecimal;
  if (std::holds_alternative<double>(v)) return Cls::kReal;
  if (std::holds_alternative<std::string>(v)) return Cls::kString;
  return Cls::kTemporal;
}

bool NotNull(const ColumnDefinition& c) { return (c.flags & flag::kNotNull) != 0; }

// Exact integer view of an int64/uint64 value.
__int128 Int128(const Value& v) {
  if (const auto* u = std::get_if<uint64_t>(&v)) return static_cast<__int128>(*u);
  return static_cast<__int128>(std::get<int64_t>(v));
}

long double ToLongDouble(const Value& v, bool* truncated) {
  if (std::holds_alternative<mysql::DateTime>(v) || std::holds_alternative<mysql::Time>(v)) {
    return ToLongDouble(TemporalNumber(v), truncated);
  }
  if (const auto* d = std::get_if<mysql::Decimal>(&v)) {
    *truncated = false;
    return std::strtold(d->text.c_str(), nullptr);
  }
  return ToDouble(v, truncated);
}

std::string Int128Text(__int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u =
      neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u > 0) {
    s.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg) s.push_back('-');
  return std::string(s.rbegin(), s.rend());
}

namespace {

Nullability Both(const ColumnDefinition& a, const ColumnDefinition& b) {
  return NotNull(a) && NotNull(b) ? Nullability::kNotNull : Nullability::kNullable;
}
uint8_t ScaleOf(const ColumnDefinition& c) { return ClassOf(c) == Cls::kDecimal ? c.decimals : 0; }
uint32_t PrecisionOf(const ColumnDefinition& c) {
  if (ClassOf(c) == Cls::kDecimal) return c.length > 2 ? c.length - 2 : 1;
  return std::max<uint32_t>(c.length, 1);
}

ColumnDefinition BoolColumn(Nullability n) { return IntColumn(1, false, n); }

int DecimalScale(absl::string_view text) {
  size_t dot = text.find('.');
  return dot == absl::string_view::npos ? 0 : static_cast<int>(text.size() - dot - 1);
}

}  // namespace

void ExprEngine::Note(uint16_t code, std::string message) {
  if (ctx_.warnings != nullptr) {
    ctx_.warnings->push_back({Diagnostic::Level::kNote, code, std::move(message)});
  }
}

void ExprEngine::Warn(uint16_t code, std::string message) {
  if (ctx_.warnings != nullptr) {
    ctx_.warnings->push_back({Diagnostic::Level::kWarning, code, std::move(message)});
  }
}

ColumnDefinition TypeOfValue(const Value& v, const SessionState& state) {
  struct Visitor {
    const SessionState& state;
    ColumnDefinition operator()(const mysql::Null&) const { return NullColumn(); }
    ColumnDefinition operator()(int64_t) const {
      return IntColumn(21, false, Nullability::kNullable);
    }
    ColumnDefinition operator()(uint64_t) const {
      return IntColumn(20, true, Nullability::kNullable);
    }
    ColumnDefinition operator()(double) const { return DoubleColumn(Nullability::kNullable); }
    ColumnDefinition operator()(const std::string& s) const {
      return StringColumn(CharLength(s), state, Nullability::kNullable);
    }
    ColumnDefinition operator()(const mysql::Decimal& d) const {
      int scale = DecimalScale(d.text);
      uint32_t digits = 0;
      for (char c : d.text) digits += absl::ascii_isdigit(static_cast<unsigned char>(c)) ? 1 : 0;
      return DecimalColumn(std::max<uint32_t>(digits, 1), static_cast<uint8_t>(std::min(scale, 30)),
                           Nullability::kNullable);
    }
    ColumnDefinition operator()(const mysql::DateTime& t) const {
      if (t.date_only) return TemporalColumn(ColumnType::kDate, 0, Nullability::kNullable);
      return TemporalColumn(ColumnType::kDateTime, t.microsecond != 0 ? 6 : 0,
                            Nullability::kNullable);
    }
    ColumnDefinition operator()(const mysql::Time& t) const {
      return TemporalColumn(ColumnType::kTime, t.microsecond != 0 ? 6 : 0, Nullability::kNullable);
    }
  };
  return std::visit(Visitor{state}, v);
}

static int64_t TimeMicros(const mysql::Time& t) {
  int64_t v = ((static_cast<int64_t>(t.days) * 24 + t.hours) * 60 + t.minutes) * 60 + t.seconds;
  v = v * 1000000 + t.microsecond;
  return t.negative ? -v : v;
}

// An integer or decimal value as plain decimal text.
static std::string ExactText(const Value& v) {
  if (const auto* d = std::get_if<mysql::Decimal>(&v)) return ShownDecimalText(*d);
  return ValueText(v);
}

// Three-way comparison of two plain decimal numbers ("-12.50", "7", "0.001").
static int CompareDecimalText(absl::string_view x, absl::string_view y) {
  auto parts = [](absl::string_view s, bool* negative, absl::string_view* whole,
                  absl::string_view* fraction) {
    *negative = !s.empty() && s[0] == '-';
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
    size_t point = s.find('.');
    *whole = s.substr(0, point);
    *fraction = point == absl::string_view::npos ? absl::string_view() : s.substr(point + 1);
    while (!whole->empty() && whole->front() == '0') whole->remove_prefix(1);
    while (!fraction->empty() && fraction->back() == '0') fraction->remove_suffix(1);
    if (whole->empty() && fraction->empty()) *negative = false;  // -0 is 0
  };
  bool nx, ny;
  absl::string_view wx, fx, wy, fy;
  parts(x, &nx, &wx, &fx);
  parts(y, &ny, &wy, &fy);
  if (nx != ny) return nx ? -1 : 1;
  int magnitude = wx.size() != wy.size() ? (wx.size() < wy.size() ? -1 : 1) : 0;
  if (magnitude == 0) magnitude = wx.compare(wy) < 0 ? -1 : wx.compare(wy) > 0 ? 1 : 0;
  if (magnitude == 0) magnitude = fx.compare(fy) < 0 ? -1 : fx.compare(fy) > 0 ? 1 : 0;
  return nx ? -magnitude : magnitude;
}

static int CompareDateTimes(const mysql::DateTime& x, const mysql::DateTime& y) {
  auto tie = [](const mysql::DateTime& d) {
    return std::tie(d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond);
  };
  return tie(x) < tie(y) ? -1 : tie(x) > tie(y) ? 1 : 0;
}

std::optional<int> Compare(const Value& a, const Value& b) {
  Cls ca = ClassOf(a), cb = ClassOf(b);
  if (ca == Cls::kNull || cb == Cls::kNull) return std::nullopt;
  auto sign = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
  if (ca == Cls::kInt && cb == Cls::kInt) return sign(Int128(a), Int128(b));
  // A date and a string compare as dates when the string reads as one, as in MySQL.
  const auto* ta = std::get_if<mysql::DateTime>(&a);
  const auto* tb = std::get_if<mysql::DateTime>(&b);
  if ((ta != nullptr) != (tb != nullptr) && (ca == Cls::kString || cb == Cls::kString)) {
    const Value& text = ta != nullptr ? b : a;
    if (std::optional<mysql::DateTime> parsed = DateTimeFromText(std::get<std::string>(text))) {
      return ta != nullptr ? CompareDateTimes(*ta, *parsed) : CompareDateTimes(*parsed, *tb);
    }
  }
  if (ta != nullptr && tb != nullptr) return CompareDateTimes(*ta, *tb);
  // A date and a number compare as dates when the number reads as one (20240110 is
  // 2024-01-10), else as numbers.
  const bool number_a = ca == Cls::kInt || ca == Cls::kDecimal || ca == Cls::kReal;
  const bool number_b = cb == Cls::kInt || cb == Cls::kDecimal || cb == Cls::kReal;
  if ((ta != nullptr && number_b) || (tb != nullptr && number_a)) {
    const Value& number = ta != nullptr ? b : a;
    if (std::optional<mysql::DateTime> parsed = DateTimeFromText(ValueText(number))) {
      return ta != nullptr ? CompareDateTimes(*ta, *parsed) : CompareDateTimes(*parsed, *tb);
    }
    return Compare(TemporalNumber(a), TemporalNumber(b));
  }
  if ((ca == Cls::kTemporal && number_b) || (cb == Cls::kTemporal && number_a)) {
    return Compare(TemporalNumber(a), TemporalNumber(b));  // a TIME and a number
  }
  // So do a TIME and a string, as times.
  const auto* ma = std::get_if<mysql::Time>(&a);
  const auto* mb = std::get_if<mysql::Time>(&b);
  if ((ma != nullptr || mb != nullptr) && (ma != nullptr || ca == Cls::kString) &&
      (mb != nullptr || cb == Cls::kString)) {
    std::optional<int64_t> x =
        ma != nullptr ? TimeMicros(*ma) : TimeMicrosFromText(std::get<std::string>(a));
    std::optional<int64_t> y =
        mb != nullptr ? TimeMicros(*mb) : TimeMicrosFromText(std::get<std::string>(b));
    if (x && y) return sign(*x, *y);
  }
  // Integers and decimals compare exactly, as decimals; with a float or a string, as doubles.
  if ((ca == Cls::kInt || ca == Cls::kDecimal) && (cb == Cls::kInt || cb == Cls::kDecimal)) {
    return CompareDecimalText(ExactText(a), ExactText(b));
  }
  if ((ca == Cls::kString || ca == Cls::kTemporal) &&
      (cb == Cls::kString || cb == Cls::kTemporal)) {
    // The connection collations are case-insensitive: the comparison keys make too
    // (engine/schema/collation.h), so a key lookup finds what this accepts.
    const auto* x = std::get_if<std::string>(&a);
    const auto* y = std::get_if<std::string>(&b);
    if (x != nullptr && y != nullptr) return schema::CompareFoldedText(*x, *y);
    return schema::CompareFoldedText(ValueText(a), ValueText(b));
  }
  bool t = false;
  return sign(ToDouble(a, &t), ToDouble(b, &t));
}

int ExprEngine::ColumnIndex(const Expr& e) {
  // A join's unqualified USING column read where its joined value is (join_plan.cc).
  if (ctx_.row_subqueries != nullptr && !ctx_.row_subqueries->empty() && e.qualifier.empty() &&
      ctx_.row_columns != nullptr) {
    if (auto it = ctx_.row_subqueries->find(&e);
        it != ctx_.row_subqueries->end() && it->second < ctx_.row_columns->size()) {
      return static_cast<int>(it->second);
    }
  }
  if (ctx_.row_columns != nullptr) {
    for (size_t i = 0; i < ctx_.row_columns->size(); ++i) {
      if (NamesColumn(e, (*ctx_.row_columns)[i])) return static_cast<int>(i);
    }
  }
  std::string name = e.qualifier.empty() ? e.name : absl::StrCat(e.qualifier, ".", e.name);
  SetError(mysql::errors::UnknownColumn(name, ctx_.clause));
  return -1;
}

std::optional<int> ExprEngine::CompareStoredNumber(const Value& a, const Value& b, const Expr& x,
                                                   const Expr& y) {
  if (ctx_.stored_number == nullptr || ctx_.row_columns == nullptr) return std::nullopt;
  auto numeric = [](const Value& v) {
    return std::holds_alternative<int64_t>(v) || std::holds_alternative<uint64_t>(v) ||
           std::holds_alternative<double>(v) || std::holds_alternative<mysql::Decimal>(v);
  };
  const bool left =
      std::holds_alternative<std::string>(a) && numeric(b) && x.kind == ExprKind::kColumn;
  const bool right =
      std::holds_alternative<std::string>(b) && numeric(a) && y.kind == ExprKind::kColumn;
  if (!left && !right) return std::nullopt;
  const int i = ColumnIndex(left ? x : y);
  if (i < 0) return std::nullopt;
  std::optional<uint64_t> stored =
      ctx_.stored_number((*ctx_.row_columns)[i], *ctx_.state, std::get<std::string>(left ? a : b));
  if (!stored) return std::nullopt;
  std::optional<int> c = Compare(Value{*stored}, left ? b : a);
  if (c && !left) *c = -*c;
  return c;
}

bool ExprEngine::JsonTyped(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kColumn: {
      int i = ColumnIndex(e);
      return i >= 0 && (*ctx_.row_columns)[i].type == ColumnType::kJson;
    }
    case ExprKind::kFunction:
      return absl::StartsWith(e.name, "JSON_") && Type(e).type == ColumnType::kJson;
    case ExprKind::kCast:
      return e.cast.name == "JSON";
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------
// Typing

ColumnDefinition ExprEngine::Type(const Expr& e) {
  if (failed()) return NullColumn();
  switch (e.kind) {
    case ExprKind::kLiteral:
      return LiteralType(e);
    case ExprKind::kParam:
      if (ctx_.params_bound && e.param_index < static_cast<int>(ctx_.params.size())) {
        return TypeOfValue(ctx_.params[e.param_index], *ctx_.state);
      }
      return StringColumn(0, *ctx_.state, Nullability::kNullable);  // unknown until EXECUTE
    case ExprKind::kSysVar:
      return SysVarType(e);
    case ExprKind::kUserVar: {
      auto it = ctx_.state->user_vars.find(absl::AsciiStrToLower(e.name));
      return TypeOfValue(it == ctx_.state->user_vars.end() ? Value{} : it->second, *ctx_.state);
    }
    case ExprKind::kAssignUser:
      return Type(*e.args[0]);
    case ExprKind::kColumn: {
      int i = ColumnIndex(e);
      return i < 0 ? NullColumn() : (*ctx_.row_columns)[i];
    }
    case ExprKind::kFunction:
      if (ctx_.aggregate_types != nullptr) {
        if (auto it = ctx_.aggregate_types->find(&e); it != ctx_.aggregate_types->end()) {
          return it->second;
        }
      }
      return FunctionType(e);
    case ExprKind::kDefault:
    case ExprKind::kStar:
      // Only INSERT/UPDATE values and COUNT(*) hold these; they never reach the evaluator.
      SetError(mysql::errors::ParseError(e.kind == ExprKind::kStar ? "*" : "DEFAULT", 1));
      return NullColumn();
    case ExprKind::kUnary: {
      ColumnDefinition a = Type(*e.args[0]);
      Nullability n = NotNull(a) ? Nullability::kNotNull : Nullability::kNullable;
      if (e.unary_op == UnaryOp::kNot) return BoolColumn(n);
      if (e.unary_op == UnaryOp::kBitNot) return IntColumn(21, true, n);
      switch (ClassOf(a)) {
        case Cls::kInt:
          if (a.flags & flag::kUnsigned) return DecimalColumn(a.length, 0, n);
          return IntColumn(a.length + 1, false, n);
        case Cls::kDecimal:
          return DecimalColumn(PrecisionOf(a), a.decimals, n);
        case Cls::kNull:
          return IntColumn(1, false, n);
        default:
          return DoubleColumn(n);
      }
    }
    case ExprKind::kBinary:
      return BinaryType(e);
    case ExprKind::kIsNull:
    case ExprKind::kIsBool:
      for (const ExprPtr& a : e.args) Type(*a);
      return BoolColumn(Nullability::kNotNull);
    case ExprKind::kSubquery:
    case ExprKind::kInSubquery:
    case ExprKind::kExists:
    case ExprKind::kQuantified:
      return SubqueryType(e);
    case ExprKind::kRow:
      SetError(OperandColumns(1));  // a row where one value belongs
      return NullColumn();
    case ExprKind::kIn:
      if (HasRowOperand(e)) {
        bool not_null = true;
        for (size_t i = 1; i < e.args.size(); ++i) {
          not_null = TypeCompared(*e.args[0], *e.args[i]) && not_null;
        }
        return BoolColumn(not_null ? Nullability::kNotNull : Nullability::kNullable);
      }
      [[fallthrough]];
    case ExprKind::kBetween:
    case ExprKind::kLike: {
      bool not_null = true;
      for (const ExprPtr& a : e.args) not_null = NotNull(Type(*a)) && not_null;
      return BoolColumn(not_null ? Nullability::kNotNull : Nullability::kNullable);
    }
    case ExprKind::kCase:
      return CaseType(e);
    case ExprKind::kCast:
      return CastType(e);
    case ExprKind::kInterval:
      // Only the date functions hold one (the parser sees to it); they read its unit.
      return Type(*e.args[0]);
    case ExprKind::kCollate:
      return CollateType(e);
  }
  return NullColumn();
}

ColumnDefinition ExprEngine::LiteralType(const Expr& e) {
  Nullability nn = Nullability::kNotNull;
  switch (e.literal) {
    case LiteralKind::kNull:
      return NullColumn();
    case LiteralKind::kBool:
      return IntColumn(1, false, nn);
    case LiteralKind::kInteger: {
      int64_t i;
      uint64_t u;
      uint32_t len = static_cast<uint32_t>(e.text.size());
      if (absl::SimpleAtoi(e.text, &i)) return IntColumn(len, false, nn);
      if (absl::SimpleAtoi(e.text, &u)) return IntColumn(len, true, nn);
      return DecimalColumn(std::min<uint32_t>(len, 65), 0, nn);
    }
    case LiteralKind::kDecimal: {
      int scale = DecimalScale(e.text);
      size_t dot = e.text.find('.');
      absl::string_view int_part = absl::string_view(e.text).substr(0, dot);
      int_part = absl::StripLeadingAsciiWhitespace(int_part);
      while (int_part.size() > 1 && int_part[0] == '0') int_part.remove_prefix(1);
      uint32_t precision = std::max<uint32_t>(int_part.empty() ? 1 : int_part.size(), 1) + scale;
      ColumnDefinition c = DecimalColumn(std::min<uint32_t>(precision, 65),
                                         static_cast<uint8_t>(std::min(scale, 30)), nn);
      // A positive literal is unsigned to MySQL: no sign position, UNSIGNED flag.
      c.length -= 1;
      c.flags |= flag::kUnsigned;
      return c;
    }
    case LiteralKind::kFloat: {
      ColumnDefinition c = DoubleColumn(nn);
      c.length = static_cast<uint32_t>(e.text.size());
      return c;
    }
    case LiteralKind::kHex:
    case LiteralKind::kBit: {
      ColumnDefinition c = StringColumn(0, *ctx_.state, nn);
      c.charset = mysql::charset::kBinary;
      c.length = static_cast<uint32_t>(e.text.size());
      c.flags |= flag::kBinary;
      return c;
    }
    case LiteralKind::kString:
      break;
  }
  ColumnDefinition c = StringColumn(CharLength(e.text), *ctx_.state, nn);
  if (!e.charset.empty()) {
    const CharsetInfo* cs = FindCharset(e.charset);
    const CollationInfo* coll = cs == nullptr ? nullptr : FindCollation(cs->default_collation);
    if (coll != nullptr && coll->charset != FindCollationById(c.charset)->charset) {
      c.charset = coll->id;
      c.length = static_cast<uint32_t>(CharLength(e.text) * cs->maxlen);
    }
    if (cs != nullptr && cs->name == "binary") {
      c.length = static_cast<uint32_t>(e.text.size());
      c.flags |= flag::kBinary;
    }
  }
  return c;
}

// The definition and value @@[scope.]name reads, after the scope checks MySQL makes.
static const SysVarDef* ResolveSysVar(const Expr& e, ExprEngine* engine) {
  const SysVarDef* def = FindSysVar(e.name);
  if (def == nullptr) {
    engine->SetError(mysql::errors::UnknownSystemVariable(e.name));
    return nullptr;
  }
  if (e.scope == VarScope::kGlobal && def->scope == VarScopeKind::kSessionOnly) {
    engine->SetError(
        {1238, "HY000", absl::StrCat("Variable '", e.name, "' is a SESSION variable")});
    return nullptr;
  }
  if (e.scope == VarScope::kSession && def->scope == VarScopeKind::kGlobalOnly) {
    engine->SetError({1238, "HY000", absl::StrCat("Variable '", e.name, "' is a GLOBAL variable")});
    return nullptr;
  }
  return def;
}

ColumnDefinition ExprEngine::SysVarType(const Expr& e) {
  const SysVarDef* def = ResolveSysVar(e, this);
  if (def == nullptr) return NullColumn();
  Value v = e.scope == VarScope::kGlobal ? GlobalValue(*def, *ctx_.state)
                                         : SessionValue(*def, *ctx_.state);
  return SysVarColumn(*def, v, *ctx_.state);
}

Value ExprEngine::SysVarValue(const Expr& e) {
  const SysVarDef* def = ResolveSysVar(e, this);
  if (def == nullptr) return Value{};
  if (!def->alias_of.empty()) {
    Warn(1287, absl::StrCat("'@@", def->name, "' is deprecated and will be removed in a future ",
                            "release. Please use '@@", def->alias_of, "' instead"));
  }
  return e.scope == VarScope::kGlobal ? GlobalValue(*def, *ctx_.state)
                                      : SessionValue(*def, *ctx_.state);
}

ColumnDefinition ExprEngine::BinaryType(const Expr& e) {
  if (HasRowOperand(e)) {
    bool not_null = TypeCompared(*e.args[0], *e.args[1]);
    return BoolColumn(not_null || e.binary_op == BinaryOp::kNullSafeEq ? Nullability::kNotNull
                                                                       : Nullability::kNullable);
  }
  ColumnDefinition a = Type(*e.args[0]);
  ColumnDefinition b = Type(*e.args[1]);
  Nullability n = Both(a, b);
  switch (e.binary_op) {
    case BinaryOp::kOr:
    case BinaryOp::kXor:
    case BinaryOp::kAnd:
    case BinaryOp::kEq:
    case BinaryOp::kNe:
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe:
      return BoolColumn(n);
    case BinaryOp::kNullSafeEq:
      return BoolColumn(Nullability::kNotNull);
    case BinaryOp::kBitOr:
    case BinaryOp::kBitAnd:
    case BinaryOp::kBitXor:
    case BinaryOp::kShl:
    case BinaryOp::kShr:
      return IntColumn(21, true, n);
    default:
      return ArithmeticType(e.binary_op, a, b);
  }
}

// The numeric type a temporal operand counts as (TemporalNumber): an integer, or a decimal with
// its fraction digits.
ColumnDefinition TemporalNumberType(const ColumnDefinition& c) {
  if (ClassOf(c) != Cls::kTemporal) return c;
  const Nullability n = NotNull(c) ? Nullability::kNotNull : Nullability::kNullable;
  const uint32_t whole = c.type == ColumnType::kDate ? 8 : c.type == ColumnType::kTime ? 7 : 14;
  const uint8_t decimals = c.type == ColumnType::kDate ? 0 : std::min<uint8_t>(c.decimals, 6);
  if (decimals == 0) return IntColumn(whole, false, n);
  return DecimalColumn(whole + decimals, decimals, n);
}

ColumnDefinition ArithmeticType(BinaryOp op, const ColumnDefinition& a_in,
                                const ColumnDefinition& b_in) {
  const ColumnDefinition a = TemporalNumberType(a_in), b = TemporalNumberType(b_in);
  Nullability n = Both(a, b);
  Cls ca = ClassOf(a), cb = ClassOf(b);
  bool real = ca == Cls::kReal || cb == Cls::kReal || ca == Cls::kString || cb == Cls::kString ||
              ca == Cls::kTemporal || cb == Cls::kTemporal;
  bool decimal = ca == Cls::kDecimal || cb == Cls::kDecimal;
  bool is_unsigned = (a.flags & flag::kUnsigned) || (b.flags & flag::kUnsigned);
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
    case BinaryOp::kMul: {
      if (real) {
        // MySQL's count_real_length: the operands' most decimals, none fixed if one has none
        // (a string's, a DOUBLE column's): PI() + 0 shows PI's six.
        ColumnDefinition c = DoubleColumn(n);
        const auto fixed = [](const ColumnDefinition& x) -> uint8_t {
          return ClassOf(x) == Cls::kInt ? 0 : x.decimals;
        };
        c.decimals = std::min<uint8_t>(std::max(fixed(a), fixed(b)), kNotFixedDec);
        return c;
      }
      bool mul = op == BinaryOp::kMul;
      if (decimal) {
        int scale = mul ? ScaleOf(a) + ScaleOf(b) : std::max(ScaleOf(a), ScaleOf(b));
        uint32_t prec =
            mul ? PrecisionOf(a) + PrecisionOf(b)
                : std::max(PrecisionOf(a) - ScaleOf(a), PrecisionOf(b) - ScaleOf(b)) + scale + 1;
        return DecimalColumn(std::min<uint32_t>(prec, 65),
                             static_cast<uint8_t>(std::min(scale, 30)), n);
      }
      uint32_t len = mul ? a.length + b.length : std::max(a.length, b.length) + 1;
      return IntColumn(std::min<uint32_t>(len, 21), is_unsigned, n);
    }
    case BinaryOp::kDiv: {
      if (real) return DoubleColumn(Nullability::kNullable);
      int scale = std::min(ScaleOf(a) + 4, 30);
      return DecimalColumn(std::min<uint32_t>(PrecisionOf(a) - ScaleOf(a) + ScaleOf(b) + scale, 65),
                           static_cast<uint8_t>(scale), Nullability::kNullable);
    }
    case BinaryOp::kIntDiv:
      return IntColumn(std::max<uint32_t>(a.length, 1), is_unsigned, Nullability::kNullable);
    case BinaryOp::kMod:
      if (real) return DoubleColumn(Nullability::kNullable);
      if (decimal) {
        int scale = std::max(ScaleOf(a), ScaleOf(b));
        return DecimalColumn(std::max(PrecisionOf(a), PrecisionOf(b)), static_cast<uint8_t>(scale),
                             Nullability::kNullable);
      }
      return IntColumn(std::max(a.length, b.length), (a.flags & flag::kUnsigned) != 0,
                       Nullability::kNullable);
    default:
      break;
  }
  return NullColumn();
}

// ---------------------------------------------------------------------------------------
// Evaluation

Value ExprEngine::LiteralValue(const Expr& e) {
  switch (e.literal) {
    case LiteralKind::kNull:
      return Value{};
    case LiteralKind::kBool:
      return int64_t{e.text == "1"};
    case LiteralKind::kInteger: {
      int64_t i;
      uint64_t u;
      if (absl::SimpleAtoi(e.text, &i)) return i;
      if (absl::SimpleAtoi(e.text, &u)) return u;
      return mysql::Decimal{e.text};
    }
    case LiteralKind::kDecimal: {
      std::string t = e.text;
      if (t.front() == '.') t.insert(t.begin(), '0');
      if (t.back() == '.') t.pop_back();
      return mysql::Decimal{t};
    }
    case LiteralKind::kFloat: {
      bool truncated = false;
      return ToDouble(Value{e.text}, &truncated);
    }
    default:
      return e.text;
  }
}

Value ExprEngine::Eval(const Expr& e) {
  if (failed()) return Value{};
  if (ctx_.rolled_up != nullptr && ctx_.rolled_up->contains(&e)) return Value{};
  switch (e.kind) {
    case ExprKind::kLiteral:
      return LiteralValue(e);
    case ExprKind::kParam:
      if (e.param_index < static_cast<int>(ctx_.params.size())) return ctx_.params[e.param_index];
      return Value{};
    case ExprKind::kSysVar:
      return SysVarValue(e);
    case ExprKind::kUserVar: {
      auto it = ctx_.state->user_vars.find(absl::AsciiStrToLower(e.name));
      return it == ctx_.state->user_vars.end() ? Value{} : it->second;
    }
    case ExprKind::kAssignUser: {
      Value v = Eval(*e.args[0]);
      if (std::holds_alternative<mysql::DateTime>(v) || std::holds_alternative<mysql::Time>(v)) {
        v = ValueText(v);
      }
      if (ctx_.mutable_state != nullptr && !failed()) {
        ctx_.mutable_state->user_vars[absl::AsciiStrToLower(e.name)] = v;
      }
      return v;
    }
    case ExprKind::kColumn: {
      int i = ColumnIndex(e);
      return i < 0 || ctx_.row == nullptr ? Value{} : (*ctx_.row)[i];
    }
    case ExprKind::kFunction:
      if (ctx_.aggregate_values != nullptr) {
        if (auto it = ctx_.aggregate_values->find(&e); it != ctx_.aggregate_values->end()) {
          return it->second;
        }
      }
      return FunctionEval(e);
    case ExprKind::kDefault:
    case ExprKind::kStar:
      SetError(mysql::errors::ParseError(e.kind == ExprKind::kStar ? "*" : "DEFAULT", 1));
      return Value{};
    case ExprKind::kUnary: {
      Value a = Eval(*e.args[0]);
      if (IsNull(a)) return a;
      if (e.unary_op == UnaryOp::kNot) return int64_t{Truth(a) == 0};
      if (e.unary_op == UnaryOp::kBitNot) return ~BitOperand(HexNumber(*e.args[0], a));
      switch (ClassOf(a)) {
        case Cls::kInt: {
          __int128 r = -Int128(a);
          if (r < INT64_MIN) return mysql::Decimal{Int128Text(r)};
          if (r > INT64_MAX) {
            SetError({1690, "22003",
                      absl::StrCat("BIGINT value is out of range in '-(", ValueText(a), ")'")});
            return Value{};
          }
          return static_cast<int64_t>(r);
        }
        case Cls::kDecimal: {
          const mysql::Decimal& d = std::get<mysql::Decimal>(a);
          const std::string& t = d.text;
          return mysql::Decimal{t[0] == '-' ? t.substr(1) : "-" + t, d.shown};
        }
        default: {
          bool truncated = false;
          return -ToDouble(a, &truncated);
        }
      }
    }
    case ExprKind::kBinary:
      return BinaryValue(e);
    case ExprKind::kIsNull: {
      bool is_null = IsNull(Eval(*e.args[0]));
      return int64_t{is_null != e.negated};
    }
    case ExprKind::kIsBool: {
      int t = Truth(Eval(*e.args[0]));
      bool match = e.truth ? t == 1 : t == 0;
      return int64_t{match != e.negated};
    }
    case ExprKind::kRow:
      SetError(OperandColumns(1));
      return Value{};
    case ExprKind::kIn: {
      if (HasRowOperand(e)) return RowInValue(e);
      Value a = Eval(*e.args[0]);
      bool saw_null = IsNull(a);
      bool found = false;
      // The left side's collation once per row, not once per listed value.
      const bool text = std::holds_alternative<std::string>(a);
      const bool binary = text && IsBinaryCollationId(Type(*e.args[0]).charset);
      const bool explicit_left = e.args[0]->kind == ExprKind::kCollate;
      for (size_t i = 1; i < e.args.size() && !found; ++i) {
        Value b = Eval(*e.args[i]);
        std::optional<int> c;
        if (text && std::holds_alternative<std::string>(b) &&
            (explicit_left || e.args[i]->kind == ExprKind::kCollate
                 ? BinaryCollation(*e.args[0], *e.args[i])
                 : binary || IsBinaryCollationId(Type(*e.args[i]).charset))) {
          c = CompareBinaryText(std::get<std::string>(a), std::get<std::string>(b));
        }
        if (!c) c = Compare(a, b);
        if (!c) saw_null = true;
        if (c && *c == 0) found = true;
      }
      if (found) return int64_t{!e.negated};
      if (saw_null) return Value{};
      return int64_t{e.negated};
    }
    case ExprKind::kSubquery:
    case ExprKind::kInSubquery:
    case ExprKind::kExists:
    case ExprKind::kQuantified:
      return SubqueryValue(e);
    case ExprKind::kBetween: {
      Value a = Eval(*e.args[0]);
      Value low = Eval(*e.args[1]);
      Value high = Eval(*e.args[2]);
      std::optional<int> lo = CompareBinary(a, low, *e.args[0], *e.args[1]);
      if (!lo) lo = Compare(a, low);
      std::optional<int> hi = CompareBinary(a, high, *e.args[0], *e.args[2]);
      if (!hi) hi = Compare(a, high);
      if ((lo && *lo < 0) || (hi && *hi > 0)) return int64_t{e.negated};
      if (!lo || !hi) return Value{};
      return int64_t{!e.negated};
    }
    case ExprKind::kLike: {
      Value a = Eval(*e.args[0]);
      Value p = Eval(*e.args[1]);
      char escape = '\\';
      if (e.args.size() > 2) {
        std::string esc = ValueText(Eval(*e.args[2]));
        if (esc.size() > 1) {
          SetError(mysql::errors::WrongArguments("ESCAPE"));
          return Value{};
        }
        escape = esc.empty() ? '\\' : esc[0];
      }
      if (IsNull(a) || IsNull(p)) return Value{};
      const LikeMatcher& m = LikeMatcher::Cached(ValueText(p), escape,
                                                 BinaryStrings(a, p, *e.args[0], *e.args[1])
                                                     ? LikeMatcher::Case::kSensitive
                                                     : LikeMatcher::Case::kInsensitive);
      return int64_t{m.Matches(ValueText(a)) != e.negated};
    }
    case ExprKind::kCase:
      return CaseValue(e);
    case ExprKind::kCast:
      return CastValue(e);
    case ExprKind::kInterval:
      return Eval(*e.args[0]);
    case ExprKind::kCollate: {
      if (CollateType(e).type == ColumnType::kNull && failed()) return Value{};
      Value v = Eval(*e.args[0]);
      // A number or a date takes the collation as its text, as MySQL's numeric derivation.
      if (!IsNull(v) && !std::holds_alternative<std::string>(v)) v = ValueText(v);
      return v;
    }
  }
  return Value{};
}

// ---------------------------------------------------------------------------------------
// Subqueries, computed before the statement ran

const SubqueryResult* ExprEngine::SubqueryOf(const Expr& e) {
  if (ctx_.subqueries != nullptr) {
    if (auto it = ctx_.subqueries->find(&e); it != ctx_.subqueries->end()) return &it->second;
  }
  SetError(mysql::errors::NotSupportedYet("subqueries here"));
  return nullptr;
}

ColumnDefinition ExprEngine::SubqueryType(const Expr& e) {
  if (ctx_.row_subqueries != nullptr && ctx_.row_columns != nullptr) {
    if (auto it = ctx_.row_subqueries->find(&e); it != ctx_.row_subqueries->end()) {
      ColumnDefinition c = (*ctx_.row_columns)[it->second];
      // A scalar subquery is NULL where no row matches, whatever its column (COUNT(*) too).
      if (e.kind == ExprKind::kSubquery) c.flags &= ~mysql::column_flag::kNotNull;
      return c;
    }
  }
  if (e.kind == ExprKind::kExists) return BoolColumn(Nullability::kNotNull);
  if (e.kind == ExprKind::kInSubquery || e.kind == ExprKind::kQuantified) {
    Type(*e.args[0]);
    return BoolColumn(Nullability::kNullable);
  }
  if (ctx_.subqueries == nullptr) {
    // Typed before it ran (COM_STMT_PREPARE): its type is known only once it runs.
    return StringColumn(0, *ctx_.state, Nullability::kNullable);
  }
  const SubqueryResult* r = SubqueryOf(e);
  if (r == nullptr) return NullColumn();
  ColumnDefinition c = r->column;
  c.flags &= ~mysql::column_flag::kNotNull;  // no row is NULL
  return c;
}

Value ExprEngine::SubqueryValue(const Expr& e) {
  if (ctx_.row_subqueries != nullptr && ctx_.row != nullptr) {
    if (auto it = ctx_.row_subqueries->find(&e); it != ctx_.row_subqueries->end()) {
      return (*ctx_.row)[it->second];
    }
  }
  const SubqueryResult* r = SubqueryOf(e);
  if (r == nullptr) return Value{};
  switch (e.kind) {
    case ExprKind::kExists:
      return int64_t{!r->values.empty()};
    case ExprKind::kSubquery:
      if (r->values.size() > 1) {
        SetError({1242, "21000", "Subquery returns more than 1 row"});
        return Value{};
      }
      return r->values.empty() ? Value{} : r->values[0];
    default:
      break;
  }
  // [NOT] IN: as the list form, NULL when no value matched and one comparison was unknown;
  // strings byte for byte when either side is of a binary collation.
  Value a = Eval(*e.args[0]);
  bool saw_null = IsNull(a) && !r->values.empty();
  const auto* text = std::get_if<std::string>(&a);
  const bool binary = text != nullptr && (e.args[0]->kind == ExprKind::kCollate
                                              ? IsBinaryCollationId(Type(*e.args[0]).charset)
                                              : IsBinaryCollationId(r->column.charset) ||
                                                    IsBinaryCollationId(Type(*e.args[0]).charset));
  if (e.kind == ExprKind::kQuantified) return QuantifiedValue(e, *r, a, binary);
  for (const Value& v : r->values) {
    const auto* other = binary ? std::get_if<std::string>(&v) : nullptr;
    std::optional<int> c = other != nullptr ? CompareBinaryText(*text, *other) : Compare(a, v);
    if (c && *c == 0) return int64_t{!e.negated};
    if (!c) saw_null = true;
  }
  if (saw_null) return Value{};
  return int64_t{e.negated};
}

// x op {ANY | ALL} (values), `a` being x's value: SQL's three-valued quantifiers. ANY is true
// when one comparison is, ALL false when one is; otherwise a NULL comparison (x NULL over a
// set that is not empty, or a NULL in the set) leaves the result NULL. ALL over no rows is
// true and ANY false, whatever x.
Value ExprEngine::QuantifiedValue(const Expr& e, const SubqueryResult& r, const Value& a,
                                  bool binary) {
  const auto* text = std::get_if<std::string>(&a);
  bool saw_null = false;
  for (const Value& v : r.values) {
    const auto* other = binary ? std::get_if<std::string>(&v) : nullptr;
    std::optional<int> c = other != nullptr ? CompareBinaryText(*text, *other) : Compare(a, v);
    if (!c) {
      saw_null = true;
      continue;
    }
    const bool holds = e.binary_op == BinaryOp::kEq   ? *c == 0
                       : e.binary_op == BinaryOp::kNe ? *c != 0
                       : e.binary_op == BinaryOp::kLt ? *c < 0
                       : e.binary_op == BinaryOp::kLe ? *c <= 0
                       : e.binary_op == BinaryOp::kGt ? *c > 0
                                                      : *c >= 0;
    if (holds != e.all) return int64_t{holds};  // ANY met one that holds, ALL one that fails
  }
  if (saw_null) return Value{};
  return int64_t{e.all};
}

// MySQL's Item_func_set_collation::resolve_type: 1273 for a collation it does not know, 1253
// for one of another character set than the operand's (a number or a date takes any).
ColumnDefinition ExprEngine::CollateType(const Expr& e) {
  ColumnDefinition c = Type(*e.args[0]);
  if (failed()) return NullColumn();
  const CollationInfo* collation = FindCollation(e.name);
  if (collation == nullptr) {
    SetError({1273, "HY000", absl::StrCat("Unknown collation: '", e.name, "'")});
    return NullColumn();
  }
  const Nullability n = NotNull(c) ? Nullability::kNotNull : Nullability::kNullable;
  const Cls cls = ClassOf(c);
  if (cls == Cls::kString) {
    const CollationInfo* own = FindCollationById(c.charset);
    const absl::string_view charset = own != nullptr ? own->charset : "binary";
    if (charset != collation->charset) {
      SetError({1253, "42000",
                absl::StrCat("COLLATION '", e.name, "' is not valid for CHARACTER SET '", charset,
                             "'")});
      return NullColumn();
    }
  } else {
    c = StringColumn(std::max<uint32_t>(c.length, 1), *ctx_.state, n);
  }
  c.charset = collation->id;
  return c;
}

bool ExprEngine::BinaryCollation(const Expr& x, const Expr& y) {
  // An explicit COLLATE decides (MySQL's EXPLICIT derivation outranks a column's IMPLICIT).
  if (x.kind == ExprKind::kCollate) return IsBinaryCollationId(Type(x).charset);
  if (y.kind == ExprKind::kCollate) return IsBinaryCollationId(Type(y).charset);
  // Either side's binary collation makes the comparison binary, as a column's collation
  // outweighs a literal's in MySQL.
  return IsBinaryCollationId(Type(x).charset) || IsBinaryCollationId(Type(y).charset);
}

bool ExprEngine::BinaryStrings(const Value& a, const Value& b, const Expr& x, const Expr& y) {
  if (!std::holds_alternative<std::string>(a) || !std::holds_alternative<std::string>(b)) {
    return false;
  }
  return BinaryCollation(x, y);
}

std::optional<int> ExprEngine::CompareBinary(const Value& a, const Value& b, const Expr& x,
                                             const Expr& y) {
  if (!BinaryStrings(a, b, x, y)) return std::nullopt;
  return CompareBinaryText(std::get<std::string>(a), std::get<std::string>(b));
}

Value ExprEngine::BinaryValue(const Expr& e) {
  if (HasRowOperand(e)) return RowComparisonValue(e);
  BinaryOp op = e.binary_op;
  if (op == BinaryOp::kAnd || op == BinaryOp::kOr) {
    int a = Truth(Eval(*e.args[0]));
    if (op == BinaryOp::kAnd && a == 0) return int64_t{0};  // short-circuit as MySQL does
    if (op == BinaryOp::kOr && a == 1) return int64_t{1};
    int b = Truth(Eval(*e.args[1]));
    if (op == BinaryOp::kAnd) {
      if (b == 0) return int64_t{0};
      if (a < 0 || b < 0) return Value{};
      return int64_t{1};
    }
    if (b == 1) return int64_t{1};
    if (a < 0 || b < 0) return Value{};
    return int64_t{0};
  }
  Value a = Eval(*e.args[0]);
  Value b = Eval(*e.args[1]);
  if (failed()) return Value{};
  // A hex or bit literal is a number in arithmetic and beside a number (0x41 + 0 is 65,
  // 0x10 = 16), its bytes elsewhere.
  const bool comparison = op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt ||
                          op == BinaryOp::kLe || op == BinaryOp::kGt || op == BinaryOp::kGe ||
                          op == BinaryOp::kNullSafeEq;
  if (!comparison || IsNumber(b)) a = HexNumber(*e.args[0], std::move(a));
  if (!comparison || IsNumber(a)) b = HexNumber(*e.args[1], std::move(b));
  switch (op) {
    case BinaryOp::kXor: {
      int x = Truth(a), y = Truth(b);
      if (x < 0 || y < 0) return Value{};
      return int64_t{x != y};
    }
    case BinaryOp::kNullSafeEq: {
      if (IsNull(a) || IsNull(b)) return int64_t{IsNull(a) && IsNull(b)};
      if (std::optional<int> c = CompareAsJson(*this, a, b, *e.args[0], *e.args[1])) {
        return int64_t{*c == 0};
      }
      if (std::optional<int> c = CompareStoredNumber(a, b, *e.args[0], *e.args[1])) {
        return int64_t{*c == 0};
      }
      if (std::optional<int> c = CompareBinary(a, b, *e.args[0], *e.args[1])) {
        return int64_t{*c == 0};
      }
      return int64_t{*Compare(a, b) == 0};
    }
    case BinaryOp::kEq:
    case BinaryOp::kNe:
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe: {
      std::optional<int> c = IsNull(a) || IsNull(b)
                                 ? std::nullopt
                                 : CompareAsJson(*this, a, b, *e.args[0], *e.args[1]);
      if (!c && !failed() && !IsNull(a) && !IsNull(b)) {
        c = CompareStoredNumber(a, b, *e.args[0], *e.args[1]);
      }
      if (!c && !failed()) {
        c = CompareBinary(a, b, *e.args[0], *e.args[1]);
        if (!c) c = Compare(a, b);
      }
      if (!c) return Value{};
      bool r = op == BinaryOp::kEq   ? *c == 0
               : op == BinaryOp::kNe ? *c != 0
               : op == BinaryOp::kLt ? *c < 0
               : op == BinaryOp::kLe ? *c <= 0
               : op == BinaryOp::kGt ? *c > 0
                                     : *c >= 0;
      return int64_t{r};
    }
    case BinaryOp::kBitOr:
    case BinaryOp::kBitAnd:
    case BinaryOp::kBitXor:
    case BinaryOp::kShl:
    case BinaryOp::kShr: {
      if (IsNull(a) || IsNull(b)) return Value{};
      const uint64_t x = BitOperand(a), y = BitOperand(b);
      switch (op) {
        case BinaryOp::kBitOr:
          return x | y;
        case BinaryOp::kBitAnd:
          return x & y;
        case BinaryOp::kBitXor:
          return x ^ y;
        case BinaryOp::kShl:
          return y >= 64 ? uint64_t{0} : x << y;
        default:
          return y >= 64 ? uint64_t{0} : x >> y;
      }
    }
    default:
      return Arithmetic(op, a, b);
  }
}

bool IsNumber(const Value& v) {
  const Cls c = ClassOf(v);
  return c == Cls::kInt || c == Cls::kDecimal || c == Cls::kReal;
}

Value HexNumber(const Expr& e, Value v) {
  const auto* bytes = std::get_if<std::string>(&v);
  if (bytes == nullptr || e.kind != ExprKind::kLiteral ||
      (e.literal != LiteralKind::kHex && e.literal != LiteralKind::kBit)) {
    return v;
  }
  const size_t first = bytes->find_first_not_of('\0');
  if (first != std::string::npos && bytes->size() - first > 8) return UINT64_MAX;
  uint64_t n = 0;
  for (unsigned char c : *bytes) n = n << 8 | c;
  return n;
}

// MySQL's bit operations work on 64 bits: a negative number as its two's complement, a
// temporal value as its number, anything else rounded to an integer (clamped to 64 bits).
uint64_t BitOperand(const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<uint64_t>(*i);
  if (const auto* u = std::get_if<uint64_t>(&v)) return *u;
  if (ClassOf(v) == Cls::kTemporal) return BitOperand(TemporalNumber(v));
  bool truncated = false;
  const long double d = std::roundl(ToLongDouble(v, &truncated));
  if (d >= 1.8446744073709551615e19L) return UINT64_MAX;
  if (d <= -9.223372036854775808e18L) return static_cast<uint64_t>(INT64_MIN);
  return d < 0 ? static_cast<uint64_t>(static_cast<int64_t>(d)) : static_cast<uint64_t>(d);
}

Value ExprEngine::Arithmetic(BinaryOp op, const Value& a, const Value& b) {
  if (IsNull(a) || IsNull(b)) return Value{};
  Cls ca = ClassOf(a), cb = ClassOf(b);
  // Dates and times count as the numbers they read as (TemporalNumber).
  if (ca == Cls::kTemporal || cb == Cls::kTemporal) {
    return Arithmetic(op, TemporalNumber(a), TemporalNumber(b));
  }
  static constexpr const char* kOpText[] = {"", "", "", "", "",  "",  "",  "",  "",    "", "",
                                            "", "", "", "", "+", "-", "*", "/", "DIV", "%"};
  auto out_of_range = [&](bool is_unsigned) {
    SetError(
        {1690, "22003",
         absl::StrCat(is_unsigned ? "BIGINT UNSIGNED" : "BIGINT", " value is out of range in '(",
                      ValueText(a), " ", kOpText[static_cast<int>(op)], " ", ValueText(b), ")'")});
    return Value{};
  };
  auto division_by_zero = [&]() {
    Warn(1365, "Division by 0");
    return Value{};
  };
  if (ca == Cls::kInt && cb == Cls::kInt) {
    __int128 x = Int128(a), y = Int128(b);
    bool is_unsigned = std::holds_alternative<uint64_t>(a) || std::holds_alternative<uint64_t>(b);
    __int128 r = 0;
    switch (op) {
      case BinaryOp::kAdd:
        r = x + y;
        break;
      case BinaryOp::kSub:
        r = x - y;
        break;
      case BinaryOp::kMul:
        if (__builtin_mul_overflow(x, y, &r)) return out_of_range(is_unsigned);
        break;
      case BinaryOp::kDiv: {
        bool by_zero = false;
        std::optional<Value> q = ExactDecimalArithmetic(op, a, b, &by_zero);
        if (by_zero) return division_by_zero();
        if (q) return *std::move(q);
        // Two 64-bit integers always fit; this is for form's sake.
        return mysql::Decimal{FormatFixed(static_cast<double>(x) / static_cast<double>(y), 4)};
      }
      case BinaryOp::kIntDiv:
        if (y == 0) return division_by_zero();
        r = x / y;
        break;
      case BinaryOp::kMod:
        if (y == 0) return division_by_zero();
        r = x % y;
        break;
      default:
        break;
    }
    if (is_unsigned && op != BinaryOp::kMod && op != BinaryOp::kIntDiv) {
      if (r < 0 || r > static_cast<__int128>(UINT64_MAX)) return out_of_range(true);
      return static_cast<uint64_t>(r);
    }
    if (r >= INT64_MIN && r <= INT64_MAX) return static_cast<int64_t>(r);
    return out_of_range(false);
  }
  const bool exact = (ca == Cls::kInt || ca == Cls::kDecimal) &&
                     (cb == Cls::kInt || cb == Cls::kDecimal) && op != BinaryOp::kIntDiv;
  if (exact) {
    bool by_zero = false;
    std::optional<Value> r = ExactDecimalArithmetic(op, a, b, &by_zero);
    if (by_zero) return division_by_zero();
    if (r) return *std::move(r);
  }
  bool truncated_a = false, truncated_b = false;
  long double x = ToLongDouble(a, &truncated_a);
  long double y = ToLongDouble(b, &truncated_b);
  for (const auto& [trunc, v] : {std::pair{truncated_a, &a}, std::pair{truncated_b, &b}}) {
    if (trunc && std::holds_alternative<std::string>(*v)) {
      Warn(1292, absl::StrCat("Truncated incorrect DOUBLE value: '", ValueText(*v), "'"));
    }
  }
  bool real = ca != Cls::kInt && ca != Cls::kDecimal;
  real = real || (cb != Cls::kInt && cb != Cls::kDecimal);
  long double r = 0;
  switch (op) {
    case BinaryOp::kAdd:
      r = x + y;
      break;
    case BinaryOp::kSub:
      r = x - y;
      break;
    case BinaryOp::kMul:
      r = x * y;
      break;
    case BinaryOp::kDiv:
      if (y == 0) return division_by_zero();
      r = x / y;
      break;
    case BinaryOp::kIntDiv:
      if (y == 0) return division_by_zero();
      r = std::trunc(x / y);
      if (r < INT64_MIN || r > INT64_MAX) return out_of_range(false);
      return static_cast<int64_t>(r);
    case BinaryOp::kMod:
      if (y == 0) return division_by_zero();
      r = std::fmod(x, y);
      break;
    default:
      break;
  }
  if (real) {
    if (!std::isfinite(static_cast<double>(r))) {
      SetError({1690, "22003",
                absl::StrCat("DOUBLE value is out of range in '(", ValueText(a), " ",
                             kOpText[static_cast<int>(op)], " ", ValueText(b), ")'")});
      return Value{};
    }
    return static_cast<double>(r);
  }
  int sa = ca == Cls::kDecimal ? DecimalScale(std::get<mysql::Decimal>(a).text) : 0;
  int sb = cb == Cls::kDecimal ? DecimalScale(std::get<mysql::Decimal>(b).text) : 0;
  int scale = op == BinaryOp::kMul ? sa + sb : op == BinaryOp::kDiv ? sa + 4 : std::max(sa, sb);
  return mysql::Decimal{FormatFixed(static_cast<double>(r), std::min(scale, 30))};
}

std::string RescaleDecimal(absl::string_view text, int scale) {
  bool neg = !text.empty() && text[0] == '-';
  if (neg || (!text.empty() && text[0] == '+')) text.remove_prefix(1);
  size_t dot = text.find('.');
  std::string int_part(text.substr(0, dot));
  std::string frac = dot == absl::string_view::npos ? "" : std::string(text.substr(dot + 1));
  if (int_part.empty()) int_part = "0";
  bool round_up = static_cast<int>(frac.size()) > scale && frac[scale] >= '5';
  frac.resize(scale, '0');
  std::string digits = int_part + frac;
  if (round_up) {
    int i = static_cast<int>(digits.size()) - 1;
    for (; i >= 0; --i) {
      if (digits[i] == '9') {
        digits[i] = '0';
      } else {
        ++digits[i];
        break;
      }
    }
    if (i < 0) digits.insert(digits.begin(), '1');
  }
  std::string out = digits.substr(0, digits.size() - scale);
  size_t nz = out.find_first_not_of('0');
  out = nz == std::string::npos ? "0" : out.substr(nz);
  if (scale > 0) out += "." + digits.substr(digits.size() - scale);
  bool zero = out.find_first_not_of("0.") == std::string::npos;
  return (neg && !zero ? "-" : "") + out;
}

}  // namespace internal

using internal::ExprEngine;

bool NamesColumn(const Expr& e, const mysql::ColumnDefinition& column) {
  return absl::EqualsIgnoreCase(column.name, e.name) &&
         (e.qualifier.empty() || absl::EqualsIgnoreCase(column.table, e.qualifier));
}

std::variant<mysql::ColumnDefinition, mysql::SqlError> TypeOf(const Expr& e,
                                                              const EvalContext& ctx) {
  ExprEngine engine(ctx);
  mysql::ColumnDefinition c = engine.Type(e);
  if (engine.failed()) return engine.error();
  return c;
}

std::variant<mysql::Value, mysql::SqlError> Evaluate(const Expr& e, EvalContext* ctx) {
  ExprEngine engine(*ctx);
  engine.Type(e);  // the checks typing makes (unknown names, argument counts) come first
  mysql::Value v = engine.Eval(e);
  if (engine.failed()) return engine.error();
  return v;
}

int Truth(const mysql::Value& v) {
  if (IsNull(v)) return -1;
  if (const auto* i = std::get_if<int64_t>(&v)) return *i != 0;
  if (const auto* u = std::get_if<uint64_t>(&v)) return *u != 0;
  bool truncated = false;
  if (const auto* d = std::get_if<mysql::Decimal>(&v)) {
    return std::strtold(d->text.c_str(), nullptr) != 0;
  }
  return ToDouble(v, &truncated) != 0;
}

namespace {

// A temporal value typed as `col` reads as text as `col` says: a DATE as its date, a
// DATETIME(n) or TIME(n) with n fraction digits (mysql::DateTime).
mysql::Value AsTemporalColumn(mysql::Value v, const mysql::ColumnDefinition& col) {
  const int8_t decimals =
      col.decimals <= 6 ? static_cast<int8_t>(col.decimals) : mysql::kFractionAsNeeded;
  if (auto* date = std::get_if<mysql::DateTime>(&v)) {
    date->date_only = col.type == mysql::ColumnType::kDate;
    if (col.type == mysql::ColumnType::kDateTime || col.type == mysql::ColumnType::kTimestamp) {
      date->decimals = decimals;
    }
  } else if (auto* time = std::get_if<mysql::Time>(&v);
             time != nullptr && col.type == mysql::ColumnType::kTime) {
    time->decimals = decimals;
  }
  return v;
}

}  // namespace

mysql::Value ConvertToColumn(const mysql::Value& v, const mysql::ColumnDefinition& col) {
  using mysql::Value;
  if (IsNull(v)) return v;
  bool truncated = false;
  switch (internal::ClassOf(col)) {
    case internal::Cls::kNull:
      return Value{};
    case internal::Cls::kInt: {
      bool is_unsigned = (col.flags & mysql::column_flag::kUnsigned) != 0;
      __int128 i;
      if (std::holds_alternative<int64_t>(v) || std::holds_alternative<uint64_t>(v)) {
        i = internal::Int128(v);
      } else {
        long double d = std::roundl(internal::ToLongDouble(v, &truncated));
        i = d >= 1.8446744073709551615e19L   ? static_cast<__int128>(UINT64_MAX)
            : d <= -9.223372036854775808e18L ? static_cast<__int128>(INT64_MIN)
                                             : static_cast<__int128>(d);
      }
      if (is_unsigned) return static_cast<uint64_t>(std::clamp<__int128>(i, 0, UINT64_MAX));
      return static_cast<int64_t>(std::clamp<__int128>(i, INT64_MIN, INT64_MAX));
    }
    case internal::Cls::kReal:
      return ToDouble(v, &truncated);
    case internal::Cls::kDecimal: {
      std::string text;
      if (const auto* d = std::get_if<mysql::Decimal>(&v)) {
        text = d->text;
      } else if (std::holds_alternative<int64_t>(v) || std::holds_alternative<uint64_t>(v)) {
        text = ValueText(v);
      } else {
        text = FormatFixed(ToDouble(v, &truncated), col.decimals);
      }
      return mysql::Decimal{internal::RescaleDecimal(text, col.decimals)};
    }
    case internal::Cls::kString:
      if (const auto* s = std::get_if<std::string>(&v)) return *s;
      return ValueText(v);
    case internal::Cls::kTemporal:
      return AsTemporalColumn(v, col);
  }
  return v;
}

mysql::Value ConvertToColumn(mysql::Value&& v, const mysql::ColumnDefinition& col) {
  internal::Cls cls = internal::ClassOf(col);
  if (!IsNull(v) && cls == internal::Cls::kString && std::holds_alternative<std::string>(v)) {
    return std::move(v);
  }
  if (!IsNull(v) && cls == internal::Cls::kTemporal) return AsTemporalColumn(std::move(v), col);
  return ConvertToColumn(static_cast<const mysql::Value&>(v), col);
}

}  // namespace shoal::sql
