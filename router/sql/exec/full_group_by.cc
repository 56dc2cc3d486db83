#include "router/sql/exec/full_group_by.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/api/cluster.h"
#include "router/sql/eval/expr_eval.h"
#include "router/sql/exec/aggregates.h"
#include "router/sql/exec/fetched_columns.h"
#include "router/sql/exec/row_pipeline.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/parse/expr_equal.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;

// The columns of the grouped rows whose value is the same throughout a group, found as MySQL's
// Group_check::is_fd_on_source builds its sets: the grouped columns, then (unless WITH ROLLUP)
// over and over, whole tables through their keys and columns through the equalities of WHERE
// and of inner joins' ON.
class Determined {
 public:
  Determined(const GroupedSelect& grouped, const SessionState& state)
      : grouped_(grouped), state_(state), in_(grouped.columns->size(), false) {
    for (const Expr* g : grouped.group_by) Add(SourceOf(*g));
  }

  bool Has(int column) {
    if (in_[column]) return true;
    if (!closed_ && !grouped_.select->rollup) Close();
    return in_[column];
  }

  // The fetched column a column reference reads; -1 for none (an alias, an outer reference, or
  // an unknown column, which evaluation reports).
  int SourceOf(const Expr& e) const {
    if (e.kind != ExprKind::kColumn) return -1;
    const std::vector<ColumnDefinition>& columns = *grouped_.columns;
    for (size_t i = 0; i < columns.size(); ++i) {
      if (NamesColumn(e, columns[i])) return static_cast<int>(i);
    }
    return -1;
  }

 private:
  bool Add(int column) {
    if (column < 0 || in_[column]) return false;
    in_[column] = true;
    return true;
  }

  void Close() {
    closed_ = true;
    std::vector<const Expr*> equalities;
    if (grouped_.select->where != nullptr) Equalities(*grouped_.select->where, &equalities);
    // An inner join's ON is a WHERE; an outer join's holds only where it matched.
    for (const JoinClause& join : grouped_.select->joins) {
      if (join.kind == JoinKind::kInner && join.on != nullptr) Equalities(*join.on, &equalities);
    }
    const std::vector<std::pair<int, int>> joined = UsingEqualities();
    for (bool grew = true; grew;) {
      grew = AddKeyedTables();
      // col = expr: the column is determined once the expression is (MySQL: an expression of
      // determined columns, or of none — a constant, a variable, a parameter).
      for (const Expr* eq : equalities) {
        const int left = SourceOf(*eq->args[0]), right = SourceOf(*eq->args[1]);
        if (left >= 0 && Fixed(*eq->args[1])) grew = Add(left) || grew;
        if (right >= 0 && Fixed(*eq->args[0])) grew = Add(right) || grew;
      }
      for (const auto& [a, b] : joined) {
        if (in_[a]) grew = Add(b) || grew;
        if (in_[b]) grew = Add(a) || grew;
      }
    }
  }

  // The equalities an inner JOIN … USING or NATURAL JOIN makes: each joined column of the
  // table it joins with the same column of each table before it.
  std::vector<std::pair<int, int>> UsingEqualities() const {
    std::vector<std::pair<int, int>> out;
    const SelectStmt& select = *grouped_.select;
    if (!select.from) return out;
    const std::vector<ColumnDefinition>& columns = *grouped_.columns;
    std::vector<const std::string*> before{&QualifierOf(*select.from)};
    for (const JoinClause& join : select.joins) {
      const std::string& alias = QualifierOf(join.table);
      const bool joins_columns = join.natural || !join.using_columns.empty();
      for (size_t i = 0; joins_columns && join.kind == JoinKind::kInner && i < columns.size();
           ++i) {
        if (!absl::EqualsIgnoreCase(columns[i].table, alias)) continue;
        const std::string& name = columns[i].name;
        if (!join.natural &&
            std::none_of(join.using_columns.begin(), join.using_columns.end(),
                         [&](const std::string& u) { return absl::EqualsIgnoreCase(u, name); })) {
          continue;
        }
        for (size_t k = 0; k < columns.size(); ++k) {
          if (!absl::EqualsIgnoreCase(columns[k].name, name)) continue;
          const bool earlier = std::any_of(before.begin(), before.end(), [&](const std::string* b) {
            return absl::EqualsIgnoreCase(columns[k].table, *b);
          });
          if (earlier) out.emplace_back(static_cast<int>(i), static_cast<int>(k));
        }
      }
      before.push_back(&alias);
    }
    return out;
  }

