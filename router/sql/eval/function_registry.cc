// See function_registry.h. The dispatch of function calls (ExprEngine::FunctionType and
// FunctionEval) and the errors for names that are not there: 1235 for MySQL built-ins Shoal
// does not have yet, else what MySQL answers for a missing stored function (1046 without a
// database, 1305 with one).
#include "router/sql/eval/function_registry.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;

// MySQL built-ins Shoal does not evaluate yet (1235, where a name MySQL does not know is 1305).
// Aggregates are here too, for a window's call where none is computed (kGroupFunctions).
// Packed by hand: the names are too uneven for clang-format's columns.
// clang-format off
constexpr absl::string_view kKnownBuiltins[] = {
    "AES_DECRYPT", "AES_ENCRYPT", "AVG", "BENCHMARK", "BIN_TO_UUID", "BIT_AND", "BIT_OR",
    "BIT_XOR", "CHARSET", "COERCIBILITY", "COLLATION", "COMPRESS", "COUNT", "FORMAT_BYTES",
    "FORMAT_PICO_TIME", "GET_FORMAT", "GROUP_CONCAT", "INET6_ATON",
    "INET6_NTOA", "IS_IPV4", "IS_IPV4_COMPAT", "IS_IPV4_MAPPED", "IS_IPV6",
    "IS_UUID", "JSON_ARRAYAGG", "JSON_OBJECTAGG", "LOAD_FILE", "MASTER_POS_WAIT",
    "MAX", "MIN", "NAME_CONST", "PS_CURRENT_THREAD_ID", "PS_THREAD_ID", "RANDOM_BYTES",
    "SOURCE_POS_WAIT", "STATEMENT_DIGEST",
    "STATEMENT_DIGEST_TEXT", "STD", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "SUM", "UNCOMPRESS",
    "UNCOMPRESSED_LENGTH", "UUID_TO_BIN", "VALIDATE_PASSWORD_STRENGTH", "VARIANCE", "VAR_POP",
    "VAR_SAMP", "WAIT_FOR_EXECUTED_GTID_SET", "WEIGHT_STRING"};
// clang-format on

// The aggregates the row pipeline computes (exec/aggregates.h). A call of one that reaches the
// evaluator stands where MySQL allows no aggregate — WHERE, another aggregate's argument, SET,
// VALUES — or, in a grouped statement, it would have been computed: MySQL's 1111.
constexpr absl::string_view kGroupFunctions[] = {
    "AVG",           "BIT_AND", "BIT_OR",   "BIT_XOR", "COUNT",   "GROUP_CONCAT",
    "JSON_ARRAYAGG", "MAX",     "MIN",      "STD",     "STDDEV",  "STDDEV_POP",
    "STDDEV_SAMP",   "SUM",     "VARIANCE", "VAR_POP", "VAR_SAMP"};

bool IsGroupFunction(absl::string_view name) {
  return std::find(std::begin(kGroupFunctions), std::end(kGroupFunctions), name) !=
         std::end(kGroupFunctions);
}

using Registry = absl::flat_hash_map<absl::string_view, const BuiltinFunction*>;

Registry BuildRegistry() {
  Registry registry;
  for (auto family : {SessionFunctions(), ClockFunctions(), ControlFunctions(), StringFunctions(),
                      SubstringFunctions(), NumericFunctions(), TemporalFunctions(),
                      HashFunctions(), DateArithFunctions(), CalendarFunctions(),
                      StrToDateFunctions(), JsonFunctions(), RegexpFunctions(), MathFunctions(),
                      RadixFunctions(), TextFunctions(), TimeFunctions(), UserLockFunctions()}) {
    for (const BuiltinFunction& f : family) registry.emplace(f.name, &f);
  }
  return registry;
}

mysql::SqlError WrongArgumentCount(absl::string_view name) {
  return {1582, "42000",
          absl::StrCat("Incorrect parameter count in the call to native function '", name, "'")};
}

}  // namespace

const BuiltinFunction* FindBuiltinFunction(absl::string_view name) {
  static const Registry* const registry = new Registry(BuildRegistry());
  auto it = registry->find(name);
  return it == registry->end() ? nullptr : it->second;
}

bool TakesArgCount(const BuiltinFunction& f, size_t count) {
  const int n = static_cast<int>(count);
  return n >= f.min_args && (f.max_args == kAnyArgs || n <= f.max_args);
}

bool IsKnownMissingBuiltin(absl::string_view name) {
  return std::find(std::begin(kKnownBuiltins), std::end(kKnownBuiltins), name) !=
         std::end(kKnownBuiltins);
}

bool EvalCall::StrictArgs(std::vector<Value>* values) {
  values->clear();
  for (size_t i = 0; i < arg_count(); ++i) {
    values->push_back(Arg(i));
    if (IsNull(values->back())) return false;
  }
  return true;
}

Nullability NullableIfAny(absl::Span<const ColumnDefinition> args) {
  for (const ColumnDefinition& a : args) {
    if (!NotNull(a)) return Nullability::kNullable;
  }
  return Nullability::kNotNull;
}

