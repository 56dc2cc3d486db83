// What SHOW COLUMNS, COM_FIELD_LIST and information_schema.COLUMNS say about a table column,
// derived the same way for all three.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/schema/schema.h"
#include "protocol/column.h"
#include "protocol/value.h"

namespace shoal::sql {

// A value as a SELECT of the column would print it (DATETIME(3) with three fraction digits).
std::string ColumnValueText(const mysql::Value& v, const mysql::ColumnDefinition& result_column);

// CURRENT_TIMESTAMP as MySQL 8.0 shows it: with the column's fractional digits, if any.
std::string CurrentTimestampText(const schema::ColumnDef& c);

// The column's declared default as text (CURRENT_TIMESTAMP, with the column's precision, for
// DEFAULT CURRENT_TIMESTAMP); nullopt when it has none (shown as NULL).
std::optional<std::string> DeclaredDefault(const schema::ColumnDef& c,
                                           const mysql::ColumnDefinition& result_column);

// SHOW COLUMNS' Extra and information_schema.COLUMNS.EXTRA as MySQL 8.0 gives them:
// "auto_increment", "DEFAULT_GENERATED" (a default computed at each write, CURRENT_TIMESTAMP),
// "on update CURRENT_TIMESTAMP[(n)]", or both of the last two; empty for none.
std::string ColumnExtra(const schema::ColumnDef& c);

// PRI, UNI or MUL, in that priority, from the flags a result column of the table carries (the
// same rules, the promoted unique key included); empty for none.
std::string KeyText(uint16_t flags);

}  // namespace shoal::sql
