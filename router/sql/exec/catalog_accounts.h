// The accounts as catalog rows (information_schema.cc lists the views): information_schema's
// USER_PRIVILEGES, SCHEMA_PRIVILEGES and TABLE_PRIVILEGES — the session's own account's, or
// every account's for one that may read the mysql schema, as MySQL — and mysql.user.
#pragma once

#include <vector>

#include "absl/strings/string_view.h"
#include "protocol/value.h"
#include "router/access/privileges.h"
#include "router/sql/eval/session.h"

namespace shoal::sql::internal {

void UserPrivilegesRows(const SessionState& state, std::vector<std::vector<mysql::Value>>* rows);
void SchemaPrivilegesRows(const SessionState& state, std::vector<std::vector<mysql::Value>>* rows);
void TablePrivilegesRows(const SessionState& state, std::vector<std::vector<mysql::Value>>* rows);

// mysql.user's columns: Host, User, a Y/N column per global privilege (these, in MySQL's
// order), then kMysqlUserFacts.
struct UserPrivilegeColumn {
  absl::string_view name;
  access::Privilege privilege;
};
inline constexpr UserPrivilegeColumn kUserPrivilegeColumns[] = {
    {"Select_priv", access::kSelect},
    {"Insert_priv", access::kInsert},
    {"Update_priv", access::kUpdate},
    {"Delete_priv", access::kDelete},
    {"Create_priv", access::kCreate},
    {"Drop_priv", access::kDrop},
    {"Reload_priv", access::kReload},
    {"Shutdown_priv", access::kShutdown},
    {"Process_priv", access::kProcess},
    {"File_priv", access::kFile},
    {"Grant_priv", access::kGrantOption},
    {"References_priv", access::kReferences},
    {"Index_priv", access::kIndex},
    {"Alter_priv", access::kAlter},
    {"Show_db_priv", access::kShowDatabases},
    {"Super_priv", access::kSuper},
    {"Create_tmp_table_priv", access::kCreateTemporaryTables},
    {"Lock_tables_priv", access::kLockTables},
    {"Execute_priv", access::kExecute},
    {"Repl_slave_priv", access::kReplicationSlave},
    {"Repl_client_priv", access::kReplicationClient},
    {"Create_view_priv", access::kCreateView},
    {"Show_view_priv", access::kShowView},
    {"Create_routine_priv", access::kCreateRoutine},
    {"Alter_routine_priv", access::kAlterRoutine},
    {"Create_user_priv", access::kCreateUser},
    {"Event_priv", access::kEvent},
    {"Trigger_priv", access::kTrigger},
    {"Create_tablespace_priv", access::kCreateTablespace},
};
inline constexpr absl::string_view kMysqlUserFacts[] = {"ssl_type",         "ssl_cipher",
                                                        "x509_issuer",      "x509_subject",
                                                        "max_questions",    "max_updates",
                                                        "max_connections",  "max_user_connections",
                                                        "plugin",           "authentication_string",
                                                        "password_expired", "account_locked",
                                                        "Create_role_priv", "Drop_role_priv"};
// Every account, as mysql.user's rows.
void MysqlUserRows(const SessionState& state, std::vector<std::vector<mysql::Value>>* rows);

}  // namespace shoal::sql::internal
