#include "router/sql/exec/subqueries.h"

#include <vector>

#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/information_schema.h"
#include "router/sql/exec/table_access.h"

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
  for (const SelectStmt::UnionPart& part : select.unions) CollectSelect(*part.select, out);
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
    if (i->select) CollectSelect(*i->select, &out);
    assignments(i->on_duplicate);
  } else if (const auto* set = std::get_if<SetStmt>(&stmt.node)) {
    for (const SetAssignment& a : set->assignments) Collect(a.value.get(), &out);
  } else if (const auto* do_stmt = std::get_if<DoStmt>(&stmt.node)) {
    for (const ExprPtr& e : do_stmt->exprs) Collect(e.get(), &out);
  }
  return out;
}

// The result of subquery `e`, kept in `results` for evaluation; an error fails the statement.
std::optional<mysql::SqlError> Keep(const Expr& e, StatementResult result,
                                    SubqueryResults* results) {
  if (auto* err = std::get_if<mysql::SqlError>(&result)) {
    if (err->code == 1054) return mysql::errors::NotSupportedYet("correlated subqueries");
    return *err;
  }
  auto* rows = std::get_if<mysql::ResultSet>(&result);
  if (rows == nullptr) return mysql::errors::NotSupportedYet("subqueries here");
  if (e.kind != ExprKind::kExists && rows->columns.size() != 1) {
    return mysql::SqlError{1241, "21000", "Operand should contain 1 column(s)"};
  }
  SubqueryResult& r = (*results)[&e];
  r.column_count = rows->columns.size();
  if (!rows->columns.empty()) r.column = rows->columns[0];
  r.values.reserve(rows->rows.size());
  for (std::vector<mysql::Value>& row : rows->rows) {
    r.values.push_back(row.empty() ? mysql::Value{} : std::move(row[0]));
  }
  return std::nullopt;
}

// Subqueries that read the data nodes, run one after another (each a child statement), then
// the statement itself; delivers the statement's result unless the statement delivers it.
class SubqueryRun : public ParentStatement {
 public:
  SubqueryRun(const ExecContext& ctx, const Statement& stmt, std::vector<const Expr*> pending,
              std::shared_ptr<SubqueryResults> results)
      : ParentStatement(ctx),
        stmt_(stmt),
        pending_(std::move(pending)),
        results_(std::move(results)) {}

  // Runs subqueries until one waits for the data nodes, or all are done and the statement runs.
  void Next() {
    while (next_ < pending_.size()) {
      ExecContext child = context();
      child.parent = this;
      child.subqueries = results_;
      StatementResult result = ExecuteSelect(*pending_[next_]->subquery, child);
      if (std::holds_alternative<Deferred>(result)) return;  // StatementDone goes on
      if (!Took(std::move(result))) return;
    }
    ExecContext main = context();
    main.subqueries = results_;
    StatementResult result = RunStatementNode(stmt_, main);
    if (std::holds_alternative<Deferred>(result)) {
      delete this;  // the statement delivers its own result
      return;
    }
    if (WaitedForDictionary()) return;
    Deliver(std::move(result));
  }

  void StatementDone(StatementResult result) override {
    if (state() == nullptr) return Deliver(OkResult{});  // orphaned: nobody reads it
    if (Took(std::move(result))) Next();
  }

 private:
  // Keeps a subquery's result; false when the statement ended (an error delivered).
  bool Took(StatementResult result) {
    if (WaitedForDictionary()) return false;
    if (auto err = Keep(*pending_[next_], std::move(result), results_.get())) {
      Deliver(std::move(*err));
      return false;
    }
    ++next_;
    return true;
  }

  const Statement& stmt_;
  std::vector<const Expr*> pending_;
  std::shared_ptr<SubqueryResults> results_;
  size_t next_ = 0;
};

}  // namespace

StatementResult RunWithSubqueries(const Statement& stmt, const ExecContext& ctx) {
  std::vector<const Expr*> subqueries = CollectStatement(stmt);
  bool here = true;
  for (const Expr* e : subqueries) {
    if (e->kind == ExprKind::kInSubquery && e->args[0]->kind == ExprKind::kRow) {
      return mysql::errors::NotSupportedYet("row subqueries");
    }
    here = here && ReadsOnlyRouter(*e->subquery, *ctx.state);
  }
  auto results = std::make_shared<SubqueryResults>();
  if (here) {
    ExecContext with = ctx;
    with.subqueries = results;  // inner subqueries are read by the outer ones as they run
    for (const Expr* e : subqueries) {
      if (auto err = Keep(*e, ExecuteSelect(*e->subquery, with), results.get())) return *err;
    }
    return RunStatementNode(stmt, with);
  }
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  auto* run = new SubqueryRun(ctx, stmt, std::move(subqueries), std::move(results));
  run->Next();
  return Deferred{};
}

bool ReadsOnlyRouter(const SelectStmt& select, const SessionState& state) {
  for (const SelectStmt::UnionPart& part : select.unions) {
    if (!ReadsOnlyRouter(*part.select, state)) return false;
  }
  if (!select.from) return true;
  if (!select.joins.empty()) return false;  // a join runs on the data nodes' time
  if (select.from->derived) return ReadsOnlyRouter(*select.from->derived, state);
  return ReadsInformationSchema(*select.from, state);
}

}  // namespace shoal::sql::internal
