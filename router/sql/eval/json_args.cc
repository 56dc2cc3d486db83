#include "router/sql/eval/json_args.h"

#include <cmath>
#include <variant>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/json/json_print.h"

namespace shoal::sql::internal {
namespace {

using mysql::SqlError;
using mysql::Value;

SqlError TooDeep() { return {3157, "22032", "The JSON document exceeds the maximum depth."}; }

}  // namespace

SqlError WrongJsonArgCount(absl::string_view name) {
  return {1582, "42000",
          absl::StrCat("Incorrect parameter count in the call to native function '", name, "'")};
}

JsonValue JsonOfValue(const Value& v, const mysql::ColumnDefinition& type, bool boolean) {
  if (IsNull(v)) return JsonValue::Null();
  if (type.type == mysql::ColumnType::kJson) {
    if (const auto* text = std::get_if<std::string>(&v)) {
      JsonParseResult parsed = ParseJson(*text);
      if (parsed.ok()) return std::move(parsed.value);
    }
  }
  if (const auto* i = std::get_if<int64_t>(&v)) {
    return boolean ? JsonValue::Boolean(*i != 0) : JsonValue::Integer(*i);
  }
  if (const auto* u = std::get_if<uint64_t>(&v)) return JsonValue::Unsigned(*u);
  if (const auto* d = std::get_if<double>(&v)) {
    return std::isfinite(*d) ? JsonValue::Double(*d) : JsonValue::Null();
  }
  if (const auto* dec = std::get_if<mysql::Decimal>(&v)) {
    // MySQL keeps a DECIMAL; the nearest double prints the same for the usual scales.
    bool lossy = false;
    return JsonValue::Double(ToDouble(Value{*dec}, &lossy));
  }
  return JsonValue::String(ValueText(v));
}

bool IsBooleanExpr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      return e.literal == LiteralKind::kBool;
    case ExprKind::kUnary:
      return e.unary_op == UnaryOp::kNot;
    case ExprKind::kBinary:
      return IsComparison(e.binary_op) || e.binary_op == BinaryOp::kOr ||
             e.binary_op == BinaryOp::kXor || e.binary_op == BinaryOp::kAnd;
    case ExprKind::kIsNull:
    case ExprKind::kIsBool:
    case ExprKind::kIn:
    case ExprKind::kBetween:
    case ExprKind::kLike:
    case ExprKind::kInSubquery:
    case ExprKind::kQuantified:
    case ExprKind::kExists:
      return true;
    default:
      return false;
  }
}

std::optional<int> CompareAsJson(ExprEngine& engine, const Value& a, const Value& b, const Expr& x,
                                 const Expr& y) {
  // JSON values travel as text: only then may an operand be JSON, and typing is paid for.
  if (!std::holds_alternative<std::string>(a) && !std::holds_alternative<std::string>(b)) {
    return std::nullopt;
  }
  if (!engine.JsonTyped(x) && !engine.JsonTyped(y)) return std::nullopt;
  const mysql::ColumnDefinition tx = engine.Type(x);
  const mysql::ColumnDefinition ty = engine.Type(y);
  return JsonCompare(JsonOfValue(a, tx, IsBooleanExpr(x)), JsonOfValue(b, ty, IsBooleanExpr(y)));
}

std::string JsonArgs::FunctionName() const { return absl::AsciiStrToLower(call_.expr().name); }

bool JsonArgs::IsJson(size_t i) {
  return call_.engine().Type(*call_.expr().args[i]).type == mysql::ColumnType::kJson;
}

std::optional<JsonValue> JsonArgs::Document(size_t i) {
  const bool json = IsJson(i);
  Value v = call_.Arg(i);
  if (IsNull(v) || call_.engine().failed()) return std::nullopt;
  const auto* text = std::get_if<std::string>(&v);
  if (text == nullptr && !json) {
    call_.engine().SetError(
        {3146, "22032",
         absl::StrCat("Invalid data type for JSON data in argument ", i + 1, " to function ",
                      FunctionName(), "; a JSON string or JSON type is required.")});
    return std::nullopt;
  }
  return ParseText(i, text != nullptr ? absl::string_view(*text) : ValueText(v));
}

std::optional<JsonValue> JsonArgs::ParseText(size_t i, absl::string_view text) {
  JsonParseResult parsed = ParseJson(text);
  if (parsed.ok()) return std::move(parsed.value);
  if (parsed.error->code == JsonParseErrorCode::kTooDeep) {
    call_.engine().SetError(TooDeep());
    return std::nullopt;
  }
  call_.engine().SetError(
      {3141, "22032",
       absl::StrCat("Invalid JSON text in argument ", i + 1, " to function ", FunctionName(),
                    ": \"", parsed.error->reason(), "\" at position ", parsed.error->offset, ".")});
  return std::nullopt;
}

std::optional<JsonPath> JsonArgs::Path(size_t i, bool single) {
  Value v = call_.Arg(i);
  if (IsNull(v) || call_.engine().failed()) return std::nullopt;
  JsonPathParseResult parsed = ParseJsonPath(ValueText(v));
  if (parsed.error_position) {
    call_.engine().SetError(
        {3143, "42000",
         absl::StrCat("Invalid JSON path expression. The error is around character position ",
                      *parsed.error_position, ".")});
    return std::nullopt;
  }
  if (single && parsed.path.CanMatchMany()) {
    Edited(JsonEditStatus::kWildcardPath);
    return std::nullopt;
  }
  return std::move(parsed.path);
}

std::optional<std::vector<JsonPath>> JsonArgs::Paths(size_t first) {
  std::vector<JsonPath> paths;
  for (size_t i = first; i < call_.arg_count(); ++i) {
    std::optional<JsonPath> path = Path(i);
    if (!path) return std::nullopt;
    paths.push_back(*std::move(path));
  }
  return paths;
}

std::optional<JsonValue> JsonArgs::Member(size_t i) {
  const Expr& e = *call_.expr().args[i];
  mysql::ColumnDefinition type = call_.engine().Type(e);
  Value v = call_.Arg(i);
  if (call_.engine().failed()) return std::nullopt;
  return JsonOfValue(v, type, IsBooleanExpr(e));
}

bool JsonArgs::Edited(JsonEditStatus status) {
  switch (status) {
    case JsonEditStatus::kOk:
      return true;
    case JsonEditStatus::kWildcardPath:
      call_.engine().SetError({3149, "42000",
                               "In this situation, path expressions may not contain the * and "
                               "** tokens or an array range."});
      return false;
    case JsonEditStatus::kRootPath:
      call_.engine().SetError(
          {3153, "42000", "The path expression '$' is not allowed in this context."});
      return false;
    case JsonEditStatus::kNotArrayCell:
      call_.engine().SetError(
          {3165, "42000", "A path expression is not a path to a cell in an array."});
      return false;
  }
  return false;
}

Value JsonArgs::Result(const JsonValue& doc) {
  if (JsonDepth(doc) > kJsonMaxDepth) {
    call_.engine().SetError(TooDeep());
    return Value{};
  }
  return PrintJson(doc);
}

}  // namespace shoal::sql::internal
