// Every column type through the real drivers: each client's `types` mode (tests/clients/)
// creates a table with one column of every type Shoal supports, inserts edge values (NULLs,
// integer limits, full-precision decimals, exact floats, utf8mb4, binary bytes, leap days,
// negative and fractional TIME, microseconds, ENUM and SET members in another case or order,
// JSON documents MySQL normalizes), reads them back and compares value and driver type
// exactly with what MySQL gives that driver (JSON is type 245 in charset 63, ENUM and SET are
// STRING with ENUM_FLAG / SET_FLAG); then typed lookups, aggregates, UPDATE (JSON_SET with a
// bound value), DELETE, a multi-row INSERT, transactions and the errors 1062, 1264, 1265,
// 1406 and 3140.
// PyMySQL, mysql-connector-python (text, and server-side prepared), go-sql-driver/mysql
// (interpolated and prepared) over the Unix socket and TCP; Connector/J (client- and
// server-side prepared) over TCP. A client prints one "ok:" line per check and exits non-zero
// listing its failed checks.
#include <ostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/test_cluster.h"

namespace shoal::testing {
namespace {

using ::testing::HasSubstr;

constexpr absl::Duration kClientTimeout = absl::Seconds(120);

std::string ClientsDir() { return SourceDir() + "/build/clients"; }

struct Endpoint {
  std::string name;
  bool unix_socket;
};

void PrintTo(const Endpoint& e, std::ostream* os) { *os << e.name; }

// One cluster for the suite; every run uses its own table.
class DriversTypesTest : public ::testing::TestWithParam<Endpoint> {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new TestCluster(TestCluster::FromConfig(RouterClusterConfig(), {"--launch"}));
    ASSERT_TRUE(cluster_->WaitForState({2, 3, 4}, "started")) << cluster_->MgmdLog();
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  static std::string socket() { return cluster_->run_dir() + "/r4.sock"; }
  static std::string port() { return std::to_string(cluster_->router_port()); }
  bool unix_socket() const { return GetParam().unix_socket; }
  // A table name unique to a client, mode and endpoint.
  std::string Table(const std::string& client) const {
    return absl::StrCat("types_", client, unix_socket() ? "_unix" : "_tcp");
  }

  // Runs a client and expects exit code 0 and its summary line; a failing client's stderr
  // lists every failed check ("FAIL: <check>: expected ..., got ...").
  static void ExpectAllChecksPass(const std::vector<std::string>& args,
                                  const std::string& summary) {
    CommandResult r = RunCommand(args, kClientTimeout);
    if (r.exit_code != 0) {
      ADD_FAILURE() << absl::StrJoin(args, " ") << "\nexit code " << r.exit_code << "\n" << r.err;
      return;
    }
    EXPECT_THAT(r.out, HasSubstr("\nok: types " + summary + ": ")) << r.out << r.err;
  }

  static TestCluster* cluster_;
};

TestCluster* DriversTypesTest::cluster_ = nullptr;

TEST_P(DriversTypesTest, PythonDrivers) {
  std::vector<std::string> where =
      unix_socket() ? std::vector<std::string>{"--socket", socket()}
                    : std::vector<std::string>{"--host", "127.0.0.1", "--port", port()};
  struct Run {
    std::string table;
    std::vector<std::string> flags;
    std::string summary;
  };
  // mysql-connector-python's prepared cursor runs pure: its C extension binds floats as
  // FLOAT and reports every server error as -1.
  for (const Run& run : std::vector<Run>{
           {"pymysql", {"--driver", "pymysql"}, "pymysql text"},
           {"connector", {"--driver", "connector"}, "connector text c-ext"},
           {"connector_pure", {"--driver", "connector", "--pure"}, "connector text pure"},
           {"connector_ps",
            {"--driver", "connector", "--pure", "--prepared"},
            "connector prepared pure"}}) {
    SCOPED_TRACE(run.summary);
    std::vector<std::string> args = {ClientsDir() + "/pyvenv/bin/python",
                                     SourceDir() + "/tests/clients/python/client.py",
                                     "types",
                                     "--table",
                                     Table(run.table),
                                     "--user",
                                     "app",
                                     "--password",
                                     "secret"};
    args.insert(args.end(), run.flags.begin(), run.flags.end());
    args.insert(args.end(), where.begin(), where.end());
    ExpectAllChecksPass(args, run.summary);
  }
}

TEST_P(DriversTypesTest, GoDriver) {
  std::string address = unix_socket() ? absl::StrCat("unix(", socket(), ")")
                                      : absl::StrCat("tcp(127.0.0.1:", port(), ")");
  for (bool interpolate : {false, true}) {
    SCOPED_TRACE(interpolate ? "interpolateParams=true" : "server-side prepared");
    std::vector<std::string> args = {ClientsDir() + "/mysqlclient-go",
                                     "types",
                                     "-dsn",
                                     absl::StrCat("app:secret@", address, "/"),
                                     "-table",
                                     Table(interpolate ? "go_text" : "go_ps")};
    if (interpolate) args.push_back("-interpolate");
    ExpectAllChecksPass(args, interpolate ? "go text" : "go prepared");
  }
}

// Connector/J speaks TCP (a Unix socket needs a third-party socket factory).
// Connector/J reaches MySQL over TCP only.
class ConnectorJTypesTest : public DriversTypesTest {};

TEST_P(ConnectorJTypesTest, ConnectorJ) {
  std::string classpath = absl::StrCat(ClientsDir(), "/java/classes:", ClientsDir(), "/java/lib/*");
  for (bool server_ps : {false, true}) {
    SCOPED_TRACE(server_ps ? "useServerPrepStmts=true" : "useServerPrepStmts=false");
    std::string url =
        absl::StrCat("jdbc:mysql://127.0.0.1:", port(),
                     "/?useSSL=false&useServerPrepStmts=", server_ps ? "true" : "false");
    ExpectAllChecksPass(
        {"/usr/bin/java", "-Duser.timezone=UTC", "-cp", classpath, "dev.shoal.ShoalClient", "types",
         url, "app", "secret", Table(server_ps ? "java_ps" : "java_text")},
        server_ps ? "java server-prepared" : "java client-prepared");
  }
}

INSTANTIATE_TEST_SUITE_P(Endpoints, DriversTypesTest,
                         ::testing::Values(Endpoint{"UnixSocket", true}, Endpoint{"Tcp", false}),
                         [](const ::testing::TestParamInfo<Endpoint>& p) { return p.param.name; });
INSTANTIATE_TEST_SUITE_P(Endpoints, ConnectorJTypesTest, ::testing::Values(Endpoint{"Tcp", false}),
                         [](const ::testing::TestParamInfo<Endpoint>& p) { return p.param.name; });

}  // namespace
}  // namespace shoal::testing
