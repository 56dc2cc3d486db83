#include "mgmd/console/command.h"

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "common/config/config.h"

namespace shoal::console {

using control::ConsoleReq;

const char kHelpText[] =
    "Commands (case does not matter):\n"
    "  SHOW             the configured nodes: type, id, host, state, version, node group\n"
    "  ALL STATUS       the state of every node; a starting node also says how far it has\n"
    "                   got, e.g. 'starting for 12s (copying data, 42% done)'\n"
    "  <id> STATUS      the state of node <id>, as ALL STATUS\n"
    "  <id> STOP        stop node <id> (a data node or router) and wait until it has stopped;\n"
    "                   refused for the last live replica of a node group, whose rows would\n"
    "                   be lost with it, unless forced: <id> STOP -f\n"
    "  <id> START       start node <id> again (nodes this mgmd launched) and wait until it serves\n"
    "  <id> RESTART     stop node <id> and start it again (-f as for STOP)\n"
    "  ALL REPORT MEMORYUSAGE   each data node's data memory: used, of its data_memory\n"
    "  <id> REPORT MEMORYUSAGE  the same for data node <id> (MEMORY for short)\n"
    "  ALL REPORT THREADS       each node's threads and the CPU each used in its last\n"
    "                           heartbeat interval, as ndb_top shows them\n"
    "  <id> REPORT THREADS      the same for node <id>\n"
    "  START BACKUP [NOWAIT | WAIT STARTED | WAIT COMPLETED]\n"
    "                   an online backup of every table, consistent at one epoch, while\n"
    "                   writes go on: each data node writes its part under its backup_dir\n"
    "                   (BACKUP-<id>/); shoal-restore loads it. Waits until completed unless\n"
    "                   told otherwise\n"
    "  ABORT BACKUP <id>  give a running backup up; its files are removed\n"
    "  SHOW BACKUPS     the backups the connected data nodes hold: where, how big, and\n"
    "                   whether every node group has a part (what shoal-restore needs)\n"
    "  SHUTDOWN         stop every node, then the management daemon\n"
    "  CLUSTERLOG       the most recent cluster events (nodes connecting, failing, restarting)\n"
    "  HELP             this text\n"
    "  QUIT, EXIT       leave the console\n";

namespace {

absl::Status Unknown(absl::string_view line) {
  return absl::InvalidArgumentError(
      absl::StrCat("Unknown command '", line, "'; type HELP for the list of commands"));
}

std::optional<ConsoleReq::Verb> NodeVerb(absl::string_view word) {
  if (word == "STATUS") return ConsoleReq::STATUS;
  if (word == "STOP") return ConsoleReq::STOP;
  if (word == "START") return ConsoleReq::START;
  if (word == "RESTART") return ConsoleReq::RESTART;
  return std::nullopt;
}

// <id|ALL> REPORT <what>: a STATUS request whose reply the console prints as the report.
absl::StatusOr<Command> ParseReport(const std::vector<absl::string_view>& words,
                                    absl::string_view line) {
  int node_id = 0;
  if (words[0] != "ALL" && !absl::SimpleAtoi(words[0], &node_id)) return Unknown(line);
  if (words[0] != "ALL" && (node_id < 1 || node_id > config::kMaxNodeId)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", words[0], "' is not a node id: ids are 1 to ", config::kMaxNodeId));
  }
  Command::Report report;
  if (words[2] == "MEMORYUSAGE" || words[2] == "MEMORY") {
    report = Command::Report::kMemoryUsage;
  } else if (words[2] == "THREADS") {
    report = Command::Report::kThreads;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("Unknown report '", words[2], "'; reports are MEMORYUSAGE and THREADS"));
  }
  Command command;
  command.kind = Command::Kind::kRemote;
  command.request.set_verb(ConsoleReq::STATUS);
  command.request.set_node_id(static_cast<uint32_t>(node_id));
  command.report = report;
  return command;
}

// START BACKUP [NOWAIT | WAIT STARTED | WAIT COMPLETED] and ABORT BACKUP <id>.
absl::StatusOr<Command> ParseBackup(const std::vector<absl::string_view>& words,
                                    absl::string_view line) {
  Command command;
  command.kind = Command::Kind::kRemote;
  if (words[0] == "START") {
    command.request.set_verb(ConsoleReq::START_BACKUP);
    std::string wait = absl::StrJoin(words.begin() + 2, words.end(), " ");
    if (wait.empty() || wait == "WAIT COMPLETED") {
      command.request.set_wait(ConsoleReq::WAIT_COMPLETED);
    } else if (wait == "WAIT STARTED") {
      command.request.set_wait(ConsoleReq::WAIT_STARTED);
    } else if (wait == "NOWAIT") {
      command.request.set_wait(ConsoleReq::NOWAIT);
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "START BACKUP takes NOWAIT, WAIT STARTED or WAIT COMPLETED, not '", wait, "'"));
    }
    return command;
  }
  uint32_t id = 0;
  if (words[0] == "ABORT") {
    if (words.size() != 3 || !absl::SimpleAtoi(words[2], &id) || id == 0) {
      return absl::InvalidArgumentError(
          "ABORT BACKUP takes the id of the backup: ABORT BACKUP <id>");
    }
    command.request.set_verb(ConsoleReq::ABORT_BACKUP);
    command.request.set_backup_id(id);
    return command;
  }
  return Unknown(line);
}

}  // namespace

