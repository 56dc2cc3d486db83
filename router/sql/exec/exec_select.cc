// SELECT over a table: the access plan (access_plan.h) becomes key reads or parallel scans
// sent in one batch; the rows that come back are decoded and finished in the router
// (row_pipeline.h).
#include <algorithm>

#include "absl/strings/ascii.h"
#include "engine/api/client.h"
#include "engine/schema/row.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/exec/access_plan.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/fetched_columns.h"
#include "router/sql/exec/information_schema.h"
#include "router/sql/exec/row_pipeline.h"
#include "router/sql/exec/row_reader.h"
#include "router/sql/exec/semi_join.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

void CollectColumnNames(const Expr& e, std::vector<std::string>* out) {
  if (e.kind == ExprKind::kColumn) out->push_back(e.name);
  for (const ExprPtr& a : e.args) CollectColumnNames(*a, out);
  for (const ExprPtr& k : e.concat_order) CollectColumnNames(*k, out);
  if (e.window != nullptr) {
    for (const ExprPtr& p : e.window->partition_by) CollectColumnNames(*p, out);
    for (const OrderItem& o : e.window->order_by) CollectColumnNames(*o.expr, out);
  }
}

// The table columns a SELECT reads: every visible one for `*`, else those it names.
std::vector<uint16_t> FetchColumns(const SelectStmt& select, const schema::TableDef& table) {
  std::vector<uint16_t> columns;
  bool star = std::any_of(select.items.begin(), select.items.end(),
                          [](const SelectItem& i) { return i.expr == nullptr; });
  if (star) {
    for (size_t i = 0; i < table.columns.size(); ++i) {
      if (!table.columns[i].hidden) columns.push_back(static_cast<uint16_t>(i));
    }
    return columns;
  }
  std::vector<std::string> names;
  for (const SelectItem& item : select.items) CollectColumnNames(*item.expr, &names);
  if (select.where) CollectColumnNames(*select.where, &names);
  for (const ExprPtr& g : select.group_by) CollectColumnNames(*g, &names);
  if (select.having) CollectColumnNames(*select.having, &names);
  for (const OrderItem& o : select.order_by) CollectColumnNames(*o.expr, &names);
  for (const std::string& name : names) {
    int i = table.FindColumn(name);
    if (i < 0 || table.columns[i].hidden) continue;  // an alias, or 1054 when evaluated
    if (std::find(columns.begin(), columns.end(), i) == columns.end()) {
      columns.push_back(static_cast<uint16_t>(i));
    }
  }
  std::sort(columns.begin(), columns.end());
  return columns;
}

// ORDER BY the leading NOT NULL columns of an ordered index, all one way, over a whole table:
// the scan can merge the partitions in that order, so LIMIT stops it early. -1 if not.
struct ScanOrder {
  int index = -1;
  bool descending = false;
};

ScanOrder OrderFromIndex(const SelectStmt& select, const schema::TableDef& table) {
  ScanOrder none;
  // SQL_CALC_FOUND_ROWS counts every row: none may be left unread.
  if (select.order_by.empty() || select.where || !select.limit || select.calc_found_rows) {
    return none;
  }
  std::vector<int> columns;
  for (const OrderItem& o : select.order_by) {
    if (o.expr->kind != ExprKind::kColumn || o.descending != select.order_by[0].descending) {
      return none;
    }
    int c = table.FindColumn(o.expr->name);
    // Strings are left to the router's sort: the data nodes order them by bytes, not by the
    // connection's case-insensitive collation.
    if (c < 0 || table.columns[c].hidden || table.columns[c].nullable ||
        schema::IsString(table.columns[c].type)) {
      return none;
    }
    columns.push_back(c);
  }
  // An alias of the same name would make ORDER BY mean the select item instead.
  for (const SelectItem& item : select.items) {
    if (item.has_alias) return none;
  }
  for (size_t i = 0; i < table.indexes.size(); ++i) {
    const std::vector<int>& key = table.indexes[i].columns;
    if (key.size() >= columns.size() && std::equal(columns.begin(), columns.end(), key.begin())) {
      return {static_cast<int>(i), select.order_by[0].descending};
    }
  }
  return none;
}

