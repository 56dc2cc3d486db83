// DECIMAL arithmetic done exactly, as MySQL does it: +, -, *, % and / over integers and
// decimals on scaled 128-bit integers (38 digits; MySQL's DECIMAL goes to 65, and past 38 the
// caller falls back to long double). A division keeps its quotient to a multiple of nine
// fraction digits past both operands' and the 4 of div_precision_increment, truncated, as
// MySQL's decimal library does, and shows the dividend's digits plus 4 (mysql::Decimal::shown):
// 1/3*3 is 0.999999999 shown as 1.0000. Internal to router/sql/eval.
#pragma once

#include <optional>

#include "protocol/value.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

// `a op b` for integer or decimal operands (op one of kAdd, kSub, kMul, kDiv, kMod), or
// nullopt when a value does not fit 38 digits or the result would not. `*by_zero` is set for
// a division or modulo by zero (the result is then NULL).
std::optional<mysql::Value> ExactDecimalArithmetic(BinaryOp op, const mysql::Value& a,
                                                   const mysql::Value& b, bool* by_zero);

// The fraction digits `d` reads as (its `shown`, else its text's).
int ShownScale(const mysql::Decimal& d);
// `d`'s text as it reads: rounded to `shown` digits when that is set.
std::string ShownDecimalText(const mysql::Decimal& d);

}  // namespace shoal::sql::internal
