// What the account statements share (exec_account.cc, exec_role.cc): the accounts as this
// router has them, changed, then sent whole to the dictionary master (wire::SetAccessControl),
// which takes them unless another change came since.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/wire/dictionary.pb.h"
#include "router/sql/exec/exec_internal.h"

namespace shoal::sql::internal {

// The accounts as they are now, to change, and the generation they were read at.
struct AccountsNow {
  wire::AccessControl access;
  uint32_t generation = 0;
};
// After the worker's dictionary is current (the statement may stop to fetch it); 1297 without
// data nodes.
std::variant<AccountsNow, mysql::SqlError> CurrentAccounts(const ExecContext& ctx);
// Sends the changed accounts to the master: the statement's result (Deferred).
StatementResult StoreAccounts(AccountsNow changed, const ExecContext& ctx);

// The accounts a statement could not act on: with IF [NOT] EXISTS a note each (3163: exists
// already, 3162: does not), otherwise MySQL's 1396 for the statement, naming them all.
class SkippedAccounts {
 public:
  // `operation` as 1396 names it ("CREATE USER", "DROP ROLE").
  SkippedAccounts(std::string operation, bool if_flag, SessionState* state)
      : operation_(std::move(operation)), if_flag_(if_flag), state_(state) {}
  void Skip(const AccountName& name, bool exists);
  // 1396, when an account was skipped without IF [NOT] EXISTS.
  std::optional<mysql::SqlError> Error() const;

 private:
  std::string operation_;
  bool if_flag_;
  SessionState* state_;
  std::vector<std::string> failed_;
};

// The account a statement names: CURRENT_USER is the session's; hosts compare lower-cased.
AccountName ResolvedAccount(const AccountName& name, const SessionState& state);
// 'user'@'host', as error messages quote it.
std::string QuotedAccount(const AccountName& name);

}  // namespace shoal::sql::internal