// `select` over `fetched`; with `outer`, `select` is the derived table of `outer`'s FROM and
// its result becomes the rows `outer` is finished over.
StatementResult FinishSelectIn(const SelectStmt& select, const SelectStmt* outer,
                               FetchedRows fetched, const ExecContext& ctx, WhereCheck where) {
  StatementResult result = FinishSelect(select, std::move(fetched), ctx, where);
  auto* derived = std::get_if<mysql::ResultSet>(&result);
  if (outer == nullptr || derived == nullptr) return result;
  FetchedRows rows{std::move(derived->columns), std::move(derived->rows), {}, {}};
  QualifyColumns(outer->from->alias, &rows.columns);
  return FinishSelect(*outer, std::move(rows), ctx);
}

class SelectRun : public RowReader {
 public:
  // With `outer`, `select` is the derived table of `outer`'s FROM: its result becomes the rows
  // `outer` is finished over.
  SelectRun(const ExecContext& ctx, const SelectStmt& select, api::TablePtr table,
            std::vector<uint16_t> columns, const SelectStmt* outer = nullptr)
      : RowReader(ctx),
        select_(select),
        outer_(outer),
        table_(std::move(table)),
        columns_(std::move(columns)),
        txn_(StatementTransaction(ctx.state)) {
    fetched_.columns = FetchedColumnDefs(*table_, columns_, QualifierOf(*select.from), *ctx.state);
  }

  void Start(const AccessPlan& plan) {
    DataAccess* data_access = data();
    api::Client& client = data_access->client();
    const api::Lock lock = ReadLock(select_, txn_ != nullptr);
    if (plan.exact) where_ = WhereCheck::kDone;
    outstanding_ = 1;  // the definitions below; completions may run inside them
    switch (plan.kind) {
      case AccessPlan::Kind::kKeyLookup:
      case AccessPlan::Kind::kBatchedLookup:
        for (const std::string& key : plan.keys) {
          ++outstanding_;
          client.Read(*table_, key, columns_, this, txn_.get(), lock);
        }
        break;
      case AccessPlan::Kind::kIndexRange:
      case AccessPlan::Kind::kFullScan: {
        api::ScanRequest request;
        request.table = table_.get();
        request.columns = columns_;
        request.lock = lock;
        request.txn = txn_.get();
        ScanOrder order = OrderFromIndex(select_, *table_);
        if (order.index >= 0 && plan.kind == AccessPlan::Kind::kFullScan) {
          request.index = order.index;
          request.ordered = true;
          request.descending = order.descending;
        }
        request.limit = RowsNeeded(select_, context(), request.ordered);
        bool whole = false;
        request.filter = PushedFilter(*table_, select_.where.get(), context(), &whole);
        if (whole) where_ = WhereCheck::kDone;
        DefineScans(plan, request, &client, this, &outstanding_);
        break;
      }
      case AccessPlan::Kind::kNothing:
        break;
    }
    data_access->Flush();
    OneDone();
  }

 private:
  void AddRow(absl::string_view packed) override {
    std::vector<mysql::Value> row;
    if (!DecodeRow(*table_, columns_, packed, &fields_, &row, utc_offset_)) {
      if (!error_) error_ = mysql::errors::Internal("a data node sent a malformed row");
      return;
    }
    fetched_.rows.push_back(std::move(row));
  }

  void OneDone() override {
    if (--outstanding_ > 0) return;
    Finish();
  }

  void Finish() {
    if (state() == nullptr) return Deliver(OkResult{});  // orphaned: nobody reads it
    if (error_) return DeliverFailure(*error_, txn_ != nullptr, false);
    Deliver(FinishSelectIn(select_, outer_, std::move(fetched_), context(), where_));
  }

  const SelectStmt& select_;
  const SelectStmt* outer_;
  api::TablePtr table_;
  std::vector<uint16_t> columns_;
  std::shared_ptr<api::Transaction> txn_;
  std::vector<schema::Field> fields_;
  FetchedRows fetched_;
  int outstanding_ = 0;
  WhereCheck where_ = WhereCheck::kNeeded;
};

