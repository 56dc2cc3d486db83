// Account statements: CREATE/ALTER/DROP/RENAME USER, SET PASSWORD, GRANT, REVOKE, FLUSH.
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "router/access/privileges.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

bool ParseNumber(Parser& p, uint32_t* out) {
  if (p.Peek().kind != TokenKind::kInteger) return p.Fail();
  uint64_t v = 0;
  if (!absl::SimpleAtoi(p.Peek().text, &v)) v = UINT32_MAX;
  *out = static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX));
  p.Advance();
  return true;
}

bool ParseString(Parser& p, std::string* out) {
  if (p.Peek().kind != TokenKind::kString) return p.Fail();
  *out = p.Advance().value;
  return true;
}

// IDENTIFIED BY 'pw' | IDENTIFIED BY PASSWORD 'hash' | IDENTIFIED WITH plugin [BY 'pw' |
// AS 'hash'], after IDENTIFIED.
bool ParseIdentified(Parser& p, AccountSpec* spec) {
  spec->identified = true;
  if (p.AcceptKeyword("WITH")) {
    if (!p.ParseNameOrString(&spec->plugin)) return false;
    spec->plugin = absl::AsciiStrToLower(spec->plugin);
    if (p.AcceptKeyword("AS")) return ParseString(p, &spec->hash.emplace());
    if (!p.AcceptKeyword("BY")) return true;
  } else if (!p.ExpectKeyword("BY")) {
    return false;
  }
  if (p.AcceptKeyword("RANDOM")) return p.NotSupported("RANDOM PASSWORD");
  if (p.AcceptKeyword("PASSWORD")) return ParseString(p, &spec->hash.emplace());
  return ParseString(p, &spec->password.emplace());
}

bool ParseAccountSpecs(Parser& p, bool with_auth, std::vector<AccountSpec>* out) {
  do {
    AccountSpec& spec = out->emplace_back();
    if (!ParseAccountName(p, &spec.name)) return false;
    if (with_auth && p.AcceptKeyword("IDENTIFIED") && !ParseIdentified(p, &spec)) return false;
  } while (p.Accept(TokenKind::kComma));
  return true;
}

// After REQUIRE: NONE, SSL, X509, or ISSUER, SUBJECT and CIPHER (each once, in any order,
// optionally joined by AND; an empty string is as if not written, as in mysqld).
bool ParseRequire(Parser& p, AccountStmt::TlsRequirement* out) {
  if (p.AcceptKeyword("NONE")) return true;
  if (p.AcceptKeyword("SSL")) {
    out->type = "ANY";
    return true;
  }
  if (p.AcceptKeyword("X509")) {
    out->type = "X509";
    return true;
  }
  out->type = "SPECIFIED";
  bool any = false;
  for (;;) {
    std::string* part = nullptr;
    for (auto [keyword, field] :
         {std::pair{"ISSUER", &out->issuer}, std::pair{"SUBJECT", &out->subject},
          std::pair{"CIPHER", &out->cipher}}) {
      if (p.AcceptKeyword(keyword)) {
        part = field;
        break;
      }
    }
    if (part == nullptr) return any || p.Fail();
    if (!part->empty()) return p.Fail();  // each part once
    if (!ParseString(p, part)) return false;
    any = true;
    p.AcceptKeyword("AND");
  }
}

