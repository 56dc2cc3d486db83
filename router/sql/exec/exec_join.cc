// SELECT over joined tables: the steps of the join plan (join_plan.h) run one after another,
// each one native batch for all the rows joined so far; the joined rows are then finished
// like a single table's (row_pipeline.h).
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "engine/api/client.h"
#include "engine/schema/collation.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/aggregates.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/join_plan.h"
#include "router/sql/exec/row_pipeline.h"
#include "router/sql/exec/row_reader.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

using Values = std::vector<mysql::Value>;  // one row

// Past these, a lookup step reads its table its own way instead: a key read each for more
// keys costs more than one scan; index lookups go as one range list, one scan operation per
// partition, up to what a range list carries.
constexpr size_t kMaxLookupKeys = 20000;
constexpr size_t kMaxLookupRanges = api::kMaxScanRanges;

// Appends `v` to a hash key so that values the router compares equal (join_plan.h's hash
// classes) append alike — strings as they are when `part` compares them byte for byte, else
// folded; false for NULL, which equals nothing.
bool AppendHashPart(const mysql::Value& v, const JoinKeyPart& part, std::string* key) {
  if (mysql::IsNull(v)) return false;
  const auto* bytes = std::get_if<std::string>(&v);
  if (part.bytes && bytes != nullptr) {
    absl::StrAppend(key, bytes->size(), ":", *bytes, ";");
    return true;
  }
  std::string text = CollationKeyText(v);
  absl::StrAppend(key, text.size(), ":", text, ";");
  return true;
}

class JoinRun : public RowReader {
 public:
  JoinRun(const ExecContext& ctx, const SelectStmt& select, JoinPlan plan)
      : RowReader(ctx),
        select_(select),
        plan_(std::move(plan)),
        txn_(ctx.statement_txn ? ctx.statement_txn : StatementTransaction(ctx.state)) {
    if (const ServerInfo* server = ctx.state->server; server && server->join_statements) {
      server->join_statements->Increment();
    }
  }

  // Runs the steps; the result is delivered once the last is done, maybe before this returns.
  void Advance() {
    while (step_ < plan_.steps.size()) {
      if (state() == nullptr) return Deliver(OkResult{});  // orphaned: nobody reads it
      outstanding_ = 1;  // the fetch below; completions may run inside it
      fetched_.clear();
      if (auto err = Fetch()) error_ = std::move(err);
      if (--outstanding_ > 0) return;  // the last completion goes on (OneDone)
      if (!Fetched()) return;
    }
    Finish();
  }

 private:
  const JoinStep& step() const { return plan_.steps[step_]; }
  const JoinSource& source() const { return plan_.sources[step().source]; }

  void OneDone() override {
    if (--outstanding_ > 0) return;
    if (Fetched()) Advance();
  }

  void AddRow(absl::string_view packed) override {
    const JoinSource& s = source();
    Values row;
    if (!DecodeRow(*s.table, s.columns, packed, &fields_, &row, utc_offset_)) {
      if (!error_) error_ = mysql::errors::Internal("a data node sent a malformed row");
      return;
    }
    fetched_.push_back(std::move(row));
  }

