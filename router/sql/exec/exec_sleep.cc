// SLEEP(n) in a SELECT without tables and in DO, without stalling the worker: the statement is
// evaluated at once, each SLEEP answering 0 and adding its seconds to what the statement waits
// for (EvalContext::sleep), and its result waits on the worker's event loop
// (DataAccess::After) — the loop serves every other session meanwhile — before it goes to the
// session. KILL QUERY ends the wait (looked for every 20 ms): a statement that is one SLEEP then
// answers 1, anything more 1317, as MySQL's. Over a table's rows, whose expressions are
// evaluated as the rows come, SLEEP answers 1235.
#include "router/sql/exec/exec_sleep.h"

#include <algorithm>
#include <utility>

#include "router/sql/exec/async_statement.h"

namespace shoal::sql::internal {
namespace {

constexpr absl::Duration kKillCheck = absl::Milliseconds(20);

bool IsSleepCall(const Expr* e) {
  return e != nullptr && e->kind == ExprKind::kFunction && e->window == nullptr &&
         e->name == "SLEEP";
}

bool CallsSleep(const Expr& e) {
  if (IsSleepCall(&e)) return true;
  return std::any_of(e.args.begin(), e.args.end(),
                     [](const ExprPtr& a) { return a != nullptr && CallsSleep(*a); });
}

// A statement waiting out its SLEEPs before it delivers the result it already has.
class SleepRun : public AsyncStatement {
 public:
  SleepRun(const ExecContext& ctx, StatementResult result, absl::Duration wait, bool only_sleep)
      : AsyncStatement(ctx),
        result_(std::move(result)),
        until_(absl::Now() + wait),
        only_sleep_(only_sleep) {}

  // Delivers, or waits some more: until the end, or the next look for a KILL QUERY.
  void Next() {
    if (state() == nullptr) return Deliver(OkResult{});  // orphaned: nobody reads it
    if (state()->process != nullptr && state()->process->interrupted()) {
      return Deliver(Interrupted());
    }
    const absl::Duration left = until_ - absl::Now();
    if (left <= absl::ZeroDuration()) return Deliver(std::move(result_));
    if (!data()->After(std::min(left, kKillCheck), [this] { Next(); })) {
      Deliver(std::move(result_));
    }
  }

 private:
  StatementResult Interrupted() {
    if (!only_sleep_) return mysql::errors::QueryInterrupted();
    if (auto* rows = std::get_if<mysql::ResultSet>(&result_); rows != nullptr) {
      for (std::vector<mysql::Value>& row : rows->rows) row[0] = int64_t{1};
    }
    return std::move(result_);
  }

  StatementResult result_;
  absl::Time until_;
  bool only_sleep_;
};

}  // namespace

bool CallsSleep(const SelectStmt& select) {
  for (const SelectItem& item : select.items) {
    if (item.expr != nullptr && CallsSleep(*item.expr)) return true;
  }
  return select.where != nullptr && CallsSleep(*select.where);
}

bool IsOnlySleep(const std::vector<const Expr*>& exprs) {
  return exprs.size() == 1 && IsSleepCall(exprs[0]);
}

StatementResult WaitBeforeDelivering(StatementResult result, absl::Duration wait, bool only_sleep,
                                     const ExecContext& ctx) {
  if (wait <= absl::ZeroDuration() || ctx.state->data == nullptr ||
      std::holds_alternative<mysql::SqlError>(result)) {
    return result;
  }
  if (ctx.state->process != nullptr) ctx.state->process->SetState("User sleep");
  auto* run = new SleepRun(ctx, std::move(result), wait, only_sleep);
  run->Next();
  return Deferred{};
}

}  // namespace shoal::sql::internal
