// shoal-mgmd: the management daemon. Loads the cluster configuration (a YAML file, or the
// embedded cluster-in-a-box default), serves it to nodes, tracks membership and heartbeats,
// keeps the cluster log, answers shoal-mgm, and with --launch starts and supervises the nodes
// configured on this host.
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "common/config/config.h"
#include "common/event_loop.h"
#include "common/liveness/realtime.h"
#include "common/logging.h"
#include "common/metrics_server.h"
#include "common/process.h"
#include "mgmd/link_tls.h"
#include "mgmd/mgmd_server.h"

ABSL_FLAG(std::string, config_file, "",
          "Cluster configuration (YAML). Empty: the embedded cluster in a box (1 mgmd, 2 data "
          "nodes, 2 routers on 127.0.0.1), which implies --launch.");
ABSL_FLAG(std::string, run_dir, "",
          "With the embedded configuration: where data dirs, logs and router sockets go "
          "(default: $TMPDIR/shoal, else /tmp/shoal).");
ABSL_FLAG(int, port, -1,
          "Port to listen on; overrides the configuration (default 1186; 0 picks a free port).");
ABSL_FLAG(std::string, bind_address, "", "Address to listen on; default: the configured host.");
ABSL_FLAG(int, base_port, 3306,
          "With the embedded configuration: TCP port of the first router; the second is +1.");
ABSL_FLAG(int, metrics_base_port, 9300,
          "With the embedded configuration: node N serves /metrics on this + N; 0 turns "
          "/metrics off.");
ABSL_FLAG(bool, launch, false,
          "Start and supervise the data nodes and routers configured on this host.");
ABSL_FLAG(bool, check_config, false,
          "Validate the configuration, print it as canonical YAML and exit.");
ABSL_FLAG(std::string, tls_dir, "",
          "This host's certificates for TLS between the cluster's processes (used when the "
          "configuration's cluster.tls says so). Default: /etc/shoal/cluster-tls; for a cluster on "
          "one host, <mgmd data_dir>/cluster-tls, where a set is made on first start.");
ABSL_FLAG(std::string, make_cluster_certificates, "",
          "Make the cluster's CA and a certificate set for every host of the configuration in "
          "this new directory, and exit.");