  // Defines the step's native operations (none when its rows are at hand, or no row so far
  // could match any).
  std::optional<mysql::SqlError> Fetch() {
    const JoinStep& s = step();
    if (s.access == JoinStep::Access::kViewRows) {
      fetched_ = std::move(plan_.sources[s.source].view_rows);
      return std::nullopt;
    }
    if (step_ > 0 && joined_.empty() && s.kind != JoinKind::kRight) return std::nullopt;
    AccessPlan plan = s.plan;
    if (s.access != JoinStep::Access::kOwn) {
      auto keyed = LookupPlan();
      if (auto* err = std::get_if<mysql::SqlError>(&keyed)) return *err;
      if (auto* lookup = std::get_if<AccessPlan>(&keyed)) plan = std::move(*lookup);
    }
    const JoinSource& from = source();
    api::Client& client = data()->client();
    api::Lock lock = txn_ == nullptr ? api::Lock::kNone : plan_.lock;
    int before = outstanding_;
    switch (plan.kind) {
      case AccessPlan::Kind::kKeyLookup:
      case AccessPlan::Kind::kBatchedLookup:
        for (const std::string& key : plan.keys) {
          ++outstanding_;
          client.Read(*from.table, key, from.columns, this, txn_.get(), lock);
        }
        break;
      case AccessPlan::Kind::kIndexRange:
      case AccessPlan::Kind::kFullScan: {
        api::ScanRequest request;
        request.table = from.table.get();
        request.columns = from.columns;
        request.lock = lock;
        request.txn = txn_.get();
        request.filter = s.filter;
        DefineScans(plan, request, &client, this, &outstanding_);
        break;
      }
      case AccessPlan::Kind::kNothing:
        break;
    }
    if (outstanding_ > before) {
      data()->Flush();
      if (const ServerInfo* server = state()->server; server && server->join_batches) {
        server->join_batches->Increment();
      }
    }
    return std::nullopt;
  }

  // A lookup step's keys (or ranges) from the rows so far; monostate when they cannot be
  // used, and the step reads its table its own way.
  std::variant<std::monostate, AccessPlan, mysql::SqlError> LookupPlan() {
    const JoinStep& s = step();
    const schema::TableDef& table = *source().table;
    bool by_key = s.access == JoinStep::Access::kKeyLookup;
    const std::vector<int>& key_columns =
        by_key ? table.primary_key().columns : table.indexes[s.index].columns;
    ExecContext ctx = context();
    EvalContext eval = ctx.Eval();
    eval.row_columns = &plan_.columns;
    eval.row_subqueries = &plan_.row_subqueries;
    eval.clause = "on clause";
    absl::flat_hash_set<std::string> seen;  // collation forms: keys a _ci collation holds equal
    std::string form;                       // are one lookup
    AccessPlan plan;
    plan.kind = by_key ? AccessPlan::Kind::kKeyLookup : AccessPlan::Kind::kIndexRange;
    plan.index = s.index;
    for (const Values& row : joined_) {
      eval.row = &row;
      std::string key;
      bool null = false;
      for (size_t i = 0; i < s.key.size() && !null; ++i) {
        auto v = Evaluate(*s.key[i], &eval);
        if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
        const mysql::Value& value = std::get<mysql::Value>(v);
        null = mysql::IsNull(value);  // equals nothing: this row has no match
        if (null) break;
        std::optional<std::string> field = KeyField(table.columns[key_columns[i]], value);
        if (!field) return std::monostate{};
        key += *field;
      }
      if (null || !seen.emplace(schema::KeyForm(table, by_key ? 0 : s.index, key, &form)).second) {
        continue;
      }
      if (seen.size() > (by_key ? kMaxLookupKeys : kMaxLookupRanges)) return std::monostate{};
      if (by_key) {
        plan.keys.push_back(std::move(key));
      } else {
        plan.ranges.push_back({key, key});
      }
    }
    if (seen.empty()) plan.kind = AccessPlan::Kind::kNothing;
    return plan;
  }

  // The step's rows are in: joins them to the rows so far. False when the statement ended.
  bool Fetched() {
    if (state() == nullptr) {
      Deliver(OkResult{});
      return false;
    }
    if (error_) {
      DeliverFailure(*error_, txn_ != nullptr, false);
      return false;
    }
    if (const ServerInfo* server = state()->server; server && server->join_rows) {
      server->join_rows->Increment(static_cast<int64_t>(fetched_.size()));
    }
    if (auto err = Join()) {
      DeliverFailure(*err, txn_ != nullptr, false);
      return false;
    }
    ++step_;
    return true;
  }

