// The built-in SQL functions: one BuiltinFunction per name, with its argument count, its
// result type (as MySQL 8.0 describes the column) and its value. Each family keeps its entries
// in its own file (functions_*.cc); function_registry.cc finds a name among them and answers
// for names it does not know as MySQL does. Internal to router/sql/eval.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "protocol/column.h"
#include "protocol/value.h"
#include "router/sql/eval/expr_internal.h"

namespace shoal::sql::internal {

// A function's typing step: the call, its arguments' types (already typed), the engine (for
// errors and the session).
struct TypingCall {
  const Expr& expr;
  const std::vector<mysql::ColumnDefinition>& args;
  ExprEngine& engine;

  const SessionState& state() const { return *engine.ctx().state; }
};

// A function's evaluation step. Arguments are evaluated when asked for, so that COALESCE and
// IF evaluate only the ones they use.
class EvalCall {
 public:
  EvalCall(const Expr& expr, ExprEngine& engine) : expr_(expr), engine_(engine) {}

  size_t arg_count() const { return expr_.args.size(); }
  mysql::Value Arg(size_t i) { return engine_.Eval(*expr_.args[i]); }
  // Every argument, in order; false as soon as one is NULL (the result of most functions is
  // then NULL), leaving the rest unevaluated.
  bool StrictArgs(std::vector<mysql::Value>* values);
  // The column the call was typed as: for values that take the result type's form.
  mysql::ColumnDefinition ResultType() { return engine_.FunctionType(expr_); }

  const Expr& expr() const { return expr_; }
  ExprEngine& engine() { return engine_; }
  const SessionState& state() const { return *engine_.ctx().state; }

