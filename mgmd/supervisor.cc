#include "mgmd/supervisor.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"

namespace shoal::mgmd {
namespace {

// Written to a temporary file renamed over the old: a reader sees a whole identity or none.
void WritePidFile(const std::string& path, const liveness::ProcessIdentity& identity) {
  if (path.empty()) return;
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::trunc);
    out << identity.ToText() << "\n";
    if (!out) {
      SHOAL_LOG(kWarning) << "cannot write " << temp << ": a restarted mgmd will not know process "
                          << identity.pid;
      return;
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    SHOAL_LOG(kWarning) << "cannot rename " << temp << ": " << std::strerror(errno);
  }
}

std::optional<liveness::ProcessIdentity> ReadPidFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return liveness::ProcessIdentity::FromText(text.str());
}

bool StillRuns(const liveness::ProcessIdentity& identity) {
  return liveness::ProcessIdentity::Of(identity.pid) == identity;
}

}  // namespace

std::string DescribeWaitStatus(std::optional<int> status) {
  if (!status.has_value()) return "ended (started by an earlier mgmd: how is unknown)";
  const int wait_status = *status;
  if (WIFEXITED(wait_status)) return absl::StrCat("exited with code ", WEXITSTATUS(wait_status));
  if (WIFSIGNALED(wait_status)) {
    int sig = WTERMSIG(wait_status);
    return absl::StrCat("killed by signal ", sig, " (", strsignal(sig), ")");
  }
  return absl::StrCat("ended with status ", wait_status);
}

Supervisor::Supervisor(EventLoop* loop, ExitHandler on_exit)
    : on_exit_(std::move(on_exit)),
      sigchld_(loop, SIGCHLD, [this] { Reap(); }),
      watch_(loop, [this] { WatchAdopted(); }) {}

Supervisor::~Supervisor() = default;

absl::StatusOr<pid_t> Supervisor::Launch(const ChildSpec& spec) {
  if (Running(spec.node_id)) {
    return absl::AlreadyExistsError(absl::StrCat("node ", spec.node_id, " is already running"));
  }
  // Everything the child needs is prepared before fork(): after it, only async-signal-safe
  // calls are allowed in a threaded parent.
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(spec.binary.c_str()));
  for (const std::string& arg : spec.args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  int log_fd = open(spec.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot open ", spec.log_path, ": ", std::strerror(errno)));
  }
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int cpu : spec.cpus) CPU_SET(cpu, &cpus);

  pid_t pid = fork();
  if (pid < 0) {
    close(log_fd);
    return absl::ResourceExhaustedError(absl::StrCat("fork failed: ", std::strerror(errno)));
  }
  if (pid == 0) {
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    if (!spec.cpus.empty() && sched_setaffinity(0, sizeof(cpus), &cpus) != 0) {
      static const char kMsg[] = "cannot pin to the configured cpus\n";
      [[maybe_unused]] ssize_t n = write(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
    }
    // The parent's signal mask and SIGPIPE disposition must not leak into the node.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGPIPE, SIG_DFL);
    execv(spec.binary.c_str(), argv.data());
    static const char kMsg[] = "exec failed\n";
    [[maybe_unused]] ssize_t n = write(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
    _exit(127);
  }
  close(log_fd);
  Child& child = children_[spec.node_id];
  // The child's start time is the fork's: readable now, before or after its exec.
  child.identity = liveness::ProcessIdentity::Of(pid).value_or(liveness::ProcessIdentity{});
  child.identity.pid = pid;
  child.pid_path = spec.pid_path;
  child.adopted = false;
  WritePidFile(child.pid_path, child.identity);
  return pid;
}

std::optional<pid_t> Supervisor::Adopt(const ChildSpec& spec) {
  if (spec.pid_path.empty() || Running(spec.node_id)) return std::nullopt;
  std::optional<liveness::ProcessIdentity> identity = ReadPidFile(spec.pid_path);
  if (!identity.has_value() || !StillRuns(*identity)) {
    std::remove(spec.pid_path.c_str());
    return std::nullopt;
  }
  children_[spec.node_id] = Child{*identity, spec.pid_path, /*adopted=*/true};
  if (!watch_.pending()) watch_.Start(kWatchInterval, Timer::Mode::kRepeat);
  return identity->pid;
}

bool Supervisor::Signal(int node_id, int signo) {
  auto it = children_.find(node_id);
  if (it == children_.end()) return false;
  // An adopted process may have ended since the last look, and its pid gone to another.
  if (it->second.adopted && !StillRuns(it->second.identity)) return false;
  return kill(it->second.identity.pid, signo) == 0;
}

bool Supervisor::Adopted(int node_id) const {
  auto it = children_.find(node_id);
  return it != children_.end() && it->second.adopted;
}

pid_t Supervisor::pid(int node_id) const {
  auto it = children_.find(node_id);
  return it == children_.end() ? 0 : it->second.identity.pid;
}

void Supervisor::Reap() {
  while (true) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return;
    for (const auto& [node_id, child] : children_) {
      if (child.adopted || child.identity.pid != pid) continue;
      Ended(node_id, status);
      break;
    }
  }
}

void Supervisor::WatchAdopted() {
  std::vector<int> ended;
  bool any = false;
  for (const auto& [node_id, child] : children_) {
    if (!child.adopted) continue;
    any = true;
    if (!StillRuns(child.identity)) ended.push_back(node_id);
  }
  if (!any) watch_.Cancel();
  for (int node_id : ended) Ended(node_id, std::nullopt);
}

void Supervisor::Ended(int node_id, std::optional<int> wait_status) {
  auto it = children_.find(node_id);
  const pid_t pid = it->second.identity.pid;
  if (!it->second.pid_path.empty()) std::remove(it->second.pid_path.c_str());
  children_.erase(it);
  on_exit_(node_id, pid, wait_status);
}

}  // namespace shoal::mgmd
