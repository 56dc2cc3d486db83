// Process start-up shared by every Shoal binary: flags (absl), --help and --version that tell
// the truth, log identity and level.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/string_view.h"

namespace shoal {

// Parses flags (exiting on --help, --version or a bad flag, as absl does), sets the log
// identity to `name` and the level from --log-level. Returns the positional arguments
// (argv[0] excluded).
std::vector<std::string> InitProcess(int argc, char** argv, absl::string_view name,
                                     absl::string_view usage);

}  // namespace shoal
