// See json_parse.h. The reader follows rapidjson's recursive-descent order of checks, so the
// same error is found at the same offset: a stream whose Peek and Take give NUL at the end
// (without moving), literals matched one byte at a time, and numbers classified by rapidjson's
// own digit counters, which also decide when an exponent is "too big" (0e999 is).
#include "router/sql/json/json_parse.h"

#include <charconv>
#include <cmath>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "router/sql/json/json_utf8.h"

namespace shoal::sql {
namespace {

using Code = JsonParseErrorCode;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// rapidjson's MemoryStream: reading past the end gives NUL and stays at the end.
class Stream {
 public:
  explicit Stream(absl::string_view text) : text_(text) {}

  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  char Take() { return pos_ < text_.size() ? text_[pos_++] : '\0'; }
  bool Consume(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  size_t Tell() const { return pos_; }
  absl::string_view Rest() const { return text_.substr(pos_); }
  absl::string_view Since(size_t start) const { return text_.substr(start, pos_ - start); }
  void Skip(size_t n) { pos_ += n; }

 private:
  absl::string_view text_;
  size_t pos_ = 0;
};

// Whether a decimal number whose from_chars conversion is out of range is too large rather
// than too small: whether its decimal exponent, written d.ddd x 10^e, is positive.
bool Overflows(absl::string_view number) {
  size_t i = number[0] == '-' ? 1 : 0;
  int64_t e = 0;
  bool seen = false;  // a nonzero digit
  bool fraction = false;
  for (; i < number.size() && number[i] != 'e' && number[i] != 'E'; ++i) {
    if (number[i] == '.') {
      fraction = true;
    } else if (!seen) {
      if (fraction) --e;
      seen = number[i] != '0';
    } else if (!fraction) {
      ++e;
    }
  }
  if (i < number.size()) {
    ++i;
    bool neg = false;
    if (number[i] == '+' || number[i] == '-') neg = number[i++] == '-';
    int64_t exp = 0;
    for (; i < number.size() && exp < (int64_t{1} << 40); ++i) exp = exp * 10 + (number[i] - '0');
    e += neg ? -exp : exp;
  }
  return seen && e > 0;
}

class Reader {
 public:
  explicit Reader(absl::string_view text) : in_(text) {}

  JsonParseResult Run() {
    JsonParseResult result;
    SkipWhitespace();
    if (in_.Peek() == '\0') {
      Fail(Code::kDocumentEmpty, in_.Tell());
    } else if (ParseValue(&result.value, 0)) {
      SkipWhitespace();
      if (in_.Peek() != '\0') Fail(Code::kDocumentRootNotSingular, in_.Tell());
    }
    if (failed_) result.error = error_;
    return result;
  }

 private:
  bool Fail(Code code, size_t offset) {
    failed_ = true;
    error_.code = code;
    error_.offset = offset;
    return false;
  }

  void SkipWhitespace() {
    for (char c = in_.Peek(); c == ' ' || c == '\n' || c == '\r' || c == '\t'; c = in_.Peek()) {
      in_.Take();
    }
  }

  // `depth`: arrays and objects around the value.
  bool ParseValue(JsonValue* out, int depth) {
    switch (in_.Peek()) {
      case 'n':
        return ParseLiteral("null", JsonValue::Null(), out);
      case 't':
        return ParseLiteral("true", JsonValue::Boolean(true), out);
      case 'f':
        return ParseLiteral("false", JsonValue::Boolean(false), out);
      case '"': {
        std::string s;
        if (!ParseString(&s)) return false;
        *out = JsonValue::String(std::move(s));
        return true;
      }
      case '[':
        return ParseArray(out, depth);
      case '{':
        return ParseObject(out, depth);
      default:
        return ParseNumber(out);
    }
  }

  bool ParseLiteral(absl::string_view word, JsonValue value, JsonValue* out) {
    in_.Take();
    for (char c : word.substr(1)) {
      if (!in_.Consume(c)) return Fail(Code::kValueInvalid, in_.Tell());
    }
    *out = std::move(value);
    return true;
  }

  bool EnterContainer(int depth) {
    size_t at = in_.Tell();
    in_.Take();
    if (depth + 1 > kJsonMaxDepth) return Fail(Code::kTooDeep, at);
    SkipWhitespace();
    return true;
  }

  bool ParseArray(JsonValue* out, int depth) {
    if (!EnterContainer(depth)) return false;
    JsonValue::Array elements;
    if (!in_.Consume(']')) {
      for (;;) {
        JsonValue element;
        if (!ParseValue(&element, depth + 1)) return false;
        elements.push_back(std::move(element));
        SkipWhitespace();
        if (in_.Consume(',')) {
          SkipWhitespace();
        } else if (in_.Consume(']')) {
          break;
        } else {
          return Fail(Code::kArrayMissCommaOrSquareBracket, in_.Tell());
        }
      }
    }
    *out = JsonValue::MakeArray(std::move(elements));
    return true;
  }

