#include "router/sql/exec/row_pipeline.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/schema/text_fold.h"
#include "protocol/constants.h"
#include "router/sql/eval/expr_internal.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/aggregates.h"
#include "router/sql/exec/fetched_columns.h"
#include "router/sql/exec/full_group_by.h"
#include "router/sql/exec/rollup.h"
#include "router/sql/exec/window_functions.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;
using Row = std::vector<Value>;

// A grouping key: the values' types and texts, unambiguous; strings that compare equal
// ('Paris', 'paris ') group together, as under MySQL's _ci collations — unless the value is of
// a binary collation (`collations[i]`, 0 where not known: a column COLLATE utf8mb4_bin, a
// VARBINARY), whose strings group byte for byte.
std::string GroupKey(const Row& values, const std::vector<uint16_t>& collations) {
  std::string key;
  for (size_t i = 0; i < values.size(); ++i) {
    const Value& v = values[i];
    std::string text = CollationKeyText(v, i < collations.size() ? collations[i] : 0);
    absl::StrAppend(&key, v.index(), ":", text.size(), ":", text, ";");
  }
  return key;
}

struct Group {
  size_t first_row;  // a representative row for the group's non-aggregated columns
  std::vector<Accumulator> accumulators;
  // WITH ROLLUP: how many GROUP BY items the group keeps, and their values (its sort keys).
  size_t level = 0;
  Row keys;
};

// One row of the result, with the ORDER BY keys that are not among its values.
struct OutputRow {
  Row values;
  Row sort_keys;
};

class Pipeline {
 public:
  Pipeline(const SelectStmt& select, FetchedRows fetched, const ExecContext& ctx, WhereCheck where)
      : select_(select), fetched_(std::move(fetched)), ctx_(ctx), where_(where) {}

  StatementResult Run() {
    auto cols =
        SelectListColumns(select_, fetched_.columns, ctx_, fetched_.star, &fetched_.row_subqueries);
    if (auto* err = std::get_if<mysql::SqlError>(&cols)) return *err;
    result_.columns = std::get<std::vector<ColumnDefinition>>(std::move(cols));
    if (auto err = Filter()) return *err;
    CollectAllAggregates();
    PlanOutput();
    if (select_.rollup) {
      if (auto err = PlanRollup()) return *err;
    }
    bool grouped = !aggregates_.empty() || !select_.group_by.empty();
    if (grouped && ctx_.state->only_full_group_by) {
      if (auto err = CheckGroupsDetermine()) return *err;
    }
    if (auto err = grouped ? EmitGroups() : EmitRows()) return *err;
    if (select_.distinct) Deduplicate();
    if (!select_.order_by.empty()) Sort();
    if (auto err = ApplyLimit()) return *err;
    result_.rows.reserve(output_.size());
    for (OutputRow& row : output_) {
      for (size_t i = 0; i < row.values.size(); ++i) {
        row.values[i] = ConvertToColumn(std::move(row.values[i]), result_.columns[i]);
      }
      result_.rows.push_back(std::move(row.values));
    }
    return std::move(result_);
  }

 private:
  EvalContext RowContext(const Row* row, absl::string_view clause) const {
    EvalContext eval = ctx_.Eval();
    eval.row_columns = &fetched_.columns;
    eval.row = row;
    eval.row_subqueries = &fetched_.row_subqueries;
    eval.clause = clause;
    eval.aggregate_types = &aggregate_types_;
    return eval;
  }

