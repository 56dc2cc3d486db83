// The copy's percent, from the source's LDMs' reports.
#include "engine/node/plane/copy_progress.h"

#include <algorithm>
#include <cstdint>

namespace shoal::node {

CopyProgress::Step CopyProgress::Update(const wire::CopyDone& report) {
  if (report.ldm_count > 256) return Step::kNone;
  ldms_.resize(report.ldm_count);
  ldms_[report.ldm] = report;
  uint64_t done = 0;
  uint64_t total = 0;
  int complete = 0;
  for (const wire::CopyDone& ldm : ldms_) {
    done += ldm.sent;
    total += ldm.total;
    complete += ldm.complete ? 1 : 0;
  }
  if (complete == static_cast<int>(ldms_.size())) return Step::kComplete;
  // LDMs not heard from yet count as not started: the percent only grows.
  int percent = total == 0 ? 0 : static_cast<int>(std::min<uint64_t>(99, done * 100 / total));
  if (ldms_.size() > 1) {
    uint64_t heard = 0;
    for (const wire::CopyDone& ldm : ldms_) heard += ldm.ldm_count != 0 ? 1 : 0;
    percent = static_cast<int>(percent * heard / ldms_.size());
  }
  if (percent == percent_) return Step::kNone;
  percent_ = percent;
  return Step::kPercent;
}

}  // namespace shoal::node
