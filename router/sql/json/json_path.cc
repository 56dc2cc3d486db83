// See json_path.h. The reader makes MySQL's checks in MySQL's order (json_path.cc's
// parse_path and friends), since the reported position is wherever the reader stands when a
// check fails. Member names go through the JSON string reader, quoted ones as they are and
// bare ones wrapped in quotes, so both decode escapes the same way.
#include "router/sql/json/json_path.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "router/sql/json/json_parse.h"
#include "router/sql/json/json_print.h"
#include "router/sql/json/json_utf8.h"

namespace shoal::sql {
namespace {

// utf8mb4's my_isspace.
bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// MySQL's is_letter and is_digit look a code point up in utf8mb4's one-byte ctype table,
// which sees only its low byte: bytes 0x80..0xFE count as letters there.
bool IsLetter(uint32_t cp) {
  if (cp >= 0x300 && cp <= 0x36F) return false;  // combining marks
  auto b = static_cast<uint8_t>(cp);
  return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= 0x80 && b != 0xFF);
}

bool IsDigitCodePoint(uint32_t cp) {
  auto b = static_cast<uint8_t>(cp);
  return b >= '0' && b <= '9';
}

bool IsConnectorPunctuation(uint32_t cp) {
  switch (cp) {
    case 0x5F:
    case 0x203F:
    case 0x2040:
    case 0x2054:
    case 0xFE33:
    case 0xFE34:
    case 0xFE4D:
    case 0xFE4E:
    case 0xFE4F:
    case 0xFF3F:
      return true;
    default:
      return false;
  }
}

// ECMAScript 5's IdentifierName, as MySQL checks it (is_ecmascript_identifier).
bool IsIdentifier(absl::string_view name) {
  if (name.empty()) return false;
  bool first = true;
  while (!name.empty()) {
    uint32_t cp;
    size_t n = internal::DecodeUtf8(name, &cp);
    if (n == 0) return false;
    name.remove_prefix(n);
    bool ok = IsLetter(cp) || cp == '$' || cp == '_';
    if (!ok && !first) {
      ok = (cp >= 0x300 && cp <= 0x36F) || IsDigitCodePoint(cp) || IsConnectorPunctuation(cp) ||
           cp == 0x200C || cp == 0x200D;
    }
    if (!ok) return false;
    first = false;
  }
  return true;
}

void AppendIndex(const JsonArrayIndex& index, std::string* out) {
  if (!index.from_end) {
    absl::StrAppend(out, index.index);
  } else if (index.index == 0) {
    out->append("last");
  } else {
    absl::StrAppend(out, "last-", index.index);
  }
}

class PathReader {
 public:
  explicit PathReader(absl::string_view text) : text_(text) {}

  JsonPathParseResult Run() {
    JsonPathParseResult result;
    std::vector<JsonPathLeg> legs;
    bool ok = Parse(&legs);
    if (ok) {
      result.path = JsonPath(std::move(legs));
    } else {
      result.error_position = pos_;
    }
    return result;
  }

 private:
  bool Exhausted() const { return pos_ >= text_.size(); }
  size_t Remaining() const { return text_.size() - pos_; }
  char Peek() const { return text_[pos_]; }
  char Read() { return text_[pos_++]; }
  void SkipSpace() {
    while (!Exhausted() && IsSpace(Peek())) ++pos_;
  }

  bool Parse(std::vector<JsonPathLeg>* legs) {
    SkipSpace();
    if (Exhausted() || Read() != '$') return false;
    SkipSpace();
    while (!Exhausted()) {
      if (!ParseLeg(legs)) return false;
      SkipSpace();
    }
    return legs->empty() || legs->back().type != JsonPathLegType::kEllipsis;
  }

  bool ParseLeg(std::vector<JsonPathLeg>* legs) {
    switch (Peek()) {
      case '[':
        return ParseArrayLeg(legs);
      case '.':
        return ParseMemberLeg(legs);
      case '*':
        return ParseEllipsis(legs);
      default:
        return false;
    }
  }

  bool ParseEllipsis(std::vector<JsonPathLeg>* legs) {
    ++pos_;
    if (Exhausted() || Read() != '*') return false;
    if (Exhausted() || Peek() == '*') return false;  // not last, and no "***"
    legs->push_back(JsonPathLeg::Of(JsonPathLegType::kEllipsis));
    return true;
  }

  bool ParseIndex(JsonArrayIndex* index) {
    *index = JsonArrayIndex{};
    if (text_.substr(pos_, 4) == "last") {
      pos_ += 4;
      index->from_end = true;
      SkipSpace();
      if (Exhausted() || Peek() != '-') return true;
      ++pos_;
      SkipSpace();
    }
    if (Exhausted() || Peek() < '0' || Peek() > '9') return false;
    uint64_t value = 0;
    size_t end = pos_;
    for (; end < text_.size() && text_[end] >= '0' && text_[end] <= '9'; ++end) {
      value = value * 10 + static_cast<uint64_t>(text_[end] - '0');
      if (value > std::numeric_limits<uint32_t>::max()) return false;  // stays before the digits
    }
    pos_ = end;
    index->index = static_cast<uint32_t>(value);
    return true;
  }