  std::optional<mysql::SqlError> Filter() {
    if (select_.where == nullptr || where_ == WhereCheck::kDone) return std::nullopt;
    std::vector<Row> kept;
    for (Row& row : fetched_.rows) {
      EvalContext eval = RowContext(&row, "where clause");
      eval.aggregate_types = nullptr;
      auto v = Evaluate(*select_.where, &eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      if (Truth(std::get<Value>(v)) == 1) kept.push_back(std::move(row));
    }
    fetched_.rows = std::move(kept);
    return std::nullopt;
  }

  void CollectAllAggregates() {
    for (const SelectItem& item : select_.items) {
      if (item.expr != nullptr) CollectAggregates(*item.expr, &aggregates_);
    }
    if (select_.having != nullptr) CollectAggregates(*select_.having, &aggregates_);
    for (const OrderItem& o : select_.order_by) CollectAggregates(*o.expr, &aggregates_);
    for (const Expr* call : aggregates_) {
      aggregate_types_[call] = AggregateType(*call, FirstArgType(*call), *ctx_.state);
    }
    // Window calls after: their arguments may hold aggregates (SUM(SUM(x)) OVER ()).
    for (const SelectItem& item : select_.items) {
      const size_t before = windows_.size();
      if (item.expr != nullptr) CollectWindowCalls(*item.expr, &windows_);
      item_windowed_.push_back(windows_.size() > before);
    }
    for (const OrderItem& o : select_.order_by) CollectWindowCalls(*o.expr, &windows_);
    for (const Expr* call : windows_) {
      auto type = WindowCallType(*call, FirstArgType(*call), *ctx_.state);
      if (auto* c = std::get_if<ColumnDefinition>(&type)) aggregate_types_[call] = *c;
    }
  }

  // The type of an aggregate's or window call's first argument (COUNT(*): an integer's).
  ColumnDefinition FirstArgType(const Expr& call) const {
    if (call.args.empty() || call.args[0]->kind == ExprKind::kStar) {
      return IntColumn(21, false, Nullability::kNotNull);
    }
    EvalContext eval = RowContext(nullptr, "field list");
    auto t = TypeOf(*call.args[0], eval);
    if (auto* c = std::get_if<ColumnDefinition>(&t)) return *c;
    return IntColumn(21, false, Nullability::kNotNull);
  }

  // The collation `e`'s values compare under, as its type names it (0 when it has none):
  // a _bin column's, or a CASE's or COALESCE's over one.
  uint16_t CollationOf(const Expr& e) const {
    EvalContext eval = RowContext(nullptr, "field list");
    auto t = TypeOf(e, eval);
    auto* c = std::get_if<ColumnDefinition>(&t);
    return c != nullptr && ClassOf(*c) == Cls::kString ? c->charset : 0;
  }

  // A RANGE frame with n PRECEDING/FOLLOWING bounds needs one ORDER BY value, a number for a
  // number offset or a temporal value for an INTERVAL, as MySQL checks (3587, 3588, 3589).
  std::optional<mysql::SqlError> RangeFrameError(const Expr& call) const {
    const std::optional<WindowFrame>& frame = call.window->frame;
    if (!frame || frame->rows || (!frame->start.value && !frame->end.value)) return std::nullopt;
    const std::vector<OrderItem>& order = call.window->order_by;
    Cls cls = Cls::kString;
    if (order.size() == 1) {
      EvalContext eval = RowContext(nullptr, "window");
      auto t = TypeOf(*order[0].expr, eval);
      if (auto* c = std::get_if<ColumnDefinition>(&t)) cls = ClassOf(*c);
    }
    const bool numeric = cls == Cls::kInt || cls == Cls::kDecimal || cls == Cls::kReal;
    if (!numeric && cls != Cls::kTemporal) {
      return mysql::SqlError{3587, "HY000",
                             "Window '<unnamed window>' with RANGE N PRECEDING/FOLLOWING frame "
                             "requires exactly one ORDER BY expression, of numeric or temporal "
                             "type"};
    }
    const bool interval = frame->start.interval || frame->end.interval;
    if (cls == Cls::kTemporal && !interval) {
      return mysql::SqlError{3588, "HY000",
                             "Window '<unnamed window>' with RANGE frame has ORDER BY expression "
                             "of datetime type. Only INTERVAL bound value allowed."};
    }
    if (numeric && interval) {
      return mysql::SqlError{3589, "HY000",
                             "Window '<unnamed window>' with RANGE frame has ORDER BY expression "
                             "of numeric type, INTERVAL bound value not allowed."};
    }
    return std::nullopt;
  }

  // The value a RANGE bound's offset gives from the row's ORDER BY value (RangeFrameError
  // made sure there is one); NULL from a NULL.
  std::variant<Value, mysql::SqlError> RangeBound(const FrameBound& bound, const WindowRow& row) {
    if (!bound.value || mysql::IsNull(row.order[0])) return Value{};
    EvalContext eval = ctx_.Eval();
    eval.params = absl::MakeConstSpan(&row.order[0], 1);
    eval.params_bound = true;
    eval.clause = "window";
    return Evaluate(*bound.value, &eval);
  }

  // Computes every window call for `rows` (each a source row or a group's), into the values
  // their evaluation reads (`values[i]` for `rows[i]`).
  std::optional<mysql::SqlError> ComputeWindows(
      const std::vector<Row*>& rows, std::vector<absl::flat_hash_map<const Expr*, Value>>* values) {
    for (const Expr* call : windows_) {
      if (auto err = RangeFrameError(*call)) return err;
      WindowCollations collations;
      for (const ExprPtr& p : call->window->partition_by) {
        collations.partition.push_back(CollationOf(*p));
      }
      for (const OrderItem& o : call->window->order_by) {
        collations.order.push_back(CollationOf(*o.expr));
      }
      for (const ExprPtr& a : call->args) {
        if (a->kind != ExprKind::kStar) collations.args.push_back(CollationOf(*a));
      }
      std::vector<WindowRow> window_rows(rows.size());
      for (size_t i = 0; i < rows.size(); ++i) {
        EvalContext eval = RowContext(rows[i], "window");
        eval.aggregate_values = &(*values)[i];
        auto eval_into = [&](const Expr& e, Row* out) -> std::optional<mysql::SqlError> {
          auto v = Evaluate(e, &eval);
          if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
          out->push_back(std::get<Value>(std::move(v)));
          return std::nullopt;
        };
        WindowRow& w = window_rows[i];
        for (const ExprPtr& p : call->window->partition_by) {
          if (auto err = eval_into(*p, &w.partition)) return err;
        }
        for (const OrderItem& o : call->window->order_by) {
          if (auto err = eval_into(*o.expr, &w.order)) return err;
        }
        for (const ExprPtr& a : call->args) {
          if (a->kind == ExprKind::kStar) continue;
          if (auto err = eval_into(*a, &w.args)) return err;
        }
        if (const std::optional<WindowFrame>& frame = call->window->frame; frame && !frame->rows) {
          for (auto [bound, out] :
               {std::pair{&frame->start, &w.range_start}, std::pair{&frame->end, &w.range_end}}) {
            auto v = RangeBound(*bound, w);
            if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
            *out = std::get<Value>(std::move(v));
          }
        }
      }
      auto computed =
          ComputeWindowCall(*call, aggregate_types_[call], window_rows, collations, ctx_.state);
      if (auto* err = std::get_if<mysql::SqlError>(&computed)) return *err;
      auto& results = std::get<std::vector<Value>>(computed);
      for (size_t i = 0; i < rows.size(); ++i) (*values)[i][call] = std::move(results[i]);
    }
    return std::nullopt;
  }

  // Where each output value and ORDER BY key comes from, decided once for all rows: a plain
  // column reference is the source row's value (no evaluation, no lookup by name per row),
  // and an ORDER BY on a select-list column sorts on that output value (no copy).
  void PlanOutput() {
    size_t output = 0;
    stars_.resize(select_.items.size());
    for (size_t i = 0; i < select_.items.size(); ++i) {
      const SelectItem& item = select_.items[i];
      if (item.expr == nullptr) {
        item_sources_.push_back(-1);
        auto star = StarColumns(item, fetched_.columns, fetched_.star);
        if (auto* columns = std::get_if<std::vector<int>>(&star)) stars_[i] = std::move(*columns);
        output += stars_[i].size();
        continue;
      }
      item_outputs_.push_back(output++);
      item_sources_.push_back(SourceColumn(*item.expr));
    }
    width_ = output;
    for (const OrderItem& o : select_.order_by) {
      int key = OutputColumnOf(*o.expr);
      if (key < 0) key = OutputOfSource(SourceColumn(*o.expr));
      order_outputs_.push_back(key);
      const ColumnDefinition* column = nullptr;
      if (key >= 0 && static_cast<size_t>(key) < result_.columns.size()) {
        column = &result_.columns[key];
      } else if (int source = SourceColumn(*o.expr); source >= 0) {
        column = &fetched_.columns[source];
      }
      member_orders_.push_back(column != nullptr ? MemberOrder::Of(*column, *ctx_.state)
                                                 : MemberOrder());
      order_collations_.push_back(column != nullptr ? column->charset : CollationOf(*o.expr));
    }
  }

  // What a GROUP BY item groups on, as MySQL resolves it: a position (GROUP BY 2) names that
  // select-list item; a bare name that no fetched column has names the item with that alias
  // (columns first, then aliases, for GROUP BY); anything else is itself. Grouping on an
  // aggregate is 1056, a position past the list 1054.
  std::variant<const Expr*, mysql::SqlError> GroupExpr(const Expr& g) const {
    const SelectItem* named = nullptr;
    if (g.kind == ExprKind::kLiteral && g.literal == LiteralKind::kInteger) {
      size_t position = 0;
      if (!absl::SimpleAtoi(g.text, &position) || position < 1 || position > select_.items.size() ||
          select_.items[position - 1].expr == nullptr) {
        return mysql::errors::UnknownColumn(g.text, "group statement");
      }
      named = &select_.items[position - 1];
    } else if (g.kind == ExprKind::kColumn && g.qualifier.empty() && SourceColumn(g) < 0) {
      for (const SelectItem& item : select_.items) {
        if (item.expr != nullptr && item.has_alias && absl::EqualsIgnoreCase(item.name, g.name)) {
          named = &item;
          break;
        }
      }
    }
    if (named == nullptr) return &g;
    if (absl::c_linear_search(aggregates_, named->expr.get())) {
      return mysql::SqlError{1056, "42000", absl::StrCat("Can't group on '", named->name, "'")};
    }
    return named->expr.get();
  }

  // ONLY_FULL_GROUP_BY (full_group_by.h). A GROUP BY item in error, or holding an aggregate
  // (1111, which MySQL finds first), is left for EmitGroups.
  std::optional<mysql::SqlError> CheckGroupsDetermine() const {
    GroupedSelect grouped;
    grouped.select = &select_;
    grouped.columns = &fetched_.columns;
    grouped.star = &fetched_.star;
    for (const ExprPtr& g : select_.group_by) {
      auto resolved = GroupExpr(*g);
      if (std::holds_alternative<mysql::SqlError>(resolved)) return std::nullopt;
      std::vector<const Expr*> aggregates;
      CollectAggregates(*std::get<const Expr*>(resolved), &aggregates);
      if (!aggregates.empty()) return std::nullopt;
      grouped.group_by.push_back(std::get<const Expr*>(resolved));
    }
    return CheckFullGroupBy(grouped, *ctx_.state);
  }

  // The fetched column a plain column reference reads, as the evaluator resolves it; -1 for
  // anything else (evaluated, and 1054 reported there when no column has the name).
  int SourceColumn(const Expr& e) const {
    if (e.kind != ExprKind::kColumn) return -1;
    // A RIGHT JOIN's USING column reads the right table's (EvalContext::row_subqueries).
    if (e.qualifier.empty() && !fetched_.row_subqueries.empty()) {
      if (auto it = fetched_.row_subqueries.find(&e); it != fetched_.row_subqueries.end()) {
        return static_cast<int>(it->second);
      }
    }
    for (size_t i = 0; i < fetched_.columns.size(); ++i) {
      if (NamesColumn(e, fetched_.columns[i])) return static_cast<int>(i);
    }
    return -1;
  }

  // The output column holding the source column `source` unchanged, or -1.
  int OutputOfSource(int source) const {
    if (source < 0) return -1;
    size_t item = 0;
    for (size_t i = 0; i < select_.items.size(); ++i) {
      if (select_.items[i].expr == nullptr) continue;
      if (item_sources_[i] == source) return static_cast<int>(item_outputs_[item]);
      ++item;
    }
    return -1;
  }

  std::optional<mysql::SqlError> EmitRows() {
    // Each source row is read once, so its values may move into the output (HAVING without
    // grouping reads them again; it is the rare case, and copies).
    bool consume = select_.having == nullptr;
    if (!windows_.empty()) {
      std::vector<Row*> rows;
      for (Row& row : fetched_.rows) rows.push_back(&row);
      std::vector<absl::flat_hash_map<const Expr*, Value>> values(rows.size());
      if (auto err = HavingBeforeWindows(&rows, &values)) return err;
      if (auto err = ComputeWindows(rows, &values)) return err;
      for (size_t i = 0; i < rows.size(); ++i) {
        if (auto err = Emit(rows[i], &values[i], /*consume=*/false)) return err;
      }
      return std::nullopt;
    }
    for (Row& row : fetched_.rows) {
      if (auto err = Emit(&row, nullptr, consume)) return err;
    }
    return std::nullopt;
  }

  std::optional<mysql::SqlError> EmitGroups() {
    std::vector<Group> groups;
    absl::flat_hash_map<std::string, size_t> by_key;
    std::vector<uint16_t> collations;  // of the GROUP BY items
    for (const ExprPtr& g : select_.group_by) {
      auto grouped = GroupExpr(*g);
      auto* expr = std::get_if<const Expr*>(&grouped);
      collations.push_back(expr != nullptr ? CollationOf(**expr) : 0);
    }
    std::vector<std::vector<uint16_t>> arg_collations;  // each aggregate's arguments'
    for (const Expr* call : aggregates_) {
      std::vector<uint16_t>& of_call = arg_collations.emplace_back();
      for (const ExprPtr& arg : call->args) {
        of_call.push_back(arg->kind != ExprKind::kStar ? CollationOf(*arg) : 0);
      }
    }
    const size_t items = select_.group_by.size();
    std::vector<size_t> row_groups;  // the groups the row adds to: its own, and with ROLLUP,
                                     // each shorter prefix's
    for (size_t r = 0; r < fetched_.rows.size(); ++r) {
      const Row& row = fetched_.rows[r];
      EvalContext eval = RowContext(&row, "group statement");
      Row key_values;
      for (const ExprPtr& g : select_.group_by) {
        auto grouped = GroupExpr(*g);
        if (auto* err = std::get_if<mysql::SqlError>(&grouped)) return *err;
        auto v = Evaluate(*std::get<const Expr*>(grouped), &eval);
        if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
        key_values.push_back(std::get<Value>(std::move(v)));
      }
      row_groups.clear();
      auto [it, inserted] = by_key.try_emplace(GroupKey(key_values, collations), groups.size());
      if (inserted) {
        groups.push_back(
            {r, std::vector<Accumulator>(aggregates_.size()), items, rollup_ ? key_values : Row()});
      }
      row_groups.push_back(it->second);
      for (size_t level = items; rollup_ && level-- > 0;) {
        Row prefix(key_values.begin(), key_values.begin() + level);
        auto [super, added] = by_key.try_emplace(
            absl::StrCat(level, "/", GroupKey(prefix, collations)), groups.size());
        if (added) {
          groups.push_back(
              {r, std::vector<Accumulator>(aggregates_.size()), level, std::move(prefix)});
        }
        row_groups.push_back(super->second);
      }
      for (size_t a = 0; a < aggregates_.size(); ++a) {
        const Expr& call = *aggregates_[a];
        Row args = {int64_t{1}};  // COUNT(*) counts rows
        if (!call.args.empty() && call.args[0]->kind != ExprKind::kStar) {
          args.clear();
          for (const ExprPtr& arg : call.args) {
            auto v = Evaluate(*arg, &eval);
            if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
            args.push_back(std::get<Value>(std::move(v)));
          }
        }
        Row keys;
        for (const ExprPtr& key : call.concat_order) {
          auto v = Evaluate(*key, &eval);
          if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
          keys.push_back(std::get<Value>(std::move(v)));
        }
        for (size_t i = 0; i < row_groups.size(); ++i) {
          const bool last = i + 1 == row_groups.size();
          groups[row_groups[i]].accumulators[a].Add(call, args, last ? std::move(keys) : keys,
                                                    arg_collations[a]);
        }
      }
    }
    if (rollup_) {
      std::stable_sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) {
        return Rollup::Before(a.keys, a.level, b.keys, b.level, collations);
      });
      // A super-aggregate's other columns are read from the last row before it, as MySQL's
      // aggregation over sorted rows reads them.
      for (size_t g = 1; g < groups.size(); ++g) {
        if (groups[g].level < items) groups[g].first_row = groups[g - 1].first_row;
      }
    }
    // Aggregates without GROUP BY make one row even over no rows (COUNT(*) = 0).
    if (groups.empty() && select_.group_by.empty()) {
      groups.push_back({SIZE_MAX, std::vector<Accumulator>(aggregates_.size()), 0, Row()});
    }
    Row nulls(fetched_.columns.size());  // the row of the one group over no rows
    std::vector<Row*> rows;
    std::vector<absl::flat_hash_map<const Expr*, Value>> values(groups.size());
    std::vector<Row> rolled_up_rows;  // a super-aggregate's row, its rolled-up columns NULL
    rolled_up_rows.reserve(groups.size());
    for (size_t g = 0; g < groups.size(); ++g) {
      const Group& group = groups[g];
      for (size_t a = 0; a < aggregates_.size(); ++a) {
        const Expr* call = aggregates_[a];
        values[g][call] =
            group.accumulators[a].Result(*call, aggregate_types_[call], g + 1, ctx_.state);
      }
      Row* row = group.first_row == SIZE_MAX ? &nulls : &fetched_.rows[group.first_row];
      if (rollup_ && group.level < items) {
        rolled_up_rows.push_back(rollup_->RowAt(*row, group.level));
        row = &rolled_up_rows.back();
      }
      if (rollup_) {
        for (size_t c = 0; c < rollup_->grouping_calls().size(); ++c) {
          values[g][rollup_->grouping_calls()[c]] = rollup_->GroupingAt(c, group.level);
        }
      }
      rows.push_back(row);
    }
    if (auto err = HavingBeforeWindows(&rows, &values)) return err;
    if (auto err = ComputeWindows(rows, &values)) return err;
    for (size_t g = 0; g < rows.size(); ++g) {
      const absl::flat_hash_set<const Expr*>* rolled_up =
          rollup_ ? &rollup_->RolledUpAt(groups[g].level) : nullptr;
      if (auto err = Emit(rows[g], &values[g], /*consume=*/false, rolled_up)) return err;
    }
    return std::nullopt;
  }

  // WITH ROLLUP: the GROUP BY items resolved, what each level reads as NULL; the result's
  // columns that show an item may be NULL.
  std::optional<mysql::SqlError> PlanRollup() {
    std::vector<const Expr*> group_items;
    std::vector<int> group_columns;
    for (const ExprPtr& g : select_.group_by) {
      auto grouped = GroupExpr(*g);
      if (auto* err = std::get_if<mysql::SqlError>(&grouped)) return *err;
      group_items.push_back(std::get<const Expr*>(grouped));
      group_columns.push_back(SourceColumn(*group_items.back()));
    }
    auto plan = Rollup::Plan(select_, std::move(group_items), std::move(group_columns));
    if (auto* err = std::get_if<mysql::SqlError>(&plan)) return *err;
    rollup_.emplace(std::get<Rollup>(std::move(plan)));
    size_t item = 0;
    for (size_t i = 0; i < select_.items.size(); ++i) {
      if (select_.items[i].expr == nullptr) continue;
      ColumnDefinition& column = result_.columns[item_outputs_[item++]];
      if (rollup_->ShowsItem(select_, i)) {
        column.flags = static_cast<uint16_t>(column.flags & ~mysql::column_flag::kNotNull);
      }
    }
    return std::nullopt;
  }

  // Evaluates the select list and the ORDER BY keys for one source row (or group). With
  // `consume`, plain column values move out of `row`, which is not read again.
  std::optional<mysql::SqlError> Emit(Row* row,
                                      const absl::flat_hash_map<const Expr*, Value>* aggregates,
                                      bool consume,
                                      const absl::flat_hash_set<const Expr*>* rolled_up = nullptr) {
    EvalContext eval = RowContext(row, "field list");
    eval.aggregate_values = aggregates;
    eval.rolled_up = rolled_up;
    OutputRow out;
    out.values.reserve(width_);
    for (size_t i = 0; i < select_.items.size(); ++i) {
      const SelectItem& item = select_.items[i];
      if (item.expr == nullptr) {
        for (int c : stars_[i]) out.values.push_back((*row)[c]);
        continue;
      }
      if (item_sources_[i] >= 0) {
        out.values.emplace_back();  // taken from the row below, once nothing else reads it
        continue;
      }
      auto v = Evaluate(*item.expr, &eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      out.values.push_back(std::get<Value>(std::move(v)));
    }
    // A group HAVING drops needs no sort keys (and its errors never surface); the copies it
    // reads are taken first. A consumed row moves its values only after the keys are read.
    if (!consume) TakeSourceValues(row, /*consume=*/false, &out.values);
    // Without GROUP BY, HAVING filters the rows themselves (seeing the select list's aliases).
    if (select_.having != nullptr && !having_before_windows_) {
      bool keep = false;
      if (auto err = Having(*row, out.values, aggregates, &keep, rolled_up)) return err;
      if (!keep) return std::nullopt;
    }
    eval.clause = "order clause";
    for (size_t k = 0; k < select_.order_by.size(); ++k) {
      int output = order_outputs_[k];
      if (output >= static_cast<int>(out.values.size())) {
        return mysql::SqlError{1054, "42S22",
                               absl::StrCat("Unknown column '", output + 1, "' in 'order clause'")};
      }
      if (output >= 0) continue;  // sorted on out.values[output]
      auto v = Evaluate(*select_.order_by[k].expr, &eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      out.sort_keys.push_back(std::get<Value>(std::move(v)));
    }
    if (consume) TakeSourceValues(row, /*consume=*/true, &out.values);
    output_.push_back(std::move(out));
    return std::nullopt;
  }

  // Fills the plain column items' outputs from `row`: moved when `consume` and no later item
  // reads the same column, else copied.
  void TakeSourceValues(Row* row, bool consume, Row* values) const {
    size_t item = 0;
    for (size_t i = 0; i < select_.items.size(); ++i) {
      if (select_.items[i].expr == nullptr) continue;
      size_t output = item_outputs_[item++];
      int source = item_sources_[i];
      if (source < 0) continue;
      bool last_reader = std::find(item_sources_.begin() + i + 1, item_sources_.end(), source) ==
                         item_sources_.end();
      Value& from = (*row)[source];
      (*values)[output] = consume && last_reader ? std::move(from) : from;
    }
  }

  // MySQL computes windows over the rows (or groups) HAVING keeps: with windows, HAVING runs
  // first and drops from `rows` and `values` what it rejects. It sees the aliases of the
  // select list's items that hold no window; naming one that does is 3594, as in MySQL.
  std::optional<mysql::SqlError> HavingBeforeWindows(
      std::vector<Row*>* rows, std::vector<absl::flat_hash_map<const Expr*, Value>>* values) {
    if (windows_.empty() || select_.having == nullptr) return std::nullopt;
    having_before_windows_ = true;
    if (auto err = WindowAliasInHaving(*select_.having)) return err;
    size_t kept = 0;
    for (size_t r = 0; r < rows->size(); ++r) {
      Row* row = (*rows)[r];
      EvalContext eval = RowContext(row, "field list");
      eval.aggregate_values = &(*values)[r];
      Row output;
      for (size_t i = 0; i < select_.items.size(); ++i) {
        const SelectItem& item = select_.items[i];
        if (item.expr == nullptr) {
          for (int c : stars_[i]) output.push_back((*row)[c]);
        } else if (item_windowed_[i]) {
          output.emplace_back();  // not computed yet, and not seen by HAVING
        } else if (item_sources_[i] >= 0) {
          output.push_back((*row)[item_sources_[i]]);
        } else {
          auto v = Evaluate(*item.expr, &eval);
          if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
          output.push_back(std::get<Value>(std::move(v)));
        }
      }
      bool keep = false;
      if (auto err = Having(*row, output, &(*values)[r], &keep)) return err;
      if (!keep) continue;
      if (kept != r) {  // a map moved onto itself would be left empty
        (*rows)[kept] = row;
        (*values)[kept] = std::move((*values)[r]);
      }
      ++kept;
    }
    rows->resize(kept);
    values->resize(kept);
    return std::nullopt;
  }

  // 3594 when `e` names (bare) the alias of an item holding a window and no fetched column.
  std::optional<mysql::SqlError> WindowAliasInHaving(const Expr& e) const {
    if (e.kind == ExprKind::kColumn && e.qualifier.empty()) {
      const bool fetched = absl::c_any_of(fetched_.columns, [&](const ColumnDefinition& c) {
        return absl::EqualsIgnoreCase(c.name, e.name);
      });
      for (size_t i = 0; i < select_.items.size() && !fetched; ++i) {
        const SelectItem& item = select_.items[i];
        if (item_windowed_[i] && item.has_alias && absl::EqualsIgnoreCase(item.name, e.name)) {
          return mysql::SqlError{3594, "HY000",
                                 absl::StrCat("You cannot use the alias '", item.name,
                                              "' of an expression containing a window function "
                                              "in this context.'")};
        }
      }
    }
    for (const ExprPtr& a : e.args) {
      if (auto err = WindowAliasInHaving(*a)) return err;
    }
    return std::nullopt;
  }

  // HAVING sees the group's columns and, as in MySQL, the select list's aliases (those of
  // items without windows once windows are in the statement: HavingBeforeWindows).
  // HAVING sees the select list's aliases before the columns of the same name (MySQL's
  // extension; Connector/J's getTables filters on its alias TABLE_TYPE), unless GROUP BY names
  // that column: the standard's column then wins, as in MySQL.
  std::optional<mysql::SqlError> Having(
      const Row& row, const Row& output, const absl::flat_hash_map<const Expr*, Value>* aggregates,
      bool* keep, const absl::flat_hash_set<const Expr*>* rolled_up = nullptr) {
    std::vector<ColumnDefinition> columns;
    Row values;
    std::vector<ColumnDefinition> late_columns;  // aliases a GROUP BY column outranks
    Row late_values;
    size_t out = 0;  // the item's column in `output` (a `*` spans several)
    for (size_t i = 0; i < select_.items.size(); ++i) {
      const SelectItem& item = select_.items[i];
      if (item.expr == nullptr) {
        out += stars_[i].size();
        continue;
      }
      if (item.has_alias && out < output.size() && !item_windowed_[i]) {
        ColumnDefinition c = result_.columns[out];
        c.name = item.name;
        const bool late = GroupsByColumnNamed(item.name);
        (late ? late_columns : columns).push_back(std::move(c));
        (late ? late_values : values).push_back(output[out]);
      }
      ++out;
    }
    const size_t shift = columns.size();
    columns.insert(columns.end(), fetched_.columns.begin(), fetched_.columns.end());
    values.insert(values.end(), row.begin(), row.end());
    columns.insert(columns.end(), late_columns.begin(), late_columns.end());
    values.insert(values.end(), late_values.begin(), late_values.end());
    EvalContext eval = ctx_.Eval();
    eval.row_columns = &columns;
    eval.row = &values;
    eval.row_subqueries = &HavingRowSubqueries(shift);
    eval.clause = "having clause";
    eval.aggregate_types = &aggregate_types_;
    eval.aggregate_values = aggregates;
    eval.rolled_up = rolled_up;
    auto v = Evaluate(*select_.having, &eval);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
    *keep = Truth(std::get<Value>(v)) == 1;
    return std::nullopt;
  }

  // Whether a GROUP BY item is a plain column named `name`.
  bool GroupsByColumnNamed(absl::string_view name) const {
    return absl::c_any_of(select_.group_by, [&](const ExprPtr& g) {
      return g->kind == ExprKind::kColumn && absl::EqualsIgnoreCase(g->name, name);
    });
  }

  // The fetched row's correlated subquery values as HAVING's row holds them: `shift` columns
  // later (the aliases come first). The same for every group, so made once.
  const absl::flat_hash_map<const Expr*, size_t>& HavingRowSubqueries(size_t shift) {
    if (shift == 0 || fetched_.row_subqueries.empty()) return fetched_.row_subqueries;
    if (!having_row_subqueries_) {
      having_row_subqueries_.emplace();
      for (const auto& [e, position] : fetched_.row_subqueries) {
        (*having_row_subqueries_)[e] = position + shift;
      }
    }
    return *having_row_subqueries_;
  }

  // ORDER BY 2 and ORDER BY alias name a select-list column; -1 for anything else.
  int OutputColumnOf(const Expr& e) const {
    if (e.kind == ExprKind::kLiteral && e.literal == LiteralKind::kInteger) {
      return std::max(0, std::atoi(e.text.c_str()) - 1);
    }
    if (e.kind != ExprKind::kColumn || !e.qualifier.empty()) return -1;
    int column = 0;
    for (size_t i = 0; i < select_.items.size(); ++i) {
      const SelectItem& item = select_.items[i];
      if (item.expr == nullptr) {
        column += static_cast<int>(stars_[i].size());
        continue;
      }
      if (item.has_alias && absl::EqualsIgnoreCase(item.name, e.name)) return column;
      ++column;
    }
    return -1;
  }

  void Deduplicate() {
    absl::flat_hash_set<std::string> seen;
    std::vector<uint16_t> collations;
    for (const ColumnDefinition& column : result_.columns) collations.push_back(column.charset);
    std::erase_if(output_, [&](const OutputRow& row) {
      return !seen.insert(GroupKey(row.values, collations)).second;
    });
  }

  void Sort() {
    std::stable_sort(output_.begin(), output_.end(), [&](const OutputRow& a, const OutputRow& b) {
      size_t evaluated = 0;  // the next key kept in sort_keys
      for (size_t i = 0; i < select_.order_by.size(); ++i) {
        int output = order_outputs_[i];
        const Value& x = output >= 0 ? a.values[output] : a.sort_keys[evaluated];
        const Value& y = output >= 0 ? b.values[output] : b.sort_keys[evaluated];
        if (output < 0) ++evaluated;
        int c = !member_orders_[i].empty() ? CompareStored(i, x, y)
                                           : CompareValues(x, y, order_collations_[i]);
        if (c != 0) return select_.order_by[i].descending ? c > 0 : c < 0;
      }
      return false;
    });
  }

  // An ENUM or SET sorts by the number it is stored as, NULL first.
  int CompareStored(size_t key, const Value& x, const Value& y) const {
    auto stored = [&](const Value& v) -> std::optional<uint64_t> {
      const auto* text = std::get_if<std::string>(&v);
      if (text == nullptr) return std::nullopt;
      return member_orders_[key].StoredNumber(*text);
    };
    const std::optional<uint64_t> a = stored(x), b = stored(y);
    if (a == b) return 0;
    return a < b ? -1 : 1;  // nullopt orders first
  }

  std::optional<mysql::SqlError> ApplyLimit() {
    if (select_.calc_found_rows) ctx_.state->calc_found_rows = output_.size();
    uint64_t offset = 0, count = 0;
    if (select_.limit) {
      if (auto err = EvalLimit(*select_.limit, ctx_, &offset, &count)) return err;
    } else if (std::optional<uint64_t> limit =
                   select_.unions.empty() ? SelectLimitOf(select_, ctx_) : std::nullopt) {
      count = *limit;
    } else {
      return std::nullopt;
    }
    size_t from = std::min<uint64_t>(offset, output_.size());
    size_t to = from + std::min<uint64_t>(count, output_.size() - from);
    output_ = std::vector<OutputRow>(std::make_move_iterator(output_.begin() + from),
                                     std::make_move_iterator(output_.begin() + to));
    return std::nullopt;
  }

  const SelectStmt& select_;
  FetchedRows fetched_;
  const ExecContext& ctx_;
  WhereCheck where_;
  // PlanOutput: per select item, the source column it reads plainly (-1: evaluated, or `*`)
  // and, for items other than `*`, its output column; per ORDER BY item, the output column it
  // sorts on (-1: evaluated into sort_keys); the output width.
  std::vector<int> item_sources_;
  std::vector<std::vector<int>> stars_;  // per `*` or `t.*` item: the source columns it shows
  std::vector<size_t> item_outputs_;
  std::vector<bool> item_windowed_;  // per select item: it holds a window call
  bool having_before_windows_ = false;
  std::vector<int> order_outputs_;
  // Per ORDER BY key: how an ENUM or SET column orders; empty for other keys.
  std::vector<MemberOrder> member_orders_;
  std::vector<uint16_t> order_collations_;  // each ORDER BY key's (CollationOf)
  size_t width_ = 0;
  mysql::ResultSet result_;
  std::vector<const Expr*> aggregates_;
  std::vector<const Expr*> windows_;  // window calls, computed after grouping
  absl::flat_hash_map<const Expr*, ColumnDefinition> aggregate_types_;
  std::optional<Rollup> rollup_;  // GROUP BY … WITH ROLLUP
  std::optional<absl::flat_hash_map<const Expr*, size_t>> having_row_subqueries_;
  std::vector<OutputRow> output_;
};

int Sign(double d) { return d < 0 ? -1 : d > 0 ? 1 : 0; }

// Strings as the connection's case-insensitive, PAD SPACE collations order them: trailing
// spaces ignored, case and accents folded (CollationKeyText's equality, without a copy).
int CompareFolded(absl::string_view x, absl::string_view y) {
  while (!x.empty() && x.back() == ' ') x.remove_suffix(1);
  while (!y.empty() && y.back() == ' ') y.remove_suffix(1);
  return schema::CompareFoldedText(x, y);
}

}  // namespace

