#include "engine/node/thread_layout.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace shoal::node {
namespace {

constexpr int kMaxLdms = 32;

}  // namespace

std::string ThreadLayout::Describe() const {
  return absl::StrCat(threads, " thread(s), ", ldm_count, " LDM(s)");
}

ThreadLayout ChooseThreadLayout(int configured_threads, const std::vector<int>& cpus,
                                int machine_cpus) {
  ThreadLayout layout;
  int threads = configured_threads;
  if (threads <= 0) {
    int granted = !cpus.empty() ? static_cast<int>(cpus.size()) : std::max(1, machine_cpus);
    // On 1–2 CPUs one thread plays every role; the other CPU is left to a client on the host.
    threads = granted <= 2 ? 1 : granted;
  }
  if (threads == 1) return layout;
  layout.ldm_count = std::min(kMaxLdms, threads - 1);
  layout.threads = 1 + layout.ldm_count;
  return layout;
}

}  // namespace shoal::node
