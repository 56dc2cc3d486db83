#include "router/sql/exec/view_expansion.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/information_schema.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/table_spec.h"
#include "router/sql/exec/view_merge.h"
#include "router/sql/exec/view_writes.h"
#include "router/sql/parse/ast_walk.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql::internal {
namespace {

std::string ViewKey(const wire::View& view) {
  return absl::StrCat(view.database(), ".", view.name());
}

// A base table a FROM or JOIN names (not a derived table).
bool NamesBaseTable(const TableRef& ref) { return !ref.derived && !ref.table.name.empty(); }

// The table an INSERT, UPDATE or DELETE writes (of one table; EXPLAINed too), or null.
const TableName* WriteTarget(const Statement& stmt) {
  if (const auto* explain = std::get_if<ExplainStmt>(&stmt.node); explain && explain->statement) {
    return WriteTarget(*explain->statement);
  }
  if (const auto* insert = std::get_if<InsertStmt>(&stmt.node)) return &insert->table;
  if (const auto* update = std::get_if<UpdateStmt>(&stmt.node)) return &update->table;
  if (const auto* del = std::get_if<DeleteStmt>(&stmt.node); del && del->targets.empty()) {
    return &del->table;
  }
  return nullptr;
}

const std::string& DatabaseNamed(const TableRef& ref, const SessionState& state) {
  return ref.table.database.empty() ? state.database : ref.table.database;
}

// The view's SELECT, parsed under `options`, with its unqualified tables put in
// `default_database`, each marked as a view's.
std::variant<Statement, mysql::SqlError> ParseQualified(const std::string& text,
                                                        const std::string& default_database,
                                                        const ParseOptions& options) {
  auto parsed = Parse(text, options);
  if (auto* err = std::get_if<mysql::SqlError>(&parsed)) return *err;
  Statement stmt = std::get<Statement>(std::move(parsed));
  if (!std::holds_alternative<SelectStmt>(stmt.node)) return mysql::errors::NotSupportedYet("VIEW");
  WalkStatement(
      stmt,
      [&](TableRef& ref) {
        if (!NamesBaseTable(ref)) return;
        if (ref.table.database.empty()) ref.table.database = default_database;
        ref.in_view = true;
      },
      [](Expr&) {});
  return stmt;
}

// MySQL's error for a view whose tables or columns went away.
mysql::SqlError InvalidView(const wire::View& view) {
  return {1356, "HY000",
          absl::StrCat("View '", view.database(), ".", view.name(),
                       "' references invalid table(s) or column(s) or function(s) or "
                       "definer/invoker of view lack rights to use them")};
}

// Replaces view names by their SELECTs, depth first. `making` is the view CREATE VIEW makes
// (db.name), if any: its SELECT may not reach it.
class Expander {
 public:
  Expander(const SessionState& state, const api::Dictionary& dictionary, std::string making = "")
      : state_(state), dictionary_(dictionary), making_(std::move(making)) {}

  std::optional<mysql::SqlError> Expand(Statement* stmt) {
    if (auto err = ExpandWriteTarget(stmt)) return err;
    bool expanded = false;
    WalkStatement(
        *stmt,
        [&](TableRef& ref) {
          if (error_ || !NamesBaseTable(ref)) return;
          const wire::View* view = dictionary_.FindView(DatabaseNamed(ref, state_), ref.table.name);
          if (view == nullptr) return;
          if (auto err = CheckTableLock(ref, state_)) {
            error_ = *err;
            return;
          }
          auto select = ViewSelect(*view);
          if (auto* err = std::get_if<mysql::SqlError>(&select)) {
            error_ = *err;
            return;
          }
          if (!ref.in_view) stmt->views.push_back({view->database(), view->name()});
          Statement& inner = std::get<Statement>(select);
          ref.derived = std::make_unique<SelectStmt>(std::move(std::get<SelectStmt>(inner.node)));
          if (ref.alias.empty()) ref.alias = view->name();
          ref.table = TableName{};
          ref.view = true;
          expanded = true;
        },
        [](Expr&) {});
    if (error_ || !expanded) return error_;
    // A derived table may be computed before the statement runs: the executor looks for it.
    stmt->has_subqueries = true;
    MergeViews(stmt, dictionary_);
    return std::nullopt;
  }