std::variant<std::vector<int>, mysql::SqlError> StarColumns(
    const SelectItem& item, const std::vector<ColumnDefinition>& columns,
    const std::vector<int>& star) {
  std::vector<int> out;
  if (item.star_qualifier.empty()) {
    if (!star.empty()) return star;
    out.resize(columns.size());
    std::iota(out.begin(), out.end(), 0);
    return out;
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    if (absl::EqualsIgnoreCase(columns[i].table, item.star_qualifier)) {
      out.push_back(static_cast<int>(i));
    }
  }
  if (out.empty()) return mysql::errors::UnknownTable(item.star_qualifier);
  return out;
}

std::variant<std::vector<ColumnDefinition>, mysql::SqlError> SelectListColumns(
    const SelectStmt& select, const std::vector<ColumnDefinition>& columns, const ExecContext& ctx,
    const std::vector<int>& star, const absl::flat_hash_map<const Expr*, size_t>* row_subqueries) {
  std::vector<const Expr*> aggregates;
  for (const SelectItem& item : select.items) {
    if (item.expr != nullptr) CollectAggregates(*item.expr, &aggregates);
  }
  EvalContext eval = ctx.Eval();
  eval.row_columns = &columns;
  eval.row_subqueries = row_subqueries;
  absl::flat_hash_map<const Expr*, ColumnDefinition> aggregate_types;
  for (const Expr* call : aggregates) {
    ColumnDefinition arg = IntColumn(21, false, Nullability::kNotNull);
    if (!call->args.empty() && call->args[0]->kind != ExprKind::kStar) {
      auto t = TypeOf(*call->args[0], eval);
      if (auto* err = std::get_if<mysql::SqlError>(&t)) return *err;
      arg = std::get<ColumnDefinition>(t);
    }
    aggregate_types[call] = AggregateType(*call, arg, *ctx.state);
  }
  eval.aggregate_types = &aggregate_types;
  std::vector<const Expr*> windows;
  for (const SelectItem& item : select.items) {
    if (item.expr != nullptr) CollectWindowCalls(*item.expr, &windows);
  }
  for (const Expr* call : windows) {
    ColumnDefinition arg = IntColumn(21, false, Nullability::kNotNull);
    if (!call->args.empty() && call->args[0]->kind != ExprKind::kStar) {
      auto t = TypeOf(*call->args[0], eval);
      if (auto* err = std::get_if<mysql::SqlError>(&t)) return *err;
      arg = std::get<ColumnDefinition>(t);
    }
    auto type = WindowCallType(*call, arg, *ctx.state);
    if (auto* err = std::get_if<mysql::SqlError>(&type)) return *err;
    aggregate_types[call] = std::get<ColumnDefinition>(type);
  }
  std::vector<ColumnDefinition> out;
  for (const SelectItem& item : select.items) {
    if (item.expr == nullptr) {
      auto shown = StarColumns(item, columns, star);
      if (auto* err = std::get_if<mysql::SqlError>(&shown)) return *err;
      for (int c : std::get<std::vector<int>>(shown)) out.push_back(columns[c]);
      continue;
    }
    auto typed = TypeOf(*item.expr, eval);
    if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
    ColumnDefinition col = std::get<ColumnDefinition>(std::move(typed));
    // A bare column keeps its table's names; anything else is named by its text or alias.
    if (item.expr->kind != ExprKind::kColumn || item.has_alias) col.name = item.name;
    out.push_back(std::move(col));
  }
  return out;
}

