// See system_variables.h. Defaults are MySQL 8.0.36's, except where Shoal differs on purpose
// (transaction_isolation READ-COMMITTED as NDB, default_storage_engine ndbcluster,
// performance_schema OFF).
#include "router/sql/eval/system_variables.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql {
namespace {

using mysql::Value;
using S = VarScopeKind;

constexpr absl::string_view kDefaultSqlMode =
    "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
    "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";
constexpr absl::string_view kVersionComment =
    "Shoal (MySQL-compatible, NDB-style in-memory cluster)";
// In MySQL's bit order, which is the order SELECT @@sql_mode prints them in.
constexpr absl::string_view kSqlModes =
    "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,"
    "NO_UNSIGNED_SUBTRACTION,NO_DIR_IN_CREATE,ANSI,NO_AUTO_VALUE_ON_ZERO,NO_BACKSLASH_ESCAPES,"
    "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ALLOW_INVALID_DATES,"
    "ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,HIGH_NOT_PRECEDENCE,NO_ENGINE_SUBSTITUTION,"
    "PAD_CHAR_TO_FULL_LENGTH,TIME_TRUNCATE_FRACTIONAL";
constexpr absl::string_view kIsolations =
    "READ-UNCOMMITTED,READ-COMMITTED,REPEATABLE-READ,SERIALIZABLE";
constexpr uint64_t kMaxTimeout = 31536000;
// Kept and shown as set (dump tools turn semijoin off and back); Shoal's planner has none of
// these strategies to switch.
constexpr absl::string_view kOptimizerSwitch =
    "index_merge=on,index_merge_union=on,index_merge_sort_union=on,index_merge_intersection=on,"
    "engine_condition_pushdown=on,index_condition_pushdown=on,mrr=on,mrr_cost_based=on,"
    "block_nested_loop=on,batched_key_access=off,materialization=on,semijoin=on,loosescan=on,"
    "firstmatch=on,duplicateweedout=on,subquery_materialization_cost_based=on,"
    "use_index_extensions=on,condition_fanout_filter=on,derived_merge=on,"
    "use_invisible_indexes=off,skip_scan=on,hash_join=on,subquery_to_derived=off,"
    "prefer_ordering_index=on,hypergraph_optimizer=off,derived_condition_pushdown=on";

constexpr SysVarDef Bool(absl::string_view name, S scope, bool def, bool ro = false) {
  SysVarDef d{name, VarType::kBool, scope};
  d.int_default = def ? 1 : 0;
  d.read_only = ro;
  return d;
}
constexpr SysVarDef Uint(absl::string_view name, S scope, uint64_t def, uint64_t min = 0,
                         uint64_t max = UINT64_MAX, bool ro = false) {
  SysVarDef d{name, VarType::kUint, scope};
  d.int_default = def;
  d.min = min;
  d.max = max;
  d.read_only = ro;
  return d;
}
constexpr SysVarDef Str(absl::string_view name, S scope, absl::string_view def, bool ro = false,
                        VarType type = VarType::kString) {
  SysVarDef d{name, type, scope};
  d.str_default = def;
  d.read_only = ro;
  return d;
}
constexpr SysVarDef Enum(absl::string_view name, S scope, absl::string_view def,
                         absl::string_view values, bool ro = false) {
  SysVarDef d = Str(name, scope, def, ro, VarType::kEnum);
  d.values = values;
  return d;
}
constexpr SysVarDef Server(SysVarDef d, Value (*fn)(const ServerInfo&)) {
  d.server_value = fn;
  return d;
}
Value HaveSsl(const ServerInfo& s) { return std::string(s.have_ssl ? "YES" : "DISABLED"); }
// A TLS file's path; NULL as mysqld shows one that is not set.
template <std::string ServerInfo::*kFile>
Value SslFile(const ServerInfo& s) {
  if ((s.*kFile).empty()) return mysql::Null{};
  return s.*kFile;
}
constexpr SysVarDef Session(SysVarDef d, Value (*fn)(const SessionState&)) {
  d.session_value = fn;
  return d;
}
constexpr SysVarDef Alias(SysVarDef d, absl::string_view of) {
  d.alias_of = of;
  return d;
}
constexpr SysVarDef Nullable(SysVarDef d) {
  d.nullable = true;
  return d;
}

uint64_t CountLevel(const SessionState& s, bool errors) {
  return std::count_if(s.warnings.begin(), s.warnings.end(), [&](const Diagnostic& d) {
    return !errors || d.level == Diagnostic::Level::kError;
  });
}

// Sorted by name (FindSysVar binary-searches).
const SysVarDef kVars[] = {
    Uint("auto_increment_increment", S::kBoth, 1, 1, 65535),
    Uint("auto_increment_offset", S::kBoth, 1, 1, 65535),
    Session(Bool("autocommit", S::kBoth, true),
            [](const SessionState& s) -> Value { return int64_t{s.autocommit}; }),
    Bool("big_tables", S::kBoth, false),
    Enum("binlog_format", S::kBoth, "ROW", "ROW,STATEMENT,MIXED"),
    Uint("bulk_insert_buffer_size", S::kBoth, 8388608),
    Str("character_set_client", S::kBoth, "utf8mb4", false, VarType::kCharset),
    Str("character_set_connection", S::kBoth, "utf8mb4", false, VarType::kCharset),
    Str("character_set_database", S::kBoth, "utf8mb4", false, VarType::kCharset),
    Str("character_set_filesystem", S::kBoth, "binary", false, VarType::kCharset),
    Nullable(Str("character_set_results", S::kBoth, "utf8mb4", false, VarType::kCharset)),
    Str("character_set_server", S::kBoth, "utf8mb4", false, VarType::kCharset),
    Str("character_set_system", S::kGlobalOnly, "utf8mb3", true, VarType::kCharset),
    Str("collation_connection", S::kBoth, "utf8mb4_0900_ai_ci", false, VarType::kCollation),
    Str("collation_database", S::kBoth, "utf8mb4_0900_ai_ci", false, VarType::kCollation),
    Str("collation_server", S::kBoth, "utf8mb4_0900_ai_ci", false, VarType::kCollation),
    Enum("completion_type", S::kBoth, "NO_CHAIN", "NO_CHAIN,CHAIN,RELEASE"),
    Uint("connect_timeout", S::kGlobalOnly, 10, 2, kMaxTimeout),
    Uint("cte_max_recursion_depth", S::kBoth, 1000, 0, 4294967295),
    Str("default_authentication_plugin", S::kGlobalOnly, "caching_sha2_password", true),
    Str("default_storage_engine", S::kBoth, "ndbcluster"),
    Str("default_tmp_storage_engine", S::kBoth, "ndbcluster"),
    Uint("default_week_format", S::kBoth, 0, 0, 7),
    Uint("div_precision_increment", S::kBoth, 4, 0, 30),
    Session(Uint("error_count", S::kSessionOnly, 0, 0, UINT64_MAX, true),
            [](const SessionState& s) -> Value { return CountLevel(s, true); }),
    Bool("explicit_defaults_for_timestamp", S::kBoth, true),
    Bool("foreign_key_checks", S::kBoth, true),
    Uint("group_concat_max_len", S::kBoth, 1024, 4),
    Enum("gtid_mode", S::kGlobalOnly, "OFF", "OFF,OFF_PERMISSIVE,ON_PERMISSIVE,ON", true),
    Server(Str("have_openssl", S::kGlobalOnly, "DISABLED", true), HaveSsl),
    Server(Str("have_ssl", S::kGlobalOnly, "DISABLED", true), HaveSsl),
    Server(Str("hostname", S::kGlobalOnly, "", true),
           [](const ServerInfo& s) -> Value { return s.hostname; }),
    Session(Uint("identity", S::kSessionOnly, 0),
            [](const SessionState& s) -> Value { return s.last_insert_id; }),
    Uint("information_schema_stats_expiry", S::kBoth, 86400, 0, kMaxTimeout),
    Str("init_connect", S::kGlobalOnly, ""),
    Uint("innodb_lock_wait_timeout", S::kBoth, 50, 1, 1073741824),
    // Tools read it to tell the server's generation; MySQL 8.0 gives its own version.
    Str("innodb_version", S::kGlobalOnly, "8.0.36", true),
    Uint("insert_id", S::kSessionOnly, 0),
    Uint("interactive_timeout", S::kBoth, 28800, 1, kMaxTimeout),
    Uint("join_buffer_size", S::kBoth, 262144, 128),
    Session(Uint("last_insert_id", S::kSessionOnly, 0),
            [](const SessionState& s) -> Value { return s.last_insert_id; }),
    Str("lc_messages", S::kBoth, "en_US"),
    Str("lc_time_names", S::kBoth, "en_US"),
    Str("license", S::kGlobalOnly, "GPL", true),
    // ON as in MariaDB (MySQL 8.0: OFF); docs/architecture.md says why. SET GLOBAL changes it.
    Server(Bool("local_infile", S::kGlobalOnly, true),
           [](const ServerInfo& s) -> Value {
             return int64_t{s.local_infile->load(std::memory_order_relaxed) ? 1 : 0};
           }),
    Uint("lock_wait_timeout", S::kBoth, 31536000, 1, kMaxTimeout),
    Bool("log_bin", S::kGlobalOnly, false, true),
    Uint("long_query_time", S::kBoth, 10),
    Uint("lower_case_table_names", S::kGlobalOnly, 0, 0, 2, true),
    Server(Uint("max_allowed_packet", S::kGlobalOnly, 67108864, 1024, 1073741824),
           [](const ServerInfo& s) -> Value { return s.max_allowed_packet; }),
    Server(Uint("max_connections", S::kGlobalOnly, 1024, 1, 100000),
           [](const ServerInfo& s) -> Value { return static_cast<uint64_t>(s.max_connections); }),
    Uint("max_execution_time", S::kBoth, 0, 0, 4294967295),
    Uint("max_heap_table_size", S::kBoth, 16777216, 16384),
    Uint("max_join_size", S::kBoth, UINT64_MAX, 1),
    Uint("max_prepared_stmt_count", S::kGlobalOnly, 16382, 0, 4194304),
    Uint("max_sort_length", S::kBoth, 1024, 4, 8388608),
    Uint("max_user_connections", S::kBoth, 0, 0, 4294967295),
    Uint("net_buffer_length", S::kBoth, 16384, 1024, 1048576),
    Uint("net_read_timeout", S::kBoth, 30, 1, kMaxTimeout),
    Uint("net_retry_count", S::kBoth, 10, 1),
    Uint("net_write_timeout", S::kBoth, 60, 1, kMaxTimeout),
    Str("optimizer_switch", S::kBoth, kOptimizerSwitch),
    Bool("performance_schema", S::kGlobalOnly, false, true),
    Server(Uint("port", S::kGlobalOnly, 3306, 0, 65535, true),
           [](const ServerInfo& s) -> Value { return static_cast<uint64_t>(s.port); }),
    Bool("profiling", S::kBoth, false),
    Uint("protocol_version", S::kGlobalOnly, 10, 0, UINT64_MAX, true),
    Session(Uint("pseudo_thread_id", S::kSessionOnly, 0, 0, UINT64_MAX, true),
            [](const SessionState& s) -> Value { return uint64_t{s.connection_id}; }),
    Uint("query_cache_size", S::kGlobalOnly, 0, 0, UINT64_MAX, true),
    Enum("query_cache_type", S::kBoth, "OFF", "OFF,ON,DEMAND"),
    Uint("read_buffer_size", S::kBoth, 131072, 8192),
    Bool("read_only", S::kGlobalOnly, false),
    Server(Bool("require_secure_transport", S::kGlobalOnly, false),
           [](const ServerInfo& s) -> Value {
             return int64_t{s.require_secure_transport->load(std::memory_order_relaxed) ? 1 : 0};
           }),
    // NULL: the router reads no server-side files (LOAD DATA INFILE without LOCAL is 1290).
    Server(Nullable(Str("secure_file_priv", S::kGlobalOnly, "", true)),
           [](const ServerInfo&) -> Value { return mysql::Null{}; }),
    Uint("server_id", S::kGlobalOnly, 1, 0, 4294967295, true),
    Enum("session_track_gtids", S::kBoth, "OFF", "OFF,OWN_GTID,ALL_GTIDS"),
    Bool("session_track_schema", S::kBoth, true),
    Bool("session_track_state_change", S::kBoth, false),
    Str("session_track_system_variables", S::kBoth,
        "time_zone,autocommit,character_set_client,character_set_results,"
        "character_set_connection"),
    Enum("session_track_transaction_info", S::kBoth, "OFF", "OFF,STATE,CHARACTERISTICS"),
    Server(Str("socket", S::kGlobalOnly, "", true),
           [](const ServerInfo& s) -> Value { return s.socket; }),
    Uint("sort_buffer_size", S::kBoth, 262144, 32768),
    Bool("sql_auto_is_null", S::kBoth, false),
    Bool("sql_log_bin", S::kSessionOnly, true),
    [] {
      SysVarDef d = Str("sql_mode", S::kBoth, kDefaultSqlMode, false, VarType::kSet);
      d.values = kSqlModes;
      return d;
    }(),
    Bool("sql_notes", S::kBoth, true),
    Bool("sql_quote_show_create", S::kBoth, true),
    Bool("sql_safe_updates", S::kBoth, false),
    Uint("sql_select_limit", S::kBoth, UINT64_MAX),
    Bool("sql_warnings", S::kBoth, false),
    Server(Nullable(Str("ssl_ca", S::kGlobalOnly, "", true)), SslFile<&ServerInfo::ssl_ca>),
    Server(Nullable(Str("ssl_cert", S::kGlobalOnly, "", true)), SslFile<&ServerInfo::ssl_cert>),
    Server(Nullable(Str("ssl_key", S::kGlobalOnly, "", true)), SslFile<&ServerInfo::ssl_key>),
    Str("system_time_zone", S::kGlobalOnly, "UTC", true),
    Str("time_zone", S::kBoth, "SYSTEM", false, VarType::kTimeZone),
    Str("tls_version", S::kGlobalOnly, "TLSv1.2,TLSv1.3", true),
    Uint("tmp_table_size", S::kBoth, 16777216, 1024),
    Enum("transaction_isolation", S::kBoth, "READ-COMMITTED", kIsolations),
    Bool("transaction_read_only", S::kBoth, false),
    Alias(Enum("tx_isolation", S::kBoth, "READ-COMMITTED", kIsolations), "transaction_isolation"),
    Alias(Bool("tx_read_only", S::kBoth, false), "transaction_read_only"),
    Bool("unique_checks", S::kBoth, true),
    Server(Str("version", S::kGlobalOnly, "8.0.36-shoal", true),
           [](const ServerInfo& s) -> Value { return s.version; }),
    Str("version_comment", S::kGlobalOnly, kVersionComment, true),
    Str("version_compile_machine", S::kGlobalOnly, "x86_64", true),
    Str("version_compile_os", S::kGlobalOnly, "Linux", true),
    Uint("wait_timeout", S::kBoth, 28800, 1, kMaxTimeout),
    Session(Uint("warning_count", S::kSessionOnly, 0, 0, UINT64_MAX, true),
            [](const SessionState& s) -> Value { return CountLevel(s, false); }),
};

mysql::SqlError WrongValue(const SysVarDef& def, const Value& v) {
  return mysql::errors::WrongValueForVariable(def.name, IsNull(v) ? "NULL" : ValueText(v));
}

// "2" -> 2 for integer-valued inputs (ints and integral strings are not mixed: MySQL takes
// integers only as numbers).
bool AsInteger(const Value& v, int64_t* i, bool* is_unsigned_big) {
  *is_unsigned_big = false;
  if (const auto* s = std::get_if<int64_t>(&v)) {
    *i = *s;
    return true;
  }
  if (const auto* u = std::get_if<uint64_t>(&v)) {
    *is_unsigned_big = *u > static_cast<uint64_t>(INT64_MAX);
    *i = static_cast<int64_t>(*u);
    return true;
  }
  return false;
}

// Index of `name` in the comma list `values` (case-insensitive), or -1.
int IndexOf(absl::string_view values, absl::string_view name) {
  int i = 0;
  for (absl::string_view v : absl::StrSplit(values, ',')) {
    if (absl::EqualsIgnoreCase(v, name)) return i;
    ++i;
  }
  return -1;
}

std::variant<Value, mysql::SqlError> CoerceInteger(const SysVarDef& def, const Value& v,
                                                   std::vector<Diagnostic>* warnings) {
  int64_t i = 0;
  bool big = false;
  if (!AsInteger(v, &i, &big)) return mysql::errors::WrongTypeForVariable(def.name);
  uint64_t u = big ? static_cast<uint64_t>(i) : (i < 0 ? 0 : static_cast<uint64_t>(i));
  uint64_t clamped = std::clamp(u, def.min, def.max);
  if (clamped != u || (!big && i < 0)) {
    warnings->push_back(
        {Diagnostic::Level::kWarning, 1292,
         absl::StrCat("Truncated incorrect ", def.name, " value: '", ValueText(v), "'")});
  }
  if (def.type == VarType::kInt) return static_cast<int64_t>(clamped);
  return clamped;
}

bool ValidTimeZone(absl::string_view tz) {
  if (absl::EqualsIgnoreCase(tz, "SYSTEM") || absl::EqualsIgnoreCase(tz, "UTC")) return true;
  int offset = 0;
  return ParseTimeZoneOffset(tz, &offset);
}

}  // namespace

