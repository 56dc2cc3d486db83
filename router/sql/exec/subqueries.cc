#include "router/sql/exec/subqueries.h"

#include <algorithm>
#include <vector>

#include "router/sql/exec/access_plan.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_sleep.h"
#include "router/sql/exec/information_schema.h"
#include "router/sql/exec/semi_join.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

// What a statement computes before it runs: a subquery (its node), or a derived table that a
// join reads (its SELECT).
struct FirstPart {
  const Expr* subquery = nullptr;
  const SelectStmt* derived = nullptr;

  const SelectStmt& select() const { return subquery ? *subquery->subquery : *derived; }
};

void CollectSelect(const SelectStmt& select, std::vector<FirstPart>* out);

// Subquery nodes under `e`, each after the subqueries inside it.
void Collect(const Expr* e, std::vector<FirstPart>* out) {
  if (e == nullptr) return;
  for (const ExprPtr& a : e->args) Collect(a.get(), out);
  if (e->subquery) {
    CollectSelect(*e->subquery, out);
    out->push_back({e, nullptr});
  }
}

// A derived table's own subqueries; then the table itself, if it is computed first.
void CollectDerived(const SelectStmt& outer, const SelectStmt& derived,
                    std::vector<FirstPart>* out) {
  if (derived.recursive_rows) return;  // a recursive common table's rounds give those
  if (derived.common_table != 0 &&
      std::any_of(out->begin(), out->end(), [&](const FirstPart& part) {
        return part.derived != nullptr && part.derived->common_table == derived.common_table;
      })) {
    return;  // another reference to the common table computes it for this one
  }
  CollectSelect(derived, out);
  if (DerivedComputedFirst(outer, derived)) out->push_back({nullptr, &derived});
}

// The select list's and ORDER BY's subqueries but those that run as scalar join steps
// (semi_join.h).
void CollectItems(const SelectStmt& select, std::vector<FirstPart>* out) {
  std::vector<SemiJoin> scalars = ScalarJoins(select);
  std::vector<FirstPart> found;
  for (const SelectItem& item : select.items) Collect(item.expr.get(), &found);
  for (const OrderItem& o : select.order_by) Collect(o.expr.get(), &found);
  for (const FirstPart& part : found) {
    // (A scalar join's subquery holds no subquery of its own: SemiJoins refuses those.)
    bool joined = std::any_of(scalars.begin(), scalars.end(),
                              [&](const SemiJoin& s) { return part.subquery == s.conjunct; });
    if (!joined) out->push_back(part);
  }
}

void CollectSelect(const SelectStmt& select, std::vector<FirstPart>* out) {
  CollectItems(select, out);
  for (const SelectStmt::UnionPart& part : select.unions) CollectSelect(*part.select, out);
  if (select.from && select.from->derived) CollectDerived(select, *select.from->derived, out);
  for (const JoinClause& join : select.joins) {
    if (join.table.derived) CollectDerived(select, *join.table.derived, out);
    Collect(join.on.get(), out);
  }
  // Correlated subqueries that run as semi-joins are steps of the statement's join instead.
  std::vector<SemiJoin> semis = SemiJoins(select);
  std::vector<const Expr*> where;
  Conjuncts(select.where.get(), &where);
  std::vector<SemiJoin> scalars = ScalarJoins(select);
  for (const Expr* c : where) {
    bool semi =
        std::any_of(semis.begin(), semis.end(), [&](const SemiJoin& s) { return s.conjunct == c; });
    if (semi) continue;
    std::vector<FirstPart> found;
    Collect(c, &found);
    for (const FirstPart& part : found) {
      bool joined = std::any_of(scalars.begin(), scalars.end(),
                                [&](const SemiJoin& s) { return part.subquery == s.conjunct; });
      if (!joined) out->push_back(part);
    }
  }
  for (const ExprPtr& g : select.group_by) Collect(g.get(), out);
  Collect(select.having.get(), out);
}

std::vector<FirstPart> CollectStatement(const Statement& stmt) {
  std::vector<FirstPart> out;
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
  } else if (const auto* create = std::get_if<CreateTableStmt>(&stmt.node)) {
    if (create->insert_select) CollectSelect(*create->insert_select->select, &out);
  } else if (const auto* set = std::get_if<SetStmt>(&stmt.node)) {
    for (const SetAssignment& a : set->assignments) Collect(a.value.get(), &out);
  } else if (const auto* do_stmt = std::get_if<DoStmt>(&stmt.node)) {
    for (const ExprPtr& e : do_stmt->exprs) Collect(e.get(), &out);
  }
  return out;
}

// The results of a statement's first parts, as its evaluation and its joins read them.
struct Computed {
  std::shared_ptr<SubqueryResults> subqueries = std::make_shared<SubqueryResults>();
  std::shared_ptr<DerivedTables> derived = std::make_shared<DerivedTables>();