StatementResult FinishSelect(const SelectStmt& select, FetchedRows fetched, const ExecContext& ctx,
                             WhereCheck where) {
  return Pipeline(select, std::move(fetched), ctx, where).Run();
}

uint64_t RowsNeeded(const SelectStmt& select, const ExecContext& ctx, bool scan_ordered) {
  if (!select.limit || select.calc_found_rows || select.where || !select.group_by.empty() ||
      select.having || select.distinct || (!select.order_by.empty() && !scan_ordered)) {
    return 0;
  }
  std::vector<const Expr*> aggregates;
  for (const SelectItem& item : select.items) {
    if (item.expr != nullptr) CollectAggregates(*item.expr, &aggregates);
  }
  if (!aggregates.empty()) return 0;
  std::vector<const Expr*> windows;
  for (const SelectItem& item : select.items) {
    if (item.expr != nullptr) CollectWindowCalls(*item.expr, &windows);
  }
  if (!windows.empty()) return 0;  // a window sees every row
  uint64_t offset = 0, count = 0;
  if (EvalLimit(*select.limit, ctx, &offset, &count)) return 0;  // the pipeline reports it
  // LIMIT 0 needs no row; the scan's 0 means all, so ask for one and let LIMIT drop it.
  return std::max<uint64_t>(1, offset + count < offset ? UINT64_MAX : offset + count);
}

