// ALTER TABLE and RENAME TABLE. The grammar is MySQL 8.0's; what an alteration means (and
// whether it runs in place or by a copy) is judged by router/sql/exec/alter_definition.cc.
// Partitioning clauses, ORDER BY and invisible columns answer 1235.
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

// [FIRST | AFTER column] after a column definition.
bool ParsePlacement(Parser& p, AlterAction* action) {
  if (p.AcceptKeyword("FIRST")) {
    action->first = true;
    return true;
  }
  if (p.AcceptKeyword("AFTER")) return p.ParseIdentifier(&action->after);
  return true;
}

bool ParseColumnWithPlacement(Parser& p, AlterAction* action) {
  return ParseAlterColumnDefinition(p, &action->column) == Match::kYes && ParsePlacement(p, action);
}

// After ADD: [COLUMN] definition, [COLUMN] (definition, …), or a key.
bool ParseAdd(Parser& p, std::vector<AlterAction>* out) {
  bool column = p.AcceptKeyword("COLUMN");
  if (!column) {
    CreateTableStmt keys;
    Match m = ParseAlterKeyDefinition(p, &keys);
    if (m == Match::kError) return false;
    if (m == Match::kYes) {
      for (IndexSpec& index : keys.indexes) {
        AlterAction& action = out->emplace_back();
        action.kind = AlterAction::Kind::kAddIndex;
        action.index = std::move(index);
      }
      for (ForeignKeySpec& fk : keys.foreign_keys) {
        AlterAction& action = out->emplace_back();
        action.kind = AlterAction::Kind::kAddForeignKey;
        action.foreign_key = std::move(fk);
      }
      return true;  // a CHECK constraint adds nothing (as MySQL before 8.0.16)
    }
  }
  if (p.Accept(TokenKind::kLParen)) {
    do {
      AlterAction& action = out->emplace_back();
      if (ParseAlterColumnDefinition(p, &action.column) != Match::kYes) return false;
    } while (p.Accept(TokenKind::kComma));
    return p.Expect(TokenKind::kRParen);
  }
  return ParseColumnWithPlacement(p, &out->emplace_back());
}

// After DROP: [COLUMN] name, {INDEX | KEY} name, PRIMARY KEY.
bool ParseDrop(Parser& p, AlterAction* action) {
  if (p.AcceptKeyword("PRIMARY")) {
    action->kind = AlterAction::Kind::kDropIndex;
    action->name = "PRIMARY";
    return p.ExpectKeyword("KEY");
  }
  if (AcceptAny(p, {"INDEX", "KEY"})) {
    action->kind = AlterAction::Kind::kDropIndex;
    return p.ParseIdentifier(&action->name);
  }
  if (p.AcceptKeyword("FOREIGN")) {
    action->kind = AlterAction::Kind::kDropForeignKey;
    return p.ExpectKeyword("KEY") && p.ParseIdentifier(&action->name);
  }
  if (PeekAny(p, {"CHECK", "CONSTRAINT"})) return p.NotSupported("DROP CONSTRAINT");
  p.AcceptKeyword("COLUMN");
  action->kind = AlterAction::Kind::kDropColumn;
  if (!p.ParseIdentifier(&action->name)) return false;
  AcceptAny(p, {"RESTRICT", "CASCADE"});
  return true;
}

// After ALTER: [COLUMN] name {SET DEFAULT … | DROP DEFAULT}.
bool ParseAlterColumn(Parser& p, AlterAction* action) {
  if (p.PeekKeyword("INDEX")) return p.NotSupported("ALTER INDEX");
  if (PeekAny(p, {"CHECK", "CONSTRAINT"})) return p.NotSupported("ALTER CONSTRAINT");
  p.AcceptKeyword("COLUMN");
  if (!p.ParseIdentifier(&action->name)) return false;
  if (p.AcceptKeyword("DROP")) {
    action->kind = AlterAction::Kind::kDropDefault;
    return p.ExpectKeyword("DEFAULT");
  }
  if (!p.ExpectKeyword("SET")) return false;
  if (PeekAny(p, {"VISIBLE", "INVISIBLE"})) return p.NotSupported("INVISIBLE columns");
  if (!p.ExpectKeyword("DEFAULT")) return false;
  action->kind = AlterAction::Kind::kSetDefault;
  action->default_value = ParseAlterDefault(p);
  return action->default_value != nullptr;
}

// After RENAME: COLUMN a TO b, {INDEX | KEY} a TO b, or [TO | AS] table.
bool ParseRename(Parser& p, AlterAction* action) {
  if (p.AcceptKeyword("COLUMN")) {
    action->kind = AlterAction::Kind::kRenameColumn;
  } else if (AcceptAny(p, {"INDEX", "KEY"})) {
    action->kind = AlterAction::Kind::kRenameIndex;
  } else {
    action->kind = AlterAction::Kind::kRenameTable;
    AcceptAny(p, {"TO", "AS"});
    return p.ParseTableName(&action->new_table);
  }
  return p.ParseIdentifier(&action->name) && p.ExpectKeyword("TO") &&
         p.ParseIdentifier(&action->new_name);
}