// REQUIRE …, WITH resource options, password and lock options, in any order.
bool ParseAccountOptions(Parser& p, AccountStmt* out) {
  for (;;) {
    if (p.AcceptKeyword("REQUIRE")) {
      if (!ParseRequire(p, &out->require.emplace())) return false;
    } else if (p.AcceptKeyword("WITH")) {
      bool any = false;
      for (;;) {
        uint32_t n = 0;
        if (p.AcceptKeyword("MAX_USER_CONNECTIONS")) {
          if (!ParseNumber(p, &n)) return false;
          out->max_user_connections = n;
        } else if (p.AcceptKeyword("MAX_QUERIES_PER_HOUR")) {
          if (!ParseNumber(p, &n)) return false;
          out->max_questions = n;
        } else if (p.AcceptKeyword("MAX_UPDATES_PER_HOUR")) {
          if (!ParseNumber(p, &n)) return false;
          out->max_updates = n;
        } else if (p.AcceptKeyword("MAX_CONNECTIONS_PER_HOUR")) {
          if (!ParseNumber(p, &n)) return false;
          out->max_connections_per_hour = n;
        } else {
          break;
        }
        any = true;
      }
      if (!any) return p.Fail();
    } else if (p.AcceptKeyword("ACCOUNT")) {
      if (p.AcceptKeyword("LOCK")) {
        out->lock = true;
      } else if (p.ExpectKeyword("UNLOCK")) {
        out->lock = false;
      } else {
        return false;
      }
    } else if (p.AcceptKeyword("PASSWORD")) {
      if (!p.ExpectKeyword("EXPIRE")) return false;
      if (p.AcceptKeyword("NEVER") || p.AcceptKeyword("DEFAULT")) {
        // Passwords never expire here by age: both mean what there is.
      } else if (p.AcceptKeyword("INTERVAL")) {
        uint32_t days = 0;
        if (!ParseNumber(p, &days) || !p.ExpectKeyword("DAY")) return false;
      } else {
        out->password_expire = true;
      }
    } else if (p.AcceptKeyword("FAILED_LOGIN_ATTEMPTS")) {
      uint32_t n = 0;
      if (!ParseNumber(p, &n)) return false;
      out->failed_login_attempts = std::min<uint32_t>(n, 32767);
    } else if (p.AcceptKeyword("PASSWORD_LOCK_TIME")) {
      uint32_t days = 0;
      if (p.AcceptKeyword("UNBOUNDED")) {
        out->password_lock_days = -1;
      } else if (!ParseNumber(p, &days)) {
        return false;
      } else {
        out->password_lock_days = static_cast<int32_t>(std::min<uint32_t>(days, 32767));
      }
    } else {
      return true;
    }
  }
}

// A privilege's words up to `,` or ON (or `(`, a column list).
bool ParsePrivilege(Parser& p, std::string* out) {
  std::vector<std::string> words;
  while (p.Peek().kind == TokenKind::kIdent && !PeekAny(p, {"ON", "TO", "FROM"})) {
    words.push_back(absl::AsciiStrToUpper(p.Advance().text));
  }
  if (words.empty()) return p.Fail();
  *out = absl::StrJoin(words, " ");
  if (*out == "ALL PRIVILEGES") *out = "ALL";
  if (*out != "ALL" && *out != "USAGE" && !access::PrivilegeNamed(*out).has_value()) {
    return p.Fail();
  }
  if (p.Peek().kind == TokenKind::kLParen) return p.NotSupported("column privileges");
  return true;
}

// ON [TABLE] {*.* | db.* | * | db.t | t}.
bool ParsePrivilegeLevel(Parser& p, GrantStmt* out) {
  if (PeekAny(p, {"FUNCTION", "PROCEDURE"})) return p.NotSupported("stored routines");
  p.AcceptKeyword("TABLE");
  if (p.Accept(TokenKind::kStar)) {
    if (!p.Accept(TokenKind::kDot)) {
      out->current_database = true;
      return true;
    }
    out->global = true;
    return p.Expect(TokenKind::kStar);
  }
  std::string first;
  if (!p.ParseIdentifier(&first)) return false;
  if (!p.Accept(TokenKind::kDot)) {
    out->current_database = true;
    out->table = std::move(first);
    return true;
  }
  out->database = std::move(first);
  if (p.Accept(TokenKind::kStar)) return true;
  return p.ParseIdentifier(&out->table);
}

bool ParseAccountNames(Parser& p, std::vector<AccountName>* out) {
  do {
    if (!ParseAccountName(p, &out->emplace_back())) return false;
  } while (p.Accept(TokenKind::kComma));
  return true;
}

// [DEFAULT ROLE role, …] of CREATE USER and ALTER USER.
bool ParseDefaultRoles(Parser& p, AccountStmt* out) {
  if (!p.AcceptKeyword("DEFAULT")) return true;
  if (!p.ExpectKeyword("ROLE")) return false;
  return ParseAccountNames(p, &out->default_roles.emplace());
}

// SET [DEFAULT] ROLE's choice: NONE, ALL [EXCEPT roles], DEFAULT (SET ROLE only) or roles.
bool ParseWhichRoles(Parser& p, bool set_default, RoleStmt* out) {
  if (p.AcceptKeyword("NONE")) {
    out->which = RoleStmt::Which::kNone;
  } else if (p.AcceptKeyword("ALL")) {
    out->which = RoleStmt::Which::kAll;
    if (!set_default && p.AcceptKeyword("EXCEPT")) {
      out->which = RoleStmt::Which::kAllExcept;
      return ParseAccountNames(p, &out->roles);
    }
  } else if (!set_default && p.AcceptKeyword("DEFAULT")) {
    out->which = RoleStmt::Which::kDefault;
  } else {
    return ParseAccountNames(p, &out->roles);
  }
  return true;
}

}  // namespace

