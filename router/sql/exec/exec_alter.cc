// ALTER TABLE and RENAME TABLE: planned by alter_definition.h, then done in place (one
// dictionary change: names, defaults, secondary keys, a rename) or by a copy (alter_copy.h).
#include "absl/strings/str_cat.h"
#include "engine/schema/schema.h"
#include "router/sql/exec/alter_copy.h"
#include "router/sql/exec/alter_definition.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/foreign_key_definitions.h"
#include "router/sql/exec/foreign_keys.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/view_expansion.h"

namespace shoal::sql::internal {
namespace {

constexpr char kNoRecords[] = "Records: 0  Duplicates: 0  Warnings: 0";

wire::DictReq ReplaceRequest(const schema::TableDef& table) {
  wire::DictReq request;
  schema::AppendTableDef(table, request.mutable_replace_table()->mutable_table());
  return request;
}

bool RenameOnly(const schema::TableDef& before, const schema::TableDef& after) {
  schema::TableDef same_name = after;
  same_name.database = before.database;
  same_name.name = before.name;
  std::string a, b;
  schema::AppendTableDef(before, &a);
  schema::AppendTableDef(same_name, &b);
  return a == b;
}

}  // namespace

StatementResult ExecuteAlterTable(const AlterTableStmt& stmt, const ExecContext& ctx) {
  SessionState* s = ctx.state;
  auto resolved = ResolveTableToWrite(stmt.table, "", *s);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  api::TablePtr table = std::get<api::TablePtr>(std::move(resolved));
  auto planned = PlanAlter(*table, stmt, s->database);
  if (auto* err = std::get_if<mysql::SqlError>(&planned)) return *err;
  AlterPlan plan = std::get<AlterPlan>(std::move(planned));
  if (plan.new_foreign_keys > 0) {
    if (auto err = RequireCurrentDictionary(*s)) return *err;
    std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(*s);
    if (dictionary == nullptr) return ClusterFailure();
    const bool checks = ForeignKeyChecksOn(*s);
    if (auto err =
            CheckForeignKeyDefinitions(plan.table, *dictionary, checks,
                                       plan.table.foreign_keys.size() - plan.new_foreign_keys)) {
      return *err;
    }
    // As MySQL: the rows there must satisfy a new foreign key, so each is checked as it is
    // copied (with the checks off, the key is only added, in place).
    if (checks) plan.way = AlterPlan::Way::kCopy;
  }
  if (ForeignKeyChecksOn(*s) && plan.way != AlterPlan::Way::kNothing) {
    std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(*s);
    if (dictionary != nullptr && dictionary->ReferencesTo(*table) != nullptr) {
      if (auto err = CheckReferencedAlter(*table, plan.table, plan.source,
                                          plan.way == AlterPlan::Way::kCopy, *dictionary)) {
        return *err;
      }
    }
  }
  if (plan.disable_or_enable_keys) {
    // Every index is kept up to date by each write and, as with InnoDB, there is no switch to
    // defer it: MySQL answers with this note.
    AddWarning(
        s, Diagnostic::Level::kNote, 1031,
        absl::StrCat("Table storage engine for '", table->name, "' doesn't have this option"));
  }
  std::vector<wire::DictReq> requests;
  if (plan.auto_increment.has_value() && *plan.auto_increment > 1 &&
      plan.way != AlterPlan::Way::kCopy) {
    // AUTO_INCREMENT = n: the counter goes on from n at least (it never goes back, as in
    // InnoDB, below values the table holds).
    wire::DictReq& raise = requests.emplace_back();
    raise.mutable_reserve_auto_increment()->set_table_id(table->id);
    raise.mutable_reserve_auto_increment()->set_count(1);
    raise.mutable_reserve_auto_increment()->set_at_least(*plan.auto_increment - 1);
  }
  switch (plan.way) {
    case AlterPlan::Way::kNothing:
      // A new counter alone still makes a new version: routers drop the values they reserved
      // before it (TakeAutoIncrement), so the next insert anywhere takes n.
      if (!requests.empty()) requests.push_back(ReplaceRequest(plan.table));
      break;
    case AlterPlan::Way::kInPlace:
      requests.push_back(ReplaceRequest(plan.table));
      break;
    case AlterPlan::Way::kCopy:
      return RunAlterCopy(std::move(plan), std::move(table), ctx);
  }
  if (requests.empty()) {
    // ALTER TABLE commits the open transaction, as every DDL statement does.
    s->in_transaction = false;
    s->read_only_transaction = false;
    OkResult ok;
    ok.info = kNoRecords;
    return EndNativeTransaction(ctx, true, std::move(ok));
  }
  // A rename alone answers a plain OK, as mysqld's (AUTO_INCREMENT = n alone counts its rows).
  const bool counts = !RenameOnly(*table, plan.table) || plan.auto_increment.has_value();
  return RunDictionary(std::move(requests), ctx, [counts](SessionState*, const wire::DictConf&) {
    OkResult ok;
    if (counts) ok.info = kNoRecords;
    return ok;
  });
}

StatementResult ExecuteRenameTable(const RenameTableStmt& stmt, const ExecContext& ctx) {
  std::vector<wire::DictReq> requests;
  for (const auto& [from, to] : stmt.renames) {
    auto view = LookUpView(from, *ctx.state);
    if (auto* err = std::get_if<mysql::SqlError>(&view)) return *err;
    if (const auto& found = std::get<std::optional<wire::View>>(view)) {
      auto db = DatabaseOf(to, *ctx.state);
      if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
      wire::RenameView* rename = requests.emplace_back().mutable_rename_view();
      rename->mutable_from()->set_database(found->database());
      rename->mutable_from()->set_name(found->name());
      rename->mutable_to()->set_database(std::get<std::string>(std::move(db)));
      rename->mutable_to()->set_name(to.name);
      continue;
    }
    auto resolved = ResolveTableToWrite(from, "", *ctx.state);
    if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
    auto db = DatabaseOf(to, *ctx.state);
    if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
    schema::TableDef renamed = *std::get<api::TablePtr>(resolved);
    renamed.database = std::get<std::string>(std::move(db));
    renamed.name = to.name;
    requests.push_back(ReplaceRequest(renamed));
  }
  return RunDictionary(std::move(requests), ctx,
                       [](SessionState*, const wire::DictConf&) { return OkResult{}; });
}

}  // namespace shoal::sql::internal
