// MySQL 8.0's JSON functions over router/sql/json: JSON_EXTRACT (and `->`, `->>`),
// JSON_UNQUOTE, JSON_QUOTE, JSON_OBJECT, JSON_ARRAY, JSON_VALID, JSON_TYPE, JSON_LENGTH,
// JSON_DEPTH, JSON_KEYS, JSON_CONTAINS, JSON_CONTAINS_PATH, JSON_SET, JSON_INSERT,
// JSON_REPLACE, JSON_REMOVE, JSON_ARRAY_APPEND, JSON_ARRAY_INSERT, JSON_MERGE_PATCH,
// JSON_MERGE_PRESERVE (JSON_MERGE).
//
// A JSON value travels between expressions as its canonical text (a std::string), typed JSON
// (protocol type 245): a function reads an argument typed JSON as a document, a string as JSON
// text to parse (3141 when it is not), and refuses other types where a document is needed
// (3146). Where a function takes a value to put into a document, a string is a JSON string, a
// number a JSON number, a comparison true or false, NULL null.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/json_args.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/json/json_contains.h"
#include "router/sql/json/json_merge.h"
#include "router/sql/json/json_modify.h"
#include "router/sql/json/json_print.h"
#include "router/sql/json/json_seek.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

Value JsonText(const JsonValue& v) { return PrintJson(v); }

// ---------------------------------------------------------------------------------------
// Types

ColumnDefinition JsonType(const TypingCall& call) { return JsonColumn(call.state()); }

ColumnDefinition NotNullJsonType(const TypingCall& call) {
  ColumnDefinition c = JsonColumn(call.state());
  c.flags |= mysql::column_flag::kNotNull;
  return c;
}

ColumnDefinition LongTextType(const TypingCall& call) {
  return StringResult(uint64_t{4294967295} / 4, call.state(), Nullability::kNullable);
}

ColumnDefinition TruthType(const TypingCall& call) {
  return IntColumn(1, false, NullableIfAny(call.args));
}

// NULL also when a path selects nothing.
ColumnDefinition MaybeTruthType(const TypingCall&) {
  return IntColumn(1, false, Nullability::kNullable);
}

ColumnDefinition CountType(const TypingCall&) {
  return IntColumn(10, false, Nullability::kNullable);
}

ColumnDefinition TypeNameType(const TypingCall& call) {
  return StringColumn(16, call.state(), NullableIfAny(call.args));
}

ColumnDefinition QuoteType(const TypingCall& call) {
  return StringResult(uint64_t{DisplayChars(call.args[0], call.state())} * 6 + 2, call.state(),
                      NullableIfAny(call.args));
}

// JSON_OBJECT takes name/value pairs.
ColumnDefinition ObjectType(const TypingCall& call) {
  if (call.args.size() % 2 != 0) call.engine.SetError(WrongJsonArgCount(call.expr.name));
  return NotNullJsonType(call);
}

// The modifying functions take a document, then path/value pairs.
ColumnDefinition PairsType(const TypingCall& call) {
  if (call.args.size() % 2 == 0) call.engine.SetError(WrongJsonArgCount(call.expr.name));
  return JsonType(call);
}

// ---------------------------------------------------------------------------------------
// Reading

Value ExtractValue(EvalCall& call) {
  JsonArgs args(call);
  std::optional<JsonValue> doc = args.Document(0);
  std::optional<std::vector<JsonPath>> paths = args.Paths(1);
  if (!doc || !paths) return Value{};
  std::optional<JsonValue> found = JsonExtract(*doc, *paths);
  return found ? JsonText(*found) : Value{};
}

Value UnquoteValue(EvalCall& call) {
  JsonArgs args(call);
  if (args.IsJson(0)) {
    std::optional<JsonValue> doc = args.Document(0);
    return doc ? Value{JsonUnquotedText(*doc)} : Value{};
  }
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  std::string text = ValueText(v);
  // Only text that is a JSON string literal is unquoted; anything else stays as it is.
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return text;
  std::optional<JsonValue> doc = args.ParseText(0, text);
  return doc ? Value{JsonUnquotedText(*doc)} : Value{};
}

Value QuoteValue(EvalCall& call) {
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  return QuoteJsonString(ValueText(v));
}

