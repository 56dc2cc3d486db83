#include "router/sql/exec/privilege_check.h"

#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "protocol/access_errors.h"
#include "router/access/accounts.h"
#include "router/access/grants.h"
#include "router/access/resource_limits.h"
#include "router/access/roles.h"
#include "router/sql/exec/information_schema.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/parse/ast_walk.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql {
namespace {

using access::Privileges;
using internal::IsInformationSchema;

// The first column `e` reads (its name), or empty.
std::string FirstColumn(const Expr* e) {
  if (e == nullptr) return "";
  if (e->kind == ExprKind::kColumn) return e->name;
  for (const ExprPtr& arg : e->args) {
    if (std::string column = FirstColumn(arg.get()); !column.empty()) return column;
  }
  return "";
}

class Checker {
 public:
  Checker(const wire::Account& account, const SessionState& state)
      : account_(account), state_(state) {}

  std::optional<mysql::SqlError> Run(const Statement& stmt) {
    for (const TableName& view : stmt.views) {
      if (auto err = OnTable(access::kSelect, view)) return err;
    }
    return std::visit([&](const auto& node) { return Check(node, stmt); }, stmt.node);
  }

 private:
  const std::string& Database(const TableName& name) const {
    return name.database.empty() ? state_.database : name.database;
  }

  // 1142 naming the first of `needed` (in MySQL's order) the account lacks on the table.
  std::optional<mysql::SqlError> OnTable(Privileges needed, const TableName& name) const {
    const std::string& db = Database(name);
    if (db.empty() || IsInformationSchema(db)) return std::nullopt;  // 1046 comes later
    Privileges missing = needed & ~access::TablePrivileges(account_, db, name.name);
    if (missing == 0) return std::nullopt;
    auto first = static_cast<access::Privilege>(missing & (~missing + 1));
    return mysql::errors::TableAccessDenied(access::PrivilegeName(first), state_.user, state_.host,
                                            name.name);
  }

  std::optional<mysql::SqlError> OnDatabase(Privileges needed, absl::string_view db) const {
    if (IsInformationSchema(db)) return std::nullopt;
    if ((needed & ~access::DatabasePrivileges(account_, db)) == 0) return std::nullopt;
    return mysql::errors::DatabaseAccessDenied(state_.user, state_.host, db);
  }

  std::optional<mysql::SqlError> Global(Privileges needed, absl::string_view names) const {
    if ((needed & ~account_.global_privileges()) == 0) return std::nullopt;
    return mysql::errors::SpecificAccessDenied(names);
  }

  // SELECT on each table the statement reads, but those `written` names (by table or alias)
  // and those inside views.
  std::optional<mysql::SqlError> Reads(const Statement& stmt,
                                       const std::vector<std::string>& written = {}) const {
    std::optional<mysql::SqlError> error;
    WalkStatement(
        stmt,
        [&](const TableRef& ref) {
          if (error || ref.derived || ref.in_view || ref.table.name.empty()) return;
          const std::string& as = ref.alias.empty() ? ref.table.name : ref.alias;
          if (std::find(written.begin(), written.end(), as) != written.end()) return;
          error = OnTable(access::kSelect, ref.table);
        },
        [](const Expr&) {});
    return error;
  }

  // UPDATE and DELETE of one table read the columns their clauses name: 1143 without SELECT.
  std::optional<mysql::SqlError> ReadsColumns(const TableName& table, const Expr* e) const {
    if (OnTable(access::kSelect, table) == std::nullopt) return std::nullopt;
    std::string column = FirstColumn(e);
    if (column.empty()) return std::nullopt;
    return mysql::errors::ColumnAccessDenied("SELECT", state_.user, state_.host, column,
                                             table.name);
  }