absl::StatusOr<Command> ParseCommand(absl::string_view line) {
  absl::string_view trimmed = absl::StripAsciiWhitespace(line);
  while (absl::ConsumeSuffix(&trimmed, ";")) trimmed = absl::StripTrailingAsciiWhitespace(trimmed);
  std::string upper = absl::AsciiStrToUpper(trimmed);
  std::vector<absl::string_view> words = absl::StrSplit(upper, ' ', absl::SkipWhitespace());
  Command command;
  if (words.empty()) return command;
  auto remote = [&](ConsoleReq::Verb verb, int node_id) {
    command.kind = Command::Kind::kRemote;
    command.request.set_verb(verb);
    command.request.set_node_id(static_cast<uint32_t>(node_id));
    return command;
  };
  if (words.size() == 1) {
    if (words[0] == "SHOW") return remote(ConsoleReq::SHOW, 0);
    if (words[0] == "SHUTDOWN") return remote(ConsoleReq::SHUTDOWN, 0);
    if (words[0] == "CLUSTERLOG") return remote(ConsoleReq::CLUSTERLOG, 0);
    if (words[0] == "HELP" || words[0] == "?") {
      command.kind = Command::Kind::kHelp;
      return command;
    }
    if (words[0] == "QUIT" || words[0] == "EXIT") {
      command.kind = Command::Kind::kQuit;
      return command;
    }
  }
  if (words.size() == 3 && words[1] == "REPORT") return ParseReport(words, trimmed);
  if (words.size() >= 2 && words[1] == "BACKUP") return ParseBackup(words, trimmed);
  if (words.size() == 2 && words[0] == "SHOW" && words[1] == "BACKUPS") {
    return remote(ConsoleReq::SHOW_BACKUPS, 0);
  }
  bool force = words.size() == 3 && words[2] == "-F";
  if (force) {
    words.pop_back();
    if (words[1] != "STOP" && words[1] != "RESTART") {
      return absl::InvalidArgumentError(
          absl::StrCat("-f goes with STOP and RESTART only, not with ", words[1]));
    }
  }
  if (words.size() == 2) {
    if (words[0] == "ALL") {
      if (words[1] == "STATUS") return remote(ConsoleReq::STATUS, 0);
      if (NodeVerb(words[1]).has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat("ALL ", words[1],
                         " is not supported; use SHUTDOWN to stop every node, "
                         "or <id> ",
                         words[1], " for one node"));
      }
      return Unknown(trimmed);
    }
    int node_id = 0;
    if (absl::SimpleAtoi(words[0], &node_id)) {
      if (node_id < 1 || node_id > config::kMaxNodeId) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", words[0], "' is not a node id: ids are 1 to ", config::kMaxNodeId));
      }
      if (std::optional<ConsoleReq::Verb> verb = NodeVerb(words[1])) {
        remote(*verb, node_id);
        command.request.set_force(force);
        return command;
      }
      return absl::InvalidArgumentError(
          absl::StrCat("Unknown command '", words[1], "' for node ", node_id,
                       "; node commands are STATUS, STOP, START and RESTART"));
    }
    if (NodeVerb(words[1]).has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", words[0], "' is not a node id: ids are 1 to ", config::kMaxNodeId));
    }
  }
  return Unknown(trimmed);
}

}  // namespace shoal::console