  void Into(ExecContext* ctx) const {
    ctx->subqueries = subqueries;  // inner subqueries are read by the outer ones as they run
    ctx->derived_tables = derived;
  }

  // Keeps the result of `part`; an error fails the statement.
  std::optional<mysql::SqlError> Keep(const FirstPart& part, StatementResult result) {
    if (auto* err = std::get_if<mysql::SqlError>(&result)) {
      if (err->code == 1054) return mysql::errors::NotSupportedYet("correlated subqueries");
      return *err;
    }
    auto* rows = std::get_if<mysql::ResultSet>(&result);
    if (rows == nullptr) return mysql::errors::NotSupportedYet("subqueries here");
    if (part.derived != nullptr) {
      derived->results[part.derived] = std::move(*rows);
      if (part.derived->common_table != 0) {
        derived->common_tables[part.derived->common_table] = part.derived;
      }
      return std::nullopt;
    }
    const Expr& e = *part.subquery;
    if (e.kind != ExprKind::kExists && rows->columns.size() != 1) {
      return mysql::SqlError{1241, "21000", "Operand should contain 1 column(s)"};
    }
    SubqueryResult& r = (*subqueries)[&e];
    r.column_count = rows->columns.size();
    if (!rows->columns.empty()) r.column = rows->columns[0];
    r.values.reserve(rows->rows.size());
    for (std::vector<mysql::Value>& row : rows->rows) {
      r.values.push_back(row.empty() ? mysql::Value{} : std::move(row[0]));
    }
    return std::nullopt;
  }
};

// First parts that read the data nodes, run one after another (each a child statement), then
// the statement itself; delivers the statement's result unless the statement delivers it.
class SubqueryRun : public ParentStatement {
 public:
  SubqueryRun(const ExecContext& ctx, const Statement& stmt, std::vector<FirstPart> pending)
      : ParentStatement(ctx), stmt_(stmt), pending_(std::move(pending)) {
    computed_.derived->outer = ctx.derived_tables;
  }

  // Runs the next first part, or the statement once they are all done.
  void Next() {
    if (next_ < pending_.size()) {
      ExecContext child = context();
      computed_.Into(&child);
      return RunChild(pending_[next_].select(), std::move(child));
    }
    ExecContext main = context();
    computed_.Into(&main);
    StatementResult result = RunStatementNode(stmt_, main);
    if (std::holds_alternative<Deferred>(result)) {
      delete this;  // the statement delivers its own result
      return;
    }
    if (WaitedForDictionary()) return;
    Deliver(std::move(result));
  }

 private:
  void ChildDone(StatementResult result) override {
    if (auto err = computed_.Keep(pending_[next_], std::move(result))) return Deliver(*err);
    ++next_;
    Next();
  }

  const Statement& stmt_;
  std::vector<FirstPart> pending_;
  Computed computed_;
  size_t next_ = 0;
};

}  // namespace

StatementResult RunWithSubqueries(const Statement& stmt, const ExecContext& ctx) {
  std::vector<FirstPart> parts = CollectStatement(stmt);
  bool here = true;
  for (const FirstPart& part : parts) {
    const Expr* e = part.subquery;
    if (e != nullptr && e->kind == ExprKind::kInSubquery && e->args[0]->kind == ExprKind::kRow) {
      return mysql::errors::NotSupportedYet("row subqueries");
    }
    here = here && ReadsOnlyRouter(part.select(), *ctx.state);
  }
  if (here) {
    Computed computed;
    computed.derived->outer = ctx.derived_tables;
    ExecContext with = ctx;
    computed.Into(&with);
    for (const FirstPart& part : parts) {
      if (auto err = computed.Keep(part, ExecuteSelect(part.select(), with))) return *err;
    }
    return RunStatementNode(stmt, with);
  }
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  auto* run = new SubqueryRun(ctx, stmt, std::move(parts));
  run->Next();
  return Deferred{};
}

bool ReadsOnlyRouter(const SelectStmt& select, const SessionState& state) {
  // A SELECT that sleeps waits as a deferred statement does, so it runs as a child statement.
  if (CallsSleep(select)) return false;
  for (const SelectStmt::UnionPart& part : select.unions) {
    if (!ReadsOnlyRouter(*part.select, state)) return false;
  }
  if (!select.from) return true;
  if (!select.joins.empty()) return false;  // a join runs on the data nodes' time
  if (select.from->derived) {
    // One computed first is read by the join engine, which takes the data nodes' time.
    return !DerivedComputedFirst(select, *select.from->derived) &&
           ReadsOnlyRouter(*select.from->derived, state);
  }
  return ReadsInformationSchema(*select.from, state);
}

}  // namespace shoal::sql::internal