StatementResult RunSelect(const SelectStmt& select, const SelectStmt* outer,
                          const ExecContext& ctx) {
  // As MySQL's resolver, before any row: a plan may read none to evaluate WHERE on.
  std::optional<mysql::SqlError> rows_misused =
      select.where ? CheckRowOperands(*select.where) : std::nullopt;
  if (ReadsInformationSchema(*select.from, *ctx.state)) {
    if (rows_misused) return *rows_misused;
    // Computed here from the dictionary, at once.
    auto rows = InformationSchemaRows(select.from->table.name, *ctx.state,
                                      SystemSchemaOf(*select.from, *ctx.state));
    if (auto* err = std::get_if<mysql::SqlError>(&rows)) return *err;
    FetchedRows& fetched = std::get<FetchedRows>(rows);
    QualifyColumns(QualifierOf(*select.from), &fetched.columns);
    return FinishSelectIn(select, outer, std::move(fetched), ctx, WhereCheck::kNeeded);
  }
  auto resolved = ResolveTable(select.from->table, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  if (auto err = CheckTableLock(*select.from, *ctx.state)) return *err;
  api::TablePtr table = std::get<api::TablePtr>(std::move(resolved));
  if (rows_misused) return *rows_misused;
  BeginImplicitTransaction(ctx.state);
  AccessPlan plan = PlanAccess(*table, select.where.get(), ctx);
  std::vector<uint16_t> columns = FetchColumns(select, *table);
  if (ScanOrder order = OrderFromIndex(select, *table); order.index >= 0) {
    // An ordered scan reads the whole key it merges on.
    for (int c : table->indexes[order.index].columns) {
      if (std::find(columns.begin(), columns.end(), c) == columns.end()) {
        columns.push_back(static_cast<uint16_t>(c));
      }
    }
    std::sort(columns.begin(), columns.end());
  }
  auto* run = new SelectRun(ctx, select, std::move(table), std::move(columns), outer);
  run->Start(plan);
  return Deferred{};
}

}  // namespace

std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> TableSelectColumns(
    const SelectStmt& select, const SessionState& state) {
  ExecContext ctx;
  ctx.state = const_cast<SessionState*>(&state);  // typing changes nothing
  if (!select.joins.empty() ||
      (select.from->derived && DerivedComputedFirst(select, *select.from->derived))) {
    return JoinSelectColumns(select, state);
  }
  if (const SelectStmt* inner = select.from->derived.get()) {
    auto inner_columns = TableSelectColumns(*inner, state);
    if (auto* err = std::get_if<mysql::SqlError>(&inner_columns)) return *err;
    auto& columns = std::get<std::vector<mysql::ColumnDefinition>>(inner_columns);
    QualifyColumns(select.from->alias, &columns);
    return SelectListColumns(select, columns, ctx);
  }
  if (ReadsInformationSchema(*select.from, state)) {
    auto view = InformationSchemaColumns(select.from->table.name, state,
                                         SystemSchemaOf(*select.from, state));
    if (auto* err = std::get_if<mysql::SqlError>(&view)) return *err;
    auto& columns = std::get<std::vector<mysql::ColumnDefinition>>(view);
    QualifyColumns(QualifierOf(*select.from), &columns);
    return SelectListColumns(select, columns, ctx);
  }
  auto resolved = ResolveTable(select.from->table, state);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  const schema::TableDef& table = *std::get<api::TablePtr>(resolved);
  std::vector<uint16_t> columns = FetchColumns(select, table);
  return SelectListColumns(
      select, FetchedColumnDefs(table, columns, QualifierOf(*select.from), state), ctx);
}

StatementResult ExecuteTableSelect(const SelectStmt& select, const ExecContext& ctx) {
  // Joins, derived tables computed before the statement ran and correlated subqueries
  // (semi-joins) are read by the join engine. Only a statement the parser saw subqueries in
  // can hold the last: a point select pays no search for them.
  bool subqueries = ctx.statement == nullptr || ctx.statement->has_subqueries;
  if (!select.joins.empty() ||
      (select.from->derived && (subqueries ? DerivedComputedFirst(select, *select.from->derived)
                                           : DerivedRunsFirst(select, *select.from->derived))) ||
      (subqueries && (!SemiJoins(select).empty() || !ScalarJoins(select).empty()))) {
    return ExecuteJoinSelect(select, ctx);
  }
  // FROM (SELECT … FROM t …) alias: the inner SELECT runs on the data nodes, the outer one in
  // the router over its result.
  const SelectStmt* outer = nullptr;
  const SelectStmt* query = &select;
  if (select.from->derived) {
    outer = &select;
    query = select.from->derived.get();
  }
  return RunSelect(*query, outer, ctx);
}

}  // namespace shoal::sql::internal
