// A bad configuration stops shoal-mgmd with one clear line naming the file, line and field,
// and a non-zero exit, before anything starts.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testutil/process.h"

namespace shoal::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr char kGood[] = R"(cluster:
  replicas: 2
  data_memory: 64M
mgmd:
  data_dir: /tmp/shoal-cfg/mgmd
datanodes:
  - id: 2
    host: 127.0.0.1
    data_dir: /tmp/shoal-cfg/dn2
  - id: 3
    host: 127.0.0.1
    data_dir: /tmp/shoal-cfg/dn3
routers:
  - id: 4
    host: 127.0.0.1
    port: 3306
)";

struct Case {
  std::string name;
  std::string from;  // replaced in kGood
  std::string to;
  std::string where;  // ":<line>: <field>: "
  std::string what;
};

class ConfigErrorsTest : public ::testing::TestWithParam<Case> {};

TEST_P(ConfigErrorsTest, OneClearLineAndANonZeroExit) {
  const Case& c = GetParam();
  std::string dir = MakeTempDir("shoal-cfg");
  std::string path = dir + "/cluster.yaml";
  std::string yaml = absl::StrReplaceAll(kGood, {{c.from, c.to}});
  ASSERT_NE(yaml, kGood) << "the case changes nothing";
  WriteFile(path, yaml);
  CommandResult r = RunCommand({BinDir() + "/shoal-mgmd", "--config-file", path, "--check-config"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, StartsWith(absl::StrCat("shoal-mgmd: ", path, c.where)));
  EXPECT_THAT(r.err, HasSubstr(c.what));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out, "");
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ConfigErrorsTest,
    ::testing::Values(Case{"UnknownKey", "  replicas: 2", "  replicas: 2\n  replica_count: 2",
                           ":3: cluster.replica_count: ", "unknown key 'replica_count'"},
                      Case{"DuplicateId", "  - id: 3", "  - id: 2",
                           ":10: datanodes[1].id: ", "duplicate node id 2 (first used at line 7)"},
                      Case{"BadSize", "64M", "64Q",
                           ":3: cluster.data_memory: ", "invalid size '64Q'"},
                      Case{"NotAMultipleOfReplicas", "  replicas: 2", "  replicas: 3",
                           ":6: datanodes: ", "not a multiple of replicas"},
                      Case{"UnknownHost", "    host: 127.0.0.1\n    data_dir: /tmp/shoal-cfg/dn3",
                           "    host: no-such-host.invalid\n    data_dir: /tmp/shoal-cfg/dn3",
                           ":11: datanodes[1].host: ", "unknown host 'no-such-host.invalid'"},
                      Case{"MissingDataDir", "    data_dir: /tmp/shoal-cfg/dn2\n", "",
                           ":7: datanodes[0]: ", "missing data_dir"}),
    [](const ::testing::TestParamInfo<Case>& p) { return p.param.name; });

TEST(ConfigErrorsTest, AMissingFileIsOneClearLine) {
  CommandResult r = RunCommand(
      {BinDir() + "/shoal-mgmd", "--config-file", "/nonexistent/shoal.yaml", "--check-config"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, StartsWith("shoal-mgmd: /nonexistent/shoal.yaml"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(ConfigErrorsTest, TheGoodConfigurationChecksOut) {
  std::string dir = MakeTempDir("shoal-cfg");
  WriteFile(dir + "/cluster.yaml", kGood);
  CommandResult r = RunCommand(
      {BinDir() + "/shoal-mgmd", "--config-file", dir + "/cluster.yaml", "--check-config"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("valid"));
  EXPECT_THAT(r.out, HasSubstr("data_memory: 64M"));
  std::filesystem::remove_all(dir);
}

// Password hashes are secrets: a file that holds them and that every user of the host may read
// gets a warning naming it; one only its owner reads gets none.
TEST(ConfigErrorsTest, AReadableFileWithHashesIsWarnedAbout) {
  std::string dir = MakeTempDir("shoal-cfg");
  std::string path = dir + "/cluster.yaml";
  WriteFile(path, absl::StrCat(kGood, R"(users:
  - name: app
    native_hash: "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7"
    sha256_hash: "3881219d087dd9c634373fd33dfa33a2cb6bfc6c520b64b8bb60ef2ceb534ae7"
)"));
  std::filesystem::permissions(path, std::filesystem::perms::others_read,
                               std::filesystem::perm_options::add);
  CommandResult r = RunCommand({BinDir() + "/shoal-mgmd", "--config-file", path, "--check-config"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(path + " holds password hashes and every user of this host may"));
  std::filesystem::permissions(path, std::filesystem::perms::others_read,
                               std::filesystem::perm_options::remove);
  r = RunCommand({BinDir() + "/shoal-mgmd", "--config-file", path, "--check-config"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("password hashes")));
  std::filesystem::remove_all(dir);
}

// `--port 0` overrides a configuration file's mgmd port too: a free port, not the configured
// one (here held by someone else).
TEST(ConfigErrorsTest, PortZeroPicksAFreePortOverTheConfiguredOne) {
  int taken = FreePort();
  int holder = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(holder, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(taken));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(holder, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(listen(holder, 1), 0);
  std::string dir = MakeTempDir("shoal-cfg");
  WriteFile(dir + "/cluster.yaml",
            absl::StrReplaceAll(
                kGood, {{"  data_dir: /tmp/shoal-cfg/mgmd",
                         absl::StrCat("  port: ", taken, "\n  data_dir: ", dir, "/mgmd")}}));
  std::string log = dir + "/mgmd.out";
  {
    Subprocess mgmd = Subprocess::Start(
        {BinDir() + "/shoal-mgmd", "--config-file", dir + "/cluster.yaml", "--port", "0"}, log);
    EXPECT_TRUE(WaitUntil([&] { return absl::StrContains(ReadFile(log), "listening on port"); },
                          absl::Seconds(10)))
        << ReadFile(log);
    EXPECT_FALSE(mgmd.Wait(absl::ZeroDuration()).has_value()) << ReadFile(log);
    EXPECT_THAT(ReadFile(log), ::testing::Not(HasSubstr(absl::StrCat("port ", taken, ")"))));
  }
  close(holder);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace shoal::testing
