// WITH RECURSIVE: a recursive common table's rows, made in rounds as MySQL 8.0 makes them.
// Its non-recursive SELECTs run first, each as it would alone; their rows, typed as their
// union is, are round 0 and fix the table's columns. Each round then runs every recursive
// SELECT over the rows the round before made (the derived table marked recursive_rows, given
// through ExecContext::derived_tables) and keeps what they make — converted to the table's
// columns, and without the rows already there when a UNION DISTINCT joins the SELECTs — until
// a round makes none, or a LIMIT written after the last SELECT has its rows (MySQL 8.0.19's
// rule: the rows made first, OFFSET of them skipped, even in the middle of a round). More
// rounds than @@cte_max_recursion_depth end it with 3636, more rows than the router keeps for
// one table with 1114, text longer than its column with 1406.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "router/sql/eval/expr_eval.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/exec/aggregates.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

using Values = std::vector<mysql::Value>;

// Rows and bytes (its text, and a value's own size for each value) one recursive common table
// may hold in the router: beyond, 1114 (MySQL's temporary table would go to disk; a router has
// only its memory).
constexpr size_t kMaxRows = size_t{1} << 22;
constexpr size_t kMaxBytes = size_t{1} << 30;

// Whether `e` holds an aggregate or a window function.
bool Aggregates(const Expr* e) {
  if (e == nullptr) return false;
  if (IsAggregate(*e) || (e->kind == ExprKind::kFunction && e->window != nullptr)) return true;
  return std::any_of(e->args.begin(), e->args.end(),
                     [](const ExprPtr& a) { return Aggregates(a.get()); });
}

// 3575 when a recursive SELECT aggregates: a round's rows are not a group of the table's.
std::optional<mysql::SqlError> CheckStep(const SelectStmt& step, const std::string& name) {
  bool aggregates = !step.group_by.empty() || Aggregates(step.having.get());
  for (const SelectItem& item : step.items) aggregates = aggregates || Aggregates(item.expr.get());
  if (!aggregates) return std::nullopt;
  return mysql::SqlError{3575, "HY000",
                         absl::StrCat("Recursive Common Table Expression '", name,
                                      "' can contain neither aggregation nor window functions "
                                      "in recursive query block")};
}

uint64_t MaxRounds(const SessionState& state) {
  mysql::Value v = SessionValue(*FindSysVar("cte_max_recursion_depth"), state);
  if (const auto* u = std::get_if<uint64_t>(&v)) return *u;
  if (const auto* i = std::get_if<int64_t>(&v)) return *i > 0 ? static_cast<uint64_t>(*i) : 0;
  return 1000;
}

// The derived tables of a recursive SELECT that stand for the round before.
std::vector<const SelectStmt*> RoundReaders(const SelectStmt& step) {
  std::vector<const SelectStmt*> out;
  auto add = [&](const TableRef& ref) {
    if (ref.derived && ref.derived->recursive_rows) out.push_back(ref.derived.get());
  };
  if (step.from) add(*step.from);
  for (const JoinClause& join : step.joins) add(join.table);
  return out;
}

// The SELECTs, then the rounds, each SELECT a child statement. A child the router answers at
// once answers inside RunChild: Run loops rather than recursing, so that many rounds do not
// grow the stack.
class RecursiveRun : public ParentStatement {
 public:
  RecursiveRun(const ExecContext& ctx, const SelectStmt& query, uint64_t offset, uint64_t wanted)
      : ParentStatement(ctx),
        offset_(offset),
        wanted_(wanted),
        name_(query.recursive->name),
        first_step_(query.recursive->first_step),
        max_rounds_(MaxRounds(*ctx.state)),
        outer_(ctx.derived_tables) {
    selects_.push_back(&query);
    for (const SelectStmt::UnionPart& part : query.unions) {
      selects_.push_back(part.select.get());
      distinct_ = distinct_ || !part.all;
    }
  }

  void Run(std::optional<StatementResult> answer) {
    running_ = true;
    for (;;) {
      if (answer.has_value()) {
        if (std::optional<StatementResult> end = Take(std::move(*answer))) {
          return Deliver(std::move(*end));
        }
      }
      answered_.reset();
      ExecContext child = context();
      if (next_ >= first_step_) child.derived_tables = round_before_;
      RunChild(*selects_[next_], std::move(child), /*without_union=*/true);
      if (!answered_.has_value()) {
        running_ = false;  // in flight: its answer comes to ChildDone
        return;
      }
      answer = std::move(answered_);
    }
  }

 private:
  void ChildDone(StatementResult result) override {
    if (running_) {
      answered_ = std::move(result);  // Run goes on with it
      return;
    }
    Run(std::move(result));
  }

  // Takes the answer of SELECT next_ and moves on; the statement's result once there is one.
  std::optional<StatementResult> Take(StatementResult answer) {
    auto* rows = std::get_if<mysql::ResultSet>(&answer);
    if (rows == nullptr) return answer;  // its error
    if (next_ < first_step_) {
      column_lists_.push_back(std::move(rows->columns));
      anchors_.push_back(std::move(rows->rows));
      if (++next_ < first_step_) return std::nullopt;
      auto columns = RecursiveTableColumns(column_lists_, *state());
      if (auto* err = std::get_if<mysql::SqlError>(&columns)) return *err;
      columns_ = std::get<std::vector<mysql::ColumnDefinition>>(std::move(columns));
      // A column's length is in bytes: characters × the bytes of its charset's widest one.
      const uint32_t widest = static_cast<uint32_t>(std::max(1, ResultCharsetMaxLen(*state())));
      for (const mysql::ColumnDefinition& column : columns_) {
        char_limits_.push_back(column.charset == mysql::charset::kBinary ? column.length
                                                                         : column.length / widest);
      }
      for (std::vector<Values>& anchor : anchors_) {
        if (auto err = Keep(std::move(anchor))) return *err;
      }
      anchors_.clear();
      return EndRound();
    }
    if (rows->columns.size() != columns_.size()) return mysql::errors::DifferentColumnCounts();
    if (auto err = Keep(std::move(rows->rows))) return *err;
    if (++next_ < selects_.size()) return std::nullopt;
    return EndRound();
  }