Value ValidValue(EvalCall& call) {
  JsonArgs args(call);
  const bool json = args.IsJson(0);
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  if (json) return int64_t{1};
  if (!std::holds_alternative<std::string>(v)) return int64_t{0};
  return int64_t{ParseJson(std::get<std::string>(v)).ok() ? 1 : 0};
}

Value TypeValue(EvalCall& call) {
  JsonArgs args(call);
  std::optional<JsonValue> doc = args.Document(0);
  return doc ? Value{std::string(JsonTypeName(*doc))} : Value{};
}

// The value a function measures: the document, or what its optional path (no wildcards)
// selects; none when nothing is selected or something is NULL.
std::optional<JsonValue> Measured(EvalCall& call, JsonArgs& args, JsonAutoWrap auto_wrap) {
  std::optional<JsonValue> doc = args.Document(0);
  if (call.arg_count() < 2) return doc;
  std::optional<JsonPath> path = args.Path(1, /*single=*/true);
  if (!doc || !path) return std::nullopt;
  const JsonValue* found = JsonSeekFirst(*doc, path->legs(), auto_wrap);
  if (found == nullptr) return std::nullopt;
  return *found;
}

Value LengthValue(EvalCall& call) {
  JsonArgs args(call);
  std::optional<JsonValue> v = Measured(call, args, JsonAutoWrap::kYes);
  return v ? Value{static_cast<int64_t>(JsonLength(*v))} : Value{};
}

Value DepthValue(EvalCall& call) {
  JsonArgs args(call);
  std::optional<JsonValue> doc = args.Document(0);
  return doc ? Value{static_cast<int64_t>(JsonDepth(*doc))} : Value{};
}

Value KeysValue(EvalCall& call) {
  JsonArgs args(call);
  std::optional<JsonValue> v = Measured(call, args, JsonAutoWrap::kNo);
  if (!v) return Value{};
  std::optional<JsonValue> keys = JsonKeys(*v);
  return keys ? JsonText(*keys) : Value{};
}

Value ContainsValue(EvalCall& call) {
  JsonArgs args(call);
  std::optional<JsonValue> target = args.Document(0);
  std::optional<JsonValue> candidate = args.Document(1);
  std::optional<JsonPath> path;
  if (call.arg_count() > 2 && !(path = args.Path(2, /*single=*/true))) return Value{};
  if (!target || !candidate) return Value{};
  const JsonValue* within = &*target;
  if (path) within = JsonSeekFirst(*target, path->legs(), JsonAutoWrap::kYes);
  if (within == nullptr) return Value{};
  return int64_t{JsonContains(*within, *candidate) ? 1 : 0};
}

Value ContainsPathValue(EvalCall& call) {
  JsonArgs args(call);
  std::optional<JsonValue> doc = args.Document(0);
  Value mode = call.Arg(1);
  if (IsNull(mode)) return Value{};
  const std::string which = absl::AsciiStrToLower(ValueText(mode));
  if (which != "one" && which != "all") {
    call.engine().SetError({3154, "42000",
                            "The oneOrAll argument to json_contains_path may take these "
                            "values: 'one' or 'all'."});
    return Value{};
  }
  std::optional<std::vector<JsonPath>> paths = args.Paths(2);
  if (!doc || !paths) return Value{};
  const JsonOneOrAll mode_of = which == "one" ? JsonOneOrAll::kOne : JsonOneOrAll::kAll;
  return int64_t{JsonContainsPath(*doc, mode_of, *paths) ? 1 : 0};
}

// ---------------------------------------------------------------------------------------
// Making

Value ObjectValue(EvalCall& call) {
  JsonArgs args(call);
  JsonValue object = JsonValue::EmptyObject();
  for (size_t i = 0; i + 1 < call.arg_count(); i += 2) {
    Value key = call.Arg(i);
    if (IsNull(key)) {
      call.engine().SetError({3158, "22032", "JSON documents may not contain NULL member names."});
      return Value{};
    }
    std::optional<JsonValue> value = args.Member(i + 1);
    if (!value) return Value{};
    object.Put(ValueText(key), *std::move(value));
  }
  return JsonText(object);
}

Value ArrayValue(EvalCall& call) {
  JsonArgs args(call);
  JsonValue::Array elements;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    std::optional<JsonValue> value = args.Member(i);
    if (!value) return Value{};
    elements.push_back(*std::move(value));
  }
  return JsonText(JsonValue::MakeArray(std::move(elements)));
}

