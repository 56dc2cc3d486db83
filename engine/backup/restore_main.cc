// shoal-restore: restores an online backup into a running cluster, as NDB's ndb_restore does
// (restore_loader.h does the work). Flags are parsed here; progress goes to stderr, the
// summary line to stdout.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "common/host_port.h"
#include "common/process.h"
#include "common/tls/link_context.h"
#include "engine/api/cluster.h"
#include "engine/backup/restore_loader.h"

ABSL_FLAG(std::string, connect_string, "localhost:1186",
          "The target cluster's management daemon, host[:port].");
ABSL_FLAG(uint32_t, backup_id, 0, "The backup to restore: BACKUP-<id>. Required.");
ABSL_FLAG(std::vector<std::string>, backup_path, {},
          "A data node's backup directory (the one holding BACKUP-<id>/) or a BACKUP-<id> "
          "directory. Give it once per directory (or separate directories with commas): "
          "together they must hold a part of every node group.");
ABSL_FLAG(bool, no_data, false, "Do not load rows.");
ABSL_FLAG(bool, no_metadata, false,
          "Do not create databases, tables and views: load rows into tables the target has.");
ABSL_FLAG(bool, include_accounts, false,
          "Also replace the target's accounts and privileges with the backup's (a backup of a "
          "cluster that never changed its accounts holds none: the target's are then kept).");
ABSL_FLAG(int, parallelism, 256, "Row writes kept in flight at once.");
ABSL_FLAG(absl::Duration, connect_timeout, absl::Seconds(10),
          "How long to wait for the management daemon's view of the cluster.");
ABSL_FLAG(std::string, tls_dir, "/etc/shoal/cluster-tls",
          "A certificate set of the cluster (ca.pem, node-cert.pem, node-key.pem), for a cluster "
          "whose links use TLS; used when the directory holds one.");

namespace {

constexpr char kUsage[] =
    "restores an online backup into a running cluster (as NDB's ndb_restore).\n\n"
    "  shoal-restore --connect-string=HOST:PORT --backup-id=N --backup-path=DIR\n"
    "                [--backup-path=DIR ...] [--no-data] [--no-metadata]\n"
    "                [--include-accounts] [--parallelism=N]\n\n"
    "Every complete part of backup N found in the directories is read, and one per node group\n"
    "(the lowest node id's) is restored: a restore needs a part of each node group of the\n"
    "backup's cluster, all of one stop epoch. The target may have other data nodes and node\n"
    "groups.\n\n"
    "Unless --no-metadata, the backup's databases, tables and views are created first; a table\n"
    "or view the target has already is an error. Unless --no-data, every row as of the\n"
    "backup's stop epoch is written into the target's table of the same database and name,\n"
    "and each AUTO_INCREMENT counter is moved past the largest value restored. Progress goes\n"
    "to stderr, a summary line to stdout. Exit status: 0 restored; 1 the restore failed (the\n"
    "message says why; what was done before it stays done); 2 bad arguments.";

// Every --backup-path given: absl keeps only a flag's last value, and an operator names one
// directory per data node. Returns nothing when none is on the command line (a --flagfile's
// value then holds).
std::vector<std::string> AllBackupPaths(int argc, char** argv) {
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--") break;
    std::string value;
    if (arg == "--backup-path" || arg == "--backup_path") {
      if (i + 1 >= argc) break;  // absl reports the missing value
      value = argv[++i];
    } else if (absl::StartsWith(arg, "--backup-path=") || absl::StartsWith(arg, "--backup_path=")) {
      value = std::string(arg.substr(arg.find('=') + 1));
    } else {
      continue;
    }
    for (absl::string_view dir : absl::StrSplit(value, ',', absl::SkipEmpty())) {
      paths.emplace_back(dir);
    }
  }
  return paths;
}

int Fail(absl::string_view message, int code) {
  std::fprintf(stderr, "shoal-restore: %.*s\n", static_cast<int>(message.size()), message.data());
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths = AllBackupPaths(argc, argv);
  std::vector<std::string> args = shoal::InitProcess(argc, argv, "shoal-restore", kUsage);
  if (!args.empty()) return Fail("unexpected argument '" + args[0] + "' (see --help)", 2);
  if (paths.empty()) paths = absl::GetFlag(FLAGS_backup_path);
  shoal::backup::RestoreOptions options;
  options.backup_id = absl::GetFlag(FLAGS_backup_id);
  options.backup_paths = paths;
  options.data = !absl::GetFlag(FLAGS_no_data);
  options.metadata = !absl::GetFlag(FLAGS_no_metadata);
  options.accounts = absl::GetFlag(FLAGS_include_accounts);
  options.parallelism = absl::GetFlag(FLAGS_parallelism);
  if (options.backup_id == 0) return Fail("--backup-id is required (see --help)", 2);
  if (options.backup_paths.empty()) return Fail("--backup-path is required (see --help)", 2);
  if (options.parallelism < 1) return Fail("--parallelism must be at least 1", 2);
  // The backup is checked before the cluster is reached: a missing or partial one says so
  // whatever the cluster's state.
  absl::StatusOr<std::vector<shoal::backup::Part>> parts = shoal::backup::PartsToRestore(options);
  if (!parts.ok()) return Fail(parts.status().message(), 1);
  absl::StatusOr<shoal::HostPort> mgmd =
      shoal::ParseHostPort(absl::GetFlag(FLAGS_connect_string), 1186);
  if (!mgmd.ok()) return Fail("--connect-string: " + std::string(mgmd.status().message()), 2);

  absl::StatusOr<std::unique_ptr<shoal::tls::LinkContext>> loaded =
      shoal::tls::LinkContext::LoadIfPresent(absl::GetFlag(FLAGS_tls_dir));
  if (!loaded.ok()) return Fail("--tls-dir: " + std::string(loaded.status().message()), 2);
  std::unique_ptr<shoal::tls::LinkContext> tls = std::move(*loaded);
  absl::StatusOr<shoal::control::ClusterView> view = shoal::api::Cluster::FetchView(
      mgmd->host, mgmd->port, absl::GetFlag(FLAGS_connect_timeout), tls.get());
  if (!view.ok()) return Fail(view.status().message(), 1);
  shoal::api::Cluster::Options cluster_options;
  cluster_options.link_tls = tls.get();
  shoal::api::Cluster cluster(cluster_options);
  cluster.SetView(*view);
  if (cluster.topology()->Master() < 0) {
    return Fail(
        "no data node of the cluster at " + absl::GetFlag(FLAGS_connect_string) + " has started",
        1);
  }

  absl::StatusOr<shoal::backup::RestoreSummary> summary = shoal::backup::RunRestore(
      options, *parts, &cluster,
      [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); });
  if (!summary.ok()) return Fail(summary.status().message(), 1);
  std::printf("%s\n", shoal::backup::SummaryLine(*summary).c_str());
  return 0;
}