const SysVarDef* FindSysVar(absl::string_view name) {
  std::string key = absl::AsciiStrToLower(name);
  auto it = std::lower_bound(std::begin(kVars), std::end(kVars), key,
                             [](const SysVarDef& d, const std::string& k) { return d.name < k; });
  if (it == std::end(kVars) || it->name != key) return nullptr;
  return &*it;
}

absl::Span<const SysVarDef> AllSysVars() { return kVars; }

Value GlobalValue(const SysVarDef& def, const SessionState& state) {
  if (def.server_value != nullptr && state.server != nullptr)
    return def.server_value(*state.server);
  switch (def.type) {
    case VarType::kBool:
    case VarType::kInt:
      return static_cast<int64_t>(def.int_default);
    case VarType::kUint:
      return def.int_default;
    default:
      return std::string(def.str_default);
  }
}

Value SessionValue(const SysVarDef& def, const SessionState& state) {
  if (def.scope == VarScopeKind::kGlobalOnly) return GlobalValue(def, state);
  if (def.session_value != nullptr) return def.session_value(state);
  absl::string_view key = def.alias_of.empty() ? def.name : def.alias_of;
  auto it = state.session_vars.find(key);
  if (it != state.session_vars.end()) return it->second;
  return GlobalValue(def, state);
}