bool ParseAccountName(Parser& p, AccountName* out) {
  if (p.AcceptKeyword("CURRENT_USER")) {
    out->current_user = true;
    return !p.Accept(TokenKind::kLParen) || p.Expect(TokenKind::kRParen);
  }
  if (!p.ParseNameOrString(&out->user)) return false;
  if (p.Peek().kind == TokenKind::kUserVar) out->host = p.Advance().value;
  if (out->user.size() > 32) {
    return p.Fail();  // MySQL: String 'x' is too long for user name (1470) — a parse error here
  }
  return true;
}

bool Parser::ParseAccountStatement(AccountStmt* out) {
  if (AcceptKeyword("CREATE")) {
    Advance();  // USER
    out->kind = AccountStmt::Kind::kCreate;
    out->if_flag = AcceptKeyword("IF");
    if (out->if_flag && !(ExpectKeyword("NOT") && ExpectKeyword("EXISTS"))) return false;
    if (!ParseAccountSpecs(*this, true, &out->accounts)) return false;
    if (!ParseDefaultRoles(*this, out)) return false;
    return ParseAccountOptions(*this, out);
  }
  if (AcceptKeyword("ALTER")) {
    Advance();  // USER
    out->kind = AccountStmt::Kind::kAlter;
    out->if_flag = AcceptKeyword("IF");
    if (out->if_flag && !ExpectKeyword("EXISTS")) return false;
    if (PeekKeyword("USER") && Peek(1).kind == TokenKind::kLParen) {
      Advance();
      Advance();
      if (!Expect(TokenKind::kRParen)) return false;
      AccountSpec& spec = out->accounts.emplace_back();
      spec.name.current_user = true;
      return ExpectKeyword("IDENTIFIED") && ParseIdentified(*this, &spec) &&
             ParseAccountOptions(*this, out);
    }
    if (!ParseAccountSpecs(*this, true, &out->accounts)) return false;
    if (!ParseDefaultRoles(*this, out)) return false;
    return ParseAccountOptions(*this, out);
  }
  if (AcceptKeyword("DROP")) {
    Advance();  // USER
    out->kind = AccountStmt::Kind::kDrop;
    out->if_flag = AcceptKeyword("IF");
    if (out->if_flag && !ExpectKeyword("EXISTS")) return false;
    return ParseAccountSpecs(*this, false, &out->accounts);
  }
  if (AcceptKeyword("RENAME")) {
    Advance();  // USER
    out->kind = AccountStmt::Kind::kRename;
    do {
      if (!ParseAccountName(*this, &out->accounts.emplace_back().name) || !ExpectKeyword("TO") ||
          !ParseAccountName(*this, &out->renamed_to.emplace_back())) {
        return false;
      }
    } while (Accept(TokenKind::kComma));
    return true;
  }
  // SET PASSWORD [FOR account] = 'password' | PASSWORD('password')
  Advance();  // SET
  Advance();  // PASSWORD
  out->kind = AccountStmt::Kind::kSetPassword;
  AccountSpec& spec = out->accounts.emplace_back();
  spec.name.current_user = !AcceptKeyword("FOR");
  if (!spec.name.current_user && !ParseAccountName(*this, &spec.name)) return false;
  if (!Expect(TokenKind::kEq)) return false;
  spec.identified = true;
  if (PeekKeyword("PASSWORD") && Peek(1).kind == TokenKind::kLParen) {
    Advance();
    Advance();
    return ParseString(*this, &spec.password.emplace()) && Expect(TokenKind::kRParen);
  }
  if (AcceptKeyword("TO")) return NotSupported("RANDOM PASSWORD");
  return ParseString(*this, &spec.password.emplace());
}

bool Parser::ParseGrant(GrantStmt* out) {
  out->revoke = AcceptKeyword("REVOKE");
  if (!out->revoke) Advance();  // GRANT
  if (out->revoke && AcceptKeyword("IF")) return NotSupported("REVOKE IF EXISTS");
  do {
    if (!ParsePrivilege(*this, &out->privileges.emplace_back())) return false;
  } while (Accept(TokenKind::kComma));
  if (out->revoke && out->privileges == std::vector<std::string>{"ALL", "GRANT OPTION"} &&
      PeekKeyword("FROM")) {
    out->revoke_everything = true;
  } else {
    if (!ExpectKeyword("ON")) return false;
    if (!ParsePrivilegeLevel(*this, out)) return false;
  }
  if (!ExpectKeyword(out->revoke ? "FROM" : "TO") || !ParseAccountNames(*this, &out->accounts)) {
    return false;
  }
  if (!out->revoke && AcceptKeyword("WITH")) {
    if (!ExpectKeyword("GRANT") || !ExpectKeyword("OPTION")) return false;
    out->with_grant_option = true;
  }
  return true;
}