 private:
  const Expr& expr_;
  ExprEngine& engine_;
};

using TypeFunction = mysql::ColumnDefinition (*)(const TypingCall& call);
using EvalFunction = mysql::Value (*)(EvalCall& call);

inline constexpr int kAnyArgs = -1;  // max_args of a function with no upper bound

struct BuiltinFunction {
  absl::string_view name;  // upper case, as the parser gives it
  int min_args;
  int max_args;  // or kAnyArgs
  TypeFunction type;
  EvalFunction eval;
};

// The families, one per file.
absl::Span<const BuiltinFunction> SessionFunctions();    // functions_session.cc
absl::Span<const BuiltinFunction> ClockFunctions();      // functions_clock.cc
absl::Span<const BuiltinFunction> ControlFunctions();    // functions_control.cc
absl::Span<const BuiltinFunction> StringFunctions();     // functions_string.cc
absl::Span<const BuiltinFunction> SubstringFunctions();  // functions_substring.cc
absl::Span<const BuiltinFunction> NumericFunctions();    // functions_numeric.cc
absl::Span<const BuiltinFunction> TemporalFunctions();   // functions_temporal.cc
absl::Span<const BuiltinFunction> HashFunctions();       // functions_hash.cc
absl::Span<const BuiltinFunction> DateArithFunctions();  // functions_date_arith.cc
absl::Span<const BuiltinFunction> CalendarFunctions();   // functions_calendar.cc
absl::Span<const BuiltinFunction> StrToDateFunctions();  // functions_str_to_date.cc
absl::Span<const BuiltinFunction> JsonFunctions();       // functions_json.cc
absl::Span<const BuiltinFunction> RegexpFunctions();     // functions_regexp.cc
absl::Span<const BuiltinFunction> MathFunctions();       // functions_math.cc
absl::Span<const BuiltinFunction> RadixFunctions();      // functions_radix.cc
absl::Span<const BuiltinFunction> TextFunctions();       // functions_text.cc
absl::Span<const BuiltinFunction> TimeFunctions();       // functions_time.cc
absl::Span<const BuiltinFunction> UserLockFunctions();   // functions_user_lock.cc

// The function called `name` (upper case); null when there is none.
const BuiltinFunction* FindBuiltinFunction(absl::string_view name);
// Whether `f` takes `count` arguments (else 1582).
bool TakesArgCount(const BuiltinFunction& f, size_t count);
// Whether `name` is a MySQL built-in Shoal does not have yet (1235 rather than 1305).
bool IsKnownMissingBuiltin(absl::string_view name);

// ---------------------------------------------------------------------------------------
// Helpers the families share (function_registry.cc).

// NOT NULL only when every argument is.
Nullability NullableIfAny(absl::Span<const mysql::ColumnDefinition> args);
// The characters a value of column `c` shows as (a binary string's bytes, a number's digits).
uint32_t DisplayChars(const mysql::ColumnDefinition& c, const SessionState& state);
// A string result of at most `chars` characters: VAR_STRING, or a BLOB past 65535 bytes, as
// MySQL's set_data_type_string; nullable past MAX_BLOB_WIDTH, where a value may not fit.
mysql::ColumnDefinition StringResult(uint64_t chars, const SessionState& state, Nullability n);
// A binary string result of at most `bytes` bytes (VARBINARY, a BLOB past 65535), as MySQL
// types UNHEX, CHAR and FROM_BASE64.
mysql::ColumnDefinition BinaryStringResult(uint64_t bytes, const SessionState& state,
                                           Nullability n);
// The value of an integer literal (or a negated one), as MySQL knows a constant argument
// while typing; nullopt for anything else.
std::optional<int64_t> ConstantInteger(const Expr& e);

// Arguments as numbers, as MySQL's val_int / val_real read them: a string by its numeric
// prefix, with the 1292 warning when that is not all of it.
int64_t IntegerArg(const mysql::Value& v, ExprEngine& engine);
double DoubleArg(const mysql::Value& v, ExprEngine& engine);

// The current date and time in the session's time zone, `fsp` fractional digits kept
// (functions_clock.cc).
mysql::DateTime SessionNow(const ExprEngine& engine, uint8_t fsp);

// Date arguments (functions_temporal.cc). `v` (not NULL) as a date and time: a DATETIME as
// itself, a TIME on today's date, a string or number as MySQL reads one; false, with the
// 1292 warning "Incorrect datetime value", when it is not one.
bool DateArg(const mysql::Value& v, ExprEngine& engine, mysql::DateTime* out);
// `v` (not NULL) as a time of day or a duration in signed microseconds; false, with the 1292
// warning "Truncated incorrect time value", when it is not one.
bool TimeArg(const mysql::Value& v, ExprEngine& engine, int64_t* micros);
// Signed microseconds as a TIME value (within ±838:59:59).
mysql::Time TimeOfMicros(int64_t micros);
// DATE_FORMAT's type (its format is the second argument) and its text of `d`, appended to
// `out`.
mysql::ColumnDefinition DateFormatType(const TypingCall& call);
void FormatDate(const mysql::DateTime& d, absl::string_view format, std::string* out);
// English month (1..12) and weekday names (Monday = 0, as absl::Weekday counts).
absl::string_view MonthName(int month);
absl::string_view DayName(int weekday);

// MySQL's calc_week (functions_time.cc): the week of `d` as the bits of `behaviour` count
// weeks (kWeekMondayFirst: weeks start on Monday; kWeekYear: week 0 belongs to the previous
// year; kWeekFirstWeekday: week 1 is the first with the week's first day, else the first
// with four days of the year), `*year` the year the week belongs to.
inline constexpr unsigned kWeekMondayFirst = 1;
inline constexpr unsigned kWeekYear = 2;
inline constexpr unsigned kWeekFirstWeekday = 4;
int CalcWeek(const mysql::DateTime& d, unsigned behaviour, int* year);

// MySQL's day numbers (TO_DAYS): 0000-01-01 is day 1, 9999-12-31 is kMaxDayNumber.
inline constexpr int64_t kMaxDayNumber = 3652424;
int64_t DayNumber(const mysql::DateTime& d);
// The date of day number `n` (midnight); false outside years 1..9999.
bool DateOfDayNumber(int64_t n, mysql::DateTime* out);

}  // namespace shoal::sql::internal