  static void Equalities(const Expr& e, std::vector<const Expr*>* out) {
    if (e.kind != ExprKind::kBinary) return;
    if (e.binary_op == BinaryOp::kAnd) {
      Equalities(*e.args[0], out);
      Equalities(*e.args[1], out);
    } else if (e.binary_op == BinaryOp::kEq) {
      out->push_back(&e);
    }
  }

  // Whether `e` has one value per group by what is determined so far: it reads no column
  // but determined ones, and no subquery, aggregate or random value.
  bool Fixed(const Expr& e) const {
    if (e.subquery != nullptr || e.window != nullptr || IsAggregate(e)) return false;
    if (e.kind == ExprKind::kColumn) {
      const int c = SourceOf(e);
      return c >= 0 && in_[c];
    }
    if (e.kind == ExprKind::kFunction &&
        (e.name == "RAND" || e.name == "UUID" || e.name == "UUID_SHORT" || e.name == "SLEEP")) {
      return false;
    }
    for (const ExprPtr& a : e.args) {
      if (!Fixed(*a)) return false;
    }
    return true;
  }

  // Adds every column of each table (by its alias) one of whose unique NOT NULL keys is
  // determined whole; whether any was added.
  bool AddKeyedTables() {
    const std::vector<ColumnDefinition>& columns = *grouped_.columns;
    std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(state_);
    if (dictionary == nullptr) return false;
    bool grew = false;
    for (size_t c = 0; c < columns.size(); ++c) {
      if (!in_[c] || columns[c].org_table.empty()) continue;
      const std::string& alias = columns[c].table;
      if (keyed_.contains(alias)) continue;
      api::TablePtr table = dictionary->Find(columns[c].schema, columns[c].org_table);
      if (table == nullptr || !HasDeterminedKey(*table, alias)) continue;
      keyed_.insert(alias);
      for (size_t i = 0; i < columns.size(); ++i) {
        if (columns[i].table == alias) grew = Add(static_cast<int>(i)) || grew;
      }
    }
    return grew;
  }

  bool HasDeterminedKey(const schema::TableDef& table, const std::string& alias) const {
    const std::vector<ColumnDefinition>& columns = *grouped_.columns;
    for (const schema::IndexDef& index : table.indexes) {
      if (!index.unique) continue;
      bool whole = true;
      for (int k : index.columns) {
        const schema::ColumnDef& key = table.columns[k];
        bool found = false;
        for (size_t i = 0; i < columns.size() && !found; ++i) {
          found = in_[i] && columns[i].table == alias &&
                  absl::EqualsIgnoreCase(columns[i].org_name, key.name);
        }
        if (key.nullable || !found) {
          whole = false;
          break;
        }
      }
      if (whole) return true;
    }
    return false;
  }

  const GroupedSelect& grouped_;
  const SessionState& state_;
  std::vector<bool> in_;
  bool closed_ = false;
  absl::flat_hash_set<std::string> keyed_;  // aliases of the tables found determined whole
};

class GroupCheck {
 public:
  GroupCheck(const GroupedSelect& grouped, const SessionState& state)
      : grouped_(grouped), select_(*grouped.select), determined_(grouped, state) {}

  std::optional<mysql::SqlError> Run() {
    const bool explicit_groups = !select_.group_by.empty();
    unsigned number = 1;
    for (const SelectItem& item : select_.items) {
      if (item.expr == nullptr) {  // `*`: each column is an expression of the list
        auto star = StarColumns(item, *grouped_.columns, *grouped_.star);
        if (auto* columns = std::get_if<std::vector<int>>(&star)) {
          for (int c : *columns) {
            if (!determined_.Has(c)) return Failure(number, "SELECT list", c);
            ++number;
          }
        }
        continue;
      }
      if (int bad = Offending(*item.expr); bad >= 0) return Failure(number, "SELECT list", bad);
      ++number;
    }
    aliases_visible_ = true;
    // An aggregate without GROUP BY makes one row: MySQL drops its ORDER BY before this check.
    if (explicit_groups) {
      number = 1;
      for (const OrderItem& o : select_.order_by) {
        const int bad = InSelectList(*o.expr) ? -1 : Offending(*o.expr);
        if (bad >= 0) return Failure(number, "ORDER BY clause", bad);
        ++number;
      }
    }
    if (select_.having != nullptr && !InSelectList(*select_.having)) {
      if (int bad = Offending(*select_.having); bad >= 0) return Failure(1, "HAVING clause", bad);
    }
    return std::nullopt;
  }