bool IsRoleGrant(const Parser& p) {
  // GRANT/REVOKE name, … TO|FROM …: no ON before TO or FROM. REVOKE ALL [PRIVILEGES], GRANT
  // OPTION FROM … has none either, and is about privileges.
  if (p.PeekKeyword("REVOKE") && p.PeekKeyword("ALL", 1)) return false;
  for (size_t i = 1;; ++i) {
    const Token& t = p.Peek(i);
    if (t.kind == TokenKind::kEnd || t.kind == TokenKind::kError || IsKeyword(t, "ON")) {
      return false;
    }
    if (IsKeyword(t, "TO") || IsKeyword(t, "FROM")) return true;
  }
}

bool Parser::ParseRoleStatement(RoleStmt* out) {
  if (AcceptKeyword("CREATE") || AcceptKeyword("DROP")) {
    out->kind =
        IsKeyword(tokens_[pos_ - 1], "CREATE") ? RoleStmt::Kind::kCreate : RoleStmt::Kind::kDrop;
    Advance();  // ROLE
    out->if_flag = AcceptKeyword("IF");
    if (out->if_flag) {
      if (out->kind == RoleStmt::Kind::kCreate && !ExpectKeyword("NOT")) return false;
      if (!ExpectKeyword("EXISTS")) return false;
    }
    return ParseAccountNames(*this, &out->roles);
  }
  if (AcceptKeyword("GRANT") || AcceptKeyword("REVOKE")) {
    const bool grant = IsKeyword(tokens_[pos_ - 1], "GRANT");
    out->kind = grant ? RoleStmt::Kind::kGrant : RoleStmt::Kind::kRevoke;
    if (!ParseAccountNames(*this, &out->roles) || !ExpectKeyword(grant ? "TO" : "FROM") ||
        !ParseAccountNames(*this, &out->accounts)) {
      return false;
    }
    if (grant && AcceptKeyword("WITH")) {
      if (!ExpectKeyword("ADMIN") || !ExpectKeyword("OPTION")) return false;
      out->with_admin_option = true;
    }
    return true;
  }
  Advance();  // SET
  if (AcceptKeyword("DEFAULT")) {
    Advance();  // ROLE
    out->kind = RoleStmt::Kind::kSetDefault;
    return ParseWhichRoles(*this, true, out) && ExpectKeyword("TO") &&
           ParseAccountNames(*this, &out->accounts);
  }
  Advance();  // ROLE
  out->kind = RoleStmt::Kind::kSet;
  return ParseWhichRoles(*this, false, out);
}

bool Parser::ParseFlush(FlushStmt* out) {
  Advance();  // FLUSH
  if (!AcceptKeyword("NO_WRITE_TO_BINLOG")) AcceptKeyword("LOCAL");
  if (Peek().kind != TokenKind::kIdent) return Fail();
  out->what = absl::AsciiStrToUpper(Advance().text);
  if (out->what == "TABLE" || out->what == "TABLES") {
    // Nothing is cached to close; a global read lock or an export is another matter.
    out->what = "TABLES";
    const TokenKind next = Peek().kind;
    if ((next == TokenKind::kIdent || next == TokenKind::kQuotedIdent) && !PeekKeyword("WITH") &&
        !PeekKeyword("FOR")) {
      do {
        TableName table;
        if (!ParseTableName(&table)) return false;
      } while (Accept(TokenKind::kComma));
    }
    if (PeekKeyword("WITH")) return NotSupported("FLUSH TABLES WITH READ LOCK");
    if (PeekKeyword("FOR")) return NotSupported("FLUSH TABLES FOR EXPORT");
    return true;
  }
  if (out->what != "PRIVILEGES" && out->what != "STATUS" && out->what != "HOSTS" &&
      out->what != "USER_RESOURCES") {
    return NotSupported(absl::StrCat("FLUSH ", out->what));
  }
  return true;
}

}  // namespace shoal::sql::internal
