// Binary-protocol values (see binary_value.h for the layouts).
#include "protocol/binary_value.h"

#include <bit>
#include <cmath>
#include <string>

#include "absl/strings/numbers.h"
#include "protocol/text_format.h"

namespace shoal::mysql {
namespace {

int IntegerWidth(ColumnType type) {
  switch (type) {
    case ColumnType::kTiny:
      return 1;
    case ColumnType::kShort:
    case ColumnType::kYear:
      return 2;
    case ColumnType::kLong:
    case ColumnType::kInt24:
      return 4;
    case ColumnType::kLongLong:
      return 8;
    default:
      return 0;
  }
}

uint64_t SignExtend(uint64_t v, int width) {
  if (width == 8) return v;
  const int shift = 64 - 8 * width;
  return static_cast<uint64_t>(static_cast<int64_t>(v << shift) >> shift);
}

bool DecodeDateTime(Reader* in, DateTime* dt) {
  uint8_t len;
  if (!in->ReadInt1(&len)) return false;
  if (len != 0 && len != 4 && len != 7 && len != 11) return false;
  *dt = DateTime{};
  if (len >= 4) {
    if (!in->ReadInt2(&dt->year) || !in->ReadInt1(&dt->month) || !in->ReadInt1(&dt->day)) {
      return false;
    }
  }
  if (len >= 7) {
    if (!in->ReadInt1(&dt->hour) || !in->ReadInt1(&dt->minute) || !in->ReadInt1(&dt->second)) {
      return false;
    }
  }
  if (len == 11 && !in->ReadInt4(&dt->microsecond)) return false;
  return true;
}

bool DecodeTime(Reader* in, Time* t) {
  uint8_t len;
  if (!in->ReadInt1(&len)) return false;
  if (len != 0 && len != 8 && len != 12) return false;
  *t = Time{};
  if (len >= 8) {
    uint8_t negative;
    if (!in->ReadInt1(&negative) || !in->ReadInt4(&t->days) || !in->ReadInt1(&t->hours) ||
        !in->ReadInt1(&t->minutes) || !in->ReadInt1(&t->seconds)) {
      return false;
    }
    t->negative = negative != 0;
  }
  if (len == 12 && !in->ReadInt4(&t->microsecond)) return false;
  return true;
}

void EncodeDateTime(const DateTime& dt, Writer* out) {
  const bool has_date = dt.year != 0 || dt.month != 0 || dt.day != 0;
  const bool has_time = dt.hour != 0 || dt.minute != 0 || dt.second != 0;
  const uint8_t len = dt.microsecond != 0 ? 11 : has_time ? 7 : has_date ? 4 : 0;
  out->WriteInt1(len);
  if (len >= 4) {
    out->WriteInt2(dt.year);
    out->WriteInt1(dt.month);
    out->WriteInt1(dt.day);
  }
  if (len >= 7) {
    out->WriteInt1(dt.hour);
    out->WriteInt1(dt.minute);
    out->WriteInt1(dt.second);
  }
  if (len == 11) out->WriteInt4(dt.microsecond);
}

void EncodeTime(const Time& t, Writer* out) {
  const bool has_fields =
      t.negative || t.days != 0 || t.hours != 0 || t.minutes != 0 || t.seconds != 0;
  const uint8_t len = t.microsecond != 0 ? 12 : has_fields ? 8 : 0;
  out->WriteInt1(len);
  if (len >= 8) {
    out->WriteInt1(t.negative ? 1 : 0);
    out->WriteInt4(t.days);
    out->WriteInt1(t.hours);
    out->WriteInt1(t.minutes);
    out->WriteInt1(t.seconds);
  }
  if (len == 12) out->WriteInt4(t.microsecond);
}

uint64_t AsInteger(const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<uint64_t>(*i);
  if (const auto* u = std::get_if<uint64_t>(&v)) return *u;
  if (const auto* d = std::get_if<double>(&v)) {
    if (!std::isfinite(*d) || std::fabs(*d) >= 9.2e18) return 0;
    return static_cast<uint64_t>(static_cast<int64_t>(std::llround(*d)));
  }
  int64_t parsed = 0;
  if (const auto* s = std::get_if<std::string>(&v)) {
    if (absl::SimpleAtoi(*s, &parsed)) return static_cast<uint64_t>(parsed);
  }
  if (const auto* dec = std::get_if<Decimal>(&v)) {
    if (absl::SimpleAtoi(dec->text, &parsed)) return static_cast<uint64_t>(parsed);
  }
  return 0;
}

double AsDouble(const Value& v) {
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* u = std::get_if<uint64_t>(&v)) return static_cast<double>(*u);
  double parsed = 0;
  if (const auto* s = std::get_if<std::string>(&v)) {
    if (absl::SimpleAtod(*s, &parsed)) return parsed;
  }
  if (const auto* dec = std::get_if<Decimal>(&v)) {
    if (absl::SimpleAtod(dec->text, &parsed)) return parsed;
  }
  return 0;
}

}  // namespace