int CompareValues(const Value& a, const Value& b) {
  bool an = mysql::IsNull(a), bn = mysql::IsNull(b);
  if (an || bn) return an == bn ? 0 : an ? -1 : 1;
  if (const auto* x = std::get_if<int64_t>(&a)) {
    if (const auto* y = std::get_if<int64_t>(&b)) return *x < *y ? -1 : *x > *y;
  }
  if (const auto* x = std::get_if<uint64_t>(&a)) {
    if (const auto* y = std::get_if<uint64_t>(&b)) return *x < *y ? -1 : *x > *y;
  }
  if (const auto* x = std::get_if<std::string>(&a)) {
    if (const auto* y = std::get_if<std::string>(&b)) return CompareFolded(*x, *y);
  }
  if (const auto* x = std::get_if<mysql::DateTime>(&a)) {
    if (const auto* y = std::get_if<mysql::DateTime>(&b)) {
      auto tie = [](const mysql::DateTime& d) {
        return std::tie(d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond);
      };
      return tie(*x) < tie(*y) ? -1 : tie(*x) != tie(*y);
    }
  }
  if (std::holds_alternative<mysql::Time>(a) && std::holds_alternative<mysql::Time>(b)) {
    auto micros = [](const mysql::Time& t) {
      int64_t v = ((static_cast<int64_t>(t.days) * 24 + t.hours) * 60 + t.minutes) * 60 + t.seconds;
      v = v * 1000000 + t.microsecond;
      return t.negative ? -v : v;
    };
    int64_t x = micros(std::get<mysql::Time>(a)), y = micros(std::get<mysql::Time>(b));
    return x < y ? -1 : x > y;
  }
  bool ta = false, tb = false;
  return Sign(ToDouble(a, &ta) - ToDouble(b, &tb));
}

int CompareValues(const Value& a, const Value& b, uint16_t collation_id) {
  const auto* x = std::get_if<std::string>(&a);
  const auto* y = std::get_if<std::string>(&b);
  if (x != nullptr && y != nullptr && IsBinaryCollationId(collation_id)) {
    return CompareBinaryText(*x, *y);
  }
  return CompareValues(a, b);
}

}  // namespace shoal::sql::internal