  // The view's SELECT, ready to stand for it: qualified, its views expanded, its tables
  // there and its columns named.
  std::variant<Statement, mysql::SqlError> ViewSelect(const wire::View& view) {
    std::string key = ViewKey(view);
    if (key == making_) {
      // As MySQL: the view being made does not exist yet for its own SELECT.
      return mysql::errors::NoSuchTable(view.database(), view.name());
    }
    if (std::find(chain_.begin(), chain_.end(), key) != chain_.end()) {
      return mysql::SqlError{
          1462, "HY000",
          absl::StrCat(QuoteIdentifier(view.database()), ".", QuoteIdentifier(view.name()),
                       " contains view recursion")};
    }
    auto parsed = ParseQualified(view.select(), view.default_database(), ViewParseOptions(view));
    if (auto* err = std::get_if<mysql::SqlError>(&parsed)) return *err;
    Statement& stmt = std::get<Statement>(parsed);
    chain_.push_back(std::move(key));
    std::optional<mysql::SqlError> error = Expand(&stmt);
    chain_.pop_back();
    if (error) return *error;
    if (auto err = CheckTablesExist(view, stmt)) return *err;
    SelectStmt& select = std::get<SelectStmt>(stmt.node);
    if (auto err = CheckTyped(view, select)) return *err;
    if (view.has_column_list()) {
      bool star = std::any_of(select.items.begin(), select.items.end(),
                              [](const SelectItem& item) { return item.expr == nullptr; });
      if (star || select.items.size() != static_cast<size_t>(view.columns_size())) {
        return InvalidView(view);
      }
      for (size_t i = 0; i < select.items.size(); ++i) {
        select.items[i].name = view.columns(static_cast<int>(i));
        select.items[i].has_alias = true;
      }
    }
    return parsed;
  }

 private:
  // INSERT, UPDATE or DELETE of a view: of its table instead (view_writes.h).
  std::optional<mysql::SqlError> ExpandWriteTarget(Statement* stmt) {
    if (auto* explain = std::get_if<ExplainStmt>(&stmt->node); explain && explain->statement) {
      return ExpandWriteTarget(explain->statement.get());
    }
    const TableName* target = WriteTarget(*stmt);
    if (target == nullptr) return std::nullopt;
    const std::string& db = target->database.empty() ? state_.database : target->database;
    const wire::View* view = dictionary_.FindView(db, target->name);
    if (view == nullptr) return std::nullopt;
    auto select = ViewSelect(*view);
    if (auto* err = std::get_if<mysql::SqlError>(&select)) return *err;
    stmt->written_view = TableName{view->database(), view->name()};
    return WriteThroughView(*view,
                            std::get<SelectStmt>(std::get<Statement>(std::move(select)).node),
                            ReadsOnlyTables(*view), dictionary_, stmt);
  }

  // Whether the view's own SELECT names no view (so its condition is all its merge has).
  bool ReadsOnlyTables(const wire::View& view) const {
    auto parsed = ParseQualified(view.select(), view.default_database(), ViewParseOptions(view));
    if (std::holds_alternative<mysql::SqlError>(parsed)) return false;
    bool tables = true;
    WalkStatement(
        std::get<Statement>(parsed),
        [&](const TableRef& ref) {
          tables = tables && (!NamesBaseTable(ref) ||
                              dictionary_.FindView(ref.table.database, ref.table.name) == nullptr);
        },
        [](const Expr&) {});
    return tables;
  }

