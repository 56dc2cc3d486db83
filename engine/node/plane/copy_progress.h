// CopyProgress: how far the copy to this restarting node has come, from the copy source's
// LDMs' reports (kCopyDone, each LDM's partitions sent of its total). The percent only grows:
// LDMs not heard from yet count as not started, and it stays below 100 until every LDM is
// complete. Owned by the GroupRole.
#pragma once

#include <vector>

#include "engine/wire/replica_ops.h"

namespace shoal::node {

class CopyProgress {
 public:
  enum class Step {
    kNone,      // nothing new to tell (or a report to ignore)
    kPercent,   // percent() moved
    kComplete,  // every LDM of the source has sent all
  };

  // One LDM's latest report.
  Step Update(const wire::CopyDone& report);
  int percent() const { return percent_; }

 private:
  std::vector<wire::CopyDone> ldms_;  // per LDM of the copy source: its last word
  int percent_ = -1;
};

}  // namespace shoal::node