  bool ParseArrayLeg(std::vector<JsonPathLeg>* legs) {
    ++pos_;
    SkipSpace();
    if (Exhausted()) return false;
    if (Peek() == '*') {
      ++pos_;
      legs->push_back(JsonPathLeg::Of(JsonPathLegType::kArrayWildcard));
    } else {
      JsonArrayIndex first;
      if (!ParseIndex(&first)) return false;
      SkipSpace();
      if (Exhausted()) return false;
      // "to" only counts with whitespace on both sides and something after it.
      if (Remaining() > 3 && IsSpace(text_[pos_ - 1]) && text_[pos_] == 't' &&
          text_[pos_ + 1] == 'o' && IsSpace(text_[pos_ + 2])) {
        pos_ += 3;
        SkipSpace();
        JsonArrayIndex last;
        if (!ParseIndex(&last)) return false;
        if (first.from_end == last.from_end &&
            (first.from_end ? first.index < last.index : last.index < first.index)) {
          return false;
        }
        legs->push_back(JsonPathLeg::Range(first, last));
      } else {
        legs->push_back(JsonPathLeg::Cell(first));
      }
    }
    SkipSpace();
    return !Exhausted() && Read() == ']';
  }

  // Where a member name starting at pos_ ends: after the closing quote of a quoted name (or
  // at the end when it has none: the string reader then reports it), else at whitespace,
  // '[', '.', '*' or the end.
  size_t EndOfMemberName() const {
    size_t i = pos_;
    if (text_[i] == '"') {
      ++i;
      while (i < text_.size()) {
        char c = text_[i++];
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          return i;
        }
      }
      return text_.size();
    }
    while (i < text_.size() && !IsSpace(text_[i]) && text_[i] != '[' && text_[i] != '.' &&
           text_[i] != '*') {
      ++i;
    }
    return i;
  }

  bool ParseMemberLeg(std::vector<JsonPathLeg>* legs) {
    ++pos_;
    SkipSpace();
    if (Exhausted()) return false;
    if (Peek() == '*') {
      ++pos_;
      legs->push_back(JsonPathLeg::Of(JsonPathLegType::kMemberWildcard));
      return true;
    }
    size_t start = pos_;
    size_t end = EndOfMemberName();
    pos_ = end;
    absl::string_view raw = text_.substr(start, end - start);
    bool quoted = !raw.empty() && raw[0] == '"';
    JsonParseResult name = ParseJson(quoted ? std::string(raw) : absl::StrCat("\"", raw, "\""));
    if (!name.ok() || !name.value.is_string()) return false;
    if (!quoted && !IsIdentifier(name.value.string())) return false;
    legs->push_back(JsonPathLeg::Member(name.value.string()));
    return true;
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

size_t JsonArrayIndex::Position(size_t size) const {
  if (from_end) return index < size ? size - 1 - index : 0;
  return std::min<size_t>(index, size);
}

JsonPathLeg JsonPathLeg::Member(std::string name) {
  JsonPathLeg leg;
  leg.type = JsonPathLegType::kMember;
  leg.member = std::move(name);
  return leg;
}

JsonPathLeg JsonPathLeg::Cell(JsonArrayIndex index) {
  JsonPathLeg leg;
  leg.type = JsonPathLegType::kArrayCell;
  leg.first = index;
  return leg;
}

JsonPathLeg JsonPathLeg::Range(JsonArrayIndex first, JsonArrayIndex last) {
  JsonPathLeg leg;
  leg.type = JsonPathLegType::kArrayRange;
  leg.first = first;
  leg.last = last;
  return leg;
}

JsonPathLeg JsonPathLeg::Of(JsonPathLegType type) {
  JsonPathLeg leg;
  leg.type = type;
  return leg;
}

std::pair<size_t, size_t> JsonPathLeg::Positions(size_t size) const {
  if (type == JsonPathLegType::kArrayWildcard) return {0, size};
  size_t begin = first.Position(size);
  size_t end = last.Within(size) ? last.Position(size) + 1 : last.Position(size);
  return {begin, std::max(begin, end)};
}

bool JsonPathLeg::IsAutoWrap() const {
  switch (type) {
    case JsonPathLegType::kArrayCell:
      return first.Within(1);
    case JsonPathLegType::kArrayRange: {
      auto [begin, end] = Positions(1);
      return begin < end;
    }
    default:
      return false;
  }
}

bool operator==(const JsonPathLeg& a, const JsonPathLeg& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case JsonPathLegType::kMember:
      return a.member == b.member;
    case JsonPathLegType::kArrayCell:
      return a.first == b.first;
    case JsonPathLegType::kArrayRange:
      return a.first == b.first && a.last == b.last;
    default:
      return true;
  }
}

bool JsonPath::CanMatchMany() const {
  return std::any_of(legs_.begin(), legs_.end(), [](const JsonPathLeg& leg) {
    return leg.type != JsonPathLegType::kMember && leg.type != JsonPathLegType::kArrayCell;
  });
}

std::string JsonPath::ToString() const {
  std::string out = "$";
  for (const JsonPathLeg& leg : legs_) {
    switch (leg.type) {
      case JsonPathLegType::kMember:
        out.push_back('.');
        if (IsIdentifier(leg.member)) {
          out.append(leg.member);
        } else {
          AppendQuotedJsonString(leg.member, &out);
        }
        break;
      case JsonPathLegType::kMemberWildcard:
        out.append(".*");
        break;
      case JsonPathLegType::kArrayCell:
        out.push_back('[');
        AppendIndex(leg.first, &out);
        out.push_back(']');
        break;
      case JsonPathLegType::kArrayRange:
        out.push_back('[');
        AppendIndex(leg.first, &out);
        out.append(" to ");
        AppendIndex(leg.last, &out);
        out.push_back(']');
        break;
      case JsonPathLegType::kArrayWildcard:
        out.append("[*]");
        break;
      case JsonPathLegType::kEllipsis:
        out.append("**");
        break;
    }
  }
  return out;
}

JsonPathParseResult ParseJsonPath(absl::string_view text) { return PathReader(text).Run(); }

}  // namespace shoal::sql
