// EXPLAIN SELECT | UPDATE | DELETE | INSERT | REPLACE: the native plan in MySQL's traditional
// twelve columns. Nothing reaches the data nodes: the access plan (access_plan.h) is chosen
// from the statement's constants and bound parameters as running the statement would choose
// it, then described —
//   type        const (one key lookup), range (batched lookups, index ranges), ALL (scan);
//   key         PRIMARY or the ordered index scanned, with MySQL's key_len and ref;
//   partitions  the partitions the operations reach (every one for scans and inserts);
//   Extra       AccessPlan::Describe, plus "; Using where" when the router checks WHERE
//               again on the rows that come back.
// The router keeps no statistics, so `rows` is known for key lookups only; `filtered` is 100.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/schema/schema.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/exec/access_plan.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/join_plan.h"
#include "router/sql/exec/semi_join.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

using mysql::Value;
using schema::ColumnType;

// One row of the output; nullopt shows as NULL.
struct ExplainRow {
  int64_t id = 1;
  std::string select_type = "SIMPLE";
  std::optional<std::string> table, partitions, type, possible_keys, key, key_len, ref;
  std::optional<int64_t> rows;
  std::optional<double> filtered;
  std::optional<std::string> extra;
};

using ExplainRows = std::vector<ExplainRow>;

template <class T>
Value OrNull(const std::optional<T>& v) {
  return v ? Value{*v} : Value{};
}

std::vector<Value> ToValues(const ExplainRow& r) {
  return {r.id,           r.select_type,           OrNull(r.table),    OrNull(r.partitions),
          OrNull(r.type), OrNull(r.possible_keys), OrNull(r.key),      OrNull(r.key_len),
          OrNull(r.ref),  OrNull(r.rows),          OrNull(r.filtered), OrNull(r.extra)};
}

