#include "router/sql/exec/join_plan.h"

#include <algorithm>
#include <functional>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "router/sql/eval/expr_eval.h"
#include "router/sql/eval/expr_internal.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/exec/aggregates.h"
#include "router/sql/exec/fetched_columns.h"
#include "router/sql/exec/information_schema.h"
#include "router/sql/exec/semi_join.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql::internal {
namespace {

constexpr size_t kMaxTables = 61;  // MySQL's limit (1116)
using Mask = uint64_t;

Mask Bit(size_t source) { return Mask{1} << source; }

// The columns a source has, visible ones only: what a column reference may name in it. A
// column is its position in the table (or in the view's columns).
struct SourceColumns {
  const schema::TableDef* table = nullptr;    // a base table
  std::vector<mysql::ColumnDefinition> view;  // a view's, qualified

  int Find(absl::string_view name) const {
    if (table != nullptr) {
      int c = table->FindColumn(name);
      return c >= 0 && !table->columns[c].hidden ? c : -1;
    }
    for (size_t i = 0; i < view.size(); ++i) {
      if (absl::EqualsIgnoreCase(view[i].name, name)) return static_cast<int>(i);
    }
    return -1;
  }

  const std::string& Name(int c) const {
    return table != nullptr ? table->columns[c].name : view[c].name;
  }

  // Every column, for `*`.
  std::vector<int> All() const {
    std::vector<int> out;
    size_t n = table != nullptr ? table->columns.size() : view.size();
    for (size_t c = 0; c < n; ++c) {
      if (table == nullptr || !table->columns[c].hidden) out.push_back(static_cast<int>(c));
    }
    return out;
  }
};

// Which tables an expression reads, and whether every column it names is there.
class Resolver {
 public:
  Resolver(const std::vector<JoinSource>& sources, const std::vector<SourceColumns>& columns,
           const absl::flat_hash_map<std::string, int>& coalesced)
      : sources_(sources), columns_(columns), coalesced_(coalesced) {}

  // The source a qualifier names, or -1.
  int SourceNamed(absl::string_view qualifier) const {
    for (size_t s = 0; s < sources_.size(); ++s) {
      if (absl::EqualsIgnoreCase(sources_[s].name, qualifier)) return static_cast<int>(s);
    }
    return -1;
  }

  // The sources a column reference may read: its qualifier's, or every one with the name —
  // first the one holding a joined column's value (CoalescedSource) when it is not the first.
  std::vector<size_t> Candidates(const Expr& e) const {
    std::vector<size_t> out;
    if (!e.qualifier.empty()) {
      int s = SourceNamed(e.qualifier);
      if (s >= 0 && columns_[s].Find(e.name) >= 0) out.push_back(s);
      return out;
    }
    for (size_t s = 0; s < sources_.size(); ++s) {
      if (columns_[s].Find(e.name) >= 0) out.push_back(s);
    }
    if (out.size() > 1) {
      if (int holder = CoalescedSource(e.name); holder > 0) {
        auto it = std::find(out.begin(), out.end(), static_cast<size_t>(holder));
        if (it != out.end()) std::rotate(out.begin(), it, it + 1);
      }
    }
    return out;
  }

  // The source whose column an unqualified USING column `name` reads when it is not the
  // leftmost one's (after a RIGHT JOIN, the right table's), else -1.
  int CoalescedSource(absl::string_view name) const {
    if (coalesced_.empty()) return -1;
    auto it = coalesced_.find(absl::AsciiStrToLower(name));
    return it == coalesced_.end() ? -1 : it->second;
  }

  // Adds to `*mask` the sources `e` reads; the evaluator reads the first candidate, as an
  // unqualified USING column means the joined one. With `strict`, a column no source in
  // `visible` has is 1054 and one several have is 1052 (both in `clause`).
  std::optional<mysql::SqlError> Collect(const Expr& e, bool strict, Mask visible,
                                         absl::string_view clause, Mask* mask) const {
    if (e.kind == ExprKind::kColumn) {
      std::vector<size_t> candidates = Candidates(e);
      std::erase_if(candidates, [&](size_t s) { return (visible & Bit(s)) == 0; });
      if (candidates.empty()) {
        if (!strict) return std::nullopt;
        std::string name = e.qualifier.empty() ? e.name : absl::StrCat(e.qualifier, ".", e.name);
        return mysql::errors::UnknownColumn(name, clause);
      }
      if (strict && candidates.size() > 1 && !coalesced_.contains(absl::AsciiStrToLower(e.name))) {
        return mysql::errors::AmbiguousColumn(e.name, clause);
      }
      *mask |= Bit(candidates[0]);
      return std::nullopt;
    }
    for (const ExprPtr& a : e.args) {
      if (auto err = Collect(*a, strict, visible, clause, mask)) return err;
    }
    return std::nullopt;
  }

 private:
  const std::vector<JoinSource>& sources_;
  const std::vector<SourceColumns>& columns_;
  const absl::flat_hash_map<std::string, int>& coalesced_;
};

// A condition of the join and the sources it reads.
struct Conjunct {
  const Expr* expr;
  Mask mask;
  bool from_where;
  bool used = false;
};

// Values that compare equal under the router's comparison hash alike in these classes:
// integers by value, strings of `_ci` collations folded, strings compared byte for byte (a
// `_bin` collation on either side, which wins as in MySQL) by their bytes.
enum class HashClass : uint8_t { kNone, kInteger, kString, kBytes };

// Strings of the binary charset (BINARY, BLOB, BIT…) and JSON are not hashed: their compare
// rules (against numbers, JSON's own) differ from what a hash of their text follows.
HashClass HashClassOf(const mysql::ColumnDefinition& c) {
  switch (ClassOf(c)) {
    case Cls::kInt:
      return HashClass::kInteger;
    case Cls::kString:
      if (c.charset == mysql::charset::kBinary || c.type == mysql::ColumnType::kJson) {
        return HashClass::kNone;
      }
      return IsBinaryCollationId(c.charset) ? HashClass::kBytes : HashClass::kString;
    default:
      return HashClass::kNone;
  }
}

std::string ExprText(const Expr& e) {
  if (e.kind == ExprKind::kColumn) {
    return e.qualifier.empty() ? e.name : absl::StrCat(e.qualifier, ".", e.name);
  }
  if (e.kind == ExprKind::kLiteral || e.kind == ExprKind::kParam) return "const";
  return "func";
}

class Planner {
 public:
  Planner(const SelectStmt& select, const ExecContext& ctx) : select_(select), ctx_(ctx) {}

