#include "common/config/config.h"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::config {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

// A small valid configuration; error cases edit one line of it, so line numbers stay put.
constexpr char kBase[] = R"(cluster:
  replicas: 2
  data_memory: 64M
mgmd:
  data_dir: /tmp/shoal-test/mgmd
datanodes:
  - id: 2
    data_dir: /tmp/shoal-test/dn2
    cpus: 0-1
  - id: 3
    data_dir: /tmp/shoal-test/dn3
routers:
  - id: 4
    port: 3306
)";

std::string Edit(std::string_view from, std::string_view to) {
  std::string yaml(kBase);
  size_t at = yaml.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) yaml.replace(at, from.size(), to);
  return yaml;
}

TEST(ParseSizeTest, AcceptsUnits) {
  EXPECT_EQ(*ParseSize("0"), 0u);
  EXPECT_EQ(*ParseSize("1048576"), 1048576u);
  EXPECT_EQ(*ParseSize("64k"), 64u << 10);
  EXPECT_EQ(*ParseSize("512M"), 512 * kMiB);
  EXPECT_EQ(*ParseSize("512MB"), 512 * kMiB);
  EXPECT_EQ(*ParseSize("4g"), uint64_t{4} << 30);
  EXPECT_EQ(*ParseSize("2T"), uint64_t{2} << 40);
  EXPECT_EQ(*ParseSize("4096B"), 4096u);
  EXPECT_EQ(*ParseSize("16777215T"), uint64_t{16777215} << 40);
  EXPECT_EQ(*ParseSize("18446744073709551615"), ~uint64_t{0});
}

TEST(ParseSizeTest, RejectsBadSizes) {
  for (const char* text : {"", "12Q", "-5M", "M", "5 M", "5MM", "1.5G", "0x10", "+5",
                           "18446744073709551616", "16777216T", "99999999999999999999999K"}) {
    absl::StatusOr<uint64_t> size = ParseSize(text);
    EXPECT_EQ(size.status().code(), absl::StatusCode::kInvalidArgument) << text;
  }
  EXPECT_THAT(std::string(ParseSize("-5M").status().message()), HasSubstr("negative"));
  EXPECT_THAT(std::string(ParseSize("16777216T").status().message()), HasSubstr("64 bits"));
}

TEST(FormatSizeTest, PicksLargestExactUnit) {
  EXPECT_EQ(FormatSize(0), "0");
  EXPECT_EQ(FormatSize(1000), "1000");
  EXPECT_EQ(FormatSize(1536), "1536");
  EXPECT_EQ(FormatSize(1536 << 10), "1536K");
  EXPECT_EQ(FormatSize(512 * kMiB), "512M");
  EXPECT_EQ(FormatSize(uint64_t{1} << 40), "1T");
  EXPECT_EQ(FormatSize(uint64_t{3} << 50), "3072T");
  for (uint64_t bytes :
       {uint64_t{1}, uint64_t{1023}, uint64_t{1} << 20, ~uint64_t{0}, uint64_t{16777215} << 40}) {
    EXPECT_EQ(*ParseSize(FormatSize(bytes)), bytes) << bytes;
  }
}

TEST(CpuListTest, ParsesAndFormats) {
  EXPECT_THAT(*ParseCpuList("0-3,6"), ElementsAre(0, 1, 2, 3, 6));
  EXPECT_THAT(*ParseCpuList("0"), ElementsAre(0));
  EXPECT_THAT(*ParseCpuList(" 6 , 1,1 "), ElementsAre(1, 6));
  EXPECT_THAT(*ParseCpuList("1023"), ElementsAre(1023));
  EXPECT_THAT(*ParseCpuList(""), IsEmpty());
  EXPECT_EQ(FormatCpuList({0, 1, 2, 3, 6}), "0-3,6");
  EXPECT_EQ(FormatCpuList({0, 1}), "0-1");
  EXPECT_EQ(FormatCpuList({1, 3, 5}), "1,3,5");
  EXPECT_EQ(FormatCpuList({}), "");
  for (const char* text : {"3-1", "a", "1024", "0-", "-1", "1-2-3", ",", "0,,1", "0 - 3"}) {
    EXPECT_FALSE(ParseCpuList(text).ok()) << text;
  }
  EXPECT_THAT(std::string(ParseCpuList("0-2000").status().message()),
              HasSubstr("CPU 2000 is out of range"));
}

