#include "common/liveness/process_probe.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace shoal::liveness {
namespace {

// The whole of a small file ("" when it cannot be read). /proc files report no size.
std::string ReadSmallFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string text;
  char buf[1024];
  for (ssize_t n; (n = read(fd, buf, sizeof(buf))) > 0;) text.append(buf, static_cast<size_t>(n));
  close(fd);
  return text;
}

// The thread ids under /proc/<pid>/task.
std::vector<int> ThreadIds(const std::string& task_dir) {
  std::vector<int> tids;
  DIR* dir = opendir(task_dir.c_str());
  if (dir == nullptr) return tids;
  while (dirent* entry = readdir(dir)) {
    int tid = 0;
    if (absl::SimpleAtoi(entry->d_name, &tid) && tid > 0) tids.push_back(tid);
  }
  closedir(dir);
  return tids;
}

bool IsStopped(char state) { return state == 'T' || state == 't'; }

constexpr absl::Duration kForgetAfter = absl::Minutes(1);

}  // namespace

const char* ActivityName(Activity activity) {
  switch (activity) {
    case Activity::kUnknown:
      return "unknown";
    case Activity::kStopped:
      return "stopped";
    case Activity::kStarved:
      return "starved";
    case Activity::kRunning:
      return "running";
    case Activity::kWaiting:
      return "waiting";
  }
  return "unknown";
}

bool ParseStatLine(const std::string& text, StatLine* out) {
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields are counted
  // from the last ')'.
  size_t close = text.rfind(')');
  if (close == std::string::npos || close + 2 > text.size()) return false;
  std::vector<absl::string_view> fields =
      absl::StrSplit(absl::string_view(text).substr(close + 2), ' ', absl::SkipEmpty());
  // fields[0] is stat's field 3 (state); utime, stime and starttime are fields 14, 15, 22.
  if (fields.size() < 20 || fields[0].size() != 1) return false;
  uint64_t utime = 0;
  uint64_t stime = 0;
  if (!absl::SimpleAtoi(fields[11], &utime) || !absl::SimpleAtoi(fields[12], &stime) ||
      !absl::SimpleAtoi(fields[19], &out->start_ticks)) {
    return false;
  }
  out->state = fields[0][0];
  out->cpu_ticks = utime + stime;
  return true;
}

ProcessIdentity ProcessIdentity::Self(const std::string& proc_root) {
  ProcessIdentity self;
  self.boot_id = std::string(
      absl::StripAsciiWhitespace(ReadSmallFile(proc_root + "/sys/kernel/random/boot_id")));
  self.pid = static_cast<int>(getpid());
  StatLine line;
  if (ParseStatLine(ReadSmallFile(absl::StrCat(proc_root, "/", self.pid, "/stat")), &line)) {
    self.start_ticks = line.start_ticks;
  }
  return self;
}

std::optional<ProcessIdentity> ProcessIdentity::Of(int pid, const std::string& proc_root) {
  StatLine line;
  if (pid <= 0 ||
      !ParseStatLine(ReadSmallFile(absl::StrCat(proc_root, "/", pid, "/stat")), &line) ||
      line.state == 'Z' || line.state == 'X') {
    return std::nullopt;
  }
  ProcessIdentity identity;
  identity.boot_id = std::string(
      absl::StripAsciiWhitespace(ReadSmallFile(proc_root + "/sys/kernel/random/boot_id")));
  identity.pid = pid;
  identity.start_ticks = line.start_ticks;
  return identity;
}

std::string ProcessIdentity::ToText() const {
  return absl::StrCat(boot_id, " ", pid, " ", start_ticks);
}

std::optional<ProcessIdentity> ProcessIdentity::FromText(absl::string_view text) {
  std::vector<absl::string_view> fields =
      absl::StrSplit(absl::StripAsciiWhitespace(text), ' ', absl::SkipEmpty());
  ProcessIdentity identity;
  if (fields.size() != 3 || !absl::SimpleAtoi(fields[1], &identity.pid) || identity.pid <= 0 ||
      !absl::SimpleAtoi(fields[2], &identity.start_ticks)) {
    return std::nullopt;
  }
  identity.boot_id = std::string(fields[0]);
  return identity;
}

ProcessProbe::ProcessProbe(std::string proc_root)
    : proc_root_(std::move(proc_root)),
      boot_id_(
          absl::StripAsciiWhitespace(ReadSmallFile(proc_root_ + "/sys/kernel/random/boot_id"))) {}

Activity ProcessProbe::Look(const ProcessIdentity& process, absl::Time now) {
  if (process.pid <= 0 || boot_id_.empty() || process.boot_id != boot_id_) {
    return Activity::kUnknown;
  }
  std::string base = absl::StrCat(proc_root_, "/", process.pid);
  StatLine whole;
  if (!ParseStatLine(ReadSmallFile(base + "/stat"), &whole) ||
      whole.start_ticks != process.start_ticks) {
    seen_.erase(process.pid);  // gone, or a different process under a reused pid
    return Activity::kUnknown;
  }
  Seen now_seen;
  now_seen.start_ticks = process.start_ticks;
  now_seen.at = now;
  bool stopped = IsStopped(whole.state);
  for (int tid : ThreadIds(base + "/task")) {
    StatLine line;
    if (!ParseStatLine(ReadSmallFile(absl::StrCat(base, "/task/", tid, "/stat")), &line)) continue;
    now_seen.threads[tid] = {line.state, line.cpu_ticks};
    stopped |= IsStopped(line.state);
  }
  if (stopped) {
    seen_[process.pid] = std::move(now_seen);
    return Activity::kStopped;
  }
  auto previous = seen_.find(process.pid);
  if (previous == seen_.end() || previous->second.start_ticks != process.start_ticks ||
      now - previous->second.at > kMaxLookGap) {
    absl::erase_if(seen_, [&](const auto& entry) { return now - entry.second.at > kForgetAfter; });
    seen_[process.pid] = std::move(now_seen);
    return Activity::kUnknown;
  }
  if (now - previous->second.at < kMinLookGap) return Activity::kUnknown;  // keep the older look
  bool starved = false;
  bool ran = false;
  for (const auto& [tid, thread] : now_seen.threads) {
    auto before = previous->second.threads.find(tid);
    if (before == previous->second.threads.end()) continue;
    uint64_t cpu = thread.cpu_ticks - std::min(thread.cpu_ticks, before->second.cpu_ticks);
    ran |= cpu > 0;
    starved |= thread.state == 'R' && before->second.state == 'R' && cpu <= 1;
  }
  previous->second = std::move(now_seen);
  if (starved) return Activity::kStarved;
  return ran ? Activity::kRunning : Activity::kWaiting;
}

}  // namespace shoal::liveness
