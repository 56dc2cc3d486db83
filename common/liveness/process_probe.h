// ProcessProbe: what this host's kernel says a process has been doing — the one witness that
// tells a peer kept from running by the scheduler (a busy neighbour's session starving ours)
// from a peer that is stopped, hung or gone. A failure detector asks it about a silent peer
// that runs on the same host; for any other peer it answers kUnknown and the detector relies
// on time alone.
//
// A process is named by a ProcessIdentity (boot id, pid, start time), which every node sends
// when it registers and the cluster view carries. Only a process this kernel shows under that
// pid with that start time is looked at: a peer on another host, in another pid namespace, or
// one whose pid was reused, is kUnknown — never mistaken for another process.
//
// Owned by one detector; used on its thread only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace shoal::liveness {

struct ProcessIdentity {
  std::string boot_id;       // the kernel's boot id: one per host and boot
  int pid = 0;               // 0: no identity (the probe answers kUnknown)
  uint64_t start_ticks = 0;  // when it started, in clock ticks since boot (/proc/<pid>/stat)

  // This process. `proc_root` is /proc except in tests.
  static ProcessIdentity Self(const std::string& proc_root = "/proc");
  // The process this kernel runs under `pid`; nullopt when there is none, or only its zombie
  // (it has ended, and nobody collected its status yet).
  static std::optional<ProcessIdentity> Of(int pid, const std::string& proc_root = "/proc");
  // The text form, "<boot id> <pid> <start ticks>", and back (nullopt when malformed).
  std::string ToText() const;
  static std::optional<ProcessIdentity> FromText(absl::string_view text);
  bool operator==(const ProcessIdentity&) const = default;
};

enum class Activity {
  kUnknown,  // no finding: another host or namespace, gone, or the first look at it
  kStopped,  // stopped by a signal or a tracer (SIGSTOP): it cannot answer until continued
  kStarved,  // a thread was runnable throughout yet got no CPU: the scheduler holds it back
  kRunning,  // it got CPU since the previous look
  kWaiting,  // no thread runnable-and-starved, none got CPU: sleeping, blocked or hung
};
const char* ActivityName(Activity activity);

class ProcessProbe {
 public:
  // Shorter than this, a runnable thread may merely be waiting its turn.
  static constexpr absl::Duration kMinLookGap = absl::Milliseconds(50);
  // Longer than this, the earlier look is from another silence: it starts again from now.
  static constexpr absl::Duration kMaxLookGap = absl::Seconds(10);

  explicit ProcessProbe(std::string proc_root = "/proc");

  // What `process` has done since the previous Look at it. A thread counts as starved when it
  // was runnable at the previous look and is now, and has had at most one clock tick of CPU in
  // between (the kernel's own view of "runnable throughout yet not run"). The first look at a
  // process, or one less than kMinLookGap or more than kMaxLookGap after the previous, can only
  // tell kStopped (or kUnknown). Looks older than a minute are dropped, so processes that are
  // gone are not remembered for ever.
  Activity Look(const ProcessIdentity& process, absl::Time now);

 private:
  struct Seen {
    uint64_t start_ticks = 0;
    absl::Time at;
    struct Thread {
      char state = '?';
      uint64_t cpu_ticks = 0;
    };
    absl::flat_hash_map<int, Thread> threads;  // by tid
  };

  std::string proc_root_;
  std::string boot_id_;
  absl::flat_hash_map<int, Seen> seen_;  // pid → the previous look
};

// One line of /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat, the fields the probe uses.
struct StatLine {
  char state = '?';
  uint64_t cpu_ticks = 0;  // utime + stime
  uint64_t start_ticks = 0;
};
// False when `text` is not such a line.
bool ParseStatLine(const std::string& text, StatLine* out);

}  // namespace shoal::liveness