  bool ParseObject(JsonValue* out, int depth) {
    if (!EnterContainer(depth)) return false;
    std::vector<JsonMember> members;
    if (!in_.Consume('}')) {
      for (;;) {
        if (in_.Peek() != '"') return Fail(Code::kObjectMissName, in_.Tell());
        JsonMember member;
        if (!ParseString(&member.key)) return false;
        SkipWhitespace();
        if (!in_.Consume(':')) return Fail(Code::kObjectMissColon, in_.Tell());
        SkipWhitespace();
        if (!ParseValue(&member.value, depth + 1)) return false;
        members.push_back(std::move(member));
        SkipWhitespace();
        if (in_.Consume(',')) {
          SkipWhitespace();
        } else if (in_.Consume('}')) {
          break;
        } else {
          return Fail(Code::kObjectMissCommaOrCurlyBracket, in_.Tell());
        }
      }
    }
    *out = JsonValue::MakeObject(std::move(members));
    return true;
  }

  bool ParseHex4(size_t escape_offset, uint32_t* codepoint) {
    *codepoint = 0;
    for (int i = 0; i < 4; ++i) {
      int h = HexValue(in_.Peek());
      if (h < 0) return Fail(Code::kStringUnicodeEscapeInvalidHex, escape_offset);
      in_.Take();
      *codepoint = (*codepoint << 4) | static_cast<uint32_t>(h);
    }
    return true;
  }

  // After a backslash at `escape_offset`.
  bool ParseEscape(size_t escape_offset, std::string* out) {
    char e = in_.Peek();
    char decoded = 0;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        decoded = e;
        break;
      case 'b':
        decoded = '\b';
        break;
      case 'f':
        decoded = '\f';
        break;
      case 'n':
        decoded = '\n';
        break;
      case 'r':
        decoded = '\r';
        break;
      case 't':
        decoded = '\t';
        break;
      case 'u':
        break;
      default:
        return Fail(Code::kStringEscapeInvalid, escape_offset);
    }
    in_.Take();
    if (e != 'u') {
      out->push_back(decoded);
      return true;
    }
    uint32_t cp;
    if (!ParseHex4(escape_offset, &cp)) return false;
    if (cp >= 0xD800 && cp <= 0xDFFF) {
      // Only a high surrogate followed by a \u low surrogate makes a character.
      if (cp > 0xDBFF || !in_.Consume('\\') || !in_.Consume('u')) {
        return Fail(Code::kStringUnicodeSurrogateInvalid, escape_offset);
      }
      uint32_t low;
      if (!ParseHex4(escape_offset, &low)) return false;
      if (low < 0xDC00 || low > 0xDFFF) {
        return Fail(Code::kStringUnicodeSurrogateInvalid, escape_offset);
      }
      cp = (((cp - 0xD800) << 10) | (low - 0xDC00)) + 0x10000;
    }
    internal::AppendUtf8(cp, out);
    return true;
  }

  bool ParseString(std::string* out) {
    in_.Take();  // the opening quote
    for (;;) {
      absl::string_view rest = in_.Rest();
      size_t plain = 0;  // bytes that need no attention: ASCII but quote, backslash, controls
      while (plain < rest.size() && rest[plain] >= 0x20 && rest[plain] != '"' &&
             rest[plain] != '\\') {
        ++plain;
      }
      out->append(rest.data(), plain);
      in_.Skip(plain);
      char c = in_.Peek();
      size_t at = in_.Tell();
      if (c == '"') {
        in_.Take();
        return true;
      }
      if (c == '\\') {
        in_.Take();
        if (!ParseEscape(at, out)) return false;
        continue;
      }
      if (c == '\0') return Fail(Code::kStringMissQuotationMark, at);
      if (static_cast<uint8_t>(c) < 0x20) return Fail(Code::kStringInvalidEncoding, at);
      uint32_t cp;
      size_t n = internal::DecodeUtf8(in_.Rest(), &cp);
      if (n == 0) return Fail(Code::kStringInvalidEncoding, at);
      out->append(in_.Rest().data(), n);
      in_.Skip(n);
    }
  }

  bool ParseNumber(JsonValue* out);

