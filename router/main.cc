// shoal-router: a stateless MySQL front end. It joins the cluster through the management
// daemon, which gives it its node id and the cluster configuration, then serves MySQL clients
// on its Unix socket and TCP port.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/control/managed_node.h"
#include "common/logging.h"
#include "common/tls/credentials.h"
#include "common/tls/rsa_key_pair.h"
#include "common/tls/server_context.h"
#include "engine/api/cluster.h"
#include "router/access/accounts.h"
#include "router/access/resource_limits.h"
#include "router/net/router_server.h"
#include "router/net/worker_count.h"

namespace {

constexpr char kUsage[] =
    "a Shoal MySQL router.\n\n"
    "  shoal-router --connect-string mgmd-host:1186 [--node-id N]\n"
    "  shoal-router --hash-password < password-file   print a users: entry's hashes\n"
    "  shoal-router --make-certificates DIR [NAME…]   make a CA and TLS certificates in DIR\n"
    "      (ca.pem, server-cert.pem, server-key.pem, client-cert.pem, …) for routers' ssl_ca,\n"
    "      ssl_cert and ssl_key; the server certificate answers to localhost, this host and\n"
    "      each NAME (a host name or address)\n\n"
    "The node id, sockets, ports and threads come from the management daemon's configuration.";

// What the router serves with; lives from start to stop on main()'s stack.
struct RouterProcess {
  std::unique_ptr<shoal::api::Cluster> cluster;
  shoal::router::RouterContext context;
  std::unique_ptr<shoal::router::RouterServer> server;
};

// The names a made server certificate answers to: this host's, and the configured address.
std::vector<std::string> CertificateNames(const std::string& configured_host) {
  char hostname[256] = {};
  gethostname(hostname, sizeof(hostname) - 1);
  return {"localhost", "127.0.0.1", "::1", hostname, configured_host};
}

// TLS for clients, as the router's configuration says (common/tls/credentials.h).
absl::Status SetUpTls(const shoal::config::RouterConfig& self,
                      shoal::router::RouterContext* context) {
  shoal::sql::ServerInfo& server = context->server;
  server.require_secure_transport->store(self.require_secure_transport);
  if (!self.ssl) return absl::OkStatus();
  shoal::tls::CredentialOptions options;
  options.cert_file = self.ssl_cert;
  options.key_file = self.ssl_key;
  options.ca_file = self.ssl_ca;
  options.dir = self.ssl_dir;
  options.names = CertificateNames(self.host);
  absl::StatusOr<shoal::tls::Credentials> credentials = LoadOrMakeCredentials(options);
  if (!credentials.ok()) return credentials.status();
  absl::StatusOr<std::unique_ptr<shoal::tls::ServerContext>> tls =
      shoal::tls::ServerContext::Create(*credentials);
  if (!tls.ok()) return tls.status();
  struct stat key;
  if (!credentials->key_file.empty() && stat(credentials->key_file.c_str(), &key) == 0 &&
      (key.st_mode & S_IROTH) != 0) {
    SHOAL_LOG(kWarning) << "the TLS key " << credentials->key_file
                        << " may be read by every user of this host: chmod o-r it";
  }
  if (credentials->cert_file.empty()) {
    SHOAL_LOG(kWarning) << "TLS uses a certificate made for this run alone: clients cannot "
                           "verify it; set ssl_dir (or ssl_cert and ssl_key) in the router's "
                           "configuration for one they can";
  }
  server.have_ssl = true;
  server.ssl_ca = credentials->ca_file;
  server.ssl_cert = credentials->cert_file;
  server.ssl_key = credentials->key_file;
  context->tls = std::move(*tls);
  return absl::OkStatus();
}

absl::Status StartRouter(RouterProcess* process, const shoal::control::ManagedNodeContext& node) {
  const shoal::config::RouterConfig* self = node.config->FindRouter(node.node_id);
  if (self == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("node ", node.node_id, " is not a router in the configuration"));
  }
  shoal::router::RouterContext& context = process->context;
  absl::StatusOr<shoal::wire::AccessControl> accounts =
      shoal::access::SeedAccessControl(node.config->users);
  if (!accounts.ok()) return accounts.status();
  if (accounts->accounts().empty()) {
    SHOAL_LOG(kWarning) << "the configuration has no users: until accounts are made in the "
                           "cluster, every login will be refused";
  }
  for (const shoal::wire::Account& account : accounts->accounts()) {
    if (account.host() == "localhost") {
      SHOAL_LOG(kWarning) << "user " << account.user()
                          << " has no password: it may log in from this host only (the Unix "
                             "socket and loopback addresses); give it one to reach it from "
                             "elsewhere";
    }
  }
  context.server.resource_counts = std::make_shared<shoal::access::ResourceCounts>();
  context.server.seed_access =
      std::make_shared<const shoal::wire::AccessControl>(std::move(*accounts));
  context.metrics = node.metrics;
  shoal::api::Cluster::Options cluster_options;
  cluster_options.local_host = self->host;
  cluster_options.client_id = static_cast<uint32_t>(node.node_id);
  cluster_options.link_tls = node.link_tls;
  process->cluster = std::make_unique<shoal::api::Cluster>(cluster_options);
  process->cluster->SetView(*node.view);
  context.cluster = process->cluster.get();
  shoal::sql::ServerInfo& server = context.server;
  server.version = absl::StrCat("8.0.36-shoal-", SHOAL_VERSION);
  char hostname[256] = {};
  gethostname(hostname, sizeof(hostname) - 1);
  server.hostname = hostname;
  server.port = self->port;
  server.socket = self->socket;
  server.max_connections = self->max_connections;
  server.max_allowed_packet = context.max_allowed_packet;
  server.started = absl::Now();
  server.local_infile->store(self->local_infile);
  server.load_data_batch_rows = static_cast<uint32_t>(self->load_data_batch_rows);
  server.load_data_batches_in_flight = static_cast<uint32_t>(self->load_data_batches_in_flight);
  if (absl::Status tls = SetUpTls(*self, &context); !tls.ok()) return tls;
  // caching_sha2_password's full authentication without TLS: kept beside the certificates
  // (without TLS, in memory: a lone key would leave ssl_dir without a certificate set).
  absl::StatusOr<std::unique_ptr<shoal::tls::RsaKeyPair>> rsa =
      shoal::tls::RsaKeyPair::LoadOrMake(self->ssl ? self->ssl_dir : "");
  if (!rsa.ok()) return rsa.status();
  context.rsa = std::move(*rsa);
  shoal::Gauge* connections =
      node.metrics->GetGauge("shoal_router_connections", "MySQL client connections open now.");
  server.threads_connected = [connections] { return connections->value(); };
  server.load_data_rows =
      node.metrics->GetCounter("shoal_router_load_data_rows_total",
                               "Rows read from LOAD DATA LOCAL files (skipped included).");
  server.load_data_bytes = node.metrics->GetCounter("shoal_router_load_data_bytes_total",
                                                    "Bytes of LOAD DATA LOCAL files received.");
  server.join_statements = node.metrics->GetCounter("shoal_router_join_statements_total",
                                                    "SELECTs that joined several tables.");
  server.join_batches =
      node.metrics->GetCounter("shoal_router_join_batches_total",
                               "Native batches joins sent: one per join step that read its table.");
  server.join_rows = node.metrics->GetCounter("shoal_router_join_rows_read_total",
                                              "Rows join steps read from the data nodes.");