// ALGORITHM [=] {DEFAULT | INSTANT | INPLACE | COPY}; LOCK [=] {DEFAULT | NONE | SHARED |
// EXCLUSIVE} is taken and dropped: a copy always lets readers on and holds writers.
bool ParseAlgorithmOrLock(Parser& p, AlterTableStmt* out) {
  bool algorithm = p.PeekKeyword("ALGORITHM");
  p.Advance();
  p.Accept(TokenKind::kEq);
  const Token& value = p.Peek();
  if (value.kind != TokenKind::kIdent) return p.Fail();
  std::string word = absl::AsciiStrToUpper(value.text);
  if (algorithm) {
    if (word == "DEFAULT") {
      out->algorithm = AlterTableStmt::Algorithm::kDefault;
    } else if (word == "INSTANT") {
      out->algorithm = AlterTableStmt::Algorithm::kInstant;
    } else if (word == "INPLACE") {
      out->algorithm = AlterTableStmt::Algorithm::kInplace;
    } else if (word == "COPY") {
      out->algorithm = AlterTableStmt::Algorithm::kCopy;
    } else {
      return p.Fail();
    }
  } else if (word != "DEFAULT" && word != "NONE" && word != "SHARED" && word != "EXCLUSIVE") {
    return p.Fail();
  }
  p.Advance();
  return true;
}

// CONVERT TO CHARACTER SET x [COLLATE y]: every Shoal string is utf8mb4 already.
bool ParseConvert(Parser& p) {
  p.Advance();  // CONVERT
  if (!p.ExpectKeyword("TO")) return false;
  if (p.AcceptKeyword("CHARACTER")) {
    if (!p.ExpectKeyword("SET")) return false;
  } else if (!p.ExpectKeyword("CHARSET")) {
    return false;
  }
  std::string charset, collation;
  if (!p.ParseNameOrString(&charset)) return false;
  charset = absl::AsciiStrToLower(charset);
  if (charset != "utf8mb4" && charset != "utf8" && charset != "utf8mb3" && charset != "default") {
    return p.NotSupported(absl::StrCat("CHARACTER SET ", charset));
  }
  if (p.AcceptKeyword("COLLATE") && !p.ParseNameOrString(&collation)) return false;
  return true;
}

// One alteration (several for ADD (a, b)); table options are gathered into one action.
bool ParseAlteration(Parser& p, AlterTableStmt* out) {
  if (p.AcceptKeyword("ADD")) return ParseAdd(p, &out->actions);
  if (PeekAny(p, {"ALGORITHM", "LOCK"})) return ParseAlgorithmOrLock(p, out);
  if (p.PeekKeyword("CONVERT")) return ParseConvert(p);
  if (PeekAny(p, {"PARTITION", "COALESCE", "REORGANIZE", "EXCHANGE", "ANALYZE", "CHECK", "OPTIMIZE",
                  "REBUILD", "REPAIR", "REMOVE", "TRUNCATE", "DISCARD", "IMPORT"})) {
    return p.NotSupported(absl::StrCat("ALTER TABLE … ", absl::AsciiStrToUpper(p.Peek().text)));
  }
  if (p.PeekKeyword("ORDER") && p.PeekKeyword("BY", 1)) {
    return p.NotSupported("ALTER TABLE … ORDER BY");
  }
  AlterAction action;
  if (p.AcceptKeyword("DROP")) {
    if (!ParseDrop(p, &action)) return false;
  } else if (p.AcceptKeyword("ALTER")) {
    if (!ParseAlterColumn(p, &action)) return false;
  } else if (p.AcceptKeyword("CHANGE")) {
    p.AcceptKeyword("COLUMN");
    action.kind = AlterAction::Kind::kChangeColumn;
    if (!p.ParseIdentifier(&action.name) || !ParseColumnWithPlacement(p, &action)) return false;
  } else if (p.AcceptKeyword("MODIFY")) {
    p.AcceptKeyword("COLUMN");
    action.kind = AlterAction::Kind::kChangeColumn;
    if (!ParseColumnWithPlacement(p, &action)) return false;
    action.name = action.column.name;
  } else if (p.AcceptKeyword("RENAME")) {
    if (!ParseRename(p, &action)) return false;
  } else if (p.AcceptKeyword("DISABLE")) {
    action.kind = AlterAction::Kind::kDisableKeys;
    if (!p.ExpectKeyword("KEYS")) return false;
  } else if (p.AcceptKeyword("ENABLE")) {
    action.kind = AlterAction::Kind::kEnableKeys;
    if (!p.ExpectKeyword("KEYS")) return false;
  } else if (p.AcceptKeyword("FORCE")) {
    action.kind = AlterAction::Kind::kForce;
  } else {
    // Table options, one after the other with or without commas.
    action.kind = AlterAction::Kind::kTableOptions;
    Match m = ParseAlterTableOption(p, &action.options);
    if (m != Match::kYes) return m == Match::kNo ? p.Fail() : false;
    while ((m = ParseAlterTableOption(p, &action.options)) == Match::kYes) {
    }
    if (m == Match::kError) return false;
  }
  out->actions.push_back(std::move(action));
  return true;
}

}  // namespace

bool Parser::ParseAlterTable(AlterTableStmt* out) {
  Advance();  // ALTER
  if (!ExpectKeyword("TABLE") || !ParseTableName(&out->table)) return false;
  if (Peek().kind == TokenKind::kEnd || Peek().kind == TokenKind::kSemicolon) return true;
  do {
    if (!ParseAlteration(*this, out)) return false;
  } while (Accept(TokenKind::kComma));
  if (PeekKeyword("PARTITION")) return NotSupported("ALTER TABLE … PARTITION");
  return true;
}

bool Parser::ParseRenameTable(RenameTableStmt* out) {
  Advance();  // RENAME
  Advance();  // TABLE
  do {
    auto& [from, to] = out->renames.emplace_back();
    if (!ParseTableName(&from) || !ExpectKeyword("TO") || !ParseTableName(&to)) return false;
  } while (Accept(TokenKind::kComma));
  return true;
}

}  // namespace shoal::sql::internal