Value DisplayValue(const SysVarDef& def, const Value& v) {
  if (IsNull(v)) return v;
  if (def.type == VarType::kBool) {
    const int64_t* b = std::get_if<int64_t>(&v);
    return std::string(b != nullptr && *b != 0 ? "ON" : "OFF");
  }
  return ValueText(v);
}

mysql::ColumnDefinition SysVarColumn(const SysVarDef& def, const Value& v,
                                     const SessionState& state) {
  mysql::ColumnDefinition col;
  switch (def.type) {
    case VarType::kBool:
      col.type = mysql::ColumnType::kLongLong;
      col.length = 1;
      col.flags = mysql::column_flag::kBinary;
      break;
    case VarType::kInt:
    case VarType::kUint:
      col.type = mysql::ColumnType::kLongLong;
      col.length = 21;
      col.flags = mysql::column_flag::kBinary |
                  (def.type == VarType::kUint ? mysql::column_flag::kUnsigned : 0);
      break;
    default: {
      col.type = mysql::ColumnType::kVarString;
      col.charset = ResultCollationId(state);
      col.decimals = kNotFixedDec;
      const std::string* s = std::get_if<std::string>(&v);
      col.length = s == nullptr ? 0 : CharLength(*s) * ResultCharsetMaxLen(state);
      break;
    }
  }
  return col;
}