  shoal::router::RouterServer::Options options;
  options.socket_path = self->socket;
  options.host = self->host;
  options.port = self->port;
  options.threads = shoal::router::ChooseWorkerCount(
      self->threads, self->cpus, static_cast<int>(std::thread::hardware_concurrency()));
  options.cpus = self->cpus;
  options.max_connections = self->max_connections;
  options.spin = self->spin;
  options.node_id = node.node_id;
  absl::StatusOr<std::unique_ptr<shoal::router::RouterServer>> started =
      shoal::router::RouterServer::Start(node.loop, options, &context);
  if (!started.ok()) return started.status();
  process->server = std::move(*started);
  return absl::OkStatus();
}

// --make-certificates: a set in a new directory, as ssl_dir would have on first start.
int MakeCertificates(const std::string& dir, const std::vector<std::string>& extra_names) {
  if (std::filesystem::exists(dir) && !std::filesystem::is_empty(dir)) {
    std::cerr << "shoal-router: " << dir << " exists and is not empty: nothing made\n";
    return 1;
  }
  shoal::tls::CredentialOptions options;
  options.dir = dir;
  options.names = CertificateNames("");
  options.names.insert(options.names.end(), extra_names.begin(), extra_names.end());
  absl::StatusOr<shoal::tls::Credentials> made = LoadOrMakeCredentials(options);
  if (!made.ok()) {
    std::cerr << "shoal-router: " << made.status().message() << "\n";
    return 1;
  }
  std::cout << "made in " << dir << ": ca.pem (clients verify the routers with it), "
            << "server-cert.pem and server-key.pem (routers' ssl_cert and ssl_key), "
            << "client-cert.pem and client-key.pem (for accounts that REQUIRE X509)\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything else: a tool mode that needs no cluster.
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--make-certificates" || arg == "--make_certificates") {
      if (i + 1 >= argc) {
        std::cerr << "shoal-router: --make-certificates needs a directory\n";
        return 2;
      }
      return MakeCertificates(argv[i + 1], std::vector<std::string>(argv + i + 2, argv + argc));
    }
    if (arg == "--hash-password" || arg == "--hash_password") {
      std::string password;
      std::getline(std::cin, password);
      std::cout << shoal::access::FormatUserEntry("NAME", password);
      return 0;
    }
  }
  RouterProcess process;
  shoal::control::ManagedNodeHooks hooks;
  hooks.start = [&process](const shoal::control::ManagedNodeContext& node) {
    return StartRouter(&process, node);
  };
  hooks.stop = [&process] { process.server.reset(); };
  hooks.on_view = [&process](const shoal::control::ClusterView& view) {
    if (process.cluster != nullptr) process.cluster->SetView(view);
  };
  return shoal::control::RunManagedNode(shoal::control::ROUTER, "shoal-router", kUsage, argc, argv,
                                        std::move(hooks));
}