  // The tables a multi-table UPDATE or DELETE writes, by the names `written` gives them
  // (alias or table name), as TableNames.
  std::vector<TableName> Named(const TableName& first, const std::string& first_alias,
                               const std::vector<JoinClause>& joins,
                               const std::vector<std::string>& written) const {
    std::vector<TableName> out;
    auto add = [&](const TableName& table, const std::string& alias) {
      const std::string& as = alias.empty() ? table.name : alias;
      if (std::find(written.begin(), written.end(), as) != written.end()) out.push_back(table);
    };
    add(first, first_alias);
    for (const JoinClause& join : joins) add(join.table.table, join.table.alias);
    return out;
  }

  std::optional<mysql::SqlError> Check(const SelectStmt&, const Statement& stmt) const {
    return Reads(stmt);
  }

  std::optional<mysql::SqlError> Check(const InsertStmt& insert, const Statement& stmt) const {
    Privileges needed = access::kInsert;
    if (insert.replace) needed |= access::kDelete;
    if (!insert.on_duplicate.empty()) needed |= access::kUpdate;
    if (auto err = OnTable(needed, stmt.written_view.value_or(insert.table))) return err;
    return Reads(stmt);
  }

  std::optional<mysql::SqlError> Check(const UpdateStmt& update, const Statement& stmt) const {
    if (update.joins.empty()) {
      const TableName& target = stmt.written_view.value_or(update.table);
      if (auto err = OnTable(access::kUpdate, target)) return err;
      std::vector<const Expr*> exprs = {update.where.get()};
      for (const Assignment& a : update.set) exprs.push_back(a.value.get());
      for (const OrderItem& o : update.order_by) exprs.push_back(o.expr.get());
      for (const Expr* e : exprs) {
        if (auto err = ReadsColumns(target, e)) return err;
      }
      return Reads(stmt);
    }
    std::vector<std::string> written;
    for (const Assignment& a : update.set) {
      written.push_back(a.qualifier.empty()
                            ? (update.alias.empty() ? update.table.name : update.alias)
                            : a.qualifier);
    }
    for (const TableName& t : Named(update.table, update.alias, update.joins, written)) {
      if (auto err = OnTable(access::kUpdate, t)) return err;
    }
    const std::string& first = update.alias.empty() ? update.table.name : update.alias;
    if (std::find(written.begin(), written.end(), first) == written.end()) {
      if (auto err = OnTable(access::kSelect, update.table)) return err;
    }
    return Reads(stmt, written);
  }

  std::optional<mysql::SqlError> Check(const DeleteStmt& del, const Statement& stmt) const {
    if (del.targets.empty()) {
      const TableName& target = stmt.written_view.value_or(del.table);
      if (auto err = OnTable(access::kDelete, target)) return err;
      std::vector<const Expr*> exprs = {del.where.get()};
      for (const OrderItem& o : del.order_by) exprs.push_back(o.expr.get());
      for (const Expr* e : exprs) {
        if (auto err = ReadsColumns(target, e)) return err;
      }
      return Reads(stmt);
    }
    std::vector<std::string> written;
    for (const TableName& t : del.targets) written.push_back(t.name);
    for (const TableName& t : Named(del.table, del.alias, del.joins, written)) {
      if (auto err = OnTable(access::kDelete, t)) return err;
    }
    const std::string& first = del.alias.empty() ? del.table.name : del.alias;
    if (std::find(written.begin(), written.end(), first) == written.end()) {
      if (auto err = OnTable(access::kSelect, del.table)) return err;
    }
    return Reads(stmt, written);
  }

