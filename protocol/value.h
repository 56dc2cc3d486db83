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

// How many fraction digits a temporal value shows as text when its type does not say: as many
// as its microseconds need.
inline constexpr int8_t kFractionAsNeeded = -1;

// DATE (time fields 0), DATETIME and TIMESTAMP. Like MySQL's MYSQL_TIME, the value knows how
// it reads as text where no column type is at hand (CONCAT(d), LENGTH(d), a user variable):
// a DATE as its date alone, a DATETIME(n) with n fraction digits. Equality ignores that.
struct DateTime {
  uint16_t year = 0;
  uint8_t month = 0;
  uint8_t day = 0;
  uint8_t hour = 0;
  uint8_t minute = 0;
  uint8_t second = 0;
  uint32_t microsecond = 0;
  bool date_only = false;
  int8_t decimals = kFractionAsNeeded;
  bool operator==(const DateTime& o) const {
    return year == o.year && month == o.month && day == o.day && hour == o.hour &&
           minute == o.minute && second == o.second && microsecond == o.microsecond;
  }
};

// TIME: a signed duration of up to 838:59:59; `decimals` as DateTime's.
struct Time {
  bool negative = false;
  uint32_t days = 0;
  uint8_t hours = 0;  // 0..23; whole days are in `days`
  uint8_t minutes = 0;
  uint8_t seconds = 0;
  uint32_t microsecond = 0;
  int8_t decimals = kFractionAsNeeded;
  bool operator==(const Time& o) const {
    return negative == o.negative && days == o.days && hours == o.hours && minutes == o.minutes &&
           seconds == o.seconds && microsecond == o.microsecond;
  }
};

// Exact decimal text, e.g. "-12.50" (NEWDECIMAL travels as text in both protocols).
// A division keeps more digits than its type shows (MySQL computes 1/3 as 0.333333333 and shows
// 0.3333): `shown` is how many fraction digits the value reads as, as text and in comparisons
// (-1: all of `text`'s); arithmetic goes on with all of them. Equality compares the text.
struct Decimal {
  std::string text;
  int8_t shown = -1;
  bool operator==(const Decimal& o) const { return text == o.text; }
};

// int64_t for signed integers, uint64_t for unsigned ones, double for FLOAT and DOUBLE,
// std::string for character and binary strings.
using Value = std::variant<Null, int64_t, uint64_t, double, std::string, Decimal, DateTime, Time>;

inline bool IsNull(const Value& v) { return std::holds_alternative<Null>(v); }

}  // namespace shoal::mysql
