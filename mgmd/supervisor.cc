#include "mgmd/supervisor.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"

namespace shoal::mgmd {

std::string DescribeWaitStatus(int wait_status) {
  if (WIFEXITED(wait_status)) return absl::StrCat("exited with code ", WEXITSTATUS(wait_status));
  if (WIFSIGNALED(wait_status)) {
    int sig = WTERMSIG(wait_status);
    return absl::StrCat("killed by signal ", sig, " (", strsignal(sig), ")");
  }
  return absl::StrCat("ended with status ", wait_status);
}

Supervisor::Supervisor(EventLoop* loop, ExitHandler on_exit)
    : on_exit_(std::move(on_exit)), sigchld_(loop, SIGCHLD, [this] { Reap(); }) {}

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
  pids_[spec.node_id] = pid;
  return pid;
}

bool Supervisor::Signal(int node_id, int signo) {
  auto it = pids_.find(node_id);
  if (it == pids_.end()) return false;
  return kill(it->second, signo) == 0;
}

pid_t Supervisor::pid(int node_id) const {
  auto it = pids_.find(node_id);
  return it == pids_.end() ? 0 : it->second;
}

void Supervisor::Reap() {
  while (true) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return;
    for (auto it = pids_.begin(); it != pids_.end(); ++it) {
      if (it->second != pid) continue;
      int node_id = it->first;
      pids_.erase(it);
      on_exit_(node_id, pid, status);
      break;
    }
  }
}

}  // namespace shoal::mgmd
