// See session.h.
#include "router/sql/eval/session.h"

#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_split.h"
#include "protocol/constants.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql {
namespace {

const CollationInfo* ConnectionCollation(const SessionState& state) {
  const SysVarDef* def = FindSysVar("collation_connection");
  mysql::Value v = SessionValue(*def, state);
  const std::string* name = std::get_if<std::string>(&v);
  const CollationInfo* c = name == nullptr ? nullptr : FindCollation(*name);
  return c != nullptr ? c : FindCollationById(mysql::charset::kUtf8mb4GeneralCi);
}

const SessionState::ResultEncoding& Encoding(const SessionState& state) {
  if (!state.result_encoding) {
    const CollationInfo* collation = ConnectionCollation(state);
    const CharsetInfo* cs = FindCharset(collation->charset);
    int maxlen = cs == nullptr ? 4 : cs->maxlen;
    auto results = state.session_vars.find("character_set_results");
    bool raw = results != state.session_vars.end() && mysql::IsNull(results->second);
    state.result_encoding = SessionState::ResultEncoding{collation->id, maxlen, raw ? 0 : maxlen};
  }
  return *state.result_encoding;
}

// The fields of `state` derived from the variable `name` (lower case) now being `value`:
// statements read them without looking the variable up.
void Derive(absl::string_view name, const mysql::Value& value, SessionState* state) {
  if (name == "sql_mode") {
    const std::string* text = std::get_if<std::string>(&value);
    std::vector<absl::string_view> modes;
    if (text != nullptr) modes = absl::StrSplit(*text, ',');
    auto on = [&](absl::string_view mode) { return absl::c_linear_search(modes, mode); };
    state->no_backslash_escapes = on("NO_BACKSLASH_ESCAPES");
    state->ansi_quotes = on("ANSI_QUOTES");
    state->pipes_as_concat = on("PIPES_AS_CONCAT");
    state->only_full_group_by = on("ONLY_FULL_GROUP_BY");
  } else if (name == "sql_select_limit") {
    const uint64_t* limit = std::get_if<uint64_t>(&value);
    state->select_limit.reset();
    if (limit != nullptr && *limit != UINT64_MAX) state->select_limit = *limit;
  }
}

}  // namespace

void SetSessionVar(absl::string_view name, mysql::Value value, SessionState* state) {
  Derive(name, value, state);
  state->session_vars[name] = std::move(value);
  state->result_encoding.reset();
  state->utc_offset.reset();
}

void EraseSessionVar(absl::string_view name, SessionState* state) {
  state->session_vars.erase(name);
  if (name == "sql_mode" || name == "sql_select_limit") {
    Derive(name, GlobalValue(*FindSysVar(name), *state), state);
  }
  state->result_encoding.reset();
  state->utc_offset.reset();
}

int SessionUtcOffset(const SessionState& state) {
  if (!state.utc_offset) {
    mysql::Value v = SessionValue(*FindSysVar("time_zone"), state);
    int offset = 0;
    const auto* s = std::get_if<std::string>(&v);
    if (s == nullptr || !ParseTimeZoneOffset(*s, &offset)) offset = 0;
    state.utc_offset = offset;
  }
  return *state.utc_offset;
}

void ApplyHandshakeCollation(uint16_t collation_id, SessionState* state) {
  const CollationInfo* c = FindCollationById(collation_id);
  if (c == nullptr) c = FindCollationById(mysql::charset::kUtf8mb4GeneralCi);
  std::string charset(c->charset);
  SetSessionVar("character_set_client", charset, state);
  SetSessionVar("character_set_connection", charset, state);
  SetSessionVar("character_set_results", charset, state);
  SetSessionVar("collation_connection", std::string(c->name), state);
}

uint16_t ResultCollationId(const SessionState& state) { return Encoding(state).collation_id; }

int ResultCharsetMaxLen(const SessionState& state) { return Encoding(state).charset_maxlen; }

int TableResultCharsetMaxLen(const SessionState& state) {
  return Encoding(state).table_charset_maxlen;
}

}  // namespace shoal::sql
