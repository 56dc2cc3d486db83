// SET: every assignment is checked first (type, scope, read-only, value) and only then are
// all applied, so a failing SET changes nothing, as in MySQL. Session-scoped only: SET GLOBAL
// of a valid variable answers 1235 (Shoal keeps no mutable server-wide variables yet).
#include <algorithm>
#include <functional>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql::internal {
namespace {

using mysql::Value;

// The charset/collation variable pairs MySQL keeps consistent.
struct CharsetPair {
  absl::string_view charset_var, collation_var;
};
constexpr CharsetPair kPairs[] = {
    {"character_set_connection", "collation_connection"},
    {"character_set_database", "collation_database"},
    {"character_set_server", "collation_server"},
};

void SetSession(SessionState* s, absl::string_view name, Value v) {
  SetSessionVar(name, std::move(v), s);
}

// Stores a checked session value, with the side effects some variables have.
void ApplySystemVar(const SysVarDef& def, std::optional<Value> value, SessionState* s) {
  absl::string_view name = def.alias_of.empty() ? def.name : def.alias_of;
  const SysVarDef& target = def.alias_of.empty() ? def : *FindSysVar(def.alias_of);
  Value v = value ? *value : GlobalValue(target, *s);
  if (name == "autocommit") {
    bool on = std::get<int64_t>(v) != 0;
    if (on && !s->autocommit) s->in_transaction = false;  // turning it on commits
    s->autocommit = on;
    return;
  }
  if (name == "last_insert_id" || name == "identity") {
    s->last_insert_id = std::get<uint64_t>(v);
    return;
  }
  for (const CharsetPair& p : kPairs) {
    if (name == p.charset_var && !IsNull(v)) {
      const CharsetInfo* cs = FindCharset(std::get<std::string>(v));
      SetSession(s, p.collation_var, std::string(cs->default_collation));
    } else if (name == p.collation_var) {
      const CollationInfo* c = FindCollation(std::get<std::string>(v));
      SetSession(s, p.charset_var, std::string(c->charset));
    }
  }
  if (!value) {
    EraseSessionVar(name, s);
    return;
  }
  SetSession(s, name, std::move(v));
}

// SET NAMES / SET CHARACTER SET, resolved. `charset` empty means DEFAULT (utf8mb4).
std::optional<mysql::SqlError> ResolveNames(const SetAssignment& a, const CharsetInfo** cs,
                                            const CollationInfo** coll, SessionState* s) {
  std::string name = a.charset.empty() ? "utf8mb4" : a.charset;
  *cs = FindCharset(name);
  if (*cs == nullptr) return mysql::errors::UnknownCharacterSet(name);
  if (IsUtf8Alias(name)) {
    AddWarning(s, Diagnostic::Level::kWarning, 1287,
               "'utf8' is deprecated and will be removed in a future release. Please use "
               "utf8mb3 instead");
  }
  *coll = FindCollation((*cs)->default_collation);
  if (!a.collation.empty()) {
    *coll = FindCollation(a.collation);
    if (*coll == nullptr) return mysql::errors::UnknownCollation(a.collation);
    if ((*coll)->charset != (*cs)->name) {
      return mysql::SqlError{1253, "42000",
                             absl::StrCat("COLLATION '", (*coll)->name,
                                          "' is not valid for CHARACTER SET '", (*cs)->name, "'")};
    }
  }
  return std::nullopt;
}

// Checks one system variable assignment; on success returns the action that applies it.
std::variant<std::function<void()>, mysql::SqlError> CheckSystemVar(const SetAssignment& a,
                                                                    const ExecContext& ctx) {
  SessionState* s = ctx.state;
  const SysVarDef* def = FindSysVar(a.name);
  if (def == nullptr) return mysql::errors::UnknownSystemVariable(a.name);
  bool global = a.scope == VarScope::kGlobal || a.scope == VarScope::kPersist ||
                a.scope == VarScope::kPersistOnly;
  if (def->read_only) return mysql::errors::ReadOnlyVariable(def->name);
  if (global && def->scope == VarScopeKind::kSessionOnly) {
    return mysql::errors::SessionOnlyVariable(def->name);
  }
  if (!global && def->scope == VarScopeKind::kGlobalOnly) {
    return mysql::errors::GlobalOnlyVariable(def->name);
  }
  std::optional<Value> value;
  if (a.value != nullptr) {
    EvalContext eval = ctx.Eval();
    auto v = Evaluate(*a.value, &eval);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
    auto checked = CoerceForSet(*def, std::get<Value>(v), &s->warnings);
    if (auto* err = std::get_if<mysql::SqlError>(&checked)) return *err;
    value = std::get<Value>(std::move(checked));
  }
  if (global && (def->name == "local_infile" || def->name == "require_secure_transport") && value) {
    // A router-wide switch (every session of this router), as mysqld's is server-wide.
    std::atomic<bool>* flag = def->name == "local_infile"
                                  ? s->server->local_infile.get()
                                  : s->server->require_secure_transport.get();
    bool on = std::get<int64_t>(*value) != 0;
    return std::function<void()>([flag, on] { flag->store(on, std::memory_order_relaxed); });
  }
  if (global) return mysql::errors::NotSupportedYet("SET GLOBAL");
  if (!def->alias_of.empty()) {
    AddWarning(s, Diagnostic::Level::kWarning, 1287,
               absl::StrCat("'@@", def->name, "' is deprecated and will be removed in a future ",
                            "release. Please use '@@", def->alias_of, "' instead"));
  }
  if (def->name == "transaction_isolation" || def->alias_of == "transaction_isolation") {
    if (s->in_transaction && a.scope == VarScope::kDefault) {
      return mysql::SqlError{1568, "25001",
                             "Transaction characteristics can't be changed while a transaction "
                             "is in progress"};
    }
  }
  return std::function<void()>([def, value, s] { ApplySystemVar(*def, value, s); });
}

}  // namespace