  // Typed as MySQL opens a view: a column gone from its tables makes the view invalid, not an
  // unknown column (or an outer reference) of the statement that reads it. Once per view and
  // dictionary in a session.
  std::optional<mysql::SqlError> CheckTyped(const wire::View& view, const SelectStmt& select) {
    const std::pair<uint64_t, uint32_t> on(dictionary_.incarnation, dictionary_.version);
    if (state_.views_checked_on != on) {
      state_.views_checked.clear();
      state_.views_checked_on = on;
    }
    std::string key = ViewKey(view);
    if (state_.views_checked.contains(key)) return std::nullopt;
    auto typed =
        select.unions.empty() ? SingleSelectColumns(select, state_) : UnionColumns(select, state_);
    if (std::holds_alternative<mysql::SqlError>(typed)) {
      return state_.wanted != nullptr ? std::get<mysql::SqlError>(typed) : InvalidView(view);
    }
    state_.views_checked.insert(std::move(key));
    return std::nullopt;
  }

  std::optional<mysql::SqlError> CheckTablesExist(const wire::View& view, const Statement& stmt) {
    bool missing = false;
    WalkStatement(
        stmt,
        [&](const TableRef& ref) {
          if (!NamesBaseTable(ref) || IsInformationSchema(ref.table.database)) return;
          missing = missing || dictionary_.Find(ref.table.database, ref.table.name) == nullptr;
        },
        [](const Expr&) {});
    if (!missing) return std::nullopt;
    if (auto err = WantRefresh(state_)) return err;  // another router may have made it
    return InvalidView(view);
  }

  const SessionState& state_;
  const api::Dictionary& dictionary_;
  std::string making_;
  std::vector<std::string> chain_;  // the views being expanded, outermost first
  std::optional<mysql::SqlError> error_;
};

// The session's dictionary, fresh (null without a cluster), or the wait for one.
std::variant<std::shared_ptr<const api::Dictionary>, mysql::SqlError> Dictionary(
    const SessionState& state) {
  if (auto err = RequireCurrentDictionary(state)) return *err;
  return CurrentDictionary(state);
}

}  // namespace

schema::ColumnDef ColumnFromResult(const mysql::ColumnDefinition& c, int charset_maxlen) {
  using schema::ColumnType;
  schema::ColumnDef col;
  col.name = c.name;
  col.nullable = (c.flags & mysql::column_flag::kNotNull) == 0;
  col.is_unsigned = (c.flags & mysql::column_flag::kUnsigned) != 0;
  const bool binary = c.charset == mysql::charset::kBinary;
  const uint32_t chars = binary ? c.length : c.length / std::max(charset_maxlen, 1);
  switch (c.type) {
    case mysql::ColumnType::kTiny:
      col.type = ColumnType::kTinyInt;
      if (c.length == 1) col.length = 1;  // TINYINT(1), which MySQL 8.0 still shows
      break;
    case mysql::ColumnType::kShort:
    case mysql::ColumnType::kYear:
      col.type = ColumnType::kSmallInt;
      break;
    case mysql::ColumnType::kInt24:
      col.type = ColumnType::kMediumInt;
      break;
    case mysql::ColumnType::kLong:
      col.type = ColumnType::kInt;
      break;
    case mysql::ColumnType::kLongLong:
      col.type = ColumnType::kBigInt;
      break;
    case mysql::ColumnType::kFloat:
      col.type = ColumnType::kFloat;
      break;
    case mysql::ColumnType::kDouble:
      col.type = ColumnType::kDouble;
      break;
    case mysql::ColumnType::kDecimal:
    case mysql::ColumnType::kNewDecimal: {
      col.type = ColumnType::kDecimal;
      col.scale = c.decimals;
      // The display length counts the point and, when signed, the sign.
      int digits = static_cast<int>(c.length) - (c.decimals > 0) - (col.is_unsigned ? 0 : 1);
      col.precision = static_cast<uint8_t>(std::clamp(digits, std::max<int>(c.decimals, 1), 65));
      break;
    }
    case mysql::ColumnType::kDate:
      col.type = ColumnType::kDate;
      break;
    case mysql::ColumnType::kTime:
      col.type = ColumnType::kTime;
      col.precision = c.decimals;
      break;
    case mysql::ColumnType::kDateTime:
      col.type = ColumnType::kDateTime;
      col.precision = c.decimals;
      break;
    case mysql::ColumnType::kTimestamp:
      col.type = ColumnType::kTimestamp;
      col.precision = c.decimals;
      break;
    case mysql::ColumnType::kString:
      col.type = binary ? ColumnType::kBinary : ColumnType::kChar;
      col.length = chars;
      break;
    case mysql::ColumnType::kNull:
      col.type = ColumnType::kBinary;
      break;
    case mysql::ColumnType::kJson:
      col.type = ColumnType::kJson;
      break;
    case mysql::ColumnType::kBit:
      col.type = ColumnType::kBit;
      col.length = std::max<uint32_t>(c.length, 1);
      break;
    case mysql::ColumnType::kTinyBlob:
    case mysql::ColumnType::kMediumBlob:
    case mysql::ColumnType::kLongBlob:
    case mysql::ColumnType::kBlob:
      col.type = binary ? ColumnType::kBlob : ColumnType::kText;
      break;
    default:
      col.type = binary ? ColumnType::kVarBinary : ColumnType::kVarChar;
      col.length = chars;
      break;
  }
  if (!binary) col.collation = schema::Collation::kCaseInsensitive;  // the connection's
  return col;
}