bool CanonicalSqlMode(absl::string_view modes, std::string* out, std::string* bad) {
  static constexpr absl::string_view kAnsi =
      "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY";
  static constexpr absl::string_view kTraditional =
      "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
      "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";
  std::vector<bool> on(IndexOf(kSqlModes, "TIME_TRUNCATE_FRACTIONAL") + 1, false);
  for (absl::string_view m : absl::StrSplit(modes, ',', absl::SkipWhitespace())) {
    m = absl::StripAsciiWhitespace(m);
    int i = IndexOf(kSqlModes, m);
    if (i < 0) {
      *bad = std::string(m);
      return false;
    }
    on[i] = true;
    absl::string_view expand = absl::EqualsIgnoreCase(m, "ANSI")          ? kAnsi
                               : absl::EqualsIgnoreCase(m, "TRADITIONAL") ? kTraditional
                                                                          : "";
    for (absl::string_view e : absl::StrSplit(expand, ',', absl::SkipEmpty())) {
      on[IndexOf(kSqlModes, e)] = true;
    }
  }
  std::vector<absl::string_view> names;
  int i = 0;
  for (absl::string_view m : absl::StrSplit(kSqlModes, ',')) {
    if (on[i++]) names.push_back(m);
  }
  *out = absl::StrJoin(names, ",");
  return true;
}