bool IsKnownColumnType(uint8_t type) {
  return type <= 13 || type == 15 || type == 16 || type >= 245;
}

bool DecodeBinaryValue(Reader* in, ColumnType type, bool is_unsigned, Value* out) {
  if (const int width = IntegerWidth(type); width != 0) {
    uint64_t raw = 0;
    bool ok = false;
    switch (width) {
      case 1: {
        uint8_t v;
        ok = in->ReadInt1(&v);
        raw = v;
        break;
      }
      case 2: {
        uint16_t v;
        ok = in->ReadInt2(&v);
        raw = v;
        break;
      }
      case 4: {
        uint32_t v;
        ok = in->ReadInt4(&v);
        raw = v;
        break;
      }
      default:
        ok = in->ReadInt8(&raw);
        break;
    }
    if (!ok) return false;
    if (is_unsigned) {
      *out = raw;
    } else {
      *out = static_cast<int64_t>(SignExtend(raw, width));
    }
    return true;
  }
  switch (type) {
    case ColumnType::kNull:
      *out = Null{};
      return true;
    case ColumnType::kFloat: {
      uint32_t bits;
      if (!in->ReadInt4(&bits)) return false;
      *out = static_cast<double>(std::bit_cast<float>(bits));
      return true;
    }
    case ColumnType::kDouble: {
      uint64_t bits;
      if (!in->ReadInt8(&bits)) return false;
      *out = std::bit_cast<double>(bits);
      return true;
    }
    case ColumnType::kDate:
    case ColumnType::kDateTime:
    case ColumnType::kTimestamp: {
      DateTime dt;
      if (!DecodeDateTime(in, &dt)) return false;
      *out = dt;
      return true;
    }
    case ColumnType::kTime: {
      Time t;
      if (!DecodeTime(in, &t)) return false;
      *out = t;
      return true;
    }
    default:
      break;
  }
  if (!IsKnownColumnType(static_cast<uint8_t>(type))) return false;
  absl::string_view s;
  if (!in->ReadLenencString(&s)) return false;
  if (type == ColumnType::kDecimal || type == ColumnType::kNewDecimal) {
    *out = Decimal{std::string(s)};
  } else {
    *out = std::string(s);
  }
  return true;
}

void EncodeBinaryValue(const Value& v, ColumnType type, uint8_t decimals, Writer* out) {
  if (const int width = IntegerWidth(type); width != 0) {
    const uint64_t raw = AsInteger(v);
    switch (width) {
      case 1:
        out->WriteInt1(static_cast<uint8_t>(raw));
        break;
      case 2:
        out->WriteInt2(static_cast<uint16_t>(raw));
        break;
      case 4:
        out->WriteInt4(static_cast<uint32_t>(raw));
        break;
      default:
        out->WriteInt8(raw);
        break;
    }
    return;
  }
  switch (type) {
    case ColumnType::kNull:
      return;
    case ColumnType::kFloat:
      out->WriteInt4(std::bit_cast<uint32_t>(static_cast<float>(AsDouble(v))));
      return;
    case ColumnType::kDouble:
      out->WriteInt8(std::bit_cast<uint64_t>(AsDouble(v)));
      return;
    case ColumnType::kDate:
    case ColumnType::kDateTime:
    case ColumnType::kTimestamp: {
      const auto* dt = std::get_if<DateTime>(&v);
      EncodeDateTime(dt != nullptr ? *dt : DateTime{}, out);
      return;
    }
    case ColumnType::kTime: {
      const auto* t = std::get_if<Time>(&v);
      EncodeTime(t != nullptr ? *t : Time{}, out);
      return;
    }
    default:
      break;
  }
  if (const auto* s = std::get_if<std::string>(&v)) {
    out->WriteLenencString(*s);
  } else if (const auto* dec = std::get_if<Decimal>(&v)) {
    out->WriteLenencString(dec->text);
  } else {
    std::string text;
    AppendTextValue(v, type, decimals, &text);
    out->WriteLenencString(text);
  }
}

}  // namespace shoal::mysql