bool NamesView(const Statement& stmt, const SessionState& state) {
  if (state.data == nullptr) return false;
  const std::shared_ptr<const api::Dictionary>& dictionary = state.data->client().dictionary();
  if (dictionary == nullptr || dictionary->views.empty()) return false;
  const TableName* target = WriteTarget(stmt);
  bool found = target != nullptr &&
               dictionary->FindView(target->database.empty() ? state.database : target->database,
                                    target->name) != nullptr;
  WalkStatement(
      stmt,
      [&](const TableRef& ref) {
        found = found || (NamesBaseTable(ref) &&
                          dictionary->FindView(DatabaseNamed(ref, state), ref.table.name));
      },
      [](const Expr&) {});
  return found;
}

std::pair<uint64_t, uint32_t> DictionaryStamp(const SessionState& state) {
  if (state.data == nullptr) return {0, 0};
  const std::shared_ptr<const api::Dictionary>& dictionary = state.data->client().dictionary();
  if (dictionary == nullptr) return {0, 0};
  return {dictionary->incarnation, dictionary->version};
}

std::optional<mysql::SqlError> ExpandViews(Statement* stmt, const SessionState& state) {
  auto dictionary = Dictionary(state);
  if (auto* err = std::get_if<mysql::SqlError>(&dictionary)) return *err;
  const auto& current = std::get<std::shared_ptr<const api::Dictionary>>(dictionary);
  if (current == nullptr || current->views.empty()) return std::nullopt;
  return Expander(state, *current).Expand(stmt);
}

ParseOptions ViewParseOptions(const wire::View& view) {
  ParseOptions options;
  options.escapes = view.no_backslash_escapes() ? BackslashEscapes::kOff : BackslashEscapes::kOn;
  options.double_quotes = view.ansi_quotes() ? DoubleQuotes::kIdentifier : DoubleQuotes::kString;
  options.pipes_as_concat = view.pipes_as_concat();
  return options;
}