  std::optional<mysql::SqlError> Check(const CreateTableStmt& create, const Statement& stmt) const {
    if (auto err = OnTable(access::kCreate, create.table)) return err;
    if (create.like) return OnTable(access::kSelect, *create.like);
    if (create.insert_select) {  // CREATE TABLE … SELECT inserts what it reads
      Privileges needed = access::kInsert;
      if (create.insert_select->replace) needed |= access::kDelete;
      if (auto err = OnTable(needed, create.table)) return err;
      return Reads(stmt);
    }
    return std::nullopt;
  }
  std::optional<mysql::SqlError> Check(const DropTableStmt& drop, const Statement&) const {
    for (const TableName& t : drop.tables) {
      if (auto err = OnTable(access::kDrop, t)) return err;
    }
    return std::nullopt;
  }
  std::optional<mysql::SqlError> Check(const TruncateStmt& truncate, const Statement&) const {
    return OnTable(access::kDrop, truncate.table);
  }
  std::optional<mysql::SqlError> Check(const CreateDatabaseStmt& create, const Statement&) const {
    return OnDatabase(access::kCreate, create.name);
  }
  std::optional<mysql::SqlError> Check(const DropDatabaseStmt& drop, const Statement&) const {
    return OnDatabase(access::kDrop, drop.name);
  }
  std::optional<mysql::SqlError> Check(const CreateIndexStmt& create, const Statement&) const {
    return OnTable(access::kIndex, create.table);
  }
  std::optional<mysql::SqlError> Check(const DropIndexStmt& drop, const Statement&) const {
    return OnTable(access::kIndex, drop.table);
  }
  std::optional<mysql::SqlError> Check(const AlterTableStmt& alter, const Statement&) const {
    if (auto err = OnTable(access::kAlter, alter.table)) return err;
    for (const AlterAction& action : alter.actions) {
      if (action.kind != AlterAction::Kind::kRenameTable) continue;
      if (auto err = OnTable(access::kDrop, alter.table)) return err;
      if (auto err = OnTable(access::kCreate | access::kInsert, action.new_table)) return err;
    }
    return std::nullopt;
  }
  std::optional<mysql::SqlError> Check(const RenameTableStmt& rename, const Statement&) const {
    for (const auto& [from, to] : rename.renames) {
      if (auto err = OnTable(access::kAlter | access::kDrop, from)) return err;
      if (auto err = OnTable(access::kCreate | access::kInsert, to)) return err;
    }
    return std::nullopt;
  }
  // CHECK TABLE reads; ANALYZE, OPTIMIZE and REPAIR take SELECT and INSERT, as in MySQL.
  std::optional<mysql::SqlError> Check(const TableMaintenanceStmt& maintenance,
                                       const Statement&) const {
    const bool check = maintenance.op == TableMaintenanceStmt::Op::kCheck;
    for (const TableName& t : maintenance.tables) {
      if (auto err = OnTable(check ? access::kSelect : access::kSelect | access::kInsert, t)) {
        return err;
      }
    }
    return std::nullopt;
  }
  std::optional<mysql::SqlError> Check(const LockTablesStmt& lock, const Statement&) const {
    for (const TableLock& t : lock.tables) {
      if (auto err = OnDatabase(access::kLockTables, Database(t.table))) return err;
      if (auto err = OnTable(access::kSelect, t.table)) return err;
    }
    return std::nullopt;
  }
  std::optional<mysql::SqlError> Check(const LoadDataStmt& load, const Statement&) const {
    if (!load.local) {
      if (auto err = Global(access::kFile, "FILE")) return err;
    }
    return OnTable(access::kInsert, load.table);
  }
  std::optional<mysql::SqlError> Check(const CreateViewStmt& create, const Statement&) const {
    Privileges needed = access::kCreateView;
    if (create.or_replace || create.alter) needed |= access::kDrop;
    if (auto err = OnTable(needed, create.view)) return err;
    auto parsed = Parse(create.select_text, ParseOptions{});
    if (std::holds_alternative<mysql::SqlError>(parsed)) return std::nullopt;  // fails later
    return Reads(std::get<Statement>(parsed));
  }
  std::optional<mysql::SqlError> Check(const DropViewStmt& drop, const Statement&) const {
    for (const TableName& t : drop.views) {
      if (auto err = OnTable(access::kDrop, t)) return err;
    }
    return std::nullopt;
  }
  std::optional<mysql::SqlError> Check(const UseStmt& use, const Statement&) const {
    if (IsInformationSchema(use.database) || access::SeesDatabase(account_, use.database)) {
      return std::nullopt;
    }
    return mysql::errors::DatabaseAccessDenied(state_.user, state_.host, use.database);
  }
  std::optional<mysql::SqlError> Check(const ShowStmt& show, const Statement&) const {
    switch (show.kind) {
      case ShowKind::kColumns:
      case ShowKind::kIndex:
      case ShowKind::kCreateTable:
      case ShowKind::kCreateView: {
        TableName table = show.table;
        if (!show.from_database.empty()) table.database = show.from_database;
        const std::string& db = Database(table);
        if (db.empty() || IsInformationSchema(db) || access::SeesTable(account_, db, table.name)) {
          if (show.kind != ShowKind::kCreateView) return std::nullopt;
          return OnTable(access::kShowView | access::kSelect, table);
        }
        return mysql::errors::TableAccessDenied(show.kind == ShowKind::kColumns ? "SELECT" : "SHOW",
                                                state_.user, state_.host, table.name);
      }
      case ShowKind::kTables:
      case ShowKind::kTableStatus:
      case ShowKind::kEvents:
      case ShowKind::kTriggers: {
        const std::string& db = show.from_database.empty() ? state_.database : show.from_database;
        if (db.empty() || IsInformationSchema(db) || access::SeesDatabase(account_, db)) {
          return std::nullopt;
        }
        return mysql::errors::DatabaseAccessDenied(state_.user, state_.host, db);
      }
      case ShowKind::kGrants:
      case ShowKind::kCreateUser: {
        const AccountName& who = show.account;
        bool self = who.current_user || (who.user == account_.user() &&
                                         absl::EqualsIgnoreCase(who.host, account_.host()));
        if (self && show.kind == ShowKind::kGrants) return std::nullopt;
        return OnDatabase(access::kSelect, "mysql");
      }
      default:
        return std::nullopt;
    }
  }
  std::optional<mysql::SqlError> Check(const SetStmt& set, const Statement&) const {
    for (const SetAssignment& a : set.assignments) {
      if (a.kind == SetAssignment::Kind::kSystemVar &&
          (a.scope == VarScope::kGlobal || a.scope == VarScope::kPersist ||
           a.scope == VarScope::kPersistOnly)) {
        return Global(access::kSuper, "SUPER or SYSTEM_VARIABLES_ADMIN");
      }
    }
    return std::nullopt;
  }
  std::optional<mysql::SqlError> Check(const SetTransactionStmt& set, const Statement&) const {
    if (set.scope != VarScope::kGlobal) return std::nullopt;
    return Global(access::kSuper, "SUPER or SYSTEM_VARIABLES_ADMIN");
  }
  std::optional<mysql::SqlError> Check(const ExplainStmt& explain, const Statement&) const {
    return explain.statement ? Checker(account_, state_).Run(*explain.statement) : std::nullopt;
  }
  std::optional<mysql::SqlError> Check(const FlushStmt&, const Statement&) const {
    return Global(access::kReload, "RELOAD");
  }
  std::optional<mysql::SqlError> Check(const AccountStmt& stmt, const Statement&) const {
    bool self = stmt.accounts.size() == 1 &&
                (stmt.accounts[0].name.current_user ||
                 (stmt.accounts[0].name.user == account_.user() &&
                  absl::EqualsIgnoreCase(stmt.accounts[0].name.host, account_.host())));
    switch (stmt.kind) {
      case AccountStmt::Kind::kSetPassword:
        if (self) return std::nullopt;
        if ((account_.global_privileges() & access::kCreateUser) != 0) return std::nullopt;
        return mysql::errors::DatabaseAccessDenied(state_.user, state_.host, "mysql");
      case AccountStmt::Kind::kAlter:
        // One's own password, nothing else.
        if (self && !stmt.lock && !stmt.password_expire && !stmt.max_user_connections &&
            !stmt.failed_login_attempts && !stmt.password_lock_days) {
          return std::nullopt;
        }
        [[fallthrough]];
      default:
        return Global(access::kCreateUser, "CREATE USER");
    }
  }
  std::optional<mysql::SqlError> Check(const RoleStmt& stmt, const Statement&) const {
    switch (stmt.kind) {
      case RoleStmt::Kind::kCreate:
        if ((account_.global_privileges() & (access::kCreateRole | access::kCreateUser)) != 0) {
          return std::nullopt;
        }
        return mysql::errors::SpecificAccessDenied("CREATE ROLE or CREATE USER");
      case RoleStmt::Kind::kDrop:
        if ((account_.global_privileges() & (access::kDropRole | access::kCreateUser)) != 0) {
          return std::nullopt;
        }
        return mysql::errors::SpecificAccessDenied("DROP ROLE or CREATE USER");
      case RoleStmt::Kind::kSetDefault:
        // One's own default roles need nothing.
        if (stmt.accounts.size() == 1 && stmt.accounts[0].user == account_.user() &&
            absl::EqualsIgnoreCase(stmt.accounts[0].host, account_.host())) {
          return std::nullopt;
        }
        return Global(access::kCreateUser, "CREATE USER");
      default:
        return std::nullopt;  // GRANT/REVOKE of roles check when they run (exec_role.cc)
    }
  }
  // GRANT and REVOKE check what they give or take when they run (exec_account.cc); the rest
  // needs nothing.
  template <typename Node>
  std::optional<mysql::SqlError> Check(const Node&, const Statement&) const {
    return std::nullopt;
  }

