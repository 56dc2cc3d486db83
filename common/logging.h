// Leveled logging to stderr: `SHOAL_LOG(kInfo) << "node " << id << " started";`.
//
// One line per message, written with a single write(2) so lines from several threads never
// interleave. The process name and minimum level are set once at startup (SetLogIdentity,
// SetMinLogLevel) before threads start; after that logging is safe from any thread.
#pragma once

#include <sstream>
#include <string_view>

#include "absl/strings/string_view.h"

namespace shoal {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kFatal = 4 };

// REQUIRES: called before any other thread logs.
void SetLogIdentity(absl::string_view name);
void SetMinLogLevel(LogLevel level);
LogLevel MinLogLevel();
// Parses "debug", "info", "warning", "error"; false when the name is unknown.
bool ParseLogLevel(absl::string_view name, LogLevel* out);

namespace internal {

// Buffers one message and emits it on destruction; kFatal aborts after emitting.
class LogMessage {
 public:
  LogMessage(LogLevel level, const char* file, int line);
  ~LogMessage();
  LogMessage(const LogMessage&) = delete;
  LogMessage& operator=(const LogMessage&) = delete;

  std::ostream& stream() { return stream_; }

 private:
  LogLevel level_;
  std::ostringstream stream_;
};

}  // namespace internal
}  // namespace shoal

#define SHOAL_LOG(level)                                   \
  if (::shoal::LogLevel::level < ::shoal::MinLogLevel()) { \
  } else                                                   \
    ::shoal::internal::LogMessage(::shoal::LogLevel::level, __FILE__, __LINE__).stream()

// Invariant checks (this abseil predates absl/log). A failed check logs and aborts; it is for
// broken invariants only, never for bad input from clients, peers or files.
#define SHOAL_CHECK(cond)                                                                 \
  if (cond) {                                                                             \
  } else                                                                                  \
    ::shoal::internal::LogMessage(::shoal::LogLevel::kFatal, __FILE__, __LINE__).stream() \
        << "Check failed: " #cond " "

#ifdef NDEBUG
#define SHOAL_DCHECK(cond) \
  if (true) {              \
  } else                   \
    SHOAL_CHECK(cond)
#else
#define SHOAL_DCHECK(cond) SHOAL_CHECK(cond)
#endif