// Bytes of DECIMAL(precision, scale) in MySQL's binary form: 4 for every 9 digits on each
// side of the point, fewer for the digits left over.
int DecimalBinarySize(int precision, int scale) {
  static constexpr int kLeftover[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
  int integral = precision - scale;
  return integral / 9 * 4 + kLeftover[integral % 9] + scale / 9 * 4 + kLeftover[scale % 9];
}

// A key part's bytes in MySQL's key buffer, which is what key_len adds up: the stored size
// (utf8mb4 text 4 bytes a character), 2 more for a length, 1 more for a NULL flag.
int KeyPartLength(const schema::ColumnDef& c) {
  const int fraction = (std::min<int>(c.precision, 6) + 1) / 2;
  int n = 0;
  switch (c.type) {
    case ColumnType::kDecimal:
      n = DecimalBinarySize(c.precision, c.scale);
      break;
    case ColumnType::kChar:
      n = static_cast<int>(c.length) * 4;
      break;
    case ColumnType::kVarChar:
      n = static_cast<int>(c.length) * 4 + 2;
      break;
    case ColumnType::kBinary:
      n = static_cast<int>(c.length);
      break;
    case ColumnType::kVarBinary:
      n = static_cast<int>(c.length) + 2;
      break;
    case ColumnType::kText:
    case ColumnType::kBlob:
      n = 65535 + 2;
      break;
    case ColumnType::kDate:
      n = 3;
      break;
    case ColumnType::kTime:
      n = 3 + fraction;
      break;
    case ColumnType::kDateTime:
      n = 5 + fraction;
      break;
    case ColumnType::kTimestamp:
      n = 4 + fraction;
      break;
    case ColumnType::kMediumInt:
      n = 3;  // stored in 4 bytes here, 3 in MySQL's key
      break;
    case ColumnType::kEnum:
      n = c.elements.size() > 255 ? 2 : 1;  // MySQL's packed ENUM
      break;
    case ColumnType::kBit:
      n = static_cast<int>(c.length + 7) / 8;
      break;
    case ColumnType::kSet: {
      const int bytes = static_cast<int>(c.elements.size() + 7) / 8;
      n = bytes > 4 ? 8 : (bytes == 0 ? 1 : bytes);
      break;
    }
    default:
      n = schema::FixedSize(c.type);
      break;
  }
  return n + (c.nullable ? 1 : 0);
}

std::string KeyLength(const schema::TableDef& table, const std::vector<int>& columns) {
  int total = 0;
  for (int c : columns) total += KeyPartLength(table.columns[c]);
  return absl::StrCat(total);
}

// The partitions the plan's operations reach: a key's own for lookups, all for scans.
std::string Partitions(const schema::TableDef& table, const AccessPlan& plan) {
  const uint32_t count = std::max<uint32_t>(1, table.partitions);
  std::vector<uint32_t> reached;
  bool lookups =
      plan.kind == AccessPlan::Kind::kKeyLookup || plan.kind == AccessPlan::Kind::kBatchedLookup;
  if (lookups) {
    for (const std::string& key : plan.keys) reached.push_back(schema::KeyHash(table, key) % count);
    std::sort(reached.begin(), reached.end());
    reached.erase(std::unique(reached.begin(), reached.end()), reached.end());
  } else {
    for (uint32_t p = 0; p < count; ++p) reached.push_back(p);
  }
  return absl::StrJoin(reached, ",",
                       [](std::string* out, uint32_t p) { absl::StrAppend(out, "p", p); });
}

// The row for one table reached through `plan`. `shown` is the name MySQL shows (the alias).
ExplainRow AccessRow(const schema::TableDef& table, const std::string& shown,
                     const AccessPlan& plan, bool rechecks_where) {
  ExplainRow row;
  row.extra = plan.Describe(table);
  if (plan.kind == AccessPlan::Kind::kNothing) return row;  // no table, as MySQL's Impossible WHERE
  row.table = shown;
  row.partitions = Partitions(table, plan);
  row.filtered = 100.0;
  const std::vector<int>& pk = table.primary_key().columns;
  switch (plan.kind) {
    case AccessPlan::Kind::kKeyLookup:
      row.type = "const";
      row.key = "PRIMARY";
      row.key_len = KeyLength(table, pk);
      row.ref = absl::StrJoin(std::vector<std::string>(pk.size(), "const"), ",");
      row.rows = 1;
      break;
    case AccessPlan::Kind::kBatchedLookup:
      row.type = "range";
      row.key = "PRIMARY";
      row.key_len = KeyLength(table, pk);
      row.rows = static_cast<int64_t>(plan.keys.size());
      break;
    case AccessPlan::Kind::kIndexRange: {
      const schema::IndexDef& index = table.indexes[plan.index];
      row.type = "range";
      row.key = index.name;
      row.key_len = KeyLength(table, {index.columns[0]});  // ranges bound the first part only
      break;
    }
    default:
      row.type = "ALL";
      break;
  }
  row.possible_keys = row.key;
  if (rechecks_where) *row.extra += "; Using where";
  return row;
}

struct PlannedAccess {
  api::TablePtr table;
  AccessPlan plan;
};

std::variant<PlannedAccess, mysql::SqlError> Plan(const TableName& name, const Expr* where,
                                                  const ExecContext& ctx) {
  auto resolved = ResolveTable(name, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  if (where != nullptr) {
    if (auto err = CheckRowOperands(*where)) return *err;
  }
  PlannedAccess access{std::get<api::TablePtr>(std::move(resolved)), {}};
  access.plan = PlanAccess(*access.table, where, ctx);
  return access;
}

std::variant<ExplainRows, mysql::SqlError> ExplainTableSelect(const SelectStmt& select,
                                                              const ExecContext& ctx) {
  auto planned = Plan(select.from->table, select.where.get(), ctx);
  if (auto* err = std::get_if<mysql::SqlError>(&planned)) return *err;
  const PlannedAccess& access = std::get<PlannedAccess>(planned);
  const std::string& shown = select.from->alias.empty() ? access.table->name : select.from->alias;
  // The rows that come back always pass through the router's WHERE (row_pipeline.h).
  return ExplainRows{AccessRow(*access.table, shown, access.plan, select.where != nullptr)};
}

// FROM (SELECT …) alias: the inner SELECT runs on the data nodes (id 2, DERIVED), the outer one
// in the router over its rows, as MySQL shows a materialized derived table.
std::variant<ExplainRows, mysql::SqlError> ExplainDerived(const SelectStmt& select,
                                                          const ExecContext& ctx) {
  const SelectStmt& inner = *select.from->derived;
  auto rows = ExplainTableSelect(inner, ctx);
  if (auto* err = std::get_if<mysql::SqlError>(&rows)) return *err;
  ExplainRows out(1);
  out[0].select_type = "PRIMARY";
  out[0].table = "<derived2>";
  out[0].type = "ALL";
  out[0].filtered = 100.0;
  if (select.where != nullptr) out[0].extra = "Using where";
  for (ExplainRow& row : std::get<ExplainRows>(rows)) {
    row.id = 2;
    row.select_type = "DERIVED";
    out.push_back(std::move(row));
  }
  return out;
}

// A join: one row per step, in the order the steps run. A lookup step shows MySQL's eq_ref
// (by the primary key) or ref (by an ordered index) with the values it is by; Extra says how
// the step reads its table and whether it hashes the rows.
std::variant<ExplainRows, mysql::SqlError> ExplainJoin(const SelectStmt& select,
                                                       const ExecContext& ctx) {
  auto planned = PlanJoin(select, ctx, /*typing_only=*/false);
  if (auto* err = std::get_if<mysql::SqlError>(&planned)) return *err;
  const JoinPlan& plan = std::get<JoinPlan>(planned);
  ExplainRows rows;
  for (const JoinStep& step : plan.steps) {
    const JoinSource& source = plan.sources[step.source];
    bool checks = !step.conditions.empty() || !step.filters.empty();
    ExplainRow row;
    if (step.access == JoinStep::Access::kOwn) {
      row = AccessRow(*source.table, source.name, step.plan, checks);
      if (step.plan.kind == AccessPlan::Kind::kNothing) row.table = source.name;
    } else {
      row.table = source.name;
      row.filtered = 100.0;
      row.type = step.access == JoinStep::Access::kViewRows    ? "ALL"
                 : step.access == JoinStep::Access::kKeyLookup ? "eq_ref"
                                                               : "ref";
      if (step.access != JoinStep::Access::kViewRows) {
        const schema::IndexDef& index =
            source.table->indexes[step.access == JoinStep::Access::kKeyLookup ? 0 : step.index];
        row.partitions = Partitions(*source.table, AccessPlan{});
        row.key = row.possible_keys = index.name;
        row.key_len = KeyLength(*source.table, step.access == JoinStep::Access::kKeyLookup
                                                   ? index.columns
                                                   : std::vector<int>{index.columns[0]});
        row.ref = plan.KeyText(step);
        if (step.access == JoinStep::Access::kKeyLookup) row.rows = 1;
      }
    }
    row.extra = plan.Describe(step);
    if (checks) *row.extra += "; Using where";
    rows.push_back(std::move(row));
  }
  return rows;
}

std::variant<ExplainRows, mysql::SqlError> ExplainSelect(const SelectStmt& select,
                                                         const ExecContext& ctx) {
  if (!select.from) {
    ExplainRow row;
    row.extra = "No tables used";
    return ExplainRows{row};
  }
  if (!select.joins.empty() || !SemiJoins(select).empty()) return ExplainJoin(select, ctx);
  if (select.from->derived && !DerivedComputedFirst(select, *select.from->derived)) {
    return ExplainDerived(select, ctx);
  }
  if (select.from->derived) {
    return mysql::errors::NotSupportedYet("EXPLAIN of a query that reads a derived table");
  }
  return ExplainTableSelect(select, ctx);
}

struct ModifyParts {
  const char* verb;
  const TableName& table;
  const std::string& alias;
  const Expr* where;
  const std::vector<Assignment>* set;  // UPDATE only
  bool ordered;
  const std::optional<Limit>& limit;
};

// UPDATE and DELETE: WHERE is checked again unless they take the direct path (key
// operations without a read).
std::variant<ExplainRows, mysql::SqlError> ExplainModify(const ModifyParts& m,
                                                         const ExecContext& ctx) {
  auto planned = Plan(m.table, m.where, ctx);
  if (auto* err = std::get_if<mysql::SqlError>(&planned)) return *err;
  const PlannedAccess& access = std::get<PlannedAccess>(planned);
  const schema::TableDef& table = *access.table;
  bool direct = WhereIsKeyOnly(table, m.where, access.plan) && !m.ordered &&
                (m.set == nullptr || SetFitsProgram(table, *m.set));
  if (direct && m.limit) {
    uint64_t offset = 0, count = 0;
    if (auto err = EvalLimit(*m.limit, ctx, &offset, &count)) return *err;
    direct = count >= access.plan.keys.size();
  }
  ExplainRow row = AccessRow(table, m.alias.empty() ? table.name : m.alias, access.plan,
                             m.where != nullptr && !direct);
  row.select_type = m.verb;
  return ExplainRows{std::move(row)};
}

std::variant<ExplainRows, mysql::SqlError> ExplainInsert(const InsertStmt& insert,
                                                         const ExecContext& ctx) {
  auto resolved = ResolveTable(insert.table, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  const schema::TableDef& table = *std::get<api::TablePtr>(resolved);
  ExplainRow row;
  row.select_type = insert.replace ? "REPLACE" : "INSERT";
  row.table = table.name;
  row.partitions = Partitions(table, AccessPlan{});
  row.type = "ALL";
  size_t n = insert.rows.size();
  row.extra = absl::StrCat("batched inserts (", n, n == 1 ? " row)" : " rows)");
  return ExplainRows{std::move(row)};
}

std::variant<ExplainRows, mysql::SqlError> ExplainStatement(const Statement& stmt,
                                                            const ExecContext& ctx) {
  if (const auto* select = std::get_if<SelectStmt>(&stmt.node)) return ExplainSelect(*select, ctx);
  if (const auto* update = std::get_if<UpdateStmt>(&stmt.node)) {
    return ExplainModify({"UPDATE", update->table, update->alias, update->where.get(), &update->set,
                          !update->order_by.empty(), update->limit},
                         ctx);
  }
  if (const auto* del = std::get_if<DeleteStmt>(&stmt.node)) {
    return ExplainModify({"DELETE", del->table, del->alias, del->where.get(), nullptr,
                          !del->order_by.empty(), del->limit},
                         ctx);
  }
  if (const auto* insert = std::get_if<InsertStmt>(&stmt.node)) return ExplainInsert(*insert, ctx);
  return mysql::errors::NotSupportedYet("EXPLAIN of this statement");
}

}  // namespace

std::vector<mysql::ColumnDefinition> ExplainColumns(const SessionState& s) {
  constexpr Nullability kN = Nullability::kNullable;
  mysql::ColumnDefinition filtered = DoubleColumn(kN);
  filtered.length = 4;
  filtered.decimals = 2;
  return {Named(IntColumn(3, false, Nullability::kNotNull), "id"),
          Named(StringColumn(19, s, Nullability::kNotNull), "select_type"),
          Named(StringColumn(64, s, kN), "table"),
          Named(StringColumn(4096, s, kN), "partitions"),
          Named(StringColumn(10, s, kN), "type"),
          Named(StringColumn(4096, s, kN), "possible_keys"),
          Named(StringColumn(64, s, kN), "key"),
          Named(StringColumn(4096, s, kN), "key_len"),
          Named(StringColumn(4096, s, kN), "ref"),
          Named(IntColumn(21, false, kN), "rows"),
          Named(filtered, "filtered"),
          Named(StringColumn(255, s, kN), "Extra")};
}

StatementResult ExecuteExplain(const ExplainStmt& stmt, const ExecContext& ctx) {
  auto rows = ExplainStatement(*stmt.statement, ctx);
  if (auto* err = std::get_if<mysql::SqlError>(&rows)) return *err;
  mysql::ResultSet rs;
  rs.columns = ExplainColumns(*ctx.state);
  for (const ExplainRow& row : std::get<ExplainRows>(rows)) rs.rows.push_back(ToValues(row));
  return rs;
}

}  // namespace shoal::sql::internal
