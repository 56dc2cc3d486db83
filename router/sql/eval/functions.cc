// Built-in functions: the ones drivers and consoles call on connect (DATABASE(), USER(),
// VERSION(), CONNECTION_ID(), LAST_INSERT_ID(), NOW()…) plus COALESCE, IFNULL, CONCAT.
// Other MySQL built-ins answer 1235; unknown names answer as MySQL does for a missing stored
// function (1046 without a database, else 1305).
#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "common/utf8.h"
#include "router/sql/eval/expr_internal.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;

enum class Fn : uint8_t {
  kUnknown,
  kDatabase,
  kUser,
  kCurrentUser,
  kConnectionId,
  kLastInsertId,
  kRowCount,
  kVersion,
  kNow,
  kUtcTimestamp,
  kCurDate,
  kUtcDate,
  kCurTime,
  kUtcTime,
  kUnixTimestamp,
  kCoalesce,
  kIfNull,
  kConcat,
  kIf,
  kNullIf,
  kUpper,
  kLower,
  kLocate,
};

struct FnInfo {
  absl::string_view name;
  Fn fn;
  int min_args, max_args;  // max -1 = any
};

constexpr FnInfo kFunctions[] = {
    {"CONCAT", Fn::kConcat, 1, -1},
    {"CONNECTION_ID", Fn::kConnectionId, 0, 0},
    {"COALESCE", Fn::kCoalesce, 1, -1},
    {"CURDATE", Fn::kCurDate, 0, 0},
    {"CURRENT_DATE", Fn::kCurDate, 0, 0},
    {"CURRENT_TIME", Fn::kCurTime, 0, 1},
    {"CURRENT_TIMESTAMP", Fn::kNow, 0, 1},
    {"CURRENT_USER", Fn::kCurrentUser, 0, 0},
    {"CURTIME", Fn::kCurTime, 0, 1},
    {"DATABASE", Fn::kDatabase, 0, 0},
    {"IF", Fn::kIf, 3, 3},
    {"IFNULL", Fn::kIfNull, 2, 2},
    {"LCASE", Fn::kLower, 1, 1},
    {"LOCATE", Fn::kLocate, 2, 3},
    {"LOWER", Fn::kLower, 1, 1},
    {"NULLIF", Fn::kNullIf, 2, 2},
    {"UCASE", Fn::kUpper, 1, 1},
    {"UPPER", Fn::kUpper, 1, 1},
    {"LAST_INSERT_ID", Fn::kLastInsertId, 0, 1},
    {"LOCALTIME", Fn::kNow, 0, 1},
    {"LOCALTIMESTAMP", Fn::kNow, 0, 1},
    {"NOW", Fn::kNow, 0, 1},
    {"ROW_COUNT", Fn::kRowCount, 0, 0},
    {"SCHEMA", Fn::kDatabase, 0, 0},
    {"SESSION_USER", Fn::kUser, 0, 0},
    {"SYSDATE", Fn::kNow, 0, 1},
    {"SYSTEM_USER", Fn::kUser, 0, 0},
    {"UNIX_TIMESTAMP", Fn::kUnixTimestamp, 0, 0},
    {"USER", Fn::kUser, 0, 0},
    {"UTC_DATE", Fn::kUtcDate, 0, 0},
    {"UTC_TIME", Fn::kUtcTime, 0, 1},
    {"UTC_TIMESTAMP", Fn::kUtcTimestamp, 0, 1},
    {"VERSION", Fn::kVersion, 0, 0},
};

// MySQL built-ins Shoal does not evaluate yet: 1235 rather than "does not exist".
constexpr absl::string_view kKnownBuiltins[] = {
    "ABS",         "AVG",           "BIT_LENGTH",  "CEIL",
    "CEILING",     "CHAR",          "CHAR_LENGTH", "CHARACTER_LENGTH",
    "CONCAT_WS",   "COUNT",         "DATE",        "DATE_ADD",
    "DATE_FORMAT", "DATE_SUB",      "DATEDIFF",    "DAY",
    "FLOOR",       "FORMAT",        "FOUND_ROWS",  "FROM_UNIXTIME",
    "GREATEST",    "GROUP_CONCAT",  "HEX",         "HOUR",
    "INSTR",       "ISNULL",        "LEAST",       "LEFT",
    "LENGTH",      "LPAD",          "LTRIM",       "MAX",
    "MD5",         "MID",           "MIN",         "MINUTE",
    "MOD",         "MONTH",         "POW",         "POWER",
    "RAND",        "REPEAT",        "REPLACE",     "REVERSE",
    "RIGHT",       "ROUND",         "RPAD",        "RTRIM",
    "SHA1",        "SHA2",          "SIGN",        "SLEEP",
    "SQRT",        "STR_TO_DATE",   "SUBSTR",      "SUBSTRING",
    "SUM",         "TIMESTAMPDIFF", "TRIM",        "TRUNCATE",
    "UNHEX",       "UUID",          "YEAR"};