  // Whether every one of `conditions` is true for `row` (NULL is not).
  std::variant<bool, mysql::SqlError> Holds(const std::vector<const Expr*>& conditions,
                                            const Values& row, EvalContext* eval) {
    eval->row = &row;
    for (const Expr* e : conditions) {
      auto v = Evaluate(*e, eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      if (Truth(std::get<mysql::Value>(v)) != 1) return false;
    }
    return true;
  }

  std::optional<mysql::SqlError> Join() {
    const JoinStep& s = step();
    const JoinSource& from = source();
    ExecContext ctx = context();
    EvalContext eval = ctx.Eval();
    eval.row_columns = &plan_.columns;
    eval.row_subqueries = &plan_.row_subqueries;
    eval.clause = "on clause";
    std::vector<Values> out;
    auto place = [&](Values* joined, const Values& part) {
      std::copy(part.begin(), part.end(), joined->begin() + from.offset);
    };
    auto clear = [&](Values* joined) {
      std::fill(joined->begin() + from.offset, joined->begin() + from.offset + from.width,
                mysql::Value{});
    };
    if (step_ == 0) {
      out.reserve(fetched_.size());
      for (Values& part : fetched_) {
        Values joined(plan_.columns.size());
        std::move(part.begin(), part.end(), joined.begin() + from.offset);
        auto holds = Holds(s.conditions, joined, &eval);
        if (auto* err = std::get_if<mysql::SqlError>(&holds)) return *err;
        if (std::get<bool>(holds)) out.push_back(std::move(joined));
      }
    } else {
      // By the hashed equalities when there are some, else every pair.
      absl::flat_hash_map<std::string, std::vector<size_t>> by_key;
      if (!s.match.empty()) {
        for (size_t i = 0; i < fetched_.size(); ++i) {
          std::string key;
          bool keyed = true;
          for (const JoinKeyPart& part : s.match) {
            keyed = keyed && AppendHashPart(fetched_[i][part.column - from.offset], part, &key);
          }
          if (keyed) by_key[key].push_back(i);
        }
      }
      std::vector<size_t> all;
      if (s.match.empty()) {
        all.resize(fetched_.size());
        for (size_t i = 0; i < all.size(); ++i) all[i] = i;
      }
      if (s.semi) return KeepSemiJoined(by_key, &eval);
      std::vector<bool> matched(s.kind == JoinKind::kRight ? fetched_.size() : 0);
      static const std::vector<size_t> kNone;
      std::vector<size_t> hits;
      out.reserve(joined_.size());
      for (Values& joined : joined_) {
        const std::vector<size_t>* candidates = &all;
        if (!s.match.empty()) {
          std::string key;
          bool keyed = true;
          eval.row = &joined;
          for (const JoinKeyPart& part : s.match) {
            auto v = Evaluate(*part.outer, &eval);
            if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
            keyed = keyed && AppendHashPart(std::get<mysql::Value>(v), part, &key);
          }
          auto it = keyed ? by_key.find(key) : by_key.end();
          candidates = it == by_key.end() ? &kNone : &it->second;
        }
        hits.clear();
        for (size_t i : *candidates) {
          if (!s.conditions.empty()) {
            place(&joined, fetched_[i]);
            auto holds = Holds(s.conditions, joined, &eval);
            if (auto* err = std::get_if<mysql::SqlError>(&holds)) return *err;
            if (!std::get<bool>(holds)) continue;
          }
          hits.push_back(i);
          if (!matched.empty()) matched[i] = true;
        }
        // Each match is a copy of the row so far but the last, which takes it over.
        for (size_t h = 0; h < hits.size(); ++h) {
          place(&joined, fetched_[hits[h]]);
          out.push_back(h + 1 < hits.size() ? joined : std::move(joined));
        }
        if (hits.empty() && s.kind == JoinKind::kLeft) {
          clear(&joined);
          out.push_back(std::move(joined));
        }
      }
      for (size_t i = 0; i < matched.size(); ++i) {
        if (matched[i]) continue;
        Values joined(plan_.columns.size());
        place(&joined, fetched_[i]);
        out.push_back(std::move(joined));
      }
    }
    if (!s.filters.empty()) {
      eval.clause = "where clause";
      std::vector<Values> kept;
      for (Values& row : out) {
        auto holds = Holds(s.filters, row, &eval);
        if (auto* err = std::get_if<mysql::SqlError>(&holds)) return *err;
        if (std::get<bool>(holds)) kept.push_back(std::move(row));
      }
      out = std::move(kept);
    }
    joined_ = std::move(out);
    return std::nullopt;
  }

  // The key `part`s of the row so far give, hashed; false when one is NULL.
  std::variant<bool, mysql::SqlError> ProbeKey(const Values& joined, EvalContext* eval,
                                               std::string* key) {
    eval->row = &joined;
    bool keyed = true;
    for (const JoinKeyPart& part : step().match) {
      auto v = Evaluate(*part.outer, eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      keyed = keyed && AppendHashPart(std::get<mysql::Value>(v), part, key);
    }
    return keyed;
  }

  // A semi-join's step: each row so far is kept once, or not at all (semi_join.h).
  std::optional<mysql::SqlError> KeepSemiJoined(
      const absl::flat_hash_map<std::string, std::vector<size_t>>& by_key, EvalContext* eval) {
    const JoinStep& s = step();
    const JoinSource& from = source();
    bool scalar = *s.semi == SemiJoin::Kind::kScalar;
    bool anti = *s.semi == SemiJoin::Kind::kNotExists || *s.semi == SemiJoin::Kind::kNotIn;
    std::vector<Values> out;
    for (Values& joined : joined_) {
      std::vector<size_t> all;
      const std::vector<size_t>* candidates = &all;
      if (s.match.empty()) {
        all.resize(fetched_.size());
        for (size_t i = 0; i < all.size(); ++i) all[i] = i;
      } else {
        std::string key;
        auto keyed = ProbeKey(joined, eval, &key);
        if (auto* err = std::get_if<mysql::SqlError>(&keyed)) return *err;
        auto it = std::get<bool>(keyed) ? by_key.find(key) : by_key.end();
        if (it != by_key.end()) candidates = &it->second;
      }
      if (scalar) {
        if (auto err = ScalarValue(*candidates, &joined, eval)) return err;
        out.push_back(std::move(joined));
        continue;
      }
      // NOT IN: a NULL value looked for, or a NULL among the matches, is neither in nor out.
      bool found = false, unknown = false;
      for (size_t i : *candidates) {
        std::copy(fetched_[i].begin(), fetched_[i].end(), joined.begin() + from.offset);
        auto holds = Holds(s.conditions, joined, eval);
        if (auto* err = std::get_if<mysql::SqlError>(&holds)) return *err;
        if (!std::get<bool>(holds)) continue;
        if (s.not_in_match == nullptr) {
          found = true;
          break;
        }
        auto v = Evaluate(*s.not_in_match, eval);
        if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
        int truth = Truth(std::get<mysql::Value>(v));
        if (truth == 1) {
          found = true;
          break;
        }
        unknown = unknown || truth < 0;
      }
      std::fill(joined.begin() + from.offset, joined.begin() + from.offset + from.width,
                mysql::Value{});
      if (found != anti && !(anti && unknown)) out.push_back(std::move(joined));
    }
    if (!s.filters.empty()) {  // WHERE conjuncts that read a scalar subquery's value
      eval->clause = "where clause";
      eval->row_subqueries = &plan_.row_subqueries;
      std::vector<Values> kept;
      for (Values& row : out) {
        auto holds = Holds(s.filters, row, eval);
        if (auto* err = std::get_if<mysql::SqlError>(&holds)) return *err;
        if (std::get<bool>(holds)) kept.push_back(std::move(row));
      }
      out = std::move(kept);
    }
    joined_ = std::move(out);
    return std::nullopt;
  }

  // A scalar subquery's value for the row so far `joined`, from its table's `candidates`: its
  // aggregate over the rows that hold its conditions, or the one such row's value (none: NULL;
  // several: 1242, as MySQL).
  std::optional<mysql::SqlError> ScalarValue(const std::vector<size_t>& candidates, Values* joined,
                                             EvalContext* eval) {
    const JoinStep& s = step();
    const JoinSource& from = source();
    const Expr& item = *s.scalar_value;
    bool aggregate = IsAggregate(item);
    Accumulator acc;
    mysql::Value value;
    size_t matches = 0;
    for (size_t i : candidates) {
      std::copy(fetched_[i].begin(), fetched_[i].end(), joined->begin() + from.offset);
      auto holds = Holds(s.conditions, *joined, eval);
      if (auto* err = std::get_if<mysql::SqlError>(&holds)) return *err;
      if (!std::get<bool>(holds)) continue;
      ++matches;
      const Expr* arg = aggregate ? (item.args.empty() || item.args[0]->kind == ExprKind::kStar
                                         ? nullptr
                                         : item.args[0].get())
                                  : &item;
      mysql::Value v = int64_t{1};  // COUNT(*) counts rows
      if (arg != nullptr) {
        auto evaluated = Evaluate(*arg, eval);
        if (auto* err = std::get_if<mysql::SqlError>(&evaluated)) return *err;
        v = std::get<mysql::Value>(std::move(evaluated));
      }
      if (aggregate) {
        acc.Add(item, {v}, {});
      } else if (matches > 1) {
        return mysql::SqlError{1242, "21000", "Subquery returns more than 1 row"};
      } else {
        value = std::move(v);
      }
    }
    std::fill(joined->begin() + from.offset, joined->begin() + from.offset + from.width,
              mysql::Value{});
    const mysql::ColumnDefinition& type = plan_.columns[s.scalar_column];
    (*joined)[s.scalar_column] =
        aggregate ? acc.Result(item, type, 1, state()) : ConvertToColumn(value, type);
    return std::nullopt;
  }

  void Finish() {
    FetchedRows rows{std::move(plan_.columns), std::move(joined_), std::move(plan_.star),
                     std::move(plan_.row_subqueries)};
    Deliver(FinishSelect(select_, std::move(rows), context(),
                         plan_.where_done ? WhereCheck::kDone : WhereCheck::kNeeded));
  }

  const SelectStmt& select_;
  JoinPlan plan_;
  std::shared_ptr<api::Transaction> txn_;
  size_t step_ = 0;
  std::vector<Values> joined_;   // the rows joined so far, each as wide as the joined row
  std::vector<Values> fetched_;  // the current step's table's rows, as wide as its part
  std::vector<schema::Field> fields_;
  int outstanding_ = 0;
};

}  // namespace

std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> JoinSelectColumns(
    const SelectStmt& select, const SessionState& state) {
  ExecContext ctx;
  ctx.state = const_cast<SessionState*>(&state);  // typing changes nothing
  auto planned = PlanJoin(select, ctx, /*typing_only=*/true);
  if (auto* err = std::get_if<mysql::SqlError>(&planned)) return *err;
  const JoinPlan& plan = std::get<JoinPlan>(planned);
  return SelectListColumns(select, plan.columns, ctx, plan.star, &plan.row_subqueries);
}

StatementResult ExecuteJoinSelect(const SelectStmt& select, const ExecContext& ctx) {
  if (select.where) {
    if (auto err = CheckRowOperands(*select.where)) return *err;
  }
  auto planned = PlanJoin(select, ctx, /*typing_only=*/false);
  if (auto* err = std::get_if<mysql::SqlError>(&planned)) return *err;
  BeginImplicitTransaction(ctx.state);
  auto* run = new JoinRun(ctx, select, std::get<JoinPlan>(std::move(planned)));
  run->Advance();
  return Deferred{};
}

}  // namespace shoal::sql::internal
