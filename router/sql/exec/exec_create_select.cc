// CREATE TABLE [IF NOT EXISTS] t [(definitions)] [options] [IGNORE | REPLACE] [AS] query, as
// MySQL 8.0: the session's open transaction is committed (DDL's implicit commit), the query
// runs (a child statement, as INSERT … SELECT's), the table is made — the columns written that
// the query has not, then the query's, as written when they were, else typed as MySQL types a
// view's (ColumnFromResult), NOT NULL where the result is; the keys written after them — and
// the rows go in as INSERT [IGNORE] | REPLACE … SELECT's would (InsertRows). The definitions
// and options are read again as written, with the query's columns, so keys may name those.
// IF NOT EXISTS of a table that exists gives the master's note 1050 and inserts nothing, as
// MySQL 8.0; a table whose rows fail to go in (1062 without IGNORE) is dropped again.
//
// A statement that stops for the dictionary master once its table is made (InsertRows asks for
// an AUTO_INCREMENT range, which a table without a primary key needs for its hidden key) runs
// again from the start: SessionState::created_by_select tells it that the table is its own.
#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/api/client.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/insert_rows.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/table_spec.h"
#include "router/sql/exec/view_expansion.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql::internal {
namespace {

// The definition of the table `stmt` makes for a query whose result has `columns`: as MySQL
// orders them, the columns written that the query has not, then the query's, each as written
// when it was, then the keys and constraints written.
std::variant<schema::TableDef, mysql::SqlError> DefinitionFor(
    const CreateTableStmt& stmt, const std::string& database,
    const std::vector<mysql::ColumnDefinition>& columns, const SessionState& state) {
  using Element = CreateTableStmt::ElementText;
  auto selected = [&](const Element& e) {
    return std::any_of(columns.begin(), columns.end(), [&](const mysql::ColumnDefinition& c) {
      return absl::EqualsIgnoreCase(c.name, e.column);
    });
  };
  std::vector<std::string> elements;
  for (const Element& e : stmt.element_texts) {
    if (!e.column.empty() && !selected(e)) elements.push_back(e.text);
  }
  for (const mysql::ColumnDefinition& c : columns) {
    auto written =
        std::find_if(stmt.element_texts.begin(), stmt.element_texts.end(),
                     [&](const Element& e) { return absl::EqualsIgnoreCase(e.column, c.name); });
    if (written != stmt.element_texts.end()) {
      elements.push_back(written->text);
      continue;
    }
    schema::ColumnDef column = ColumnFromResult(c, ResultCharsetMaxLen(state));
    elements.push_back(absl::StrCat(QuoteIdentifier(c.name), " ", ColumnTypeText(column),
                                    column.nullable ? "" : " NOT NULL"));
  }
  for (const Element& e : stmt.element_texts) {
    if (e.column.empty()) elements.push_back(e.text);
  }
  const std::string text = absl::StrCat("CREATE TABLE ", QuoteIdentifier(stmt.table.name), " (",
                                        absl::StrJoin(elements, ", "), ") ", stmt.options_text);
  // The definitions as the session wrote them: under its quoting modes.
  auto parsed = Parse(text, SessionParseOptions(state));
  if (auto* err = std::get_if<mysql::SqlError>(&parsed)) return *err;
  const auto* create = std::get_if<CreateTableStmt>(&std::get<Statement>(parsed).node);
  if (create == nullptr) return mysql::errors::ParseError(text, 1);
  return TableDefFromSpec(*create, database);
}

class CreateSelectRun : public ParentStatement {
 public:
  CreateSelectRun(const ExecContext& ctx, const CreateTableStmt& stmt, std::string database)
      : ParentStatement(ctx), stmt_(stmt), database_(std::move(database)) {}

  // Commits the session's open transaction first, as any DDL. `this` may be gone after.
  void Start() {
    CommitBeforeDdl([this] { RunChild(*stmt_.insert_select->select, context()); });
  }

