#include "common/control/thread_usage.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace shoal::control {

bool ParseThreadStat(absl::string_view stat, std::string* name, uint64_t* user_ticks,
                     uint64_t* system_ticks) {
  size_t open = stat.find('(');
  size_t close = stat.rfind(')');
  if (open == absl::string_view::npos || close == absl::string_view::npos || close < open) {
    return false;
  }
  *name = std::string(stat.substr(open + 1, close - open - 1));
  // After the name: state (field 3) … utime (14) and stime (15), counted from 1.
  std::vector<absl::string_view> fields =
      absl::StrSplit(stat.substr(close + 1), ' ', absl::SkipEmpty());
  constexpr size_t kUtime = 14 - 3, kStime = 15 - 3;
  return fields.size() > kStime && absl::SimpleAtoi(fields[kUtime], user_ticks) &&
         absl::SimpleAtoi(fields[kStime], system_ticks);
}

std::vector<ThreadUsage> ThreadSampler::Sample(absl::Time now) {
  static const double kTicksPerSecond = static_cast<double>(sysconf(_SC_CLK_TCK));
  std::vector<ThreadUsage> threads;
  absl::flat_hash_map<pid_t, Ticks> seen;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return threads;
  const double seconds =
      last_time_ == absl::InfinitePast() ? 0 : absl::ToDoubleSeconds(now - last_time_);
  while (dirent* entry = readdir(dir)) {
    pid_t tid = 0;
    if (!absl::SimpleAtoi(entry->d_name, &tid)) continue;
    std::ifstream file(absl::StrCat("/proc/self/task/", tid, "/stat"));
    std::stringstream text;
    text << file.rdbuf();
    std::string name;
    Ticks ticks;
    if (!ParseThreadStat(text.str(), &name, &ticks.user, &ticks.system)) continue;
    seen[tid] = ticks;
    auto last = last_.find(tid);
    Ticks before = last == last_.end() ? Ticks{} : last->second;
    ThreadUsage usage;
    usage.set_tid(tid);
    usage.set_name(name);
    if (seconds > 0 && last != last_.end()) {
      usage.set_user_percent(
          static_cast<float>((ticks.user - before.user) / kTicksPerSecond / seconds * 100));
      usage.set_system_percent(
          static_cast<float>((ticks.system - before.system) / kTicksPerSecond / seconds * 100));
    }
    threads.push_back(std::move(usage));
  }
  closedir(dir);
  std::sort(threads.begin(), threads.end(),
            [](const ThreadUsage& a, const ThreadUsage& b) { return a.tid() < b.tid(); });
  last_ = std::move(seen);
  last_time_ = now;
  return threads;
}

}  // namespace shoal::control