  const wire::Account& account_;
  const SessionState& state_;
};

}  // namespace

std::shared_ptr<const wire::AccessControl> EffectiveAccess(const SessionState& state) {
  if (std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(state);
      dictionary != nullptr && dictionary->access.generation() > 0) {
    return std::shared_ptr<const wire::AccessControl>(dictionary, &dictionary->access);
  }
  return state.server == nullptr ? nullptr : state.server->seed_access;
}

const wire::Account* SessionAccount(const wire::AccessControl& access, const SessionState& state) {
  return access::FindAccount(access, state.user, state.account_host);
}

namespace {

// `account`, or with roles active, the account with their privileges added, made in `*merged`.
const wire::Account* WithActiveRoles(const wire::AccessControl& access, const SessionState& state,
                                     const wire::Account* account, wire::Account* merged) {
  if (account == nullptr || state.active_roles.empty()) return account;
  *merged = access::WithRoles(access, *account, state.active_roles);
  return merged;
}

}  // namespace

const wire::Account* SessionPrivileges(const wire::AccessControl& access, const SessionState& state,
                                       wire::Account* merged) {
  return WithActiveRoles(access, state, SessionAccount(access, state), merged);
}

namespace {

// CheckPrivileges, and before it, when `count`, the statement counted as one the account runs.
std::optional<mysql::SqlError> Check(const Statement& stmt, const SessionState& state, bool count) {
  // Grants changed through another router are checked as they are now (the data nodes tell
  // every router of a change: Connections::AnnounceDictionary).
  if (auto err = RequireCurrentDictionary(state)) return err;
  std::shared_ptr<const wire::AccessControl> access = EffectiveAccess(state);
  if (access == nullptr) return std::nullopt;
  const wire::Account* own = SessionAccount(*access, state);
  if (count && own != nullptr && access::ResourceCounts::HasHourlyLimits(*own) &&
      state.server != nullptr && state.server->resource_counts != nullptr) {
    if (auto err = state.server->resource_counts->CountStatement(*own, access->resource_epoch(),
                                                                 ChangesData(stmt), absl::Now())) {
      return err;
    }
  }
  wire::Account merged;
  const wire::Account* account = WithActiveRoles(*access, state, own, &merged);
  if (account == nullptr) account = &wire::Account::default_instance();
  if (account->password_expired()) {
    // MySQL's sandbox mode: only a new password (for oneself) is allowed.
    const auto* change = std::get_if<AccountStmt>(&stmt.node);
    bool own_password = change != nullptr &&
                        (change->kind == AccountStmt::Kind::kSetPassword ||
                         change->kind == AccountStmt::Kind::kAlter) &&
                        change->accounts.size() == 1 && change->accounts[0].identified;
    if (!own_password) return mysql::errors::MustChangePassword();
  }
  // Most sessions belong to an account that may do everything: nothing to walk.
  const Privileges kEverything = access::AllAt(access::Level::kGlobal);
  if ((account->global_privileges() & kEverything) == kEverything) return std::nullopt;
  std::optional<mysql::SqlError> denied = Checker(*account, state).Run(stmt);
  // A GRANT made through another router a moment ago may not be announced here yet: a denial
  // is only given against the dictionary as it is now.
  if (denied.has_value()) {
    if (auto err = WantRefresh(state)) return err;
  }
  return denied;
}

}  // namespace

