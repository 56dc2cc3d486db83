// See json_value.h. Numbers of different types compare exactly, as MySQL does by going
// through DECIMAL when two of them are equal as doubles: 9007199254740993 != 9007199254740992.0.
#include "router/sql/json/json_value.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

namespace shoal::sql {
namespace {

template <typename T>
int Sign(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Exactly 2^63 and 2^64 as doubles: the first doubles outside int64 and uint64.
constexpr double kTwoTo63 = 9223372036854775808.0;
constexpr double kTwoTo64 = 18446744073709551616.0;

int CompareDoubleInt(double d, int64_t i) {
  if (d < -kTwoTo63) return -1;
  if (d >= kTwoTo63) return 1;
  // Within int64's range, the integral part converts exactly.
  double whole = std::trunc(d);
  int64_t w = static_cast<int64_t>(whole);
  if (w != i) return w < i ? -1 : 1;
  return Sign(d, whole);
}

int CompareDoubleUint(double d, uint64_t u) {
  if (d < 0) return -1;
  if (d >= kTwoTo64) return 1;
  double whole = std::trunc(d);
  uint64_t w = static_cast<uint64_t>(whole);
  if (w != u) return w < u ? -1 : 1;
  return Sign(d, whole);
}

int CompareIntUint(int64_t i, uint64_t u) {
  if (i < 0) return -1;
  return Sign(static_cast<uint64_t>(i), u);
}

int CompareNumbers(const JsonValue& a, const JsonValue& b) {
  switch (a.type()) {
    case JsonType::kInteger:
      switch (b.type()) {
        case JsonType::kInteger:
          return Sign(a.integer(), b.integer());
        case JsonType::kUnsigned:
          return CompareIntUint(a.integer(), b.unsigned_integer());
        default:
          return -CompareDoubleInt(b.dbl(), a.integer());
      }
    case JsonType::kUnsigned:
      switch (b.type()) {
        case JsonType::kInteger:
          return -CompareIntUint(b.integer(), a.unsigned_integer());
        case JsonType::kUnsigned:
          return Sign(a.unsigned_integer(), b.unsigned_integer());
        default:
          return -CompareDoubleUint(b.dbl(), a.unsigned_integer());
      }
    default:
      switch (b.type()) {
        case JsonType::kInteger:
          return CompareDoubleInt(a.dbl(), b.integer());
        case JsonType::kUnsigned:
          return CompareDoubleUint(a.dbl(), b.unsigned_integer());
        default:
          return Sign(a.dbl(), b.dbl());  // -0.0 == 0.0
      }
  }
}

// The rank of a type in MySQL's cross-type order; numbers share one.
int TypeRank(JsonType t) {
  switch (t) {
    case JsonType::kNull:
      return 0;
    case JsonType::kInteger:
    case JsonType::kUnsigned:
    case JsonType::kDouble:
      return 1;
    case JsonType::kString:
      return 2;
    case JsonType::kObject:
      return 3;
    case JsonType::kArray:
      return 4;
    case JsonType::kBoolean:
      return 5;
  }
  return 6;
}

int CompareStrings(absl::string_view a, absl::string_view b) {
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

JsonValue::Object::const_iterator LowerBound(const JsonValue::Object& members,
                                             absl::string_view key) {
  return std::lower_bound(
      members.begin(), members.end(), key,
      [](const JsonMember& m, absl::string_view k) { return JsonKeyLess(m.key, k); });
}

}  // namespace

JsonValue JsonValue::Double(double d) {
  assert(std::isfinite(d));
  return JsonValue(Rep(std::in_place_index<4>, d));
}

JsonValue JsonValue::EmptyObject() { return JsonValue(Rep(std::in_place_index<7>)); }

JsonValue JsonValue::MakeObject(std::vector<JsonMember> members) {
  // Sorting beats inserting one by one for the large objects JSON text may hold.
  std::stable_sort(members.begin(), members.end(), [](const JsonMember& a, const JsonMember& b) {
    return JsonKeyLess(a.key, b.key);
  });
  Object unique;
  unique.reserve(members.size());
  for (JsonMember& m : members) {
    if (!unique.empty() && unique.back().key == m.key) {
      unique.back().value = std::move(m.value);
    } else {
      unique.push_back(std::move(m));
    }
  }
  return JsonValue(Rep(std::in_place_index<7>, std::move(unique)));
}

const JsonValue* JsonValue::Find(absl::string_view key) const {
  const Object& m = members();
  auto it = LowerBound(m, key);
  return it != m.end() && it->key == key ? &it->value : nullptr;
}

JsonValue* JsonValue::Find(absl::string_view key) {
  return const_cast<JsonValue*>(static_cast<const JsonValue*>(this)->Find(key));
}

void JsonValue::Put(std::string key, JsonValue value) {
  Object& m = mutable_members();
  auto it = m.begin() + (LowerBound(m, key) - m.begin());
  if (it != m.end() && it->key == key) {
    it->value = std::move(value);
    return;
  }
  m.insert(it, JsonMember{std::move(key), std::move(value)});
}

bool JsonValue::Erase(absl::string_view key) {
  Object& m = mutable_members();
  auto it = m.begin() + (LowerBound(m, key) - m.begin());
  if (it == m.end() || it->key != key) return false;
  m.erase(it);
  return true;
}

JsonValue::Object JsonValue::TakeMembers() { return std::exchange(mutable_members(), {}); }

bool JsonKeyLess(absl::string_view a, absl::string_view b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a.compare(b) < 0;
}

int JsonCompare(const JsonValue& a, const JsonValue& b) {
  int ra = TypeRank(a.type());
  int rb = TypeRank(b.type());
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (a.type()) {
    case JsonType::kNull:
      return 0;
    case JsonType::kBoolean:
      return Sign(a.boolean(), b.boolean());
    case JsonType::kInteger:
    case JsonType::kUnsigned:
    case JsonType::kDouble:
      return CompareNumbers(a, b);
    case JsonType::kString:
      return CompareStrings(a.string(), b.string());
    case JsonType::kArray: {
      const JsonValue::Array& x = a.array();
      const JsonValue::Array& y = b.array();
      size_t n = std::min(x.size(), y.size());
      for (size_t i = 0; i < n; ++i) {
        if (int c = JsonCompare(x[i], y[i]); c != 0) return c;
      }
      return Sign(x.size(), y.size());
    }
    case JsonType::kObject: {
      const JsonValue::Object& x = a.members();
      const JsonValue::Object& y = b.members();
      if (x.size() != y.size()) return Sign(x.size(), y.size());
      for (size_t i = 0; i < x.size(); ++i) {
        // Members pair up in stored order; each pair of keys compares bytewise.
        if (int c = CompareStrings(x[i].key, y[i].key); c != 0) return c;
        if (int c = JsonCompare(x[i].value, y[i].value); c != 0) return c;
      }
      return 0;
    }
  }
  return 0;
}

absl::string_view JsonTypeName(const JsonValue& v) {
  switch (v.type()) {
    case JsonType::kNull:
      return "NULL";
    case JsonType::kBoolean:
      return "BOOLEAN";
    case JsonType::kInteger:
      return "INTEGER";
    case JsonType::kUnsigned:
      return "UNSIGNED INTEGER";
    case JsonType::kDouble:
      return "DOUBLE";
    case JsonType::kString:
      return "STRING";
    case JsonType::kArray:
      return "ARRAY";
    case JsonType::kObject:
      return "OBJECT";
  }
  return "NULL";
}

size_t JsonLength(const JsonValue& v) {
  if (v.is_array()) return v.array().size();
  if (v.is_object()) return v.members().size();
  return 1;
}

int JsonDepth(const JsonValue& v) {
  int deepest = 0;
  if (v.is_array()) {
    for (const JsonValue& e : v.array()) deepest = std::max(deepest, JsonDepth(e));
  } else if (v.is_object()) {
    for (const JsonMember& m : v.members()) deepest = std::max(deepest, JsonDepth(m.value));
  }
  return 1 + deepest;
}

std::optional<JsonValue> JsonKeys(const JsonValue& v) {
  if (!v.is_object()) return std::nullopt;
  JsonValue::Array keys;
  keys.reserve(v.members().size());
  for (const JsonMember& m : v.members()) keys.push_back(JsonValue::String(m.key));
  return JsonValue::MakeArray(std::move(keys));
}

}  // namespace shoal::sql