  // Adds the rows a SELECT made to the table (converted to its columns; each once, for
  // DISTINCT). Text longer than its column is 1406, as in MySQL's strict mode: a round that
  // doubles a string would otherwise grow it without end.
  std::optional<mysql::SqlError> Keep(std::vector<Values> made) {
    for (Values& row : made) {
      for (size_t c = 0; c < row.size(); ++c) {
        row[c] = ConvertToColumn(std::move(row[c]), columns_[c]);
        const auto* text = std::get_if<std::string>(&row[c]);
        bytes_ += sizeof(mysql::Value) + (text != nullptr ? text->size() : 0);
        if (text != nullptr && text->size() > char_limits_[c] &&
            Utf8CharCount(*text) > char_limits_[c]) {
          return mysql::SqlError{1406, "22001",
                                 absl::StrCat("Data too long for column '", columns_[c].name,
                                              "' at row ", rows_.size() + 1)};
        }
      }
      if (rows_.size() >= wanted_) break;  // the LIMIT has its rows: the others are not made
      if (distinct_ && !seen_.insert(UnionRowKey(row, columns_)).second) continue;
      if (rows_.size() >= kMaxRows || bytes_ > kMaxBytes) {
        return mysql::SqlError{1114, "HY000", absl::StrCat("The table '", name_, "' is full")};
      }
      rows_.push_back(std::move(row));
    }
    return std::nullopt;
  }

  // A round is over: the table, when it made no rows; else the next round over them.
  std::optional<StatementResult> EndRound() {
    if (rows_.size() == round_start_ || rows_.size() >= wanted_) {
      rows_.erase(rows_.begin(), rows_.begin() + static_cast<ptrdiff_t>(
                                                     std::min<uint64_t>(offset_, rows_.size())));
      return mysql::ResultSet{std::move(columns_), std::move(rows_)};
    }
    if (++round_ > max_rounds_) {
      return mysql::SqlError{
          3636, "HY000",
          absl::StrCat("Recursive query aborted after ", round_,
                       " iterations. Try increasing @@cte_max_recursion_depth to a larger value.")};
    }
    // The rows this round made are what the next one reads.
    auto round = std::make_shared<DerivedTables>();
    round->outer = outer_;
    mysql::ResultSet made;
    made.columns = columns_;
    made.rows.assign(rows_.begin() + static_cast<ptrdiff_t>(round_start_), rows_.end());
    for (size_t i = first_step_; i < selects_.size(); ++i) {
      for (const SelectStmt* reader : RoundReaders(*selects_[i])) round->results[reader] = made;
    }
    round_before_ = std::move(round);
    round_start_ = rows_.size();
    next_ = first_step_;
    return std::nullopt;
  }

  const uint64_t offset_;  // LIMIT's: rows made, then skipped
  const uint64_t wanted_;  // offset_ + LIMIT's count (UINT64_MAX: no LIMIT)
  const std::string name_;
  const size_t first_step_;
  const uint64_t max_rounds_;
  std::shared_ptr<const DerivedTables> outer_;
  std::vector<const SelectStmt*> selects_;
  bool distinct_ = false;

  size_t next_ = 0;                                                 // the SELECT running
  std::vector<std::vector<mysql::ColumnDefinition>> column_lists_;  // the anchors'
  std::vector<std::vector<Values>> anchors_;
  std::vector<mysql::ColumnDefinition> columns_;
  std::vector<uint32_t> char_limits_;      // the characters each column holds
  size_t bytes_ = 0;                       // of the rows made so far (kMaxBytes)
  std::vector<Values> rows_;               // the table so far
  absl::flat_hash_set<std::string> seen_;  // DISTINCT: the rows' keys
  size_t round_start_ = 0;                 // the first row of the round being read
  uint64_t round_ = 0;                     // the recursive round running (0: the anchors)
  std::shared_ptr<const DerivedTables> round_before_;

  bool running_ = false;
  std::optional<StatementResult> answered_;
};

}  // namespace

std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> RecursiveTableColumns(
    const std::vector<std::vector<mysql::ColumnDefinition>>& anchors, const SessionState& state) {
  auto columns = UnitedColumns(anchors, state);
  if (auto* list = std::get_if<std::vector<mysql::ColumnDefinition>>(&columns)) {
    for (mysql::ColumnDefinition& column : *list) column.flags &= ~mysql::column_flag::kNotNull;
  }
  return columns;
}

StatementResult ExecuteRecursive(const SelectStmt& query, const ExecContext& ctx) {
  for (size_t i = query.recursive->first_step; i <= query.unions.size(); ++i) {
    if (auto err = CheckStep(*query.unions[i - 1].select, query.recursive->name)) return *err;
  }
  uint64_t offset = 0;
  uint64_t wanted = UINT64_MAX;
  if (query.union_tail && query.union_tail->limit) {
    uint64_t count = 0;
    if (auto err = EvalLimit(*query.union_tail->limit, ctx, &offset, &count)) return *err;
    wanted = count > UINT64_MAX - offset ? UINT64_MAX : offset + count;
  }
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  auto* run = new RecursiveRun(ctx, query, offset, wanted);
  run->Run(std::nullopt);
  return Deferred{};
}

}  // namespace shoal::sql::internal
