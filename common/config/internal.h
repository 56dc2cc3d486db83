// Details shared by the configuration loader (loader.cc), its cross-field checks
// (validate.cc), the unit parsers and formatters (units.cc) and ToYaml (config.cc). Not for
// use outside common/config.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/config/config.h"

namespace shoal::config::internal {

// Debian builds abseil with its own string_view, which does not convert to or from
// std::string_view; the public API speaks std::string_view, the internals abseil's.
inline absl::string_view ToAbsl(std::string_view text) { return {text.data(), text.size()}; }

// Where each field of a loaded document was written, keyed by field path ("cluster.replicas",
// "datanodes[1].id", "routers[0]"), so checks that run after reading can still point at a line.
class SourceLines {
 public:
  // Records the first line seen for `path`; 1-based.
  void Set(std::string path, int line) { lines_.try_emplace(std::move(path), line); }
  // The line of `path`, else of its nearest recorded ancestor ("datanodes[1].id" →
  // "datanodes[1]" → "datanodes"), else 1: a field left at its default has no line of its own.
  int Get(absl::string_view path) const;

 private:
  absl::flat_hash_map<std::string, int> lines_;
};

// InvalidArgument with the one-line message `<source>:<line>: <path>: <message>`. Control
// characters anywhere in it are escaped, so user text cannot break the line.
absl::Status ConfigError(absl::string_view source, int line, absl::string_view path,
                         absl::string_view message);

// `text` cut to a length fit for a message (at a UTF-8 character boundary, marked "...").
std::string Truncate(absl::string_view text);
// Truncate(text), single-quoted and C-escaped.
std::string Quote(absl::string_view text);

// Cross-field checks on a configuration whose fields were each read and range-checked:
// node counts, ids, data dirs, listeners and hosts. Errors as ConfigError.
absl::Status Validate(const ClusterConfig& config, const SourceLines& lines);

// Durations as the YAML writes them: the shortest exact form in s or ms ("1s", "500ms");
// anything finer falls back to absl::FormatDuration, which ParseConfigDuration also reads.
std::string FormatConfigDuration(absl::Duration d);
// absl::ParseDuration syntax ("100ms", "1.5s"); an error message (without location) if bad.
absl::StatusOr<absl::Duration> ParseConfigDuration(absl::string_view text);

// Empty if `text` is valid UTF-8 made only of characters YAML allows in a document (YAML 1.2
// c-printable: tab and line breaks but no other control characters); else what is wrong, and
// `*line` (1-based) says where.
std::string CheckDocumentText(absl::string_view text, int* line);
// Empty if every character of `text` may appear in a string field: as above, minus tab and
// every line break. Such strings survive ToYaml → LoadConfigString unchanged.
std::string CheckFieldText(absl::string_view text);

}  // namespace shoal::config::internal