const FnInfo* FindFunction(absl::string_view name) {
  for (const FnInfo& f : kFunctions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// The fractional-seconds precision argument of NOW(n) and friends: a literal 0..6.
bool Precision(const Expr& e, ExprEngine* engine, uint8_t* fsp) {
  *fsp = 0;
  if (e.args.empty()) return true;
  const Expr& a = *e.args[0];
  int64_t v = 0;
  if (a.kind != ExprKind::kLiteral || a.literal != LiteralKind::kInteger ||
      !absl::SimpleAtoi(a.text, &v)) {
    engine->SetError(mysql::errors::WrongArguments(absl::AsciiStrToLower(e.name)));
    return false;
  }
  if (v > 6) {
    engine->SetError({1426, "42000",
                      absl::StrCat("Too-big precision ", v, " specified for '",
                                   absl::AsciiStrToLower(e.name), "'. Maximum is 6.")});
    return false;
  }
  *fsp = static_cast<uint8_t>(v);
  return true;
}

// The session's time zone: SYSTEM (= system_time_zone, UTC) or a fixed offset.
absl::TimeZone SessionTimeZone(const SessionState& state) {
  const SysVarDef* def = FindSysVar("time_zone");
  Value v = SessionValue(*def, state);
  int offset = 0;
  if (const auto* s = std::get_if<std::string>(&v);
      s != nullptr && ParseTimeZoneOffset(*s, &offset)) {
    return absl::FixedTimeZone(offset);
  }
  return absl::UTCTimeZone();
}

mysql::DateTime ToDateTime(absl::Time t, absl::TimeZone tz, uint8_t fsp) {
  absl::TimeZone::CivilInfo ci = tz.At(t);
  absl::CivilSecond cs = ci.cs;
  int64_t micros = absl::ToInt64Microseconds(ci.subsecond);
  int64_t unit = 1;
  for (int i = fsp; i < 6; ++i) unit *= 10;
  micros -= micros % unit;
  mysql::DateTime d;
  d.year = static_cast<uint16_t>(cs.year());
  d.month = static_cast<uint8_t>(cs.month());
  d.day = static_cast<uint8_t>(cs.day());
  d.hour = static_cast<uint8_t>(cs.hour());
  d.minute = static_cast<uint8_t>(cs.minute());
  d.second = static_cast<uint8_t>(cs.second());
  d.microsecond = static_cast<uint32_t>(micros);
  return d;
}

std::string UserAtHost(const SessionState& s, bool account) {
  return absl::StrCat(s.user, "@", account ? "%" : s.host);
}

}  // namespace

ColumnDefinition ExprEngine::FunctionType(const Expr& e) {
  const SessionState& state = *ctx_.state;
  const FnInfo* info = FindFunction(e.name);
  if (info == nullptr) {
    if (std::find(std::begin(kKnownBuiltins), std::end(kKnownBuiltins), e.name) !=
        std::end(kKnownBuiltins)) {
      SetError(mysql::errors::NotSupportedYet(absl::StrCat("function ", e.name)));
    } else if (state.database.empty()) {
      SetError(mysql::errors::NoDatabaseSelected());
    } else {
      SetError(mysql::errors::UnknownFunction(
          absl::StrCat(state.database, ".", absl::AsciiStrToLower(e.name))));
    }
    return NullColumn();
  }
  int n = static_cast<int>(e.args.size());
  if (n < info->min_args || (info->max_args >= 0 && n > info->max_args)) {
    SetError(
        {1582, "42000",
         absl::StrCat("Incorrect parameter count in the call to native function '", e.name, "'")});
    return NullColumn();
  }
  std::vector<ColumnDefinition> args;
  for (const ExprPtr& a : e.args) args.push_back(Type(*a));
  if (failed()) return NullColumn();
  Nullability nn = Nullability::kNotNull;
  uint8_t fsp = 0;
  switch (info->fn) {
    case Fn::kDatabase:
      return StringColumn(34, state, Nullability::kNullable);
    case Fn::kUser:
    case Fn::kCurrentUser:
      return StringColumn(288, state, nn);
    case Fn::kConnectionId:
      return IntColumn(10, true, nn);
    case Fn::kLastInsertId:
      return IntColumn(21, true, nn);
    case Fn::kRowCount:
      return IntColumn(21, false, nn);
    case Fn::kVersion:
      return StringColumn(60, state, nn);
    case Fn::kNow:
    case Fn::kUtcTimestamp:
      if (!Precision(e, this, &fsp)) return NullColumn();
      return TemporalColumn(ColumnType::kDateTime, fsp, nn);
    case Fn::kCurDate:
    case Fn::kUtcDate:
      return TemporalColumn(ColumnType::kDate, 0, nn);
    case Fn::kCurTime:
    case Fn::kUtcTime:
      if (!Precision(e, this, &fsp)) return NullColumn();
      return TemporalColumn(ColumnType::kTime, fsp, nn);
    case Fn::kUnixTimestamp:
      return IntColumn(11, false, nn);
    case Fn::kConcat: {
      uint32_t chars = 0;
      bool not_null = true;
      int maxlen = ResultCharsetMaxLen(state);
      for (const ColumnDefinition& a : args) {
        chars += a.charset == mysql::charset::kBinary ? a.length : a.length / maxlen;
        not_null = not_null && (a.flags & mysql::column_flag::kNotNull);
      }
      return StringColumn(chars, state, not_null ? nn : Nullability::kNullable);
    }
    case Fn::kCoalesce:
    case Fn::kIfNull: {
      // The widest of the argument types; NOT NULL if any argument is.
      ColumnDefinition out = NullColumn();
      bool not_null = false;
      for (const ColumnDefinition& a : args) {
        not_null = not_null || (a.flags & mysql::column_flag::kNotNull);
        if (a.type == ColumnType::kNull) continue;
        if (out.type == ColumnType::kNull) {
          out = a;
        } else if (out.type != a.type) {
          out = StringColumn(std::max(out.length, a.length), state, Nullability::kNullable);
        } else {
          out.length = std::max(out.length, a.length);
          out.decimals = std::max(out.decimals, a.decimals);
        }
      }
      out.flags = static_cast<uint16_t>((out.flags & ~mysql::column_flag::kNotNull) |
                                        (not_null ? mysql::column_flag::kNotNull : 0));
      return out;
    }
    case Fn::kIf:
      return AggregateResultTypes(
          {args[1], args[2]}, state,
          NotNull(args[1]) && NotNull(args[2]) ? nn : Nullability::kNullable);
    case Fn::kNullIf: {
      ColumnDefinition out = args[0];
      out.flags = static_cast<uint16_t>(out.flags & ~mysql::column_flag::kNotNull);
      return out;
    }
    case Fn::kUpper:
    case Fn::kLower:
      return StringColumn(std::max<uint32_t>(args[0].length, 1) /
                              static_cast<uint32_t>(std::max(ResultCharsetMaxLen(state), 1)),
                          state, NotNull(args[0]) ? nn : Nullability::kNullable);
    case Fn::kLocate: {
      bool not_null = true;
      for (const ColumnDefinition& a : args) not_null = not_null && NotNull(a);
      return IntColumn(11, false, not_null ? nn : Nullability::kNullable);
    }
    case Fn::kUnknown:
      break;
  }
  return NullColumn();
}

Value ExprEngine::FunctionEval(const Expr& e) {
  const SessionState& state = *ctx_.state;
  const FnInfo* info = FindFunction(e.name);
  if (info == nullptr) {
    FunctionType(e);  // raises the error
    return Value{};
  }
  uint8_t fsp = 0;
  switch (info->fn) {
    case Fn::kDatabase:
      return state.database.empty() ? Value{} : Value{state.database};
    case Fn::kUser:
      return UserAtHost(state, false);
    case Fn::kCurrentUser:
      return UserAtHost(state, true);
    case Fn::kConnectionId:
      return uint64_t{state.connection_id};
    case Fn::kLastInsertId: {
      if (e.args.empty()) return state.last_insert_id;
      Value v = ConvertToColumn(Eval(*e.args[0]), IntColumn(21, true, Nullability::kNullable));
      uint64_t id = IsNull(v) ? 0 : std::get<uint64_t>(v);
      if (ctx_.mutable_state != nullptr && !failed()) ctx_.mutable_state->last_insert_id = id;
      return id;
    }
    case Fn::kRowCount:
      return state.row_count;
    case Fn::kVersion:
      return state.server != nullptr ? state.server->version : std::string("8.0.36-shoal");
    case Fn::kNow:
    case Fn::kUtcTimestamp:
      if (!Precision(e, this, &fsp)) return Value{};
      return ToDateTime(ctx_.now,
                        info->fn == Fn::kNow ? SessionTimeZone(state) : absl::UTCTimeZone(), fsp);
    case Fn::kCurDate:
    case Fn::kUtcDate: {
      mysql::DateTime d = ToDateTime(
          ctx_.now, info->fn == Fn::kCurDate ? SessionTimeZone(state) : absl::UTCTimeZone(), 0);
      d.hour = d.minute = d.second = 0;
      return d;
    }
    case Fn::kCurTime:
    case Fn::kUtcTime: {
      if (!Precision(e, this, &fsp)) return Value{};
      mysql::DateTime d = ToDateTime(
          ctx_.now, info->fn == Fn::kCurTime ? SessionTimeZone(state) : absl::UTCTimeZone(), fsp);
      mysql::Time t;
      t.hours = d.hour;
      t.minutes = d.minute;
      t.seconds = d.second;
      t.microsecond = d.microsecond;
      return t;
    }
    case Fn::kUnixTimestamp:
      return absl::ToUnixSeconds(ctx_.now);
    case Fn::kCoalesce:
    case Fn::kIfNull:
      for (const ExprPtr& a : e.args) {
        Value v = Eval(*a);
        if (!IsNull(v)) return v;
      }
      return Value{};
    case Fn::kConcat: {
      std::string out;
      for (const ExprPtr& a : e.args) {
        Value v = Eval(*a);
        if (IsNull(v)) return Value{};
        out += ValueText(v);
      }
      return out;
    }
    case Fn::kIf: {
      const ColumnDefinition type = FunctionType(e);
      const bool yes = Truth(Eval(*e.args[0])) == 1;
      return ConvertToColumn(Eval(*e.args[yes ? 1 : 2]), type);
    }
    case Fn::kNullIf: {
      Value a = Eval(*e.args[0]);
      std::optional<int> order = Compare(a, Eval(*e.args[1]));
      return order.has_value() && *order == 0 ? Value{} : a;
    }
    case Fn::kUpper:
    case Fn::kLower: {
      Value v = Eval(*e.args[0]);
      if (IsNull(v)) return v;
      // ASCII letters only: the connection's other characters keep their case for now.
      std::string text = ValueText(v);
      return info->fn == Fn::kUpper ? absl::AsciiStrToUpper(text) : absl::AsciiStrToLower(text);
    }
    case Fn::kLocate: {
      Value needle = Eval(*e.args[0]);
      Value haystack = Eval(*e.args[1]);
      Value from = e.args.size() > 2 ? Eval(*e.args[2]) : Value{int64_t{1}};
      if (IsNull(needle) || IsNull(haystack) || IsNull(from)) return Value{};
      bool lossy = false;
      const int64_t start = static_cast<int64_t>(std::llround(ToDouble(from, &lossy)));
      // Case-insensitive, as the connection's collations compare; positions in characters.
      const std::string hay = absl::AsciiStrToLower(ValueText(haystack));
      const std::string pin = absl::AsciiStrToLower(ValueText(needle));
      if (start < 1) return int64_t{0};
      size_t byte = 0;
      for (int64_t c = 1; c < start; ++c) {
        if (byte >= hay.size()) return int64_t{0};
        byte += Utf8StepLength(absl::string_view(hay).substr(byte));
      }
      const size_t at = hay.find(pin, byte);
      if (at == std::string::npos) return int64_t{0};
      return static_cast<int64_t>(CharLength(absl::string_view(hay).substr(0, at))) + 1;
    }
    case Fn::kUnknown:
      break;
  }
  return Value{};
}

}  // namespace shoal::sql::internal