  std::variant<JoinPlan, mysql::SqlError> Run(bool typing_only) {
    if (auto err = ResolveSources(typing_only)) return *err;
    regular_ = plan_.sources.size();
    SimplifyOuterJoins();
    if (!typing_only) {
      if (auto err = AddSemiJoins()) return *err;
    }
    if (auto err = ApplyUsing()) return *err;
    ChooseColumns();
    Lay();
    MapCoalescedColumns();
    if (auto err = AddScalarColumns()) return *err;
    if (typing_only) return std::move(plan_);
    if (auto err = Validate()) return *err;
    if (auto err = GatherConjuncts()) return *err;
    if (auto err = PlanSteps()) return *err;
    plan_.lock = ReadLock(select_, /*in_transaction=*/true);  // the join looks at its own
    return std::move(plan_);
  }

 private:
  const TableRef& RefOf(size_t s) const {
    return s == 0 ? *select_.from : select_.joins[s - 1].table;
  }

  std::optional<mysql::SqlError> ResolveSources(bool typing_only) {
    size_t n = select_.joins.size() + 1;
    if (n > kMaxTables) {
      return mysql::SqlError{1116, "HY000",
                             "Too many tables; MySQL can only use 61 tables in a join"};
    }
    const SessionState& state = *ctx_.state;
    for (size_t s = 0; s < n; ++s) {
      const TableRef& ref = RefOf(s);
      JoinSource& source = plan_.sources.emplace_back();
      source.name = QualifierOf(ref);
      source.kind = s == 0 ? JoinKind::kInner : select_.joins[s - 1].kind;
      for (size_t before = 0; before < s; ++before) {
        if (absl::EqualsIgnoreCase(plan_.sources[before].name, source.name)) {
          return mysql::errors::NotUniqueTable(source.name);
        }
      }
      SourceColumns& columns = columns_.emplace_back();
      if (ref.derived) {
        if (auto err = ResolveDerived(*ref.derived, typing_only, &source, &columns)) return err;
        continue;
      }
      if (ReadsInformationSchema(ref, state)) {
        auto view = InformationSchemaColumns(ref.table.name, state, SystemSchemaOf(ref, state));
        if (auto* err = std::get_if<mysql::SqlError>(&view)) return *err;
        columns.view = std::get<std::vector<mysql::ColumnDefinition>>(std::move(view));
        QualifyColumns(source.name, &columns.view);
        if (!typing_only) {
          auto rows = InformationSchemaRows(ref.table.name, state, SystemSchemaOf(ref, state));
          if (auto* err = std::get_if<mysql::SqlError>(&rows)) return *err;
          source.view_rows = std::get<FetchedRows>(std::move(rows)).rows;
        }
        continue;
      }
      auto resolved = ResolveTable(ref.table, state);
      if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
      if (auto err = CheckTableLock(ref, state)) return *err;
      source.table = std::get<api::TablePtr>(std::move(resolved));
      columns.table = source.table.get();
    }
    // Outer joins' NULL rows: LEFT's table, and every table before a RIGHT JOIN.
    for (size_t s = 1; s < n; ++s) {
      if (plan_.sources[s].kind == JoinKind::kLeft) plan_.sources[s].nullable = true;
      if (plan_.sources[s].kind == JoinKind::kRight) {
        for (size_t before = 0; before < s; ++before) plan_.sources[before].nullable = true;
      }
    }
    return std::nullopt;
  }

