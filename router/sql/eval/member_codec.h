// ENUM and SET values to the positions they are stored as, with MySQL 8.0's strict-mode
// rules (Field_enum::store, Field_set::store). Internal to router/sql/eval: field_codec.cc
// converts through it.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/schema/schema.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"

namespace shoal::sql::internal {

// `value` as `column` (an ENUM or a SET) stores it: an ENUM's 1-based position, a SET's
// member bits. A member matches as the connection's collation compares (case, accents,
// trailing spaces); text that names no member is read as a number, the position or the bits, as
// MySQL reads LOAD DATA's numbers. Anything else is 1265 "Data truncated for column 'c' at row N".
std::optional<mysql::SqlError> MemberPosition(const schema::ColumnDef& column,
                                              const mysql::Value& value, int row, int64_t* out);

// What IGNORE keeps of `value` for a SET: the members its text names, or a number's bits that
// are members, as text (MySQL drops the rest with a warning).
mysql::Value KnownMembers(const schema::ColumnDef& column, const mysql::Value& value);

}  // namespace shoal::sql::internal