uint32_t DisplayChars(const ColumnDefinition& c, const SessionState& state) {
  if (ClassOf(c) == Cls::kString && c.charset != mysql::charset::kBinary) {
    return c.length / static_cast<uint32_t>(std::max(ResultCharsetMaxLen(state), 1));
  }
  return c.length;
}

ColumnDefinition StringResult(uint64_t chars, const SessionState& state, Nullability n) {
  const uint64_t bytes = chars * static_cast<uint64_t>(std::max(ResultCharsetMaxLen(state), 1));
  if (bytes < 65536) return StringColumn(static_cast<uint32_t>(chars), state, n);
  // Past MAX_BLOB_WIDTH the value may not fit in a packet, and is then NULL.
  ColumnDefinition c = StringColumn(0, state, bytes < 16777216 ? n : Nullability::kNullable);
  c.type = ColumnType::kBlob;
  c.flags |= mysql::column_flag::kBlob;
  c.length = bytes < 16777216 ? 16777215 : 4294967295u;
  return c;
}

ColumnDefinition BinaryStringResult(uint64_t bytes, const SessionState& state, Nullability n) {
  ColumnDefinition c = StringColumn(0, state, bytes < 16777216 ? n : Nullability::kNullable);
  c.charset = mysql::charset::kBinary;
  c.flags |= mysql::column_flag::kBinary;
  if (bytes < 65536) {
    c.length = static_cast<uint32_t>(bytes);
    return c;
  }
  c.type = ColumnType::kBlob;
  c.flags |= mysql::column_flag::kBlob;
  c.length = bytes < 16777216 ? 16777215 : 4294967295u;
  return c;
}

std::optional<int64_t> ConstantInteger(const Expr& e) {
  if (e.kind == ExprKind::kUnary && e.unary_op == UnaryOp::kNeg) {
    std::optional<int64_t> v = ConstantInteger(*e.args[0]);
    if (v.has_value() && *v != INT64_MIN) return -*v;
    return std::nullopt;
  }
  int64_t v = 0;
  if (e.kind == ExprKind::kLiteral && e.literal == LiteralKind::kInteger &&
      absl::SimpleAtoi(e.text, &v)) {
    return v;
  }
  return std::nullopt;
}

int64_t IntegerArg(const Value& v, ExprEngine& engine) {
  if (const auto* s = std::get_if<std::string>(&v)) {
    // val_int of a string reads its integer prefix: '1.9' is 1.
    absl::string_view text = absl::StripLeadingAsciiWhitespace(*s);
    size_t end = 0;
    if (end < text.size() && (text[end] == '-' || text[end] == '+')) ++end;
    while (end < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[end]))) ++end;
    int64_t i = 0;
    const bool whole = absl::StripTrailingAsciiWhitespace(text.substr(end)).empty();
    if (!absl::SimpleAtoi(text.substr(0, end), &i) || !whole) {
      engine.Warn(1292, absl::StrCat("Truncated incorrect INTEGER value: '", *s, "'"));
    }
    return i;
  }
  Value i = ConvertToColumn(v, IntColumn(21, false, Nullability::kNullable));
  return IsNull(i) ? 0 : std::get<int64_t>(i);
}

double DoubleArg(const Value& v, ExprEngine& engine) {
  bool truncated = false;
  const double d = ToDouble(v, &truncated);
  if (truncated && std::holds_alternative<std::string>(v)) {
    engine.Warn(1292, absl::StrCat("Truncated incorrect DOUBLE value: '", ValueText(v), "'"));
  }
  return d;
}

ColumnDefinition ExprEngine::FunctionType(const Expr& e) {
  const SessionState& state = *ctx_.state;
  const BuiltinFunction* f = FindBuiltinFunction(e.name);
  if (f == nullptr) {
    if (IsGroupFunction(e.name) && e.window == nullptr) {
      SetError({1111, "HY000", "Invalid use of group function"});
    } else if (IsKnownMissingBuiltin(e.name)) {
      SetError(mysql::errors::NotSupportedYet(absl::StrCat("function ", e.name)));
    } else if (state.database.empty()) {
      SetError(mysql::errors::NoDatabaseSelected());
    } else {
      SetError(mysql::errors::UnknownFunction(
          absl::StrCat(state.database, ".", absl::AsciiStrToLower(e.name))));
    }
    return NullColumn();
  }
  if (!TakesArgCount(*f, e.args.size())) {
    SetError(WrongArgumentCount(e.name));
    return NullColumn();
  }
  std::vector<ColumnDefinition> args;
  for (const ExprPtr& a : e.args) args.push_back(Type(*a));
  if (failed()) return NullColumn();
  return f->type(TypingCall{e, args, *this});
}

Value ExprEngine::FunctionEval(const Expr& e) {
  const BuiltinFunction* f = FindBuiltinFunction(e.name);
  if (f == nullptr || !TakesArgCount(*f, e.args.size())) {
    FunctionType(e);  // raises the error
    return Value{};
  }
  EvalCall call(e, *this);
  Value v = f->eval(call);
  // A DATE, DATETIME(n) or TIME(n) result reads as text as the function's type says.
  if (std::holds_alternative<mysql::DateTime>(v) || std::holds_alternative<mysql::Time>(v)) {
    return ConvertToColumn(std::move(v), FunctionType(e));
  }
  return v;
}

}  // namespace shoal::sql::internal