bool ChangesData(const Statement& stmt) {
  return std::visit(
      [](const auto& node) {
        using T = std::decay_t<decltype(node)>;
        return std::is_same_v<T, InsertStmt> || std::is_same_v<T, UpdateStmt> ||
               std::is_same_v<T, DeleteStmt> || std::is_same_v<T, LoadDataStmt> ||
               std::is_same_v<T, CreateTableStmt> || std::is_same_v<T, CreateDatabaseStmt> ||
               std::is_same_v<T, DropDatabaseStmt> || std::is_same_v<T, DropTableStmt> ||
               std::is_same_v<T, CreateIndexStmt> || std::is_same_v<T, DropIndexStmt> ||
               std::is_same_v<T, TruncateStmt> || std::is_same_v<T, AlterTableStmt> ||
               std::is_same_v<T, RenameTableStmt> || std::is_same_v<T, CreateViewStmt> ||
               std::is_same_v<T, DropViewStmt> || std::is_same_v<T, AccountStmt> ||
               std::is_same_v<T, GrantStmt> || std::is_same_v<T, RoleStmt>;
      },
      stmt.node);
}

std::optional<mysql::SqlError> CheckPrivileges(const Statement& stmt, const SessionState& state) {
  return Check(stmt, state, /*count=*/false);
}