namespace {

constexpr char kUsage[] =
    "the Shoal management daemon.\n\n"
    "  shoal-mgmd                              run the embedded cluster in a box\n"
    "  shoal-mgmd --config-file shoal.yaml     serve a cluster configuration\n"
    "  shoal-mgmd --config-file f --launch     ... and run the nodes configured on this host\n"
    "  shoal-mgmd --config-file f --check-config\n"
    "  shoal-mgmd --config-file f --make-cluster-certificates DIR   TLS sets for its hosts";

std::string DefaultRunDir() {
  const char* tmp = std::getenv("TMPDIR");
  return absl::StrCat(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp", "/shoal");
}

std::string BinaryDir() {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "." : self.parent_path().string();
}

void PrintBanner(const shoal::config::ClusterConfig& config, int port, const std::string& bin_dir) {
  std::cout << "Shoal " << SHOAL_VERSION << ": management daemon on " << config.mgmd.host << ":"
            << port << " (configuration " << config.source << ")\n";
  for (const auto& router : config.routers) {
    std::cout << "  router " << router.id << ":";
    if (!router.socket.empty()) std::cout << "  mariadb -S " << router.socket << " -u root";
    if (router.port != 0) {
      std::cout << "  |  mariadb -h " << router.host << " -P " << router.port << " -u root";
    }
    std::cout << "\n";
  }
  std::cout << "  console:  " << bin_dir << "/shoal-mgm -c " << config.mgmd.host << ":" << port
            << " -e SHOW\n"
            << "  logs:     " << config.mgmd.data_dir << "/ (cluster.log, one file per node)\n"
            << "  Ctrl-C stops the whole cluster.\n"
            << std::flush;
}

// Password hashes are secrets (a hash logs in to mysql_native_password as the password does):
// say so when the file that holds them is open to every user of the host.
void WarnIfOthersCanRead(const std::string& file, const shoal::config::ClusterConfig& config) {
  bool hashes = false;
  for (const shoal::config::UserConfig& user : config.users) {
    hashes = hashes || !user.native_hash.empty() || !user.sha256_hash.empty();
  }
  struct stat info;
  if (hashes && stat(file.c_str(), &info) == 0 && (info.st_mode & S_IROTH) != 0) {
    SHOAL_LOG(kWarning) << file << " holds password hashes and every user of this host may read "
                        << "it: chmod o-r " << file;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args = shoal::InitProcess(argc, argv, "shoal-mgmd", kUsage);
  if (!args.empty()) {
    std::fprintf(stderr, "shoal-mgmd: unexpected argument '%s' (see --help)\n", args[0].c_str());
    return 2;
  }
  std::string file = absl::GetFlag(FLAGS_config_file);
  bool launch = absl::GetFlag(FLAGS_launch);
  std::string run_dir =
      absl::GetFlag(FLAGS_run_dir).empty() ? DefaultRunDir() : absl::GetFlag(FLAGS_run_dir);
  absl::StatusOr<shoal::config::ClusterConfig> config;
  if (file.empty()) {
    shoal::config::EmbeddedDefaultOptions options;
    options.run_dir = run_dir;
    options.mgmd_port = absl::GetFlag(FLAGS_port) >= 0 ? absl::GetFlag(FLAGS_port) : 1186;
    options.router_base_port = absl::GetFlag(FLAGS_base_port);
    options.metrics_base_port = absl::GetFlag(FLAGS_metrics_base_port);
    // Validate the default like any file, so flags that break it get the same clear errors.
    config = shoal::config::LoadConfigString(
        shoal::config::ToYaml(shoal::config::EmbeddedDefault(options)), "<embedded default>");
    launch = true;
  } else {
    config = shoal::config::LoadConfigFile(file);
  }
  if (!config.ok()) {
    std::fprintf(stderr, "shoal-mgmd: %s\n", std::string(config.status().message()).c_str());
    return 1;
  }
  if (!file.empty()) WarnIfOthersCanRead(file, *config);
  if (absl::GetFlag(FLAGS_check_config)) {
    std::cout << "# " << config->source << ": valid\n" << shoal::config::ToYaml(*config);
    return 0;
  }
  if (std::string dir = absl::GetFlag(FLAGS_make_cluster_certificates); !dir.empty()) {
    absl::StatusOr<std::string> made = shoal::mgmd::MakeCertificatesFor(*config, dir);
    if (!made.ok()) {
      std::fprintf(stderr, "shoal-mgmd: %s\n", std::string(made.status().message()).c_str());
      return 1;
    }
    std::cout << *made;
    return 0;
  }
  std::string tls_dir = absl::GetFlag(FLAGS_tls_dir);
  if (tls_dir.empty()) {
    tls_dir = config->SpansHosts() ? shoal::mgmd::kDefaultTlsDir
                                   : absl::StrCat(config->mgmd.data_dir, "/cluster-tls");
  }
  absl::StatusOr<std::unique_ptr<shoal::tls::LinkContext>> link_tls =
      shoal::mgmd::LinkTlsFor(*config, tls_dir);
  if (!link_tls.ok()) {
    std::fprintf(stderr, "shoal-mgmd: %s\n", std::string(link_tls.status().message()).c_str());
    return 1;
  }

  std::signal(SIGPIPE, SIG_IGN);
  auto loop = shoal::EventLoop::Create();
  if (!loop.ok()) {
    SHOAL_LOG(kError) << loop.status().message();
    return 1;
  }
  shoal::MetricsRegistry metrics;
  std::unique_ptr<shoal::MetricsServer> metrics_server;
  if (config->mgmd.metrics_port != 0) {
    auto server =
        shoal::MetricsServer::Start(&metrics, config->mgmd.host, config->mgmd.metrics_port);
    if (!server.ok()) {
      SHOAL_LOG(kError) << server.status().message();
      return 1;
    }
    metrics_server = std::move(*server);
  }
  shoal::mgmd::MgmdServer::Options options;
  options.config = *config;
  options.bind_host = absl::GetFlag(FLAGS_bind_address);
  // --port overrides the configured port, 0 included (any free port, as --help says).
  if (absl::GetFlag(FLAGS_port) >= 0) options.config.mgmd.port = absl::GetFlag(FLAGS_port);
  options.launch = launch;
  options.link_tls = link_tls->get();
  options.tls_dir = tls_dir;
  if (options.link_tls != nullptr) {
    SHOAL_LOG(kInfo) << "the cluster's links use TLS, with the set in " << tls_dir;
  }
  std::string bin_dir = BinaryDir();
  options.bin_dir = bin_dir;
  auto server = shoal::mgmd::MgmdServer::Create(loop->get(), std::move(options), &metrics);
  if (!server.ok()) {
    SHOAL_LOG(kError) << server.status().message();
    return 1;
  }
  PrintBanner(*config, (*server)->port(), bin_dir);
  // The loop carries the heartbeat check (the nodes it forks start ordinary all the same).
  if (config->cluster.realtime_scheduler) {
    (void)shoal::liveness::UseRealtimeScheduling("management daemon");
  }
  auto stop = [&](const char* why) { (*server)->Shutdown(why, [&] { (*loop)->Stop(); }); };
  shoal::SignalWatcher sigint(loop->get(), SIGINT, [&] { stop("SIGINT"); });
  shoal::SignalWatcher sigterm(loop->get(), SIGTERM, [&] { stop("SIGTERM"); });
  (*loop)->Run();
  return 0;
}
