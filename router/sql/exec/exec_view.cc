// CREATE VIEW, ALTER VIEW and DROP VIEW: checked here against the session's dictionary, as
// MySQL checks them, then made by the dictionary master (engine/wire dictionary.proto).
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/table_spec.h"
#include "router/sql/exec/view_expansion.h"
#include "router/sql/parse/ast_walk.h"

namespace shoal::sql::internal {
namespace {

mysql::SqlError VariableInView() {
  return {1351, "HY000", "View's SELECT contains a variable or parameter"};
}

bool ReadsVariables(const Statement& stmt) {
  bool found = false;
  WalkStatement(
      stmt, [](const TableRef&) {},
      [&](const Expr& e) {
        found = found || e.kind == ExprKind::kUserVar || e.kind == ExprKind::kAssignUser ||
                e.kind == ExprKind::kSysVar || e.kind == ExprKind::kParam;
      });
  return found;
}

std::string SessionText(absl::string_view variable, const SessionState& state) {
  const SysVarDef* def = FindSysVar(variable);
  return def == nullptr ? std::string() : ValueText(SessionValue(*def, state));
}

// The view's column names: its own list, or its SELECT's. 1353 for a list of another length,
// 1060 for a name twice (column names compare without case).
std::variant<std::vector<std::string>, mysql::SqlError> ViewColumnNames(
    const CreateViewStmt& stmt, const SelectStmt& select,
    const std::vector<mysql::ColumnDefinition>& typed) {
  std::vector<std::string> names;
  if (stmt.columns.empty()) {
    for (const mysql::ColumnDefinition& c : typed) names.push_back(c.name);
  } else {
    if (stmt.columns.size() != typed.size()) {
      return mysql::SqlError{1353, "HY000",
                             "In definition of view, derived table or common table expression, "
                             "SELECT list and column names list have different column counts"};
    }
    // The names replace the SELECT's item by item (view_expansion.cc): `*` has no item each.
    for (const SelectItem& item : select.items) {
      if (item.expr == nullptr)
        return mysql::errors::NotSupportedYet("a column list for a view of *");
    }
    names = stmt.columns;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (absl::EqualsIgnoreCase(names[i], names[j])) {
        return mysql::SqlError{1060, "42S21",
                               absl::StrCat("Duplicate column name '", names[i], "'")};
      }
    }
  }
  return names;
}

wire::View::CheckOption CheckOptionOf(CreateViewStmt::CheckOption option) {
  switch (option) {
    case CreateViewStmt::CheckOption::kCascaded:
      return wire::View::CASCADED;
    case CreateViewStmt::CheckOption::kLocal:
      return wire::View::LOCAL;
    case CreateViewStmt::CheckOption::kNone:
      break;
  }
  return wire::View::NONE;
}

}  // namespace

StatementResult ExecuteCreateView(const CreateViewStmt& stmt, const ExecContext& ctx) {
  const SessionState& s = *ctx.state;
  auto db = DatabaseOf(stmt.view, s);
  if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
  const std::string& database = std::get<std::string>(db);
  if (auto err = RequireDataNodes(s)) return *err;
  if (ctx.statement != nullptr && ctx.statement->param_count > 0) return VariableInView();
  // Typed now, on the tables as they are: a view of a missing table or column is refused.
  const ParseOptions options = SessionParseOptions(s);
  auto parsed = ParseViewSelect(stmt.select_text, s.database,
                                absl::StrCat(database, ".", stmt.view.name), s, options);
  if (auto* err = std::get_if<mysql::SqlError>(&parsed)) return *err;
  const Statement& select_stmt = std::get<Statement>(parsed);
  if (ReadsVariables(select_stmt)) return VariableInView();
  const SelectStmt& select = std::get<SelectStmt>(select_stmt.node);
  auto typed = select.unions.empty() ? SingleSelectColumns(select, s) : UnionColumns(select, s);
  if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
  auto names = ViewColumnNames(stmt, select, std::get<std::vector<mysql::ColumnDefinition>>(typed));
  if (auto* err = std::get_if<mysql::SqlError>(&names)) return *err;

  wire::DictReq request;
  wire::CreateView* create = request.mutable_create_view();
  create->set_or_replace(stmt.or_replace);
  create->set_must_exist(stmt.alter);
  wire::View* view = create->mutable_view();
  view->set_database(database);
  view->set_name(stmt.view.name);
  view->set_select(stmt.select_text);
  view->set_default_database(s.database);
  for (std::string& name : std::get<std::vector<std::string>>(names)) view->add_columns(name);
  view->set_has_column_list(!stmt.columns.empty());
  // CURRENT_USER: the account the session matched, which is any host (CURRENT_USER()).
  view->set_definer(stmt.definer_user.empty()
                        ? absl::StrCat(QuoteIdentifier(s.user), "@", QuoteIdentifier("%"))
                        : absl::StrCat(QuoteIdentifier(stmt.definer_user), "@",
                                       QuoteIdentifier(stmt.definer_host)));
  view->set_security_invoker(stmt.security == CreateViewStmt::Security::kInvoker);
  view->set_check_option(CheckOptionOf(stmt.check_option));
  view->set_algorithm(stmt.algorithm);
  WalkStatement(
      select_stmt,
      [&](const TableRef& ref) {
        if (ref.derived || ref.table.name.empty()) return;
        for (const wire::ObjectName& read : view->reads()) {
          if (read.database() == ref.table.database && read.name() == ref.table.name) return;
        }
        wire::ObjectName* read = view->add_reads();
        read->set_database(ref.table.database);
        read->set_name(ref.table.name);
      },
      [](const Expr&) {});
  view->set_character_set_client(SessionText("character_set_client", s));
  view->set_collation_connection(SessionText("collation_connection", s));
  view->set_ansi_quotes(options.double_quotes == DoubleQuotes::kIdentifier);
  view->set_pipes_as_concat(options.pipes_as_concat);
  view->set_no_backslash_escapes(options.escapes == BackslashEscapes::kOff);
  return RunDictionary(std::move(request), ctx, OkResult{});
}

StatementResult ExecuteDropView(const DropViewStmt& stmt, const ExecContext& ctx) {
  wire::DropViews all;
  all.set_if_exists(stmt.if_exists);
  for (const TableName& name : stmt.views) {
    auto db = DatabaseOf(name, *ctx.state);
    if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
    wire::ObjectName* named = all.add_names();
    named->set_database(std::get<std::string>(std::move(db)));
    named->set_name(name.name);
  }
  // Without IF EXISTS all or none go, in one request; with it, one request a view, so that
  // each missing one gets its own note.
  std::vector<wire::DictReq> requests;
  if (!stmt.if_exists) {
    *requests.emplace_back().mutable_drop_views() = std::move(all);
  } else {
    for (const wire::ObjectName& name : all.names()) {
      wire::DropViews* one = requests.emplace_back().mutable_drop_views();
      one->set_if_exists(true);
      *one->add_names() = name;
    }
  }
  return RunDictionary(std::move(requests), ctx,
                       [](SessionState*, const wire::DictConf&) { return OkResult{}; });
}

}  // namespace shoal::sql::internal
