// See session.h.
#include "router/sql/eval/session.h"

#include "protocol/constants.h"
#include "router/sql/eval/system_variables.h"
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

}  // namespace

void ApplyHandshakeCollation(uint16_t collation_id, SessionState* state) {
  const CollationInfo* c = FindCollationById(collation_id);
  if (c == nullptr) c = FindCollationById(mysql::charset::kUtf8mb4GeneralCi);
  std::string charset(c->charset);
  state->session_vars["character_set_client"] = charset;
  state->session_vars["character_set_connection"] = charset;
  state->session_vars["character_set_results"] = charset;
  state->session_vars["collation_connection"] = std::string(c->name);
}

uint16_t ResultCollationId(const SessionState& state) { return ConnectionCollation(state)->id; }

int ResultCharsetMaxLen(const SessionState& state) {
  const CharsetInfo* cs = FindCharset(ConnectionCollation(state)->charset);
  return cs == nullptr ? 4 : cs->maxlen;
}

int TableResultCharsetMaxLen(const SessionState& state) {
  auto it = state.session_vars.find("character_set_results");
  if (it != state.session_vars.end() && mysql::IsNull(it->second)) return 0;
  return ResultCharsetMaxLen(state);
}

}  // namespace shoal::sql
