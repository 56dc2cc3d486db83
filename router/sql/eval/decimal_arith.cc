#include "router/sql/eval/decimal_arith.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "router/sql/eval/expr_internal.h"

namespace shoal::sql::internal {
namespace {

constexpr int kMaxDigits = 38;  // what a signed 128-bit integer holds, whatever the digits
constexpr int kMaxScale = 30;   // MySQL's DECIMAL scale limit
constexpr int kDivPrecisionIncrement = 4;
constexpr int kDigitsPerWord = 9;  // MySQL's decimal library keeps digits in words of nine

// value = mantissa / 10^scale.
struct Scaled {
  __int128 mantissa = 0;
  int scale = 0;
  int shown = 0;  // the fraction digits the value reads as
};

bool Pow10(int n, __int128* out) {
  if (n < 0 || n > kMaxDigits) return false;
  __int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  *out = p;
  return true;
}

std::optional<Scaled> Parse(const mysql::Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return Scaled{*i, 0, 0};
  if (const auto* u = std::get_if<uint64_t>(&v)) return Scaled{static_cast<__int128>(*u), 0, 0};
  const auto* d = std::get_if<mysql::Decimal>(&v);
  if (d == nullptr) return std::nullopt;
  absl::string_view text = d->text;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  Scaled s;
  int digits = 0;
  bool point = false;
  for (char c : text) {
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    if (s.mantissa == 0 && c == '0') {
      if (point) ++s.scale;
      continue;
    }
    if (++digits > kMaxDigits) return std::nullopt;
    s.mantissa = s.mantissa * 10 + (c - '0');
    if (point) ++s.scale;
  }
  if (negative) s.mantissa = -s.mantissa;
  s.shown = d->shown >= 0 ? d->shown : s.scale;
  return s;
}

// `s` with `scale` fraction digits (more: exact; fewer: rounded half away from zero).
bool Rescale(Scaled* s, int scale) {
  __int128 p = 0;
  if (scale >= s->scale) {
    if (!Pow10(scale - s->scale, &p) || __builtin_mul_overflow(s->mantissa, p, &s->mantissa)) {
      return false;
    }
  } else {
    if (!Pow10(s->scale - scale, &p)) return false;
    __int128 q = s->mantissa / p, r = s->mantissa % p;
    if (2 * (r < 0 ? -r : r) >= p) q += s->mantissa < 0 ? -1 : 1;
    s->mantissa = q;
  }
  s->scale = scale;
  return true;
}

std::string Text(const Scaled& s) {
  const bool negative = s.mantissa < 0;
  std::string digits = Int128Text(negative ? -s.mantissa : s.mantissa);
  if (s.scale > 0) {
    if (static_cast<int>(digits.size()) <= s.scale) {
      digits.insert(0, static_cast<size_t>(s.scale) + 1 - digits.size(), '0');
    }
    digits.insert(digits.size() - static_cast<size_t>(s.scale), ".");
  }
  return negative && s.mantissa != 0 ? "-" + digits : digits;
}

mysql::Value Result(Scaled s) {
  mysql::Decimal d{Text(s)};
  if (s.shown < s.scale) d.shown = static_cast<int8_t>(s.shown);
  return d;
}

}  // namespace

std::optional<mysql::Value> ExactDecimalArithmetic(BinaryOp op, const mysql::Value& a,
                                                   const mysql::Value& b, bool* by_zero) {
  *by_zero = false;
  std::optional<Scaled> x = Parse(a), y = Parse(b);
  if (!x || !y) return std::nullopt;
  Scaled r;
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kSub: {
      const int scale = std::max(x->scale, y->scale);
      if (!Rescale(&*x, scale) || !Rescale(&*y, scale)) return std::nullopt;
      const bool overflow = op == BinaryOp::kAdd
                                ? __builtin_add_overflow(x->mantissa, y->mantissa, &r.mantissa)
                                : __builtin_sub_overflow(x->mantissa, y->mantissa, &r.mantissa);
      if (overflow) return std::nullopt;
      r.scale = scale;
      r.shown = std::max(x->shown, y->shown);
      break;
    }
    case BinaryOp::kMul:
      if (__builtin_mul_overflow(x->mantissa, y->mantissa, &r.mantissa)) return std::nullopt;
      r.scale = x->scale + y->scale;
      r.shown = std::min(x->shown + y->shown, kMaxScale);
      if (r.scale > kMaxScale && !Rescale(&r, kMaxScale)) return std::nullopt;
      break;
    case BinaryOp::kDiv: {
      if (y->mantissa == 0) {
        *by_zero = true;
        return mysql::Value{};
      }
      // x / y = x.m * 10^(y.scale + scale - x.scale) / y.m with `scale` fraction digits.
      const int wanted = x->scale + y->scale + kDivPrecisionIncrement;
      const int scale = std::min((wanted + kDigitsPerWord - 1) / kDigitsPerWord * kDigitsPerWord,
                                 kMaxScale + kDigitsPerWord - 1);
      __int128 p = 0, n = 0;
      if (!Pow10(y->scale + scale - x->scale, &p) || __builtin_mul_overflow(x->mantissa, p, &n)) {
        return std::nullopt;
      }
      r.mantissa = n / y->mantissa;  // truncated, as MySQL's division is
      r.scale = scale;
      r.shown = std::min(x->shown + kDivPrecisionIncrement, kMaxScale);
      break;
    }
    case BinaryOp::kMod: {
      if (y->mantissa == 0) {
        *by_zero = true;
        return mysql::Value{};
      }
      const int scale = std::max(x->scale, y->scale);
      if (!Rescale(&*x, scale) || !Rescale(&*y, scale)) return std::nullopt;
      r.mantissa = x->mantissa % y->mantissa;
      r.scale = scale;
      r.shown = std::max(x->shown, y->shown);
      break;
    }
    default:
      return std::nullopt;
  }
  return Result(r);
}

int ShownScale(const mysql::Decimal& d) {
  if (d.shown >= 0) return d.shown;
  const size_t dot = d.text.find('.');
  return dot == std::string::npos ? 0 : static_cast<int>(d.text.size() - dot - 1);
}

std::string ShownDecimalText(const mysql::Decimal& d) {
  return d.shown >= 0 ? RescaleDecimal(d.text, d.shown) : d.text;
}

}  // namespace shoal::sql::internal
