#include "common/logging.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace shoal {
namespace {

std::string& Identity() {
  static std::string* identity = new std::string("shoal");
  return *identity;
}

std::atomic<LogLevel> min_level{LogLevel::kInfo};

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "DEBUG";
    case LogLevel::kInfo:
      return "INFO";
    case LogLevel::kWarning:
      return "WARNING";
    case LogLevel::kError:
      return "ERROR";
    case LogLevel::kFatal:
      return "FATAL";
  }
  return "?";
}

}  // namespace

void SetLogIdentity(absl::string_view name) { Identity() = std::string(name); }
void SetMinLogLevel(LogLevel level) { min_level.store(level, std::memory_order_relaxed); }
LogLevel MinLogLevel() { return min_level.load(std::memory_order_relaxed); }

bool ParseLogLevel(absl::string_view name, LogLevel* out) {
  std::string lower = absl::AsciiStrToLower(name);
  if (lower == "debug")
    *out = LogLevel::kDebug;
  else if (lower == "info")
    *out = LogLevel::kInfo;
  else if (lower == "warning" || lower == "warn")
    *out = LogLevel::kWarning;
  else if (lower == "error")
    *out = LogLevel::kError;
  else
    return false;
  return true;
}

namespace internal {

LogMessage::LogMessage(LogLevel level, const char* file, int line) : level_(level) {
  stream_ << absl::FormatTime("%Y-%m-%d %H:%M:%E3S", absl::Now(), absl::LocalTimeZone()) << ' '
          << LevelName(level) << ' ' << Identity() << ": ";
  if (level >= LogLevel::kWarning || MinLogLevel() == LogLevel::kDebug) {
    absl::string_view path(file);
    size_t slash = path.rfind('/');
    stream_ << '[' << path.substr(slash == absl::string_view::npos ? 0 : slash + 1) << ':' << line
            << "] ";
  }
}

LogMessage::~LogMessage() {
  stream_ << '\n';
  std::string text = stream_.str();
  // One write per line keeps concurrent lines whole; a short write to stderr is not worth
  // more than a best effort.
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
  if (level_ == LogLevel::kFatal) std::abort();
}

}  // namespace internal
}  // namespace shoal