std::optional<mysql::SqlError> CheckToRun(const Statement& stmt, const SessionState& state) {
  return Check(stmt, state, /*count=*/true);
}

void ActivateDefaultRoles(SessionState* state) {
  state->active_roles.clear();
  std::shared_ptr<const wire::AccessControl> access = EffectiveAccess(*state);
  const wire::Account* account = access == nullptr ? nullptr : SessionAccount(*access, *state);
  if (account == nullptr) return;
  for (const wire::AccountRef& role : account->default_roles()) {
    if (access::GrantedRole(*account, role.user(), role.host()) != nullptr) {
      state->active_roles.emplace_back(role.user(), role.host());
    }
  }
}

bool SessionSeesDatabase(const SessionState& state, absl::string_view database) {
  std::shared_ptr<const wire::AccessControl> access = EffectiveAccess(state);
  if (access == nullptr || IsInformationSchema(database)) return true;
  wire::Account merged;
  const wire::Account* account = SessionPrivileges(*access, state, &merged);
  return account != nullptr && access::SeesDatabase(*account, database);
}

bool SessionSeesTable(const SessionState& state, absl::string_view database,
                      absl::string_view table) {
  std::shared_ptr<const wire::AccessControl> access = EffectiveAccess(state);
  if (access == nullptr || IsInformationSchema(database)) return true;
  wire::Account merged;
  const wire::Account* account = SessionPrivileges(*access, state, &merged);
  return account != nullptr && access::SeesTable(*account, database, table);
}

access::Privileges SessionGlobalPrivileges(const SessionState& state) {
  std::shared_ptr<const wire::AccessControl> access = EffectiveAccess(state);
  if (access == nullptr) return access::GrantableAt(access::Level::kGlobal);
  wire::Account merged;
  const wire::Account* account = SessionPrivileges(*access, state, &merged);
  return account == nullptr ? 0 : account->global_privileges();
}

}  // namespace shoal::sql
