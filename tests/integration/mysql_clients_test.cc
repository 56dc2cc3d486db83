// Every real client connects to a router of a running cluster over its Unix socket and over
// TCP, authenticates (a wrong password gets 1045), runs SELECT 1 through the text and the
// prepared-statement protocol, SELECT @@version, SET NAMES, a multi-statement where the client
// can send one, and disconnects cleanly: the mariadb CLI, sysbench, PyMySQL,
// mysql-connector-python, Go's go-sql-driver/mysql and Connector/J.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/test_cluster.h"

namespace shoal::testing {
namespace {

using ::testing::HasSubstr;

std::string ClientsDir() { return SourceDir() + "/build/clients"; }

struct Endpoint {
  std::string name;
  bool unix_socket;
};

// One cluster per test suite, shared by its tests.
class ClusterFixture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new TestCluster(TestCluster::FromConfig(RouterClusterConfig(), {"--launch"}));
    ASSERT_TRUE(cluster_->WaitForState({2, 3, 4}, "started")) << cluster_->MgmdLog();
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  std::string socket() const { return cluster_->run_dir() + "/r4.sock"; }
  std::string port() const { return std::to_string(cluster_->router_port()); }

  static TestCluster* cluster_;
};

TestCluster* ClusterFixture::cluster_ = nullptr;

class MySqlClientsTest : public ClusterFixture, public ::testing::WithParamInterface<Endpoint> {
 protected:
  bool unix_socket() const { return GetParam().unix_socket; }

  // mariadb CLI arguments that pick the endpoint.
  std::vector<std::string> MariadbArgs(const std::string& user, const std::string& password) {
    std::vector<std::string> args = {"/usr/bin/mariadb", "--user", user, "--batch"};
    if (!password.empty()) args.push_back("--password=" + password);
    if (unix_socket()) {
      args.insert(args.end(), {"--socket", socket()});
    } else {
      args.insert(args.end(), {"--protocol=TCP", "--host", "127.0.0.1", "--port", port()});
    }
    return args;
  }
};

TEST_P(MySqlClientsTest, MariadbCli) {
  std::vector<std::string> args = MariadbArgs("app", "secret");
  args.insert(args.end(), {"-e", "SELECT 1; SELECT @@version; SET NAMES utf8mb4; SELECT 2, 'x'"});
  CommandResult r = RunCommand(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("1\n1\n"));
  EXPECT_THAT(r.out, HasSubstr("@@version\n8.0.36-shoal-"));
  EXPECT_THAT(r.out, HasSubstr("2\tx\n2\tx\n"));

  // The CLI's prepared statements are SQL text (it never uses the binary protocol).
  std::vector<std::string> prepared = MariadbArgs("root", "");
  prepared.insert(prepared.end(),
                  {"--skip-column-names", "-e",
                   "PREPARE s FROM 'SELECT ? + 1'; SET @a = 41; EXECUTE s USING @a; "
                   "DEALLOCATE PREPARE s"});
  CommandResult ps = RunCommand(prepared);
  ASSERT_EQ(ps.exit_code, 0) << ps.err;
  EXPECT_EQ(ps.out, "42\n");

  std::vector<std::string> bad = MariadbArgs("app", "wrong");
  bad.insert(bad.end(), {"-e", "SELECT 1"});
  CommandResult refused = RunCommand(bad);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.err, HasSubstr("ERROR 1045 (28000): Access denied for user 'app'@"));

  std::vector<std::string> syntax = MariadbArgs("root", "");
  syntax.insert(syntax.end(), {"-e", "SELEKT 1"});
  CommandResult error = RunCommand(syntax);
  EXPECT_EQ(error.exit_code, 1);
  EXPECT_THAT(error.err,
              HasSubstr("ERROR 1064 (42000) at line 1: You have an error in your SQL syntax"));
}

TEST_P(MySqlClientsTest, Sysbench) {
  // sysbench connects to its database, sbtest, which must exist (1049 otherwise).
  std::vector<std::string> create = MariadbArgs("app", "secret");
  create.insert(create.end(), {"-e", "CREATE DATABASE IF NOT EXISTS sbtest"});
  CommandResult created = RunCommand(create);
  ASSERT_EQ(created.exit_code, 0) << created.out << created.err;
  std::vector<std::string> args = {"/usr/bin/sysbench", SourceDir() + "/bench/select1.lua",
                                   "--mysql-user=app",  "--mysql-password=secret",
                                   "--threads=2",       "--events=2000",
                                   "--time=0"};
  if (unix_socket()) {
    args.push_back("--mysql-socket=" + socket());
  } else {
    args.insert(args.end(), {"--mysql-host=127.0.0.1", "--mysql-port=" + port()});
  }
  for (const char* mode : {"--db-ps-mode=auto", "--db-ps-mode=disable"}) {
    std::vector<std::string> run = args;
    run.insert(run.end(), {mode, "run"});
    CommandResult r = RunCommand(run, absl::Seconds(120));
    ASSERT_EQ(r.exit_code, 0) << mode << "\n" << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("read:                            2000")) << mode << r.out;
    EXPECT_THAT(r.out, HasSubstr("ignored errors:                      0")) << r.out;
    EXPECT_THAT(r.out, HasSubstr("reconnects:                          0")) << r.out;
  }
}

