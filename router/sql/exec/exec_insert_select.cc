// INSERT … SELECT and REPLACE … SELECT: the SELECT runs first, as a child statement when it
// reads tables (async_statement.h) — so a table may be both read and written, as MySQL allows,
// the whole SELECT read before the first row is written — then its rows are inserted as a
// multi-row INSERT's: one batch, one transaction, defaults, AUTO_INCREMENT, IGNORE, REPLACE and
// ON DUPLICATE KEY UPDATE alike.
#include "absl/strings/str_cat.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/insert_rows.h"

namespace shoal::sql::internal {
namespace {

class InsertSelectRun : public ParentStatement {
 public:
  InsertSelectRun(const ExecContext& ctx, const InsertStmt& stmt, api::TablePtr table,
                  std::vector<int> columns)
      : ParentStatement(ctx), stmt_(stmt), table_(std::move(table)), columns_(std::move(columns)) {}

  void Start() { RunChild(*stmt_.select, context()); }

 private:
  void ChildDone(StatementResult result) override {
    auto* selected = std::get_if<mysql::ResultSet>(&result);
    if (selected == nullptr) return Deliver(std::move(result));  // its error
    if (!selected->rows.empty() && selected->columns.size() != columns_.size()) {
      return Deliver(
          mysql::SqlError{1136, "21S01", "Column count doesn't match value count at row 1"});
    }
    RowsToInsert rows;
    for (std::vector<mysql::Value>& row : selected->rows) {
      rows.Add(*table_, columns_,
               {std::make_move_iterator(row.begin()), std::make_move_iterator(row.end())});
    }
    if (rows.values.empty()) {
      OkResult none;
      none.info = "Records: 0  Duplicates: 0  Warnings: 0";
      return Deliver(std::move(none));
    }
    StatementResult inserted = InsertRows(stmt_, table_, std::move(rows), context());
    if (std::holds_alternative<Deferred>(inserted)) {
      delete this;  // the insert delivers its own result
      return;
    }
    if (WaitedForDictionary()) return;
    Deliver(std::move(inserted));
  }

  const InsertStmt& stmt_;
  api::TablePtr table_;
  std::vector<int> columns_;
};

}  // namespace

StatementResult ExecuteInsertSelect(const InsertStmt& stmt, api::TablePtr table,
                                    std::vector<int> columns, const ExecContext& ctx) {
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  auto* run = new InsertSelectRun(ctx, stmt, std::move(table), std::move(columns));
  run->Start();
  return Deferred{};
}

}  // namespace shoal::sql::internal