  // A LEFT JOIN whose NULL rows WHERE (or the ON of an inner join after it) would reject
  // anyway is an inner join, as MySQL rewrites it, so that it may be reordered and reach its
  // table by key. Its columns keep the nullability the statement wrote (result metadata).
  void SimplifyOuterJoins() {
    bool right = std::any_of(plan_.sources.begin(), plan_.sources.end(),
                             [](const JoinSource& s) { return s.kind == JoinKind::kRight; });
    if (right) return;
    std::vector<const Expr*> rejecting;
    Conjuncts(select_.where.get(), &rejecting);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t s = 1; s < regular_; ++s) {
        JoinSource& source = plan_.sources[s];
        if (source.kind != JoinKind::kLeft) continue;
        bool rejected = std::any_of(rejecting.begin(), rejecting.end(),
                                    [&](const Expr* e) { return RejectsNulls(*e, s); });
        if (!rejected) continue;
        source.kind = JoinKind::kInner;
        Conjuncts(select_.joins[s - 1].on.get(), &rejecting);  // now conditions of the result
        changed = true;
      }
    }
  }

  // Whether `e` is never true when source `s`'s columns are NULL: a comparison, IN, BETWEEN
  // or LIKE with one of them as an operand, or IS NOT NULL of one.
  bool RejectsNulls(const Expr& e, size_t s) const {
    Resolver resolver(plan_.sources, columns_, coalesced_);
    auto of_source = [&](const Expr& operand) {
      if (operand.kind != ExprKind::kColumn) return false;
      std::vector<size_t> candidates = resolver.Candidates(operand);
      return !candidates.empty() && candidates[0] == s;
    };
    switch (e.kind) {
      case ExprKind::kBinary:
        if (e.binary_op < BinaryOp::kEq || e.binary_op > BinaryOp::kGe ||
            e.binary_op == BinaryOp::kNullSafeEq) {
          return false;
        }
        return of_source(*e.args[0]) || of_source(*e.args[1]);
      case ExprKind::kIn:
      case ExprKind::kBetween:
      case ExprKind::kLike:
        return of_source(*e.args[0]);
      case ExprKind::kIsNull:
        return e.negated && of_source(*e.args[0]);
      default:
        return false;
    }
  }

  // A derived table: its rows as the statement computed them before it ran (subqueries.h),
  // and its columns, qualified by its alias; only the columns when typing.
  std::optional<mysql::SqlError> ResolveDerived(const SelectStmt& derived, bool typing_only,
                                                JoinSource* source, SourceColumns* columns) {
    const DerivedTables* computed = ctx_.derived_tables.get();
    if (typing_only) {
      auto typed = derived.unions.empty() ? SingleSelectColumns(derived, *ctx_.state)
                                          : UnionColumns(derived, *ctx_.state);
      if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
      columns->view = std::get<std::vector<mysql::ColumnDefinition>>(std::move(typed));
    } else if (const mysql::ResultSet* rows = computed ? computed->Find(&derived) : nullptr) {
      columns->view = rows->columns;
      source->view_rows = rows->rows;
    } else {
      return mysql::errors::NotSupportedYet("EXPLAIN of a join that reads a derived table");
    }
    QualifyColumns(source->name, &columns->view);
    return std::nullopt;
  }

  // NATURAL JOIN's USING: the columns both source `s` and a table before it have, each once,
  // in the order of the side MySQL reads first — the left one's (the first table's first), or
  // the right table's for a RIGHT JOIN, which MySQL turns into a LEFT JOIN the other way round.
  std::vector<std::string> NaturalColumns(size_t s, bool right) const {
    auto before_has = [&](const std::string& name) {
      for (size_t before = 0; before < s; ++before) {
        if (columns_[before].Find(name) >= 0) return true;
      }
      return false;
    };
    std::vector<std::string> names;
    auto add = [&](const std::string& name) {
      const bool seen = std::any_of(names.begin(), names.end(), [&](const std::string& n) {
        return absl::EqualsIgnoreCase(n, name);
      });
      if (!seen) names.push_back(name);
    };
    if (right) {
      for (int c : columns_[s].All()) {
        if (before_has(columns_[s].Name(c))) add(columns_[s].Name(c));
      }
      return names;
    }
    for (size_t before = 0; before < s; ++before) {
      for (int c : columns_[before].All()) {
        if (columns_[s].Find(columns_[before].Name(c)) >= 0) add(columns_[before].Name(c));
      }
    }
    return names;
  }

  // USING (c): ON left.c = right.c, where `left` is the first table before it with a column c.
  std::optional<mysql::SqlError> ApplyUsing() {
    using_.resize(plan_.sources.size());
    for (size_t s = 1; s < regular_; ++s) {
      const JoinClause& join = select_.joins[s - 1];
      const std::vector<std::string> names =
          join.natural ? NaturalColumns(s, join.kind == JoinKind::kRight) : join.using_columns;
      for (const std::string& name : names) {
        // The left side's joined column: after a RIGHT JOIN USING it, the right table's.
        const std::string lower = absl::AsciiStrToLower(name);
        auto holder = coalesced_.find(lower);
        int left = holder != coalesced_.end() ? holder->second : -1;
        for (size_t before = 0; before < s && left < 0; ++before) {
          if (columns_[before].Find(name) >= 0) left = static_cast<int>(before);
        }
        if (left < 0 || columns_[s].Find(name) < 0) {
          return mysql::errors::UnknownColumn(name, "from clause");
        }
        auto column = [&](size_t source) {
          auto e = std::make_unique<Expr>();
          e->kind = ExprKind::kColumn;
          e->name = name;
          e->qualifier = plan_.sources[source].name;
          return e;
        };
        auto eq = std::make_unique<Expr>();
        eq->kind = ExprKind::kBinary;
        eq->binary_op = BinaryOp::kEq;
        eq->args.push_back(column(left));
        eq->args.push_back(column(s));
        using_[s].push_back(eq.get());
        plan_.owned.push_back(std::move(eq));
        // MySQL's joined column is COALESCE(left, right): the left one's value, but a RIGHT
        // JOIN's right table is the one never NULL.
        if (plan_.sources[s].kind == JoinKind::kRight) {
          coalesced_[lower] = static_cast<int>(s);
        } else if (holder == coalesced_.end()) {
          coalesced_[lower] = -1;
        }
        using_pairs_.push_back({s, static_cast<size_t>(left), name});
      }
    }
    return std::nullopt;
  }

  void Need(const Expr& e, const Resolver& resolver) {
    if (e.kind == ExprKind::kColumn) {
      for (size_t s : resolver.Candidates(e)) needed_[s].insert(columns_[s].Find(e.name));
    }
    for (const ExprPtr& a : e.args) Need(*a, resolver);
    for (const ExprPtr& k : e.concat_order) Need(*k, resolver);
    if (e.window != nullptr) {
      for (const ExprPtr& p : e.window->partition_by) Need(*p, resolver);
      for (const OrderItem& o : e.window->order_by) Need(*o.expr, resolver);
    }
  }

  // The columns each base table is read for: those the statement names, all for `*`.
  void ChooseColumns() {
    Resolver resolver(plan_.sources, columns_, coalesced_);
    needed_.resize(plan_.sources.size());
    auto need = [&](const Expr* e) {
      if (e != nullptr) Need(*e, resolver);
    };
    for (const SelectItem& item : select_.items) {
      if (item.expr != nullptr) {
        need(item.expr.get());
        continue;
      }
      for (size_t s = 0; s < plan_.sources.size(); ++s) {
        if (item.star_qualifier.empty() ||
            absl::EqualsIgnoreCase(item.star_qualifier, plan_.sources[s].name)) {
          for (int c : columns_[s].All()) needed_[s].insert(c);
        }
      }
    }
    need(select_.where.get());
    for (const JoinClause& join : select_.joins) need(join.on.get());
    for (const ExprPtr& g : select_.group_by) need(g.get());
    need(select_.having.get());
    for (const OrderItem& o : select_.order_by) need(o.expr.get());
    for (const auto& [right, left, name] : using_pairs_) {
      needed_[right].insert(columns_[right].Find(name));
      needed_[left].insert(columns_[left].Find(name));
    }
    for (const SemiSide& side : semis_) {
      for (const Expr* e : side.conditions) need(e);
      need(side.not_in_match);
      need(side.scalar_value);
    }
  }

  // Each unqualified reference to a joined column that a RIGHT JOIN … USING made the right
  // table's: the evaluator reads it there (EvalContext::row_subqueries), not in the first
  // table that has the name. An ON before that join sees only the tables up to its own.
  void MapCoalescedColumns() {
    if (std::none_of(coalesced_.begin(), coalesced_.end(),
                     [](const auto& c) { return c.second > 0; })) {
      return;
    }
    Resolver resolver(plan_.sources, columns_, coalesced_);
    std::function<void(const Expr*, size_t)> map = [&](const Expr* e, size_t visible) {
      if (e == nullptr) return;
      if (e->kind == ExprKind::kColumn && e->qualifier.empty()) {
        int holder = resolver.CoalescedSource(e->name);
        if (holder > 0 && static_cast<size_t>(holder) <= visible) {
          int c = JoinedColumn(holder, e->name);
          if (c >= 0) plan_.row_subqueries[e] = plan_.sources[holder].offset + c;
        }
      }
      for (const ExprPtr& a : e->args) map(a.get(), visible);
      for (const ExprPtr& k : e->concat_order) map(k.get(), visible);
      if (e->window != nullptr) {
        for (const ExprPtr& p : e->window->partition_by) map(p.get(), visible);
        for (const OrderItem& o : e->window->order_by) map(o.expr.get(), visible);
      }
    };
    const size_t all = plan_.sources.size();
    for (const SelectItem& item : select_.items) map(item.expr.get(), all);
    map(select_.where.get(), all);
    for (size_t j = 0; j < select_.joins.size(); ++j) map(select_.joins[j].on.get(), j + 1);
    for (const ExprPtr& g : select_.group_by) map(g.get(), all);
    map(select_.having.get(), all);
    for (const OrderItem& o : select_.order_by) map(o.expr.get(), all);
  }

  // The joined row: each source's columns in FROM order; a view's are all of its own.
  void Lay() {
    std::vector<std::vector<int>> shown(plan_.sources.size());  // joined-row columns, per source
    for (size_t s = 0; s < plan_.sources.size(); ++s) {
      JoinSource& source = plan_.sources[s];
      source.offset = plan_.columns.size();
      std::vector<mysql::ColumnDefinition> defs;
      if (source.table == nullptr) {
        defs = columns_[s].view;
      } else {
        source.columns.assign(needed_[s].begin(), needed_[s].end());
        std::sort(source.columns.begin(), source.columns.end());
        defs = FetchedColumnDefs(*source.table, source.columns, source.name, *ctx_.state);
      }
      for (mysql::ColumnDefinition& def : defs) {
        shown[s].push_back(static_cast<int>(plan_.columns.size()));
        if (source.nullable) def.flags &= ~mysql::column_flag::kNotNull;
        plan_.columns.push_back(std::move(def));
      }
      source.width = defs.size();
    }
    if (using_pairs_.empty()) {
      // A semi-join's table is not the statement's: `*` stops before it.
      if (regular_ < plan_.sources.size()) {
        plan_.star.resize(plan_.sources[regular_].offset);
        for (size_t c = 0; c < plan_.star.size(); ++c) plan_.star[c] = static_cast<int>(c);
      }
      return;
    }
    // `*` with USING, as MySQL: the joined columns once (the left one's), then the rest of
    // the left side, then the rest of the right table; RIGHT JOIN takes the right one's.
    std::vector<int> star = shown[0];
    for (size_t s = 1; s < regular_; ++s) {
      std::vector<int> right = shown[s];
      std::vector<int> first;
      for (const auto& [r, left, using_name] : using_pairs_) {
        if (r != s) continue;
        // (A structured binding is captured through a reference of its own: clang 14 takes no
        // binding in a lambda.)
        const std::string& name = using_name;
        auto named = [&](int c) { return absl::EqualsIgnoreCase(plan_.columns[c].name, name); };
        auto in_left = std::find_if(star.begin(), star.end(), named);
        auto in_right = std::find_if(right.begin(), right.end(), named);
        if (in_left == star.end() || in_right == right.end()) continue;
        first.push_back(plan_.sources[s].kind == JoinKind::kRight ? *in_right : *in_left);
        star.erase(in_left);
        right.erase(in_right);
      }
      if (plan_.sources[s].kind == JoinKind::kRight) std::swap(star, right);
      first.insert(first.end(), star.begin(), star.end());
      first.insert(first.end(), right.begin(), right.end());
      star = std::move(first);
    }
    plan_.star = std::move(star);
  }

  // Every column WHERE, ON and the select list name exists, once; an ON sees only the tables
  // up to its own.
  std::optional<mysql::SqlError> Validate() {
    Resolver resolver(plan_.sources, columns_, coalesced_);
    Mask all = Bit(plan_.sources.size()) - 1;
    Mask from = Bit(regular_) - 1;  // what the statement itself sees: not its subqueries' tables
    Mask ignored = 0;
    for (const SelectItem& item : select_.items) {
      if (item.expr == nullptr) continue;
      if (auto err = resolver.Collect(*item.expr, true, from, "field list", &ignored)) return err;
    }
    if (select_.where) {
      if (auto err = resolver.Collect(*select_.where, true, from, "where clause", &ignored)) {
        return err;
      }
    }
    for (size_t s = 1; s < regular_; ++s) {
      const Expr* on = select_.joins[s - 1].on.get();
      if (on == nullptr) continue;
      if (auto err = resolver.Collect(*on, true, Bit(s + 1) - 1, "on clause", &ignored)) return err;
    }
    for (const SemiSide& side : semis_) {
      for (const Expr* e : side.conditions) {
        if (auto err = resolver.Collect(*e, true, all, "where clause", &ignored)) return err;
      }
      if (side.not_in_match != nullptr) {
        if (auto err = resolver.Collect(*side.not_in_match, true, all, "where clause", &ignored)) {
          return err;
        }
      }
    }
    return std::nullopt;
  }

  std::optional<mysql::SqlError> GatherConjuncts() {
    Resolver resolver(plan_.sources, columns_, coalesced_);
    Mask all = Bit(plan_.sources.size()) - 1;
    on_.resize(plan_.sources.size());
    auto add = [&](const Expr* e, bool from_where,
                   size_t source) -> std::optional<mysql::SqlError> {
      std::vector<const Expr*> parts;
      Conjuncts(e, &parts);
      for (const Expr* part : parts) {
        Mask mask = 0;
        if (auto err = resolver.Collect(*part, false, all, "", &mask)) return err;
        (from_where ? where_ : on_[source]).push_back({part, mask, from_where});
      }
      return std::nullopt;
    };
    if (auto err = add(select_.where.get(), true, 0)) return err;
    // A conjunct reading a scalar subquery's value waits for that subquery's step.
    for (Conjunct& c : where_) {
      for (const SemiSide& side : semis_) {
        if (side.scalar_node != nullptr && Holds(*c.expr, side.scalar_node)) {
          c.mask |= Bit(side.source);
        }
      }
    }
    // The conjuncts that became semi-joins are their steps' own.
    std::erase_if(where_, [&](const Conjunct& c) {
      return std::any_of(semis_.begin(), semis_.end(),
                         [&](const SemiSide& side) { return side.conjunct == c.expr; });
    });
    for (size_t s = 1; s < regular_; ++s) {
      if (auto err = add(select_.joins[s - 1].on.get(), false, s)) return err;
      for (const Expr* eq : using_[s]) {
        if (auto err = add(eq, false, s)) return err;
      }
    }
    return std::nullopt;
  }

  bool AnyOuter() const {
    return std::any_of(plan_.sources.begin(), plan_.sources.end(),
                       [](const JoinSource& s) { return s.kind != JoinKind::kInner; });
  }
  bool AnyRight() const {
    return std::any_of(plan_.sources.begin(), plan_.sources.end(),
                       [](const JoinSource& s) { return s.kind == JoinKind::kRight; });
  }

  std::optional<mysql::SqlError> PlanSteps() {
    bool straight = std::any_of(select_.joins.begin(), select_.joins.end(),
                                [](const JoinClause& j) { return j.straight; });
    if (!AnyOuter() && !straight) return PlanReordered();
    return PlanWritten();
  }

  // Inner joins only: every condition in one pool, the next table the one reached best.
  std::optional<mysql::SqlError> PlanReordered() {
    std::vector<Conjunct> pool = where_;
    for (const std::vector<Conjunct>& on : on_) pool.insert(pool.end(), on.begin(), on.end());
    Mask placed = 0;
    while (placed != Bit(regular_) - 1) {
      std::optional<Candidate> best;
      int best_rank = 0;
      for (size_t s = 0; s < regular_; ++s) {
        if (placed & Bit(s)) continue;
        std::vector<const Expr*> conditions = Completed(pool, placed | Bit(s), false);
        Candidate candidate = MakeStep(s, placed, conditions, Local(conditions, s), placed != 0);
        int rank = Rank(candidate.step, placed != 0);
        if (!best || rank < best_rank) {
          best = std::move(candidate);
          best_rank = rank;
        }
      }
      (void)Completed(pool, placed | Bit(best->step.source), true);  // taken by this step
      placed |= Bit(best->step.source);
      plan_.steps.push_back(std::move(*best).Finished());
    }
    PlanSemiJoins(placed);
    plan_.where_done = true;
    return std::nullopt;
  }

  // Outer joins (or STRAIGHT_JOIN): the order written. ON conditions stay at their join; WHERE
  // is checked once its tables are joined, unless a RIGHT JOIN may yet add rows.
  std::optional<mysql::SqlError> PlanWritten() {
    bool right = AnyRight();
    if (right && !semis_.empty()) {
      return mysql::errors::NotSupportedYet("correlated subqueries with RIGHT JOIN");
    }
    Mask placed = 0;
    for (size_t s = 0; s < regular_; ++s) {
      const JoinSource& source = plan_.sources[s];
      std::vector<const Expr*> conditions;
      for (const Conjunct& c : on_[s]) conditions.push_back(c.expr);
      std::vector<const Expr*> completed;
      if (!right) completed = Completed(where_, placed | Bit(s), true);
      // What restricts this table's own rows: its ON's parts about it alone (not for RIGHT,
      // whose table keeps every row), and WHERE's when no outer join gives it NULLs.
      std::vector<const Expr*> local;
      if (source.kind != JoinKind::kRight) local = Local(conditions, s);
      if (!source.nullable) {
        for (const Conjunct& c : where_) {
          if (c.mask == Bit(s)) local.push_back(c.expr);
        }
      }
      bool inner = source.kind == JoinKind::kInner;
      if (inner) conditions.insert(conditions.end(), completed.begin(), completed.end());
      JoinStep step = MakeStep(s, placed, conditions, local,
                               /*lookups=*/s > 0 && source.kind != JoinKind::kRight)
                          .Finished();
      if (!inner) step.filters = std::move(completed);
      placed |= Bit(s);
      plan_.steps.push_back(std::move(step));
    }
    PlanSemiJoins(placed);
    plan_.where_done = !right;
    return std::nullopt;
  }

  // A column after every source's for each scalar subquery's value, typed as its item over
  // the joined row (an aggregate as MySQL types it).
  std::optional<mysql::SqlError> AddScalarColumns() {
    for (SemiSide& side : semis_) {
      if (side.scalar_value == nullptr) continue;
      EvalContext eval = ctx_.Eval();
      eval.row_columns = &plan_.columns;
      const Expr& item = *side.scalar_value;
      mysql::ColumnDefinition type;
      if (IsAggregate(item)) {
        mysql::ColumnDefinition arg = IntColumn(21, false, Nullability::kNotNull);
        if (!item.args.empty() && item.args[0]->kind != ExprKind::kStar) {
          auto typed = TypeOf(*item.args[0], eval);
          if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
          arg = std::get<mysql::ColumnDefinition>(typed);
        }
        type = AggregateType(item, arg, *ctx_.state);
      } else {
        auto typed = TypeOf(item, eval);
        if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
        type = std::get<mysql::ColumnDefinition>(typed);
        type.flags &= ~mysql::column_flag::kNotNull;  // no matching row: NULL
      }
      type.name = "<scalar>";
      side.scalar_column = plan_.columns.size();
      plan_.row_subqueries[side.scalar_node] = side.scalar_column;
      plan_.columns.push_back(std::move(type));
    }
    return std::nullopt;
  }

  // The correlated subqueries of WHERE that run as semi-joins: each one's table becomes a
  // source after FROM's, under a name of its own ("<subquery2>") by which the copies of its
  // conditions name its columns.
  std::optional<mysql::SqlError> AddSemiJoins() {
    std::vector<SemiJoin> semis = SemiJoins(select_);
    for (const SemiJoin& scalar : ScalarJoins(select_)) semis.push_back(scalar);
    for (const SemiJoin& semi : semis) {
      if (plan_.sources.size() >= kMaxTables) break;
      const TableRef& ref = *semi.select->from;
      auto resolved = ResolveTable(ref.table, *ctx_.state);
      if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
      if (auto err = CheckTableLock(ref, *ctx_.state)) return err;
      JoinSource& source = plan_.sources.emplace_back();
      source.name = absl::StrCat("<subquery", plan_.sources.size(), ">");
      source.table = std::get<api::TablePtr>(std::move(resolved));
      source.semi = semi.kind;
      SourceColumns& columns = columns_.emplace_back();
      columns.table = source.table.get();
      std::vector<std::string> names;
      for (const schema::ColumnDef& c : source.table->columns) {
        if (!c.hidden) names.push_back(c.name);
      }
      const std::string& qualifier = QualifierOf(ref);
      auto copy = [&](const Expr& e) {
        ExprPtr owned = RequalifiedCopy(e, qualifier, names, source.name);
        const Expr* raw = owned.get();
        if (owned) plan_.owned.push_back(std::move(owned));
        return raw;
      };
      SemiSide& side = semis_.emplace_back();
      side.source = plan_.sources.size() - 1;
      side.conjunct = semi.conjunct;
      if (semi.select->where) Conjuncts(copy(*semi.select->where), &side.conditions);
      if (semi.kind == SemiJoin::Kind::kScalar) {
        side.scalar_node = semi.conjunct;
        side.scalar_value = copy(*semi.select->items[0].expr);
      }
      if (semi.outer != nullptr) {
        auto eq = std::make_unique<Expr>();
        eq->kind = ExprKind::kBinary;
        eq->binary_op = BinaryOp::kEq;
        eq->args.push_back(RequalifiedCopy(*semi.outer, "", {}, ""));  // the outer scope's
        eq->args.push_back(
            RequalifiedCopy(*semi.select->items[0].expr, qualifier, names, source.name));
        if (semi.kind == SemiJoin::Kind::kIn) {
          side.conditions.push_back(eq.get());
        } else {
          side.not_in_match = eq.get();
          side.not_in_value = semi.outer;
        }
        plan_.owned.push_back(std::move(eq));
      }
    }
    return std::nullopt;
  }

  // The semi-joins' steps, after every table of FROM (`placed`): each reads its table by the
  // correlation's keys when it can.
  void PlanSemiJoins(Mask placed) {
    for (const SemiSide& side : semis_) {
      JoinStep step = MakeStep(side.source, placed, side.conditions,
                               Local(side.conditions, side.source), /*lookups=*/true)
                          .Finished();
      step.semi = plan_.sources[side.source].semi;
      step.not_in_match = side.not_in_match;
      step.not_in_value = side.not_in_value;
      step.scalar_value = side.scalar_value;
      step.scalar_column = side.scalar_column;
      placed |= Bit(side.source);
      for (Conjunct& c : where_) {  // those that waited for a scalar subquery's value
        if (!c.used && (c.mask & Bit(side.source)) != 0 && (c.mask & ~placed) == 0) {
          step.filters.push_back(c.expr);
          c.used = true;
        }
      }
      plan_.steps.push_back(std::move(step));
    }
  }

  // Whether `node` is `e` or inside it.
  static bool Holds(const Expr& e, const Expr* node) {
    if (&e == node) return true;
    return std::any_of(e.args.begin(), e.args.end(),
                       [&](const ExprPtr& a) { return Holds(*a, node); });
  }

  // The conditions of `pool` whose tables are all in `placed` and not yet taken; with `take`
  // they are marked taken.
  static std::vector<const Expr*> Completed(std::vector<Conjunct>& pool, Mask placed, bool take) {
    std::vector<const Expr*> out;
    for (Conjunct& c : pool) {
      if (c.used || (c.mask & ~placed) != 0) continue;
      out.push_back(c.expr);
      if (take) c.used = true;
    }
    return out;
  }

  // Those of `conditions` that read table `s` alone.
  std::vector<const Expr*> Local(const std::vector<const Expr*>& conditions, size_t s) const {
    std::vector<const Expr*> out;
    for (const Expr* e : conditions) {
      if (MaskOf(*e) == Bit(s)) out.push_back(e);
    }
    return out;
  }

  Mask MaskOf(const Expr& e) const {
    Resolver resolver(plan_.sources, columns_, coalesced_);
    Mask mask = 0;
    resolver.Collect(e, false, Bit(plan_.sources.size()) - 1, "", &mask);
    return mask;
  }

  // `column = outer` in `e` (either way round), with the column one of table `s`'s and `outer`
  // reading only tables in `placed` (or none): the column's table position and `outer`.
  bool Link(const Expr& e, size_t s, Mask placed, int* column, const Expr** outer) const {
    if (e.kind != ExprKind::kBinary || e.binary_op != BinaryOp::kEq) return false;
    Resolver resolver(plan_.sources, columns_, coalesced_);
    for (int side = 0; side < 2; ++side) {
      const Expr& c = *e.args[side];
      if (c.kind != ExprKind::kColumn || MaskOf(c) != Bit(s)) continue;
      Mask other = MaskOf(*e.args[1 - side]);
      if ((other & ~placed) != 0 || e.args[1 - side]->kind == ExprKind::kRow) continue;
      *column = static_cast<int>(plan_.sources[s].offset) + JoinedColumn(s, c.name);
      *outer = e.args[1 - side].get();
      return true;
    }
    return false;
  }

  // The position within source `s`'s part of the joined row of its column `name`.
  int JoinedColumn(size_t s, absl::string_view name) const {
    const JoinSource& source = plan_.sources[s];
    for (size_t i = 0; i < source.width; ++i) {
      if (absl::EqualsIgnoreCase(plan_.columns[source.offset + i].name, name)) {
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  // The table position of the column at `joined` (a base table's).
  static int TableColumn(const JoinSource& source, int joined) {
    return source.columns[joined - static_cast<int>(source.offset)];
  }

  // Drops from the step's checks what its access already guarantees: the conditions an exact
  // plan of its own turned into keys, and integer equalities it matches rows on by hashing
  // (equal hashes are equal integers). They were needed to choose the access, not after it.
  // A step being chosen, and the conditions its access guarantees.
  struct Candidate {
    JoinStep step;
    std::vector<const Expr*> guaranteed;

    // Drops from the step's checks what its access already guarantees: the conditions an
    // exact plan of its own turned into keys, and integer equalities it matches rows on by
    // hashing (equal hashes are equal integers). They chose the access; checking them again
    // on every row would only cost.
    JoinStep Finished() && {
      std::erase_if(step.conditions, [&](const Expr* e) {
        return std::find(guaranteed.begin(), guaranteed.end(), e) != guaranteed.end();
      });
      return std::move(step);
    }
  };

  Candidate MakeStep(size_t s, Mask placed, const std::vector<const Expr*>& conditions,
                     const std::vector<const Expr*>& local, bool lookups) {
    const JoinSource& source = plan_.sources[s];
    Candidate candidate;
    JoinStep& step = candidate.step;
    step.source = s;
    step.kind = source.kind;
    step.conditions = conditions;
    // Equalities with the tables before it: what lookups and hashing use.
    std::vector<std::pair<int, const Expr*>> links;
    for (const Expr* e : conditions) {
      int column = 0;
      const Expr* outer = nullptr;
      if (!Link(*e, s, placed, &column, &outer)) continue;
      // Under an explicit COLLATE the comparison's collation may not be the column's, which
      // lookups and hashes by the column follow: such a condition is only checked.
      if (outer->kind == ExprKind::kCollate) continue;
      links.emplace_back(column, outer);
      if (MaskOf(*outer) == 0) continue;  // a constant restricts the table's own rows
      HashClass hashed = HashesAlike(plan_.columns[column], *outer);
      if (hashed == HashClass::kNone) continue;
      step.match.push_back({column, outer, hashed == HashClass::kBytes});
      if (hashed == HashClass::kInteger) candidate.guaranteed.push_back(e);
    }
    if (source.table == nullptr) {
      step.access = JoinStep::Access::kViewRows;
      return candidate;
    }
    const schema::TableDef& table = *source.table;
    step.plan = PlanAccess(table, local, ctx_);
    step.filter = PushedFilter(table, local, ctx_);
    bool own_is_keyed = step.plan.kind == AccessPlan::Kind::kNothing ||
                        step.plan.kind == AccessPlan::Kind::kKeyLookup ||
                        step.plan.kind == AccessPlan::Kind::kBatchedLookup;
    if (step.plan.exact) {
      candidate.guaranteed.insert(candidate.guaranteed.end(), local.begin(), local.end());
    }
    if (!lookups || own_is_keyed) return candidate;
    auto value_of = [&](int table_column) -> const Expr* {
      for (const auto& [column, outer] : links) {
        if (TableColumn(source, column) == table_column) return outer;
      }
      return nullptr;
    };
    bool reads_before = false;
    std::vector<const Expr*> key;
    for (int c : table.primary_key().columns) {
      const Expr* v = value_of(c);
      if (v == nullptr) break;
      reads_before = reads_before || MaskOf(*v) != 0;
      key.push_back(v);
    }
    bool keyed = key.size() == table.primary_key().columns.size() && reads_before;
    int index = -1;
    for (size_t i = 0; i < table.indexes.size() && !keyed && index < 0; ++i) {
      const Expr* v = value_of(table.indexes[i].columns[0]);
      if (v != nullptr && MaskOf(*v) != 0) {
        index = static_cast<int>(i);
        key = {v};
      }
    }
    if (!keyed && index < 0) return candidate;
    // The rows come from the lookups, not from the plan of its own (only a fallback now).
    if (step.plan.exact) candidate.guaranteed.resize(candidate.guaranteed.size() - local.size());
    step.access = keyed ? JoinStep::Access::kKeyLookup : JoinStep::Access::kIndexLookup;
    step.index = index;
    step.key = std::move(key);
    return candidate;
  }

  // The class in which `column` and `outer` hash alike when they are equal (kNone: none).
  HashClass HashesAlike(const mysql::ColumnDefinition& column, const Expr& outer) const {
    HashClass c = HashClassOf(column);
    if (c == HashClass::kNone) return c;
    EvalContext eval = ctx_.Eval();
    eval.row_columns = &plan_.columns;
    auto typed = TypeOf(outer, eval);
    auto* type = std::get_if<mysql::ColumnDefinition>(&typed);
    HashClass o = type != nullptr ? HashClassOf(*type) : HashClass::kNone;
    if (o == HashClass::kNone || (c == HashClass::kInteger) != (o == HashClass::kInteger)) {
      return HashClass::kNone;
    }
    return c == HashClass::kBytes || o == HashClass::kBytes ? HashClass::kBytes : c;
  }

  // Lower is better: what a step of this shape costs, without statistics.
  static int Rank(const JoinStep& step, bool joined) {
    switch (step.access) {
      case JoinStep::Access::kKeyLookup:
        return 1;
      case JoinStep::Access::kIndexLookup:
        return 3;
      case JoinStep::Access::kViewRows:
        return 4;
      case JoinStep::Access::kOwn:
        break;
    }
    switch (step.plan.kind) {
      case AccessPlan::Kind::kNothing:
      case AccessPlan::Kind::kKeyLookup:
        return 0;
      case AccessPlan::Kind::kBatchedLookup:
        return 2;
      case AccessPlan::Kind::kIndexRange:
        return 5;
      case AccessPlan::Kind::kFullScan:
        break;
    }
    return joined && !step.match.empty() ? 6 : 7;
  }

  const SelectStmt& select_;
  const ExecContext& ctx_;
  JoinPlan plan_;
  std::vector<SourceColumns> columns_;
  std::vector<absl::flat_hash_set<int>> needed_;  // per source: its columns read
  // USING's names, lower-cased, each with the source an unqualified reference reads when it
  // is not the first with the name (CoalescedSource), else -1.
  absl::flat_hash_map<std::string, int> coalesced_;
  struct UsingPair {
    size_t right, left;
    std::string name;
  };
  std::vector<UsingPair> using_pairs_;
  std::vector<std::vector<const Expr*>> using_;  // per source: USING's equalities
  std::vector<Conjunct> where_;
  std::vector<std::vector<Conjunct>> on_;  // per source: its ON's conjuncts
  size_t regular_ = 0;                     // the sources of FROM (the semi-joins' come after)
  struct SemiSide {
    size_t source;
    const Expr* conjunct;                 // the WHERE conjunct it replaces
    std::vector<const Expr*> conditions;  // its copies, naming its table by the source's name
    const Expr* not_in_match = nullptr;
    const Expr* not_in_value = nullptr;
    const Expr* scalar_node = nullptr;   // a scalar subquery's node in the select list
    const Expr* scalar_value = nullptr;  // its item, copied
    size_t scalar_column = 0;            // its value's column in the joined row
  };
  std::vector<SemiSide> semis_;
};

}  // namespace

std::string JoinPlan::Describe(const JoinStep& step) const {
  const JoinSource& source = sources[step.source];
  std::string how;
  switch (step.access) {
    case JoinStep::Access::kKeyLookup:
      how = "batched key lookups on PRIMARY, one batch for all rows so far";
      break;
    case JoinStep::Access::kIndexLookup:
      how = absl::StrCat("range list scan on ", source.table->indexes[step.index].name,
                         ", one range per distinct value");
      break;
    case JoinStep::Access::kViewRows:
      how = "computed in the router";
      break;
    case JoinStep::Access::kOwn:
      how = step.plan.Describe(*source.table);
      if (!step.filter.empty()) absl::StrAppend(&how, " with pushed filter");
      break;
  }
  if (!step.match.empty()) absl::StrAppend(&how, "; hash join");
  if (step.kind == JoinKind::kLeft) absl::StrAppend(&how, "; left join");
  if (step.kind == JoinKind::kRight) absl::StrAppend(&how, "; right join");
  if (step.semi == SemiJoin::Kind::kScalar) {
    absl::StrAppend(&how, "; scalar subquery");
  } else if (step.semi) {
    bool anti = *step.semi == SemiJoin::Kind::kNotExists || *step.semi == SemiJoin::Kind::kNotIn;
    absl::StrAppend(&how, anti ? "; anti-join" : "; semi-join");
  }
  return how;
}

std::string JoinPlan::KeyText(const JoinStep& step) const {
  std::vector<std::string> parts;
  for (const Expr* e : step.key) parts.push_back(ExprText(*e));
  return absl::StrJoin(parts, ",");
}

std::variant<JoinPlan, mysql::SqlError> PlanJoin(const SelectStmt& select, const ExecContext& ctx,
                                                 bool typing_only) {
  return Planner(select, ctx).Run(typing_only);
}

}  // namespace shoal::sql::internal
