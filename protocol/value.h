// Value: one cell of a result row or one statement parameter, as a MySQL client sees it.
// Decimals travel as their exact text. Dates and times keep microseconds.
//
// Plain data; copy freely. Strings own their bytes (rows are built, sent, and dropped).
#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace shoal::mysql {

struct Null {
  bool operator==(const Null&) const = default;
};

// DATE (time fields 0), DATETIME and TIMESTAMP.
struct DateTime {
  uint16_t year = 0;
  uint8_t month = 0;
  uint8_t day = 0;
  uint8_t hour = 0;
  uint8_t minute = 0;
  uint8_t second = 0;
  uint32_t microsecond = 0;
  bool operator==(const DateTime&) const = default;
};

// TIME: a signed duration of up to 838:59:59.
struct Time {
  bool negative = false;
  uint32_t days = 0;
  uint8_t hours = 0;  // 0..23; whole days are in `days`
  uint8_t minutes = 0;
  uint8_t seconds = 0;
  uint32_t microsecond = 0;
  bool operator==(const Time&) const = default;
};

// Exact decimal text, e.g. "-12.50" (NEWDECIMAL travels as text in both protocols).
struct Decimal {
  std::string text;
  bool operator==(const Decimal&) const = default;
};

// int64_t for signed integers, uint64_t for unsigned ones, double for FLOAT and DOUBLE,
// std::string for character and binary strings.
using Value = std::variant<Null, int64_t, uint64_t, double, std::string, Decimal, DateTime, Time>;

inline bool IsNull(const Value& v) { return std::holds_alternative<Null>(v); }

}  // namespace shoal::mysql