 private:
  // The query's rows, then the insert's answer: both come as a child's result.
  void ChildDone(StatementResult result) override {
    if (inserting_) return Inserted(std::move(result));
    auto* selected = std::get_if<mysql::ResultSet>(&result);
    if (selected == nullptr) return Deliver(std::move(result));  // its error
    selected_ = std::move(*selected);
    const std::optional<SessionState::CreatedBySelect>& made = state()->created_by_select;
    if (made && made->statement == state()->questions && made->database == database_ &&
        made->name == stmt_.table.name) {
      return InsertSelected();  // made before this statement ran again
    }
    auto def = DefinitionFor(stmt_, database_, selected_.columns, *state());
    if (auto* err = std::get_if<mysql::SqlError>(&def)) return Deliver(std::move(*err));
    wire::DictReq request;
    std::string bytes;
    schema::AppendTableDef(std::get<schema::TableDef>(def), &bytes);
    request.mutable_create_table()->set_table(std::move(bytes));
    request.mutable_create_table()->set_if_not_exists(stmt_.if_not_exists);
    request.mutable_create_table()->set_auto_increment(stmt_.auto_increment.value_or(0));
    Ask(std::move(request), [this](absl::StatusOr<wire::DictConf> conf) { Created(conf); });
  }

  void Ask(wire::DictReq request, api::Client::DictionaryDone done) {
    data()->client().Dictionary(std::move(request), std::move(done));
    data()->Flush();
  }

  void Created(const absl::StatusOr<wire::DictConf>& conf) {
    if (auto error = DictionaryAnswerError(conf)) return Deliver(*std::move(error));
    if (state() == nullptr) return Deliver(OkResult{});  // orphaned: nobody reads it
    if (conf->note_code() != 0) {  // IF NOT EXISTS, and it exists: nothing goes in
      AddWarning(state(), Diagnostic::Level::kNote, static_cast<uint16_t>(conf->note_code()),
                 conf->note_message());
      return Deliver(OkResult{});
    }
    state()->created_by_select =
        SessionState::CreatedBySelect{state()->questions, database_, stmt_.table.name};
    InsertSelected();
  }

  // The selected rows into the table, which the worker's dictionary now has, as a child
  // statement: its answer comes back to ChildDone.
  void InsertSelected() {
    std::shared_ptr<const api::Dictionary> dictionary = data()->client().dictionary();
    api::TablePtr table =
        dictionary == nullptr ? nullptr : dictionary->Find(database_, stmt_.table.name);
    if (table == nullptr) return Deliver(ClusterFailure());
    inserting_ = true;
    std::vector<int> columns;
    for (const mysql::ColumnDefinition& c : selected_.columns) {
      columns.push_back(table->FindColumn(c.name));
      if (columns.back() < 0) return Inserted(mysql::errors::UnknownColumn(c.name, "field list"));
    }
    RowsToInsert rows;
    for (std::vector<mysql::Value>& row : selected_.rows) {
      rows.Add(*table, columns,
               {std::make_move_iterator(row.begin()), std::make_move_iterator(row.end())});
    }
    if (rows.values.empty()) {
      OkResult none;
      none.info = "Records: 0  Duplicates: 0  Warnings: 0";
      return Inserted(std::move(none));
    }
    ExecContext ctx = context();
    ctx.parent = this;
    StatementResult inserted =
        InsertRows(*stmt_.insert_select, std::move(table), std::move(rows), ctx);
    if (!std::holds_alternative<Deferred>(inserted)) StatementDone(std::move(inserted));
  }

  // The statement's answer; a table whose rows failed to go in is dropped, as MySQL's is.
  void Inserted(StatementResult result) {
    auto* error = std::get_if<mysql::SqlError>(&result);
    if (error == nullptr) return Deliver(std::move(result));
    failure_ = std::move(*error);
    state()->created_by_select.reset();
    wire::DictReq request;
    request.mutable_drop_table()->set_database(database_);
    request.mutable_drop_table()->set_name(stmt_.table.name);
    request.mutable_drop_table()->set_if_exists(true);
    request.mutable_drop_table()->set_ignore_foreign_keys(true);
    Ask(std::move(request),
        [this](absl::StatusOr<wire::DictConf>) { Deliver(std::move(failure_)); });
  }

  const CreateTableStmt& stmt_;
  std::string database_;
  mysql::ResultSet selected_;
  bool inserting_ = false;
  mysql::SqlError failure_;
};

}  // namespace

StatementResult ExecuteCreateTableSelect(const CreateTableStmt& stmt, const std::string& database,
                                         const ExecContext& ctx) {
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  auto* run = new CreateSelectRun(ctx, stmt, database);
  run->Start();
  return Deferred{};
}

}  // namespace shoal::sql::internal
