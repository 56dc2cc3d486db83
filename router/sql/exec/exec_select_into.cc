// SELECT … INTO @a, @b: the SELECT runs as a child statement (async_statement.h), and its one
// row sets the user variables, as MySQL does: no row leaves them as they were with warning
// 1329, more than one is 1172, a different number of columns than variables 1222. The client
// gets an OK, one row affected when a row was selected.
#include "absl/strings/ascii.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/async_statement.h"

namespace shoal::sql::internal {
namespace {

class SelectIntoRun : public ParentStatement {
 public:
  SelectIntoRun(const ExecContext& ctx, const SelectStmt& select)
      : ParentStatement(ctx), select_(select) {}

  void Start() { RunChild(select_, context()); }

 private:
  void ChildDone(StatementResult result) override {
    auto* selected = std::get_if<mysql::ResultSet>(&result);
    if (selected == nullptr) return Deliver(std::move(result));  // its error
    Deliver(Assign(std::move(*selected)));
  }

  StatementResult Assign(mysql::ResultSet selected) {
    if (selected.columns.size() != select_.into.size()) {
      return mysql::SqlError{1222, "21000",
                             "The used SELECT statements have a different number of columns"};
    }
    if (selected.rows.size() > 1) {
      return mysql::SqlError{1172, "42000", "Result consisted of more than one row"};
    }
    SessionState* state = this->state();
    if (selected.rows.empty()) {
      state->warnings.push_back({Diagnostic::Level::kWarning, 1329,
                                 "No data - zero rows fetched, selected, or processed"});
      return OkResult{};
    }
    std::vector<mysql::Value>& row = selected.rows[0];
    for (size_t i = 0; i < row.size(); ++i) {
      mysql::Value& v = row[i];
      // A variable holds no temporal type: it keeps the value's text (as `@a := d` does).
      if (std::holds_alternative<mysql::DateTime>(v) || std::holds_alternative<mysql::Time>(v)) {
        v = ValueText(v);
      }
      state->user_vars[absl::AsciiStrToLower(select_.into[i])] = std::move(v);
    }
    OkResult ok;
    ok.affected_rows = 1;
    return ok;
  }

  const SelectStmt& select_;
};

}  // namespace

StatementResult ExecuteSelectInto(const SelectStmt& select, const ExecContext& ctx) {
  auto* run = new SelectIntoRun(ctx, select);
  run->Start();
  return Deferred{};
}

}  // namespace shoal::sql::internal