bool SqlModeHas(const SessionState& state, absl::string_view mode) {
  static const SysVarDef* const kSqlMode = FindSysVar("sql_mode");
  const Value v = SessionValue(*kSqlMode, state);
  const std::string* modes = std::get_if<std::string>(&v);
  if (modes == nullptr) return false;
  for (absl::string_view m : absl::StrSplit(*modes, ',')) {
    if (m == mode) return true;
  }
  return false;
}

bool SessionBoolVar(const SessionState& state, absl::string_view name) {
  const SysVarDef* def = FindSysVar(name);
  if (def == nullptr || def->type != VarType::kBool) return false;
  const Value v = SessionValue(*def, state);
  const int64_t* on = std::get_if<int64_t>(&v);
  return on != nullptr && *on != 0;
}

std::variant<Value, mysql::SqlError> CoerceForSet(const SysVarDef& def, const Value& v,
                                                  std::vector<Diagnostic>* warnings) {
  if (IsNull(v)) {
    if (def.nullable) return v;
    return WrongValue(def, v);
  }
  const std::string* s = std::get_if<std::string>(&v);
  switch (def.type) {
    case VarType::kBool: {
      int64_t i = 0;
      bool big = false;
      if (AsInteger(v, &i, &big)) {
        if (big || (i != 0 && i != 1)) return WrongValue(def, v);
        return i;
      }
      if (s == nullptr) return mysql::errors::WrongTypeForVariable(def.name);
      int idx = IndexOf("OFF,ON,FALSE,TRUE,0,1", *s);
      if (idx < 0) return WrongValue(def, v);
      return int64_t{idx % 2};
    }
    case VarType::kInt:
    case VarType::kUint:
      return CoerceInteger(def, v, warnings);
    case VarType::kString:
      if (s == nullptr) return mysql::errors::WrongTypeForVariable(def.name);
      return *s;
    case VarType::kEnum: {
      int64_t i = 0;
      bool big = false;
      if (AsInteger(v, &i, &big)) {
        std::vector<absl::string_view> values = absl::StrSplit(def.values, ',');
        if (big || i < 0 || i >= static_cast<int64_t>(values.size())) return WrongValue(def, v);
        return std::string(values[i]);
      }
      if (s == nullptr) return mysql::errors::WrongTypeForVariable(def.name);
      int idx = IndexOf(def.values, *s);
      if (idx < 0) return WrongValue(def, v);
      return std::string(std::vector<absl::string_view>(absl::StrSplit(def.values, ','))[idx]);
    }
    case VarType::kSet: {
      if (s == nullptr) return mysql::errors::WrongTypeForVariable(def.name);
      std::string out, bad;
      if (!CanonicalSqlMode(*s, &out, &bad)) {
        return mysql::errors::WrongValueForVariable(def.name, bad);
      }
      return out;
    }
    case VarType::kCharset: {
      if (s == nullptr) return mysql::errors::WrongTypeForVariable(def.name);
      const CharsetInfo* cs = FindCharset(*s);
      if (cs == nullptr) return mysql::errors::UnknownCharacterSet(*s);
      return std::string(cs->name);
    }
    case VarType::kCollation: {
      if (s == nullptr) return mysql::errors::WrongTypeForVariable(def.name);
      const CollationInfo* c = FindCollation(*s);
      if (c == nullptr) return mysql::errors::UnknownCollation(*s);
      return std::string(c->name);
    }
    case VarType::kTimeZone:
      if (s == nullptr) return mysql::errors::WrongTypeForVariable(def.name);
      if (!ValidTimeZone(*s)) {
        return mysql::SqlError{1298, "HY000",
                               absl::StrCat("Unknown or incorrect time zone: '", *s, "'")};
      }
      return *s;
  }
  return WrongValue(def, v);
}

}  // namespace shoal::sql
