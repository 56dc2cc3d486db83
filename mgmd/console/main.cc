// shoal-mgm: the admin console. Interactive (a prompt) or scripted with -e "CMD" (several
// commands separated by ';'); the exit status is non-zero when a command fails.
#include <google/protobuf/util/json_util.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "common/host_port.h"
#include "common/process.h"
#include "mgmd/console/client.h"
#include "mgmd/console/command.h"
#include "mgmd/console/format.h"

ABSL_FLAG(std::string, connect_string, "localhost:1186",
          "The management daemon, host[:port]. Short form: -c.");
ABSL_FLAG(std::string, execute, "",
          "Run these commands (separated by ';') and exit. Short form: -e.");
ABSL_FLAG(absl::Duration, timeout, absl::Seconds(60),
          "How long to wait for the management daemon to answer a command.");
ABSL_FLAG(bool, json, false,
          "Print each reply as JSON (the mgmd's ConsoleRep: the cluster view, events, message) "
          "instead of text, for scripts.");
ABSL_FLAG(std::string, tls_dir, "/etc/shoal/cluster-tls",
          "A certificate set of the cluster (ca.pem, node-cert.pem, node-key.pem), for a cluster "
          "whose links use TLS; used when the directory holds one.");

namespace {

using shoal::console::Command;
using shoal::console::ConsoleClient;

constexpr char kUsage[] =
    "the Shoal admin console.\n\n"
    "  shoal-mgm [-c host:port]              interactive prompt\n"
    "  shoal-mgm [-c host:port] -e \"SHOW\"    run commands and exit (non-zero on error)\n"
    "  shoal-mgm --json -e \"ALL STATUS\"       each reply as JSON, for scripts\n\n"
    "Type HELP at the prompt for the commands.";

// A reply as one line of JSON, field names as in control.proto (node_id, data_used_bytes, …);
// 64-bit numbers are strings, as protobuf's JSON mapping writes them.
std::string Json(const shoal::control::ConsoleRep& rep) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(rep, &out, options).ok()) return "{}";
  return out;
}

class Console {
 public:
  Console(shoal::HostPort mgmd, std::unique_ptr<shoal::tls::LinkContext> tls)
      : mgmd_(std::move(mgmd)), tls_(std::move(tls)) {}

  // Runs one line; false when it failed. Sets *quit for QUIT/EXIT.
  bool RunLine(const std::string& line, bool* quit) {
    absl::StatusOr<Command> command = shoal::console::ParseCommand(line);
    if (!command.ok()) {
      std::cerr << command.status().message() << "\n";
      return false;
    }
    switch (command->kind) {
      case Command::Kind::kEmpty:
        return true;
      case Command::Kind::kHelp:
        std::cout << shoal::console::kHelpText;
        return true;
      case Command::Kind::kQuit:
        *quit = true;
        return true;
      case Command::Kind::kRemote:
        return RunRemote(command->request, command->report);
    }
    return false;
  }

