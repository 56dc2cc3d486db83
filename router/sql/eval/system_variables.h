// MySQL 8.0's system variables as drivers read them (@@var, SHOW VARIABLES): name, type,
// scope, default and whether SET may change them. Values that depend on the server (version,
// port, max_connections…) come from ServerInfo; a few mirror session fields (autocommit,
// last_insert_id, warning_count). The table is immutable static data.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "protocol/column.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"
#include "router/sql/eval/session.h"

namespace shoal::sql {

enum class VarType : uint8_t {
  kBool,       // int64 0/1; SHOW prints OFF/ON
  kInt,        // int64
  kUint,       // uint64
  kString,     // std::string
  kEnum,       // std::string, one of `values`
  kSet,        // std::string, comma list of `values` (sql_mode)
  kCharset,    // std::string, a charset name
  kCollation,  // std::string, a collation name
  kTimeZone,   // std::string: SYSTEM or ±HH:MM
};

enum class VarScopeKind : uint8_t { kGlobalOnly, kSessionOnly, kBoth };

struct SysVarDef {
  absl::string_view name;
  VarType type;
  VarScopeKind scope;
  bool read_only = false;
  bool nullable = false;               // SET x = NULL allowed (character_set_results)
  uint64_t int_default = 0;            // kBool, kInt, kUint
  absl::string_view str_default = "";  // string kinds
  uint64_t min = 0, max = UINT64_MAX;  // kUint, kInt (as int64 bit patterns for kInt)
  absl::string_view values = "";       // kEnum, kSet: comma-separated canonical names
  // Server-derived global value; null = the default above.
  mysql::Value (*server_value)(const ServerInfo&) = nullptr;
  // Session value kept in a SessionState field rather than session_vars; null = not so.
  mysql::Value (*session_value)(const SessionState&) = nullptr;
  absl::string_view alias_of = "";  // tx_isolation -> transaction_isolation (deprecated name)
};

// Case-insensitive lookup; aliases are returned as themselves (check alias_of).
const SysVarDef* FindSysVar(absl::string_view name);
// Sorted by name.
absl::Span<const SysVarDef> AllSysVars();

// The global value: server-derived or the default.
mysql::Value GlobalValue(const SysVarDef& def, const SessionState& state);
// What @@name reads: the session value if the variable has one, else the global value.
mysql::Value SessionValue(const SysVarDef& def, const SessionState& state);
// SHOW VARIABLES text (ON/OFF for booleans; NULL stays NULL).
mysql::Value DisplayValue(const SysVarDef& def, const mysql::Value& v);
// Column metadata of SELECT @@name as MySQL 8.0 sends it (integers LONGLONG BINARY, unsigned
// ones UNSIGNED too; strings VAR_STRING in the connection charset). Name left empty.
mysql::ColumnDefinition SysVarColumn(const SysVarDef& def, const mysql::Value& v,
                                     const SessionState& state);

// Checks `v` for SET against the variable's type and converts it to the stored form:
// 1231 wrong value, 1232 wrong type, 1115/1273 unknown charset/collation, 1298 bad time
// zone. Out-of-range integers are clamped with a 1292 warning appended to `warnings`, as
// MySQL does.
std::variant<mysql::Value, mysql::SqlError> CoerceForSet(const SysVarDef& def,
                                                         const mysql::Value& v,
                                                         std::vector<Diagnostic>* warnings);

// Canonical sql_mode text for a comma list (combination modes expanded); false and *bad set
// to the first unknown name when one is not a mode.
bool CanonicalSqlMode(absl::string_view modes, std::string* out, std::string* bad);

// Whether the session's sql_mode names `mode` (upper case; stored modes are canonical, so a
// combination's parts are there too).
bool SqlModeHas(const SessionState& state, absl::string_view mode);
// The session value of the boolean variable `name` (false for one that is not).
bool SessionBoolVar(const SessionState& state, absl::string_view name);

}  // namespace shoal::sql
