#include "common/process.h"

#include <cstdio>
#include <cstdlib>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "common/logging.h"

ABSL_FLAG(std::string, log_level, "info",
          "Least severe messages logged: debug, info, warning, error.");

namespace shoal {
namespace {

// --help lists our own flags, not abseil's internal ones.
bool IsShoalFlagFile(absl::string_view path) { return !absl::StrContains(path, "absl/"); }

// Users write --connect-string (as MySQL and NDB tools spell flags); absl names flags with
// underscores. Accept both by rewriting the name part of every --flag before "--".
std::vector<char*> NormalizeFlagNames(int argc, char** argv, std::vector<std::string>* storage) {
  storage->reserve(argc);
  std::vector<char*> out;
  bool flags_done = false;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") flags_done = true;
    if (i > 0 && !flags_done && absl::StartsWith(arg, "--")) {
      size_t end = arg.find('=');
      if (end == std::string::npos) end = arg.size();
      for (size_t j = 2; j < end; ++j) {
        if (arg[j] == '-') arg[j] = '_';
      }
    }
    storage->push_back(std::move(arg));
    out.push_back(storage->back().data());
  }
  return out;
}

}  // namespace

std::vector<std::string> InitProcess(int argc, char** argv, absl::string_view name,
                                     absl::string_view usage) {
  absl::FlagsUsageConfig config;
  config.contains_helpshort_flags = &IsShoalFlagFile;
  config.contains_help_flags = &IsShoalFlagFile;
  config.version_string = [name] { return absl::StrCat(name, " ", SHOAL_VERSION, "\n"); };
  config.normalize_filename = [](absl::string_view path) {
    // --help names the file a flag is defined in relative to the source tree.
    for (absl::string_view top : {"/common/", "/mgmd/", "/router/", "/engine/", "/protocol/"}) {
      if (size_t at = path.rfind(top); at != absl::string_view::npos) {
        return std::string(path.substr(at + 1));
      }
    }
    return std::string(path);
  };
  absl::SetFlagsUsageConfig(config);
  absl::SetProgramUsageMessage(absl::StrCat(
      usage, "\n\nFlags may be spelled with dashes or underscores (--node-id, --node_id)."));
  static std::vector<std::string>* storage = new std::vector<std::string>();
  std::vector<char*> normalized = NormalizeFlagNames(argc, argv, storage);
  std::vector<char*> positional =
      absl::ParseCommandLine(static_cast<int>(normalized.size()), normalized.data());
  SetLogIdentity(name);
  LogLevel level;
  if (!ParseLogLevel(absl::GetFlag(FLAGS_log_level), &level)) {
    std::fprintf(stderr, "%.*s: --log-level must be debug, info, warning or error\n",
                 static_cast<int>(name.size()), name.data());
    std::exit(2);
  }
  SetMinLogLevel(level);
  return std::vector<std::string>(positional.begin() + 1, positional.end());
}

}  // namespace shoal