 private:
  bool RunRemote(const shoal::control::ConsoleReq& request, Command::Report report) {
    absl::Duration timeout = absl::GetFlag(FLAGS_timeout);
    if (!client_.has_value()) {
      auto client = ConsoleClient::Connect(mgmd_.host, mgmd_.port, absl::Seconds(5), tls_.get());
      if (!client.ok()) {
        std::cerr << client.status().message() << "\n";
        return false;
      }
      client_ = std::move(*client);
    }
    if (request.verb() == shoal::control::ConsoleReq::START_BACKUP &&
        request.wait() != shoal::control::ConsoleReq::NOWAIT) {
      // A backup takes as long as its data does: ndb_mgm waits for it too.
      std::cerr << "Waiting for "
                << (request.wait() == shoal::control::ConsoleReq::WAIT_STARTED ? "started"
                                                                               : "completed")
                << ", this may take several minutes\n";
      timeout = absl::InfiniteDuration();
    }
    auto rep = client_->Call(request, timeout);
    if (!rep.ok()) {
      client_.reset();  // reconnect next time
      std::cerr << rep.status().message() << "\n";
      return false;
    }
    if (!rep->ok()) {
      std::cerr << rep->error() << "\n";
      return false;
    }
    using shoal::control::ConsoleReq;
    if (absl::GetFlag(FLAGS_json)) {
      std::cout << Json(*rep) << "\n";
      if (request.verb() == ConsoleReq::SHUTDOWN) client_.reset();
      return true;
    }
    if (report == Command::Report::kMemoryUsage) {
      std::cout << shoal::console::FormatMemoryUsage(rep->view(), request.node_id());
      return true;
    }
    if (report == Command::Report::kThreads) {
      std::cout << shoal::console::FormatThreads(rep->view(), request.node_id());
      return true;
    }
    switch (request.verb()) {
      case ConsoleReq::SHOW:
        std::cout << "Connected to the management daemon at " << client_->address() << "\n"
                  << shoal::console::FormatShow(rep->view());
        break;
      case ConsoleReq::STATUS:
        std::cout << shoal::console::FormatStatus(rep->view(), request.node_id(), absl::Now());
        break;
      case ConsoleReq::CLUSTERLOG:
        std::cout << shoal::console::FormatClusterLog(*rep);
        break;
      default:
        std::cout << rep->message() << "\n";
    }
    if (request.verb() == ConsoleReq::SHUTDOWN) client_.reset();
    return true;
  }

  shoal::HostPort mgmd_;
  std::unique_ptr<shoal::tls::LinkContext> tls_;  // null: clear text
  std::optional<ConsoleClient> client_;
};

// -c and -e are the short forms ndb_mgm users type; absl flags want long names.
std::vector<char*> ExpandShortFlags(int argc, char** argv) {
  static std::vector<std::string> storage;
  storage.reserve(argc);
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-c")
      arg = "--connect_string";
    else if (arg == "-e")
      arg = "--execute";
    else if (arg.rfind("-c", 0) == 0 && arg.size() > 2 && arg[2] != '-')
      arg = "--connect_string=" + arg.substr(2);
    else if (arg.rfind("-e", 0) == 0 && arg.size() > 2 && arg[2] != '-')
      arg = "--execute=" + arg.substr(2);
    storage.push_back(arg);
  }
  std::vector<char*> out;
  for (std::string& s : storage) out.push_back(s.data());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> expanded = ExpandShortFlags(argc, argv);
  std::vector<std::string> args =
      shoal::InitProcess(static_cast<int>(expanded.size()), expanded.data(), "shoal-mgm", kUsage);
  if (!args.empty()) {
    std::cerr << "shoal-mgm: unexpected argument '" << args[0] << "' (see --help)\n";
    return 2;
  }
  auto mgmd = shoal::ParseHostPort(absl::GetFlag(FLAGS_connect_string), 1186);
  if (!mgmd.ok()) {
    std::cerr << "shoal-mgm: --connect-string: " << mgmd.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<std::unique_ptr<shoal::tls::LinkContext>> loaded =
      shoal::tls::LinkContext::LoadIfPresent(absl::GetFlag(FLAGS_tls_dir));
  if (!loaded.ok()) {
    std::cerr << "shoal-mgm: --tls-dir: " << loaded.status().message() << "\n";
    return 2;
  }
  Console console(*mgmd, std::move(*loaded));
  bool quit = false;
  std::string script = absl::GetFlag(FLAGS_execute);
  if (!script.empty()) {
    for (absl::string_view line : absl::StrSplit(script, ';')) {
      if (!console.RunLine(std::string(line), &quit)) return 1;
      if (quit) break;
    }
    return 0;
  }
  bool interactive = isatty(STDIN_FILENO);
  bool all_ok = true;
  std::string line;
  while (!quit) {
    if (interactive) std::cout << "shoal-mgm> " << std::flush;
    if (!std::getline(std::cin, line)) break;
    all_ok = console.RunLine(line, &quit) && all_ok;
  }
  return interactive || all_ok ? 0 : 1;
}