// ---------------------------------------------------------------------------------------
// Changing

using Edit = JsonEditStatus (*)(JsonValue*, const JsonPath&, JsonValue);

// JSON_SET and its kin: each path/value pair applied in turn to what the ones before made.
template <Edit kEdit>
Value EditValue(EvalCall& call) {
  JsonArgs args(call);
  std::optional<JsonValue> doc = args.Document(0);
  bool null = !doc;
  for (size_t i = 1; i + 1 < call.arg_count(); i += 2) {
    std::optional<JsonPath> path = args.Path(i);
    if (!path) {
      if (call.engine().failed()) return Value{};
      null = true;
      continue;
    }
    std::optional<JsonValue> value = args.Member(i + 1);
    if (!value) return Value{};
    if (null) continue;
    if (!args.Edited(kEdit(&*doc, *path, *std::move(value)))) return Value{};
  }
  if (null) return Value{};
  return args.Result(*doc);
}

Value RemoveValue(EvalCall& call) {
  JsonArgs args(call);
  std::optional<JsonValue> doc = args.Document(0);
  std::optional<std::vector<JsonPath>> paths = args.Paths(1);
  if (!doc || !paths || !args.Edited(JsonRemove(&*doc, *paths))) return Value{};
  return args.Result(*doc);
}

template <JsonValue (*kMerge)(JsonValue, JsonValue)>
Value MergeValue(EvalCall& call) {
  JsonArgs args(call);
  std::optional<JsonValue> merged;
  bool null = false;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    std::optional<JsonValue> doc = args.Document(i);
    if (call.engine().failed()) return Value{};
    if (!doc) {
      null = true;
      continue;
    }
    merged = merged ? kMerge(*std::move(merged), *std::move(doc)) : *std::move(doc);
  }
  if (null || !merged) return Value{};
  return args.Result(*merged);
}

constexpr BuiltinFunction kJsonFunctions[] = {
    {"JSON_ARRAY", 0, kAnyArgs, NotNullJsonType, ArrayValue},
    {"JSON_ARRAY_APPEND", 3, kAnyArgs, PairsType, EditValue<JsonArrayAppend>},
    {"JSON_ARRAY_INSERT", 3, kAnyArgs, PairsType, EditValue<JsonArrayInsert>},
    {"JSON_CONTAINS", 2, 3, MaybeTruthType, ContainsValue},
    {"JSON_CONTAINS_PATH", 3, kAnyArgs, MaybeTruthType, ContainsPathValue},
    {"JSON_DEPTH", 1, 1, CountType, DepthValue},
    {"JSON_EXTRACT", 2, kAnyArgs, JsonType, ExtractValue},
    {"JSON_INSERT", 3, kAnyArgs, PairsType, EditValue<JsonInsert>},
    {"JSON_KEYS", 1, 2, JsonType, KeysValue},
    {"JSON_LENGTH", 1, 2, CountType, LengthValue},
    {"JSON_MERGE", 2, kAnyArgs, JsonType, MergeValue<JsonMergePreserve>},
    {"JSON_MERGE_PATCH", 2, kAnyArgs, JsonType, MergeValue<JsonMergePatch>},
    {"JSON_MERGE_PRESERVE", 2, kAnyArgs, JsonType, MergeValue<JsonMergePreserve>},
    {"JSON_OBJECT", 0, kAnyArgs, ObjectType, ObjectValue},
    {"JSON_QUOTE", 1, 1, QuoteType, QuoteValue},
    {"JSON_REMOVE", 2, kAnyArgs, JsonType, RemoveValue},
    {"JSON_REPLACE", 3, kAnyArgs, PairsType, EditValue<JsonReplace>},
    {"JSON_SET", 3, kAnyArgs, PairsType, EditValue<JsonSet>},
    {"JSON_TYPE", 1, 1, TypeNameType, TypeValue},
    {"JSON_UNQUOTE", 1, 1, LongTextType, UnquoteValue},
    {"JSON_VALID", 1, 1, TruthType, ValidValue},
};

}  // namespace

absl::Span<const BuiltinFunction> JsonFunctions() { return kJsonFunctions; }

}  // namespace shoal::sql::internal