StatementResult ExecuteSet(const SetStmt& stmt, const ExecContext& ctx) {
  SessionState* s = ctx.state;
  std::vector<std::function<void()>> actions;
  for (const SetAssignment& a : stmt.assignments) {
    switch (a.kind) {
      case SetAssignment::Kind::kUserVar: {
        EvalContext eval = ctx.Eval();
        auto v = Evaluate(*a.value, &eval);
        if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
        Value value = std::get<Value>(std::move(v));
        if (std::holds_alternative<mysql::DateTime>(value) ||
            std::holds_alternative<mysql::Time>(value)) {
          value = ValueText(value);  // user variables hold numbers and strings only
        }
        std::string key = absl::AsciiStrToLower(a.name);
        actions.push_back([s, key, value] { s->user_vars[key] = value; });
        break;
      }
      case SetAssignment::Kind::kNames:
      case SetAssignment::Kind::kCharacterSet: {
        const CharsetInfo* cs = nullptr;
        const CollationInfo* coll = nullptr;
        if (auto err = ResolveNames(a, &cs, &coll, s)) return *err;
        bool names = a.kind == SetAssignment::Kind::kNames;
        actions.push_back([s, cs, coll, names] {
          std::string charset(cs->name);
          SetSession(s, "character_set_client", charset);
          SetSession(s, "character_set_results", charset);
          if (names) {
            SetSession(s, "character_set_connection", charset);
            SetSession(s, "collation_connection", std::string(coll->name));
          } else {  // SET CHARACTER SET: the connection follows the database's charset
            const SysVarDef* db_cs = FindSysVar("character_set_database");
            const SysVarDef* db_coll = FindSysVar("collation_database");
            SetSession(s, "character_set_connection", SessionValue(*db_cs, *s));
            SetSession(s, "collation_connection", SessionValue(*db_coll, *s));
          }
        });
        break;
      }
      case SetAssignment::Kind::kSystemVar: {
        auto checked = CheckSystemVar(a, ctx);
        if (auto* err = std::get_if<mysql::SqlError>(&checked)) return *err;
        actions.push_back(std::get<std::function<void()>>(std::move(checked)));
        break;
      }
    }
  }
  for (const auto& apply : actions) apply();
  return OkResult{};
}

StatementResult ExecuteSetTransaction(const SetTransactionStmt& stmt, const ExecContext& ctx) {
  SessionState* s = ctx.state;
  switch (stmt.scope) {
    case VarScope::kGlobal:
    case VarScope::kPersist:
    case VarScope::kPersistOnly:
      return mysql::errors::NotSupportedYet("SET GLOBAL");
    case VarScope::kSession:
      if (!stmt.isolation.empty()) SetSession(s, "transaction_isolation", stmt.isolation);
      if (stmt.read_only) SetSession(s, "transaction_read_only", int64_t{*stmt.read_only});
      return OkResult{};
    case VarScope::kDefault:
      // Applies to the next transaction only (session.h). Its isolation level is not kept:
      // Shoal runs every transaction READ-COMMITTED.
      if (s->in_transaction) {
        return mysql::SqlError{1568, "25001",
                               "Transaction characteristics can't be changed while a "
                               "transaction is in progress"};
      }
      if (stmt.read_only) s->next_transaction_read_only = *stmt.read_only;
      return OkResult{};
  }
  return OkResult{};
}

}  // namespace shoal::sql::internal