TEST(LoadConfigTest, LoadsBaseWithDefaults) {
  absl::StatusOr<ClusterConfig> config = LoadConfigString(kBase, "test.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->source, "test.yaml");
  EXPECT_EQ(config->cluster.replicas, 2);
  EXPECT_EQ(config->cluster.data_memory, 64 * kMiB);
  EXPECT_EQ(config->cluster.heartbeat_interval, absl::Milliseconds(500));
  EXPECT_EQ(config->cluster.missed_heartbeats, 4);
  EXPECT_EQ(config->cluster.router_heartbeat_interval, absl::Milliseconds(1500));
  EXPECT_EQ(config->cluster.arbitration_timeout, absl::Milliseconds(7500));
  EXPECT_EQ(config->cluster.start_partial_timeout, absl::Seconds(30));
  EXPECT_FALSE(config->cluster.realtime_scheduler);
  EXPECT_FALSE(config->cluster.lock_pages_in_memory);
  EXPECT_EQ(config->mgmd.id, 1);
  EXPECT_EQ(config->mgmd.port, 1186);
  ASSERT_EQ(config->datanodes.size(), 2u);
  EXPECT_EQ(config->datanodes[0].host, "127.0.0.1");
  EXPECT_THAT(config->datanodes[0].cpus, ElementsAre(0, 1));
  EXPECT_THAT(config->datanodes[1].cpus, IsEmpty());
  ASSERT_EQ(config->routers.size(), 1u);
  EXPECT_EQ(config->routers[0].threads, 0);
  EXPECT_EQ(config->routers[0].socket, "");
  EXPECT_EQ(config->node_groups(), 1);
}

TEST(LoadConfigTest, DataNodeSpinTakesZeroAndMicroseconds) {
  absl::StatusOr<ClusterConfig> config =
      LoadConfigString(Edit("    cpus: 0-1\n", "    spin: 50us\n"), "test.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->datanodes[0].spin, absl::Microseconds(50));
  config = LoadConfigString(Edit("    cpus: 0-1\n", "    spin: 0s\n"), "test.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->datanodes[0].spin, absl::ZeroDuration());
}

// A router's spin reaches the router: through the canonical YAML the mgmd hands out.
TEST(LoadConfigTest, RouterSpinSurvivesTheCanonicalYaml) {
  absl::StatusOr<ClusterConfig> config =
      LoadConfigString(Edit("    port: 3306\n", "    port: 3306\n    spin: 40us\n"), "test.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->routers[0].spin, absl::Microseconds(40));
  absl::StatusOr<ClusterConfig> again = LoadConfigString(ToYaml(*config), "canonical");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->routers[0].spin, absl::Microseconds(40));
  EXPECT_FALSE(
      LoadConfigString(Edit("    port: 3306\n", "    port: 3306\n    spin: 1s\n"), "t").ok());
}

// A router's TLS settings reach the router through the canonical YAML.
TEST(LoadConfigTest, RouterTlsSurvivesTheCanonicalYaml) {
  absl::StatusOr<ClusterConfig> config =
      LoadConfigString(Edit("    port: 3306\n",
                            "    port: 3306\n    ssl_cert: /etc/c.pem\n    ssl_key: /etc/k.pem\n"
                            "    ssl_ca: /etc/ca.pem\n    require_secure_transport: true\n"),
                       "test.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  absl::StatusOr<ClusterConfig> again = LoadConfigString(ToYaml(*config), "canonical");
  ASSERT_TRUE(again.ok()) << again.status();
  const RouterConfig& router = again->routers[0];
  EXPECT_TRUE(router.ssl);
  EXPECT_EQ(router.ssl_cert, "/etc/c.pem");
  EXPECT_EQ(router.ssl_key, "/etc/k.pem");
  EXPECT_EQ(router.ssl_ca, "/etc/ca.pem");
  EXPECT_TRUE(router.require_secure_transport);
  EXPECT_TRUE(router.ssl_dir.empty());
  config = LoadConfigString(Edit("    port: 3306\n", "    port: 3306\n    ssl: false\n"), "t");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_FALSE(LoadConfigString(ToYaml(*config), "canonical")->routers[0].ssl);
}

TEST(LoadConfigTest, DerivesNodeGroups) {
  absl::StatusOr<ClusterConfig> config = LoadConfigString(
      R"(mgmd: {data_dir: /m}
datanodes:
  - {id: 2, data_dir: /d2}
  - {id: 3, data_dir: /d3}
  - {id: 5, data_dir: /d5}
  - {id: 6, data_dir: /d6}
)",
      "groups.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->node_groups(), 2);
  std::vector<int> groups;
  for (const DataNodeConfig& node : config->datanodes) groups.push_back(node.node_group);
  EXPECT_THAT(groups, ElementsAre(0, 0, 1, 1));
}

TEST(LoadConfigTest, AcceptsScalarFormsAndAliases) {
  absl::StatusOr<ClusterConfig> config = LoadConfigString(
      R"(cluster: {replicas: 1, heartbeat_interval: 1.5s, epoch_interval: 250ms}
mgmd: {data_dir: /m, host: &h 10.1.2.3}
datanodes:
  - {id: 2, data_dir: /d2, cpus: 0, host: *h}
  - {id: 3, data_dir: "/d3", cpus: "0-3,6", host: "::1"}
)",
      "forms.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->cluster.heartbeat_interval, absl::Milliseconds(1500));
  EXPECT_EQ(config->datanodes[0].host, "10.1.2.3");
  EXPECT_THAT(config->datanodes[0].cpus, ElementsAre(0));
  EXPECT_THAT(config->datanodes[1].cpus, ElementsAre(0, 1, 2, 3, 6));
  EXPECT_EQ(config->routers.size(), 0u);
}

TEST(LoadConfigTest, RoundTripsThroughCanonicalYaml) {
  absl::StatusOr<ClusterConfig> config = LoadConfigString(
      Edit("  data_memory: 64M\n",
           "  data_memory: 1536K\n  heartbeat_interval: 1500ms\n  epoch_interval: 2000ms\n"
           "  router_heartbeat_interval: 3s\n  arbitration_timeout: 10s\n"
           "  realtime_scheduler: yes\n  start_partial_timeout: 90s\n"
           "  lock_pages_in_memory: true\n"
           "  checkpoint_after_redo: 1G\n  checkpoint_write_rate: 5M\n"),
      "test.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  std::string yaml = ToYaml(*config);
  EXPECT_THAT(yaml, HasSubstr("router_heartbeat_interval: 3s\n"));
  EXPECT_THAT(yaml, HasSubstr("arbitration_timeout: 10s\n"));
  EXPECT_THAT(yaml, HasSubstr("start_partial_timeout: 90s\n"));
  EXPECT_THAT(yaml, HasSubstr("realtime_scheduler: true\n"));
  EXPECT_THAT(yaml, HasSubstr("lock_pages_in_memory: true\n"));
  EXPECT_THAT(yaml, HasSubstr("data_memory: 1536K\n"));
  EXPECT_THAT(yaml, HasSubstr("heartbeat_interval: 1500ms\n"));
  EXPECT_THAT(yaml, HasSubstr("epoch_interval: 2s\n"));
  EXPECT_THAT(yaml, HasSubstr("checkpoint_after_redo: 1G\n"));
  EXPECT_THAT(yaml, HasSubstr("checkpoint_write_rate: 5M\n"));
  EXPECT_THAT(yaml, HasSubstr("cpus: \"0-1\"\n"));
  EXPECT_THAT(yaml, ::testing::Not(HasSubstr("test.yaml")));
  absl::StatusOr<ClusterConfig> again = LoadConfigString(yaml, "canonical");
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << yaml;
  EXPECT_EQ(ToYaml(*again), yaml);
  EXPECT_EQ(again->cluster.data_memory, 1536u << 10);
  EXPECT_EQ(again->cluster.epoch_interval, absl::Seconds(2));
  EXPECT_TRUE(again->cluster.realtime_scheduler);
  EXPECT_TRUE(again->cluster.lock_pages_in_memory);
  EXPECT_EQ(again->cluster.router_heartbeat_interval, absl::Seconds(3));
  EXPECT_EQ(again->cluster.start_partial_timeout, absl::Seconds(90));
  EXPECT_EQ(again->cluster.checkpoint_after_redo, 1024 * kMiB);
  EXPECT_EQ(again->cluster.checkpoint_write_rate, 5 * kMiB);
  EXPECT_THAT(again->datanodes[0].cpus, ElementsAre(0, 1));
}

TEST(LoadConfigTest, RoundTripsAwkwardStrings) {
  ClusterConfig config = EmbeddedDefault({.run_dir = "/tmp/sh"});
  config.mgmd.host = "::1";
  config.mgmd.data_dir = "/var/lib/shoal/dn 3 ";
  config.datanodes[0].data_dir = "/a: b #c";
  config.datanodes[1].data_dir = "/données/'\"/[x]";
  config.datanodes[1].backup_dir = "/backups: #1";
  config.routers[0].socket = "/null";
  config.routers[1].socket = "/&a *b !c";
  std::string yaml = ToYaml(config);
  absl::StatusOr<ClusterConfig> loaded = LoadConfigString(yaml, "awkward");
  ASSERT_TRUE(loaded.ok()) << loaded.status() << "\n" << yaml;
  EXPECT_EQ(ToYaml(*loaded), yaml);
  EXPECT_EQ(loaded->mgmd.data_dir, config.mgmd.data_dir);
  EXPECT_EQ(loaded->datanodes[1].data_dir, config.datanodes[1].data_dir);
  EXPECT_EQ(loaded->datanodes[1].backup_dir, config.datanodes[1].backup_dir);
  EXPECT_TRUE(loaded->datanodes[0].backup_dir.empty());
  EXPECT_EQ(loaded->routers[1].socket, config.routers[1].socket);
}

TEST(EmbeddedDefaultTest, MatchesTheDocumentedLayout) {
  ClusterConfig config = EmbeddedDefault({.run_dir = "/tmp/sh", .metrics_base_port = 9300});
  EXPECT_EQ(config.source, "<embedded default>");
  EXPECT_EQ(config.mgmd.data_dir, "/tmp/sh/mgmd-1");
  EXPECT_EQ(config.mgmd.metrics_port, 9301);
  ASSERT_EQ(config.datanodes.size(), 2u);
  EXPECT_EQ(config.datanodes[1].id, 3);
  EXPECT_EQ(config.datanodes[1].data_dir, "/tmp/sh/datanode-3");
  EXPECT_EQ(config.datanodes[1].node_group, 0);
  ASSERT_EQ(config.routers.size(), 2u);
  EXPECT_EQ(config.routers[0].socket, "/tmp/sh/router-4.sock");
  EXPECT_EQ(config.routers[0].port, 3306);
  EXPECT_EQ(config.routers[1].port, 3307);
  EXPECT_EQ(config.routers[1].metrics_port, 9305);
  EXPECT_EQ(config.TypeOf(1).value(), NodeType::kMgmd);
  EXPECT_EQ(config.TypeOf(3).value(), NodeType::kDataNode);
  EXPECT_EQ(config.TypeOf(5).value(), NodeType::kRouter);
  EXPECT_EQ(config.TypeOf(6).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(config.FindDataNode(2)->data_dir, "/tmp/sh/datanode-2");
  EXPECT_EQ(config.FindDataNode(4), nullptr);
  EXPECT_EQ(config.FindRouter(5)->id, 5);
  EXPECT_EQ(NodeTypeName(NodeType::kDataNode), "datanode");
}

TEST(EmbeddedDefaultTest, Validates) {
  for (const EmbeddedDefaultOptions& options :
       {EmbeddedDefaultOptions{.run_dir = "/tmp/shoal"},
        EmbeddedDefaultOptions{
            .run_dir = "/r", .mgmd_port = 0, .router_base_port = 0, .metrics_base_port = 9300}}) {
    ClusterConfig config = EmbeddedDefault(options);
    std::string yaml = ToYaml(config);
    absl::StatusOr<ClusterConfig> loaded = LoadConfigString(yaml, "default");
    ASSERT_TRUE(loaded.ok()) << loaded.status() << "\n" << yaml;
    EXPECT_EQ(ToYaml(*loaded), yaml);
    EXPECT_EQ(loaded->node_groups(), 1);
  }
}

// ctest sets SHOAL_SOURCE_DIR; run by hand, the test finds the tree from its own path.
std::string SourceDir() {
  if (const char* dir = std::getenv("SHOAL_SOURCE_DIR"); dir != nullptr) return dir;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().string();
}

// cluster.tls: "auto" turns TLS on between processes on several hosts; every loopback address
// is this one host.
TEST(LoadConfigTest, LinkTlsFollowsTheHosts) {
  absl::StatusOr<ClusterConfig> box = LoadConfigString(kBase, "box.yaml");
  ASSERT_TRUE(box.ok()) << box.status();
  EXPECT_EQ(box->cluster.tls, "auto");
  EXPECT_FALSE(box->SpansHosts());
  EXPECT_FALSE(box->LinksUseTls());
  EXPECT_THAT(ToYaml(*box), HasSubstr("tls: auto\n"));
  absl::StatusOr<ClusterConfig> loopbacks = LoadConfigString(
      Edit("    data_dir: /tmp/shoal-test/dn3", "    host: 127.0.0.2\n    data_dir: /x"),
      "lo.yaml");
  ASSERT_TRUE(loopbacks.ok()) << loopbacks.status();
  EXPECT_THAT(loopbacks->Hosts(), ElementsAre("127.0.0.1", "127.0.0.2"));
  EXPECT_FALSE(loopbacks->LinksUseTls());
  absl::StatusOr<ClusterConfig> hosts = LoadConfigString(
      Edit("    data_dir: /tmp/shoal-test/dn3", "    host: 10.1.2.3\n    data_dir: /x"),
      "two.yaml");
  ASSERT_TRUE(hosts.ok()) << hosts.status();
  EXPECT_TRUE(hosts->SpansHosts());
  EXPECT_TRUE(hosts->LinksUseTls());
  for (auto [value, on] : {std::pair{"true", true}, {"false", false}}) {
    absl::StatusOr<ClusterConfig> set =
        LoadConfigString(Edit("64M", absl::StrCat("64M\n  tls: ", value)), "set.yaml");
    ASSERT_TRUE(set.ok()) << set.status();
    EXPECT_EQ(set->LinksUseTls(), on) << value;
    absl::StatusOr<ClusterConfig> again = LoadConfigString(ToYaml(*set), "canonical");
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(again->cluster.tls, value);
  }
}

TEST(ExampleFilesTest, ClusterInABoxIsTheEmbeddedDefault) {
  std::string path = SourceDir() + "/conf/cluster-in-a-box.yaml";
  absl::StatusOr<ClusterConfig> config = LoadConfigFile(path);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->source, path);
  EXPECT_EQ(ToYaml(*config), ToYaml(EmbeddedDefault({.run_dir = "/tmp/shoal"})));
}

TEST(ExampleFilesTest, TwoHostsLoads) {
  absl::StatusOr<ClusterConfig> config = LoadConfigFile(SourceDir() + "/conf/two-hosts.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->mgmd.host, "10.0.0.10");
  EXPECT_TRUE(config->cluster.lock_pages_in_memory);
  ASSERT_GE(config->datanodes.size(), 2u);
  EXPECT_EQ(config->datanodes[0].host, "10.0.0.11");
  EXPECT_EQ(config->datanodes[1].host, "10.0.0.12");
  ASSERT_EQ(config->routers.size(), 2u);
  EXPECT_NE(config->routers[0].host, config->routers[1].host);
  EXPECT_TRUE(config->LinksUseTls());  // three hosts: the links are encrypted
}

TEST(LoadConfigFileTest, ReportsMissingFile) {
  absl::StatusOr<ClusterConfig> config = LoadConfigFile("/nonexistent/shoal.yaml");
  EXPECT_EQ(config.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("/nonexistent/shoal.yaml"));
}

struct ErrorCase {
  std::string name;
  std::string yaml;
  int line;
  std::string path;
  std::string message;
};

class LoadErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(LoadErrorTest, PointsAtTheField) {
  const ErrorCase& c = GetParam();
  absl::StatusOr<ClusterConfig> config = LoadConfigString(c.yaml, "test.yaml");
  ASSERT_FALSE(config.ok()) << c.yaml;
  EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
  std::string message(config.status().message());
  EXPECT_THAT(message, StartsWith(absl::StrCat("test.yaml:", c.line, ": ", c.path, ": ")));
  EXPECT_THAT(message, HasSubstr(c.message));
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

std::vector<ErrorCase> ErrorCases() {
  const std::string kTwoRouters = absl::StrCat(kBase, "  - id: 5\n    port: 3306\n");
  return {
      // Structure and types.
      {"UnknownSection", absl::StrCat(kBase, "bogus: 1\n"), 15, "bogus",
       "unknown section 'bogus'; expected one of: cluster, mgmd, datanodes, routers"},
      {"UnknownClusterKey", Edit("replicas: 2", "replica: 2"), 2, "cluster.replica",
       "unknown key 'replica'; expected one of: replicas, data_memory, heartbeat_interval, "
       "router_heartbeat_interval, missed_heartbeats, arbitration_timeout, realtime_scheduler, "
       "epoch_interval, start_partial_timeout, lock_wait_timeout, lock_pages_in_memory, "
       "checkpoint_after_redo, checkpoint_write_rate, tls"},
      {"UnknownNodeKey", Edit("    data_dir: /tmp/shoal-test/dn3", "    dta_dir: /x"), 11,
       "datanodes[1].dta_dir", "unknown key 'dta_dir'; expected one of: id, host, data_dir"},
      {"DuplicateKey", Edit("  data_memory: 64M", "  replicas: 4"), 3, "cluster.replicas",
       "duplicate key (first at line 2)"},
      {"StringForInt", Edit("replicas: 2", "replicas: two"), 2, "cluster.replicas",
       "expected an integer, got 'two'"},
      {"FractionalId", Edit("id: 3", "id: 2.5"), 10, "datanodes[1].id",
       "expected an integer, got '2.5'"},
      {"MapForList", Edit("datanodes:", "datanodes: {id: 2}\nx:"), 6, "datanodes",
       "expected a list, got a map"},
      {"ScalarForNode", "datanodes:\n  - just a string\n", 2, "datanodes[0]",
       "expected a map, got 'just a string'"},
      {"ListForValue", Edit("port: 3306", "port: [3306]"), 14, "routers[0].port",
       "expected a single value, got a list"},
      {"MissingValue", Edit("replicas: 2", "replicas:"), 2, "cluster.replicas", "missing value"},
      {"NotAMap", "- a\n- b\n", 1, "document", "expected a map of sections, got a list"},
      {"NonStringKey", "? [a]\n: b\n", 1, "document", "expected a section name, got a list"},
      {"ControlCharInString", Edit("/tmp/shoal-test/mgmd", "\"/tmp/\\x01\""), 5, "mgmd.data_dir",
       "character U+0001 is not allowed"},
      {"LineSeparatorInString", Edit("/tmp/shoal-test/mgmd", "\"/tmp/\\u2028\""), 5,
       "mgmd.data_dir", "character U+2028 is not allowed"},
      // Ids.
      {"IdZero", Edit("id: 3", "id: 0"), 10, "datanodes[1].id",
       "must be between 1 and 255, got '0'"},
      {"IdTooLarge", Edit("id: 3", "id: 256"), 10, "datanodes[1].id", "between 1 and 255"},
      {"IdNegative", Edit("id: 3", "id: -3"), 10, "datanodes[1].id", "got '-3'"},
      {"IdHuge", Edit("id: 3", "id: 99999999999999999999999"), 10, "datanodes[1].id",
       "between 1 and 255"},
      {"MissingId", Edit("  - id: 3\n", "  - host: 127.0.0.1\n"), 10, "datanodes[1]", "missing id"},
      {"DuplicateId", Edit("id: 3", "id: 2"), 10, "datanodes[1].id",
       "duplicate node id 2 (first used at line 7)"},
      {"DuplicateIdAcrossTypes", Edit("id: 4", "id: 3"), 13, "routers[0].id",
       "duplicate node id 3 (first used at line 10)"},
      {"DuplicateDefaultMgmdId", Edit("id: 2", "id: 1"), 7, "datanodes[0].id",
       "duplicate node id 1 (first used at line 4)"},
      // Cluster values.
      {"BadSizeUnit", Edit("64M", "12Q"), 3, "cluster.data_memory", "invalid size '12Q'"},
      {"NegativeSize", Edit("64M", "-5M"), 3, "cluster.data_memory", "must not be negative"},
      {"SizeOverflow", Edit("64M", "99999999999T"), 3, "cluster.data_memory",
       "does not fit in 64 bits"},
      {"ZeroSize", Edit("64M", "0"), 3, "cluster.data_memory", "must be greater than 0"},
      {"TinyCheckpointAfterRedo", Edit("64M", "64M\n  checkpoint_after_redo: 512K"), 4,
       "cluster.checkpoint_after_redo", "must be at least 1M, got '512K'"},
      {"ZeroCheckpointWriteRate", Edit("64M", "64M\n  checkpoint_write_rate: 0"), 4,
       "cluster.checkpoint_write_rate", "must be greater than 0"},
      {"BadDuration", Edit("64M", "64M\n  heartbeat_interval: fast"), 4,
       "cluster.heartbeat_interval", "invalid duration 'fast'"},
      {"ZeroDuration", Edit("64M", "64M\n  heartbeat_interval: 0ms"), 4,
       "cluster.heartbeat_interval", "must be positive"},
      {"NegativeDuration", Edit("64M", "64M\n  epoch_interval: -1s"), 4, "cluster.epoch_interval",
       "must be positive"},
      {"SubMillisecondDuration", Edit("64M", "64M\n  epoch_interval: 1500us"), 4,
       "cluster.epoch_interval", "whole number of milliseconds"},
      {"InfiniteDuration", Edit("64M", "64M\n  epoch_interval: inf"), 4, "cluster.epoch_interval",
       "from 1ms to 3600s"},
      {"ZeroStartPartialTimeout", Edit("64M", "64M\n  start_partial_timeout: 0s"), 4,
       "cluster.start_partial_timeout", "must be positive"},
      {"ReplicasTooMany", Edit("replicas: 2", "replicas: 5"), 2, "cluster.replicas",
       "between 1 and 4"},
      {"ReplicasZero", Edit("replicas: 2", "replicas: 0"), 2, "cluster.replicas",
       "between 1 and 4"},
      {"MissedHeartbeatsZero", Edit("64M", "64M\n  missed_heartbeats: 0"), 4,
       "cluster.missed_heartbeats", "between 1 and 1000"},
      {"NotABool", Edit("64M", "64M\n  realtime_scheduler: maybe"), 4, "cluster.realtime_scheduler",
       "expected true or false, got 'maybe'"},
      {"LockPagesNotABool", Edit("64M", "64M\n  lock_pages_in_memory: 1G"), 4,
       "cluster.lock_pages_in_memory", "expected true or false, got '1G'"},
      {"LinkTlsNotAChoice", Edit("64M", "64M\n  tls: yes"), 4, "cluster.tls",
       "expected auto, true or false, got 'yes'"},
      // Data nodes.
      {"EmptyDocument", "", 1, "datanodes", "no data nodes"},
      {"EmptyDataNodes", "mgmd: {data_dir: /m}\ndatanodes: []\n", 2, "datanodes", "no data nodes"},
      {"NotMultipleOfReplicas",
       Edit("routers:", "  - id: 5\n    data_dir: /tmp/shoal-test/dn5\nrouters:"), 6, "datanodes",
       "3 data nodes is not a multiple of replicas: 2"},
      {"MgmdMissingDataDir", Edit("  data_dir: /tmp/shoal-test/mgmd", "  port: 1186"), 4, "mgmd",
       "missing data_dir"},
      {"NodeMissingDataDir", Edit("    data_dir: /tmp/shoal-test/dn3\n", ""), 10, "datanodes[1]",
       "missing data_dir"},
      {"RelativeDataDir", Edit("/tmp/shoal-test/dn3", "data/dn3"), 11, "datanodes[1].data_dir",
       "must be an absolute path, got 'data/dn3'"},
      {"SharedDataDir", Edit("/tmp/shoal-test/dn3", "/tmp/shoal-test/dn2"), 11,
       "datanodes[1].data_dir", "is already used by datanodes[0].data_dir (line 8)"},
      {"UnknownHost", Edit("  - id: 3\n", "  - id: 3\n    host: no-such-host.invalid\n"), 11,
       "datanodes[1].host", "unknown host 'no-such-host.invalid'"},
      {"OctalLookingHost", Edit("  - id: 3\n", "  - id: 3\n    host: 10.0.0.011\n"), 11,
       "datanodes[1].host", "invalid IPv4 address '10.0.0.011'"},
      {"HostWithSpace", Edit("  - id: 3\n", "  - id: 3\n    host: my host\n"), 11,
       "datanodes[1].host", "not an IP address or host name: 'my host'"},
      {"BadCpus", Edit("cpus: 0-1", "cpus: 0-3,x"), 9, "datanodes[0].cpus",
       "'x' is not a CPU number"},
      // Listeners.
      {"PortTooLarge", Edit("port: 3306", "port: 70000"), 14, "routers[0].port",
       "between 0 and 65535"},
      {"NegativeMetricsPort", Edit("  data_dir: /tmp/shoal-test/mgmd", "  metrics_port: -1"), 5,
       "mgmd.metrics_port", "between 0 and 65535, got '-1'"},
      {"RouterWithoutListener", Edit("port: 3306", "threads: 4"), 13, "routers[0]",
       "needs a socket or a non-zero port"},
      {"RelativeSocket", Edit("port: 3306", "socket: router.sock"), 14, "routers[0].socket",
       "must be an absolute path"},
      {"SocketTooLong", Edit("port: 3306", "socket: /" + std::string(107, 's')), 14,
       "routers[0].socket", "is 108 bytes; a Unix socket path must be shorter than 108"},
      {"ThreadsNegative", Edit("port: 3306", "port: 3306\n    threads: -1"), 15,
       "routers[0].threads", "between 0 and 256"},
      {"ThreadsTooMany", Edit("port: 3306", "port: 3306\n    threads: 257"), 15,
       "routers[0].threads", "between 0 and 256"},
      {"SameRouterPort", kTwoRouters, 16, "routers[1].port",
       "port 3306 on host 127.0.0.1 is already used by routers[0].port (line 14)"},
      {"SameMetricsPort",
       Edit("cpus: 0-1", "cpus: 0-1\n    metrics_port: 9302\n    host: 127.0.0.1")
           .append("    metrics_port: 9302\n"),
       17, "routers[0].metrics_port", "already used by datanodes[0].metrics_port (line 10)"},
      {"RouterPortOnMgmdPort", Edit("port: 3306", "port: 1186"), 14, "routers[0].port",
       "already used by mgmd.port (line 4)"},
      {"SameSocket", absl::StrReplaceAll(kTwoRouters, {{"port: 3306", "socket: /tmp/r.sock"}}), 16,
       "routers[1].socket", "already used by routers[0].socket (line 14)"},
      {"RouterOnDataNodeSocket",
       absl::StrReplaceAll(kBase, {{"    cpus: 0-1\n", "    socket: /tmp/d.sock\n"},
                                   {"port: 3306", "socket: /tmp/d.sock"}}),
       14, "routers[0].socket", "already used by datanodes[0].socket (line 9)"},
      {"DataNodePortOnRouterPort", Edit("    cpus: 0-1\n", "    port: 3306\n"), 14,
       "routers[0].port", "already used by datanodes[0].port (line 9)"},
      {"CertWithoutKey", Edit("port: 3306", "port: 3306\n    ssl_cert: /etc/c.pem"), 15,
       "routers[0].ssl_cert", "ssl_cert and ssl_key go together"},
      {"CaWithoutCert", Edit("port: 3306", "port: 3306\n    ssl_ca: /etc/ca.pem"), 15,
       "routers[0].ssl_ca", "ssl_ca needs ssl_cert and ssl_key"},
      {"SecureTransportWithoutTls",
       Edit("port: 3306", "port: 3306\n    ssl: false\n    require_secure_transport: true"), 16,
       "routers[0].require_secure_transport", "cannot be required to use TLS"},
      {"SpinTooLong", Edit("    cpus: 0-1\n", "    spin: 1s\n"), 9, "datanodes[0].spin",
       "from 0s to 10ms"},
      {"SpinFraction", Edit("    cpus: 0-1\n", "    spin: 1.5us\n"), 9, "datanodes[0].spin",
       "whole number of microseconds"},
      // Text the parser rejects.
      {"SyntaxError", Edit("replicas: 2", "replicas: [2"), 3, "yaml", ""},
      {"TabIndent", Edit("  replicas: 2", "\treplicas: 2"), 2, "yaml", ""},
      {"TwoDocuments", absl::StrCat(kBase, "---\ncluster: {}\n"), 15, "document",
       "expected one YAML document, found more"},
      {"InvalidUtf8", Edit("/tmp/shoal-test/dn2", "/tmp/\xff"), 8, "document", "invalid UTF-8"},
      {"NulByte", std::string("cluster:\n  replicas: 2\0\n", 24), 2, "document",
       "character U+0000 is not allowed"},
      {"TooLarge", std::string((1 << 20) + 1, '#'), 1, "document", "larger than 1 MiB"},
      {"DeepFlowNesting", std::string(100000, '['), 1, "document", "nested too deeply"},
      {"LeadingComma", "\n,a b:", 2, "yaml", "unexpected token"},
      {"SelfReferentialAlias", "datanodes: &a [*a]\n", 1, "datanodes[0]",
       "expected a map, got a list"},
      // Users.
      {"UserWithoutName", absl::StrCat(kBase, "users:\n  - native_hash: x\n"), 16, "users[0].name",
       "a user name has 1 to 32 characters"},
      {"DuplicateUser", absl::StrCat(kBase, "users:\n  - name: a\n  - name: a\n"), 17,
       "users[1].name", "duplicate user 'a' (first at line 16)"},
      {"BadNativeHash",
       absl::StrCat(kBase, "users:\n  - name: a\n    native_hash: secret\n    sha256_hash: ",
                    std::string(64, 'a'), "\n"),
       17, "users[0].native_hash", "expected '*' and 40 upper-case hex digits"},
      {"BadSha256Hash",
       absl::StrCat(kBase, "users:\n  - name: a\n    native_hash: \"*", std::string(40, 'A'),
                    "\"\n    sha256_hash: xyz\n"),
       18, "users[0].sha256_hash", "expected 64 lower-case hex digits"},
      {"OnlyOneHash",
       absl::StrCat(kBase, "users:\n  - name: a\n    native_hash: \"*", std::string(40, 'A'),
                    "\"\n"),
       16, "users[0]", "give both native_hash and sha256_hash"},
      {"UnknownUserKey", absl::StrCat(kBase, "users:\n  - name: a\n    password: x\n"), 17,
       "users[0].password", "unknown key 'password'"},
      {"MaxConnectionsZero", Edit("port: 3306", "port: 3306\n    max_connections: 0"), 15,
       "routers[0].max_connections", "must be between 1 and 100000"},
  };
}

TEST(LoadConfigTest, UsersRoundTripAndTheDefaultHasRootWithAnEmptyPassword) {
  std::string yaml =
      absl::StrCat(kBase, "users:\n  - name: root\n  - name: app\n",
                   "    native_hash: \"*14E65567ABDB5135D0CFD9A70B3032C179A49EE7\"\n",
                   "    sha256_hash: ", std::string(64, 'e'), "\n");
  absl::StatusOr<ClusterConfig> config = LoadConfigString(yaml, "test.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  ASSERT_EQ(config->users.size(), 2u);
  EXPECT_EQ(config->users[0].name, "root");
  EXPECT_TRUE(config->users[0].native_hash.empty());
  EXPECT_EQ(config->users[1].native_hash, "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7");
  absl::StatusOr<ClusterConfig> again = LoadConfigString(ToYaml(*config), "again.yaml");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(ToYaml(*again), ToYaml(*config));

  ClusterConfig embedded = EmbeddedDefault({.run_dir = "/tmp/x"});
  ASSERT_EQ(embedded.users.size(), 1u);
  EXPECT_EQ(embedded.users[0].name, "root");
  EXPECT_TRUE(embedded.users[0].sha256_hash.empty());
}

INSTANTIATE_TEST_SUITE_P(Cases, LoadErrorTest, ::testing::ValuesIn(ErrorCases()),
                         [](const ::testing::TestParamInfo<ErrorCase>& param_info) {
                           return param_info.param.name;
                         });

TEST(LoadConfigTest, DeepBlockNestingFailsCleanly) {
  std::string yaml = "datanodes:\n";
  for (int i = 0; i < 20000; ++i) yaml += "- ";
  yaml += "x\n";
  absl::StatusOr<ClusterConfig> config = LoadConfigString(yaml, "deep.yaml");
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()), StartsWith("deep.yaml:"));
}

TEST(LoadConfigTest, RoutersOnDifferentHostsMayShareAPort) {
  std::string yaml = absl::StrCat(kBase, "  - id: 5\n    port: 3306\n    host: 127.0.0.2\n");
  absl::StatusOr<ClusterConfig> config = LoadConfigString(yaml, "test.yaml");
  EXPECT_TRUE(config.ok()) << config.status();
}

}  // namespace
}  // namespace shoal::config