TEST_P(MySqlClientsTest, PythonDrivers) {
  std::string python = ClientsDir() + "/pyvenv/bin/python";
  std::string script = SourceDir() + "/tests/clients/python/client.py";
  std::vector<std::string> where =
      unix_socket() ? std::vector<std::string>{"--socket", socket()}
                    : std::vector<std::string>{"--host", "127.0.0.1", "--port", port()};
  struct Run {
    std::vector<std::string> flags;
  };
  for (const Run& run : std::vector<Run>{{{"--driver", "pymysql"}},
                                         {{"--driver", "connector"}},
                                         {{"--driver", "connector", "--prepared"}}}) {
    std::vector<std::string> args = {python, script, "--user", "app", "--password", "secret"};
    args.insert(args.end(), run.flags.begin(), run.flags.end());
    args.insert(args.end(), where.begin(), where.end());
    CommandResult r = RunCommand(args);
    EXPECT_EQ(r.exit_code, 0) << absl::StrJoin(run.flags, " ") << "\n" << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("ok: version 8.0.36-shoal-"));
    args.push_back("--bad-password");
    args[5] = "wrong";
    CommandResult refused = RunCommand(args);
    EXPECT_EQ(refused.exit_code, 0) << r.err;
    EXPECT_THAT(refused.out, HasSubstr("refused:"));
  }
}

TEST_P(MySqlClientsTest, GoDriver) {
  std::string address = unix_socket() ? absl::StrCat("unix(", socket(), ")")
                                      : absl::StrCat("tcp(127.0.0.1:", port(), ")");
  for (bool interpolate : {false, true}) {
    std::vector<std::string> args = {
        ClientsDir() + "/mysqlclient-go", "-dsn",
        absl::StrCat("app:secret@", address, "/?multiStatements=true")};
    if (interpolate) args.push_back("-interpolate");
    CommandResult r = RunCommand(args);
    EXPECT_EQ(r.exit_code, 0) << "interpolate=" << interpolate << "\n" << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("ok: version 8.0.36-shoal-"));
  }
  CommandResult refused = RunCommand({ClientsDir() + "/mysqlclient-go", "-dsn",
                                      absl::StrCat("app:wrong@", address, "/"), "-bad-password"});
  EXPECT_EQ(refused.exit_code, 0) << refused.err;
}

// Connector/J speaks TCP (a Unix socket needs a third-party socket factory).
using ConnectorJTest = ClusterFixture;

TEST_F(ConnectorJTest, OverTcpWithClientAndServerPreparedStatements) {
  std::string classpath = absl::StrCat(ClientsDir(), "/java/classes:", ClientsDir(), "/java/lib/*");
  for (const char* server_ps : {"false", "true"}) {
    std::string url =
        absl::StrCat("jdbc:mysql://127.0.0.1:", port(), "/?useServerPrepStmts=", server_ps,
                     "&useSSL=false&allowMultiQueries=true");
    CommandResult r = RunCommand(
        {"/usr/bin/java", "-cp", classpath, "dev.shoal.ShoalClient", url, "app", "secret"},
        absl::Seconds(120));
    EXPECT_EQ(r.exit_code, 0) << "useServerPrepStmts=" << server_ps << "\n" << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("ok: version 8.0.36-shoal-"));
    // Java tools list a schema through DatabaseMetaData (information_schema with CASE, IF,
    // UPPER, LOCATE).
    EXPECT_THAT(r.out, HasSubstr("ok: DatabaseMetaData lists tables and columns: id:INT:0 "
                                 "name:VARCHAR:0 price:DECIMAL:1"));
    EXPECT_THAT(r.out, HasSubstr("ok: DatabaseMetaData.getIndexInfo: PRIMARY:id:false "
                                 "k_widget:widget_id:true"));
    EXPECT_THAT(r.out, HasSubstr("ok: a prepared join: bolt=2 nut=1"));
  }
  CommandResult refused = RunCommand(
      {"/usr/bin/java", "-cp", classpath, "dev.shoal.ShoalClient",
       absl::StrCat("jdbc:mysql://127.0.0.1:", port(), "/"), "app", "wrong", "--bad-password"},
      absl::Seconds(120));
  EXPECT_EQ(refused.exit_code, 0) << refused.out << refused.err;
}

INSTANTIATE_TEST_SUITE_P(Endpoints, MySqlClientsTest,
                         ::testing::Values(Endpoint{"UnixSocket", true}, Endpoint{"Tcp", false}),
                         [](const ::testing::TestParamInfo<Endpoint>& p) { return p.param.name; });

}  // namespace
}  // namespace shoal::testing