 private:
  // Whether `e` names a select list item (its position, its alias, or the same expression):
  // that item was checked already.
  bool InSelectList(const Expr& e) const {
    if (e.kind == ExprKind::kLiteral && e.literal == LiteralKind::kInteger) return true;
    for (const SelectItem& item : select_.items) {
      if (item.expr == nullptr) continue;
      if (SameExpr(*item.expr, e)) return true;
      if (e.kind == ExprKind::kColumn && e.qualifier.empty() && item.has_alias &&
          absl::EqualsIgnoreCase(item.name, e.name)) {
        return true;
      }
    }
    return false;
  }

  bool IsAlias(const Expr& e) const {
    if (e.kind != ExprKind::kColumn || !e.qualifier.empty()) return false;
    for (const SelectItem& item : select_.items) {
      if (item.expr != nullptr && item.has_alias && absl::EqualsIgnoreCase(item.name, e.name)) {
        return true;
      }
    }
    return false;
  }

  // The first column `e` reads that varies within a group, or -1.
  int Offending(const Expr& e) {
    for (const Expr* g : grouped_.group_by) {
      if (SameExpr(*g, e)) return -1;
    }
    if (IsAggregate(e)) return -1;
    // ANY_VALUE says any value will do; GROUPING's arguments must be GROUP BY items, which
    // evaluation checks (3602) as MySQL's resolver does, before this check.
    if (e.kind == ExprKind::kFunction && (e.name == "ANY_VALUE" || e.name == "GROUPING")) {
      return -1;
    }
    if (e.kind == ExprKind::kColumn) {
      // HAVING and ORDER BY may name a select list item by its alias (checked with the list).
      if (aliases_visible_ && IsAlias(e)) return -1;
      const int source = determined_.SourceOf(e);
      return source < 0 || determined_.Has(source) ? -1 : source;
    }
    for (const ExprPtr& a : e.args) {
      if (int bad = Offending(*a); bad >= 0) return bad;
    }
    if (e.window != nullptr) {
      for (const ExprPtr& p : e.window->partition_by) {
        if (int bad = Offending(*p); bad >= 0) return bad;
      }
      for (const OrderItem& o : e.window->order_by) {
        if (int bad = Offending(*o.expr); bad >= 0) return bad;
      }
    }
    return -1;  // a subquery's own columns are its own SELECT's to check
  }

  std::optional<mysql::SqlError> Failure(unsigned number, absl::string_view place, int column) {
    const ColumnDefinition& c = (*grouped_.columns)[column];
    std::string name = c.schema.empty() ? absl::StrCat(c.table, ".", c.name)
                                        : absl::StrCat(c.schema, ".", c.table, ".", c.name);
    if (!select_.group_by.empty()) {
      return mysql::SqlError{
          1055, "42000",
          absl::StrCat("Expression #", number, " of ", place,
                       " is not in GROUP BY clause and contains nonaggregated column '", name,
                       "' which is not functionally dependent on columns in GROUP BY clause; "
                       "this is incompatible with sql_mode=only_full_group_by")};
    }
    return mysql::SqlError{
        1140, "42000",
        absl::StrCat("In aggregated query without GROUP BY, expression #", number, " of ", place,
                     " contains nonaggregated column '", name,
                     "'; this is incompatible with sql_mode=only_full_group_by")};
  }

  const GroupedSelect& grouped_;
  const SelectStmt& select_;
  Determined determined_;
  bool aliases_visible_ = false;  // in HAVING and ORDER BY
};

}  // namespace

std::optional<mysql::SqlError> CheckFullGroupBy(const GroupedSelect& grouped,
                                                const SessionState& state) {
  return GroupCheck(grouped, state).Run();
}

}  // namespace shoal::sql::internal
