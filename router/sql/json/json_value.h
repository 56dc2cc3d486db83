// The JSON DOM as MySQL 8.0 holds a JSON value: null, true/false, INTEGER (int64), UNSIGNED
// INTEGER (uint64), DOUBLE, STRING, ARRAY and OBJECT. An object keeps its keys unique and in
// the order MySQL stores (and so prints) them: shorter keys first, keys of equal length
// bytewise, so {"b": 1, "a": 2, "aa": 3} is {"a": 2, "b": 1, "aa": 3}. Values copy deeply.
//
// MySQL's other JSON scalars (DECIMAL, DATE, TIME, DATETIME, opaque/BLOB) are not modelled:
// nothing in JSON text produces them.
//
// A value is a plain value type: no sharing, not thread-safe, usable from any one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"

namespace shoal::sql {

// MySQL's JSON_DOCUMENT_MAX_DEPTH: deeper documents fail with 3157 (ER_JSON_DOCUMENT_TOO_DEEP).
inline constexpr int kJsonMaxDepth = 100;

// In MySQL's comparison order of types (NULL < numbers < STRING < OBJECT < ARRAY < BOOLEAN)
// except that the numeric types share one rank; see JsonCompare.
enum class JsonType : uint8_t {
  kNull,
  kBoolean,
  kInteger,
  kUnsigned,
  kDouble,
  kString,
  kArray,
  kObject,
};

struct JsonMember;

class JsonValue {
 public:
  using Array = std::vector<JsonValue>;
  // Sorted by JsonKeyLess, keys unique; kept so by the member functions below.
  using Object = std::vector<JsonMember>;

  JsonValue() = default;  // null
  // The factories are defined below JsonMember: making a JsonValue instantiates Object's
  // members, which need JsonMember complete.
  static JsonValue Null();
  static JsonValue Boolean(bool b);
  static JsonValue Integer(int64_t i);
  static JsonValue Unsigned(uint64_t u);
  // REQUIRES: `d` is finite (MySQL has no NaN or infinity in JSON).
  static JsonValue Double(double d);
  static JsonValue String(std::string s);
  static JsonValue MakeArray(Array elements);
  static JsonValue EmptyObject();
  // Members in any order; of duplicate keys the last wins (as in Put).
  static JsonValue MakeObject(std::vector<JsonMember> members);

  JsonType type() const { return static_cast<JsonType>(rep_.index()); }
  bool is_null() const { return type() == JsonType::kNull; }
  bool is_string() const { return type() == JsonType::kString; }
  bool is_array() const { return type() == JsonType::kArray; }
  bool is_object() const { return type() == JsonType::kObject; }
  bool is_number() const {
    return type() == JsonType::kInteger || type() == JsonType::kUnsigned ||
           type() == JsonType::kDouble;
  }

  // Accessors. REQUIRES: the value has the accessor's type.
  bool boolean() const { return std::get<1>(rep_); }
  int64_t integer() const { return std::get<2>(rep_); }
  uint64_t unsigned_integer() const { return std::get<3>(rep_); }
  double dbl() const { return std::get<4>(rep_); }
  const std::string& string() const { return std::get<5>(rep_); }
  const Array& array() const { return std::get<6>(rep_); }
  Array& array() { return std::get<6>(rep_); }
  const Object& members() const { return std::get<7>(rep_); }

  // Object members. REQUIRES: is_object().
  const JsonValue* Find(absl::string_view key) const;
  JsonValue* Find(absl::string_view key);
  // Adds the member, or replaces the value of an existing key: as MySQL since 8.0.3, the
  // last of duplicate keys wins.
  void Put(std::string key, JsonValue value);
  // False when there was no such key.
  bool Erase(absl::string_view key);
  // The members, moved out; leaves an empty object.
  Object TakeMembers();

 private:
  using Rep =
      std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string, Array, Object>;
  explicit JsonValue(Rep rep);

  Object& mutable_members() { return std::get<7>(rep_); }

  Rep rep_;
};

struct JsonMember {
  std::string key;
  JsonValue value;
};

inline JsonValue::JsonValue(Rep rep) : rep_(std::move(rep)) {}
inline JsonValue JsonValue::Null() { return JsonValue(); }
inline JsonValue JsonValue::Boolean(bool b) { return JsonValue(Rep(std::in_place_index<1>, b)); }
inline JsonValue JsonValue::Integer(int64_t i) { return JsonValue(Rep(std::in_place_index<2>, i)); }
inline JsonValue JsonValue::Unsigned(uint64_t u) {
  return JsonValue(Rep(std::in_place_index<3>, u));
}
inline JsonValue JsonValue::String(std::string s) {
  return JsonValue(Rep(std::in_place_index<5>, std::move(s)));
}
inline JsonValue JsonValue::MakeArray(Array elements) {
  return JsonValue(Rep(std::in_place_index<6>, std::move(elements)));
}

// MySQL's key order in an object: by length, then bytewise.
bool JsonKeyLess(absl::string_view a, absl::string_view b);

// MySQL's JSON comparison (Json_wrapper::compare): <0, 0 or >0. Values of different types
// order NULL < numbers < STRING < OBJECT < ARRAY < BOOLEAN. Numbers compare by exact numeric
// value whatever their type (1 = 1.0, -0.0 = 0); strings bytewise; arrays element by element,
// then by length; objects by member count, then key by key and value by value in stored key
// order; false < true.
int JsonCompare(const JsonValue& a, const JsonValue& b);
inline bool operator==(const JsonValue& a, const JsonValue& b) { return JsonCompare(a, b) == 0; }
inline bool operator!=(const JsonValue& a, const JsonValue& b) { return JsonCompare(a, b) != 0; }

// JSON_TYPE: "OBJECT", "ARRAY", "STRING", "INTEGER", "UNSIGNED INTEGER", "DOUBLE", "BOOLEAN"
// or "NULL".
absl::string_view JsonTypeName(const JsonValue& v);
// JSON_LENGTH: elements of an array, members of an object, 1 for a scalar.
size_t JsonLength(const JsonValue& v);
// JSON_DEPTH: 1 for a scalar or an empty array or object, else 1 + the deepest child.
int JsonDepth(const JsonValue& v);
// JSON_KEYS: the keys of an object, in stored order, as an array of strings; none for any
// other value (SQL NULL).
std::optional<JsonValue> JsonKeys(const JsonValue& v);

}  // namespace shoal::sql