  Stream in_;
  bool failed_ = false;
  JsonParseError error_;
};

// rapidjson's ParseNumber, step for step as far as classification and errors go; the double
// itself comes from std::from_chars, correctly rounded.
bool Reader::ParseNumber(JsonValue* out) {
  const size_t start = in_.Tell();
  const bool minus = in_.Consume('-');
  uint32_t i = 0;
  uint64_t i64 = 0;
  bool use64 = false;
  bool use_double = false;
  int significant = 0;  // rapidjson's significandDigit
  if (in_.Peek() == '0') {
    in_.Take();
  } else if (in_.Peek() >= '1' && in_.Peek() <= '9') {
    i = static_cast<uint32_t>(in_.Take() - '0');
    const uint32_t limit = minus ? 214748364 : 429496729;  // 2^31 / 10, (2^32 - 1) / 10
    const char last = minus ? '8' : '5';
    while (IsDigit(in_.Peek())) {
      if (i >= limit && (i != limit || in_.Peek() > last)) {
        i64 = i;
        use64 = true;
        break;
      }
      i = i * 10 + static_cast<uint32_t>(in_.Take() - '0');
      ++significant;
    }
  } else {
    return Fail(Code::kValueInvalid, in_.Tell());
  }
  if (use64) {
    const uint64_t limit = minus ? 0x0CCCCCCCCCCCCCCC : 0x1999999999999999;  // 2^63/10, 2^64/10
    const char last = minus ? '8' : '5';
    while (IsDigit(in_.Peek())) {
      if (i64 >= limit && (i64 != limit || in_.Peek() > last)) {
        use_double = true;
        break;
      }
      i64 = i64 * 10 + static_cast<uint64_t>(in_.Take() - '0');
      ++significant;
    }
  }
  while (use_double && IsDigit(in_.Peek())) in_.Take();

  int64_t exp_frac = 0;  // fraction digits that went into rapidjson's significand, negated
  if (in_.Consume('.')) {
    if (!IsDigit(in_.Peek())) return Fail(Code::kNumberMissFraction, in_.Tell());
    bool nonzero = use_double;
    if (!use_double) {
      if (!use64) i64 = i;
      while (IsDigit(in_.Peek()) && i64 <= 0x1FFFFFFFFFFFFF) {  // 2^53 - 1
        i64 = i64 * 10 + static_cast<uint64_t>(in_.Take() - '0');
        --exp_frac;
        if (i64 != 0) ++significant;
      }
      nonzero = i64 != 0;
      use_double = true;
    }
    while (IsDigit(in_.Peek())) {
      char c = in_.Take();
      if (significant < 17) {
        --exp_frac;
        nonzero = nonzero || c != '0';
        if (nonzero) ++significant;
      }
    }
  }

  if (in_.Consume('e') || in_.Consume('E')) {
    use_double = true;
    bool exp_minus = false;
    if (!in_.Consume('+')) exp_minus = in_.Consume('-');
    if (!IsDigit(in_.Peek())) return Fail(Code::kNumberMissExponent, in_.Tell());
    int64_t exp = in_.Take() - '0';
    if (exp_minus) {
      const int64_t max_exp = (exp_frac + 2147483639) / 10;
      while (IsDigit(in_.Peek())) {
        exp = exp * 10 + (in_.Take() - '0');
        if (exp > max_exp) {
          while (IsDigit(in_.Peek())) in_.Take();
        }
      }
    } else {
      const int64_t max_exp = 308 - exp_frac;
      while (IsDigit(in_.Peek())) {
        exp = exp * 10 + (in_.Take() - '0');
        if (exp > max_exp) return Fail(Code::kNumberTooBig, start);
      }
    }
  }

  if (!use_double) {
    if (!use64) {
      *out = JsonValue::Integer(minus ? -static_cast<int64_t>(i) : static_cast<int64_t>(i));
    } else if (minus) {
      *out = JsonValue::Integer(static_cast<int64_t>(~i64 + 1));
    } else {
      *out = JsonValue::Unsigned(i64);
    }
    return true;
  }
  absl::string_view text = in_.Since(start);
  double d = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
  if (ec == std::errc::result_out_of_range) {
    if (Overflows(text)) return Fail(Code::kNumberTooBig, start);
    d = minus ? -0.0 : 0.0;
  } else if (ec != std::errc() || end != text.data() + text.size()) {
    return Fail(Code::kValueInvalid, start);  // not reached: the text is a valid number
  }
  if (!std::isfinite(d)) return Fail(Code::kNumberTooBig, start);
  *out = JsonValue::Double(d);
  return true;
}

}  // namespace

absl::string_view JsonParseError::reason() const {
  switch (code) {
    case Code::kDocumentEmpty:
      return "The document is empty.";
    case Code::kDocumentRootNotSingular:
      return "The document root must not be followed by other values.";
    case Code::kValueInvalid:
      return "Invalid value.";
    case Code::kObjectMissName:
      return "Missing a name for object member.";
    case Code::kObjectMissColon:
      return "Missing a colon after a name of object member.";
    case Code::kObjectMissCommaOrCurlyBracket:
      return "Missing a comma or '}' after an object member.";
    case Code::kArrayMissCommaOrSquareBracket:
      return "Missing a comma or ']' after an array element.";
    case Code::kStringUnicodeEscapeInvalidHex:
      return "Incorrect hex digit after \\u escape in string.";
    case Code::kStringUnicodeSurrogateInvalid:
      return "The surrogate pair in string is invalid.";
    case Code::kStringEscapeInvalid:
      return "Invalid escape character in string.";
    case Code::kStringMissQuotationMark:
      return "Missing a closing quotation mark in string.";
    case Code::kStringInvalidEncoding:
      return "Invalid encoding in string.";
    case Code::kNumberTooBig:
      return "Number too big to be stored in double.";
    case Code::kNumberMissFraction:
      return "Miss fraction part in number.";
    case Code::kNumberMissExponent:
      return "Miss exponent in number.";
    case Code::kTooDeep:
      return "";
  }
  return "";
}

JsonParseResult ParseJson(absl::string_view text) { return Reader(text).Run(); }

}  // namespace shoal::sql