std::variant<Statement, mysql::SqlError> ParseViewSelect(const std::string& select_text,
                                                         const std::string& default_database,
                                                         const std::string& making,
                                                         const SessionState& state,
                                                         const ParseOptions& options) {
  auto dictionary = Dictionary(state);
  if (auto* err = std::get_if<mysql::SqlError>(&dictionary)) return *err;
  const auto& current = std::get<std::shared_ptr<const api::Dictionary>>(dictionary);
  auto parsed = ParseQualified(select_text, default_database, options);
  if (auto* err = std::get_if<mysql::SqlError>(&parsed)) return *err;
  if (current != nullptr && !current->views.empty()) {
    if (auto err = Expander(state, *current, making).Expand(&std::get<Statement>(parsed))) {
      return *err;
    }
  }
  return parsed;
}

std::variant<schema::TableDef, mysql::SqlError> ViewAsTable(const wire::View& view,
                                                            const SessionState& state) {
  auto dictionary = Dictionary(state);
  if (auto* err = std::get_if<mysql::SqlError>(&dictionary)) return *err;
  const auto& current = std::get<std::shared_ptr<const api::Dictionary>>(dictionary);
  if (current == nullptr) return ClusterFailure();
  auto stmt = Expander(state, *current).ViewSelect(view);
  if (auto* err = std::get_if<mysql::SqlError>(&stmt)) return *err;
  const SelectStmt& select = std::get<SelectStmt>(std::get<Statement>(stmt).node);
  auto typed =
      select.unions.empty() ? SingleSelectColumns(select, state) : UnionColumns(select, state);
  if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
  schema::TableDef table;
  table.database = view.database();
  table.name = view.name();
  for (const mysql::ColumnDefinition& c : std::get<std::vector<mysql::ColumnDefinition>>(typed)) {
    table.columns.push_back(ColumnFromResult(c, ResultCharsetMaxLen(state)));
  }
  return table;
}

bool ViewIsUpdatable(const wire::View& view, const SessionState& state) {
  auto dictionary = Dictionary(state);
  if (std::holds_alternative<mysql::SqlError>(dictionary)) return false;
  const auto& current = std::get<std::shared_ptr<const api::Dictionary>>(dictionary);
  if (current == nullptr) return false;
  auto stmt = Expander(state, *current).ViewSelect(view);
  if (std::holds_alternative<mysql::SqlError>(stmt)) return false;
  return MergeableColumns(std::get<SelectStmt>(std::get<Statement>(stmt).node), *current)
      .has_value();
}

std::variant<std::optional<wire::View>, mysql::SqlError> LookUpView(const TableName& name,
                                                                    const SessionState& state) {
  auto dictionary = Dictionary(state);
  if (auto* err = std::get_if<mysql::SqlError>(&dictionary)) return *err;
  const auto& current = std::get<std::shared_ptr<const api::Dictionary>>(dictionary);
  const std::string& db = name.database.empty() ? state.database : name.database;
  const wire::View* view = current == nullptr ? nullptr : current->FindView(db, name.name);
  if (view == nullptr) return std::nullopt;
  return *view;
}

std::string ShowCreateViewText(const wire::View& view) {
  std::string text = absl::StrCat(
      "CREATE ALGORITHM=", view.algorithm().empty() ? "UNDEFINED" : view.algorithm(),
      " DEFINER=", view.definer(), " SQL SECURITY ",
      view.security_invoker() ? "INVOKER" : "DEFINER", " VIEW ", QuoteIdentifier(view.name()));
  if (view.has_column_list()) {
    std::vector<std::string> columns;
    for (const std::string& c : view.columns()) columns.push_back(QuoteIdentifier(c));
    absl::StrAppend(&text, " (", absl::StrJoin(columns, ","), ")");
  }
  absl::StrAppend(&text, " AS ", view.select());
  if (view.check_option() == wire::View::CASCADED) {
    absl::StrAppend(&text, " WITH CASCADED CHECK OPTION");
  } else if (view.check_option() == wire::View::LOCAL) {
    absl::StrAppend(&text, " WITH LOCAL CHECK OPTION");
  }
  return text;
}

}  // namespace shoal::sql::internal
