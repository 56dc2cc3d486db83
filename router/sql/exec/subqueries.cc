#include "router/sql/exec/subqueries.h"

#include <vector>

#include "router/sql/exec/information_schema.h"

namespace shoal::sql::internal {
namespace {

void CollectSelect(const SelectStmt& select, std::vector<const Expr*>* out);

// Subquery nodes under `e`, each after the subqueries inside it.
void Collect(const Expr* e, std::vector<const Expr*>* out) {
  if (e == nullptr) return;
  for (const ExprPtr& a : e->args) Collect(a.get(), out);
  if (e->subquery) {
    CollectSelect(*e->subquery, out);
    out->push_back(e);
  }
}

void CollectSelect(const SelectStmt& select, std::vector<const Expr*>* out) {
  for (const SelectItem& item : select.items) Collect(item.expr.get(), out);
  if (select.from && select.from->derived) CollectSelect(*select.from->derived, out);
  for (const JoinClause& join : select.joins) {
    if (join.table.derived) CollectSelect(*join.table.derived, out);
    Collect(join.on.get(), out);
  }
  Collect(select.where.get(), out);
  for (const ExprPtr& g : select.group_by) Collect(g.get(), out);
  Collect(select.having.get(), out);
  for (const OrderItem& o : select.order_by) Collect(o.expr.get(), out);
}

std::vector<const Expr*> CollectStatement(const Statement& stmt) {
  std::vector<const Expr*> out;
  auto assignments = [&](const std::vector<Assignment>& list) {
    for (const Assignment& a : list) Collect(a.value.get(), &out);
  };
  if (const auto* s = std::get_if<SelectStmt>(&stmt.node)) {
    CollectSelect(*s, &out);
  } else if (const auto* u = std::get_if<UpdateStmt>(&stmt.node)) {
    assignments(u->set);
    Collect(u->where.get(), &out);
  } else if (const auto* d = std::get_if<DeleteStmt>(&stmt.node)) {
    Collect(d->where.get(), &out);
  } else if (const auto* i = std::get_if<InsertStmt>(&stmt.node)) {
    for (const auto& row : i->rows) {
      for (const ExprPtr& v : row) Collect(v.get(), &out);
    }
    assignments(i->on_duplicate);
  } else if (const auto* set = std::get_if<SetStmt>(&stmt.node)) {
    for (const SetAssignment& a : set->assignments) Collect(a.value.get(), &out);
  } else if (const auto* do_stmt = std::get_if<DoStmt>(&stmt.node)) {
    for (const ExprPtr& e : do_stmt->exprs) Collect(e.get(), &out);
  }
  return out;
}

// Whether the router has what `select` reads at hand.
bool ComputableHere(const SelectStmt& select, const SessionState& state) {
  if (!select.from) return true;
  if (!select.joins.empty()) return false;  // a join runs on the data nodes' time
  if (select.from->derived) return ComputableHere(*select.from->derived, state);
  return ReadsInformationSchema(*select.from, state);
}

}  // namespace

std::optional<mysql::SqlError> ComputeSubqueries(const Statement& stmt, ExecContext* ctx) {
  auto results = std::make_shared<SubqueryResults>();
  ctx->subqueries = results;  // inner subqueries are read by the outer ones as they run
  for (const Expr* e : CollectStatement(stmt)) {
    if (e->kind == ExprKind::kInSubquery && e->args[0]->kind == ExprKind::kRow) {
      return mysql::errors::NotSupportedYet("row subqueries");
    }
    if (!ComputableHere(*e->subquery, *ctx->state)) {
      return mysql::errors::NotSupportedYet("subqueries that read tables");
    }
    StatementResult result = ExecuteSelect(*e->subquery, *ctx);
    if (auto* err = std::get_if<mysql::SqlError>(&result)) {
      if (err->code == 1054) return mysql::errors::NotSupportedYet("correlated subqueries");
      return *err;
    }
    auto* rows = std::get_if<mysql::ResultSet>(&result);
    if (rows == nullptr) return mysql::errors::NotSupportedYet("subqueries here");
    if (e->kind != ExprKind::kExists && rows->columns.size() != 1) {
      return mysql::SqlError{1241, "21000", "Operand should contain 1 column(s)"};
    }
    SubqueryResult& r = (*results)[e];
    r.column_count = rows->columns.size();
    if (!rows->columns.empty()) r.column = rows->columns[0];
    r.values.reserve(rows->rows.size());
    for (std::vector<mysql::Value>& row : rows->rows) {
      r.values.push_back(row.empty() ? mysql::Value{} : std::move(row[0]));
    }
  }
  return std::nullopt;
}

}  // namespace shoal::sql::internal
