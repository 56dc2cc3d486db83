// Console commands as typed at the shoal-mgm prompt (in the spirit of ndb_mgm), parsed into
// the ConsoleReq sent to the mgmd. Case-insensitive; a trailing ';' is ignored.
//
//   SHOW | ALL STATUS | <id> STATUS | <id> STOP [-f] | <id> START | <id> RESTART [-f]
//   <ALL|id> REPORT MEMORYUSAGE | <ALL|id> REPORT THREADS | SHUTDOWN | CLUSTERLOG | HELP | QUIT
//   EXIT | START BACKUP [NOWAIT | WAIT STARTED | WAIT COMPLETED] | ABORT BACKUP <id>
//   SHOW BACKUPS
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/control/control.pb.h"

namespace shoal::console {

struct Command {
  enum class Kind { kRemote, kHelp, kQuit, kEmpty };
  // What a remote command prints: its verb's reply, or a report made from a STATUS reply.
  enum class Report { kNone, kMemoryUsage, kThreads };
  Kind kind = Kind::kEmpty;
  control::ConsoleReq request;  // for kRemote
  Report report = Report::kNone;
};

// InvalidArgument with a message for the user when the line is not a command.
absl::StatusOr<Command> ParseCommand(absl::string_view line);

extern const char kHelpText[];

}  // namespace shoal::console
