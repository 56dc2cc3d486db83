#include "engine/node/ldm/context.h"

#include "absl/strings/str_cat.h"
#include "engine/wire/errors.h"
#include "engine/wire/placement.h"

namespace shoal::node {

int GroupView::PrimaryOf(uint32_t partition) const {
  if (members.empty()) return self;
  int replica = wire::PrimaryReplica(partition, node_groups, static_cast<int>(members.size()),
                                     [this](int i) { return started[i]; });
  return replica < 0 ? -1 : members[replica];
}

bool GroupView::IsStarted(int node) const {
  for (size_t i = 0; i < members.size(); ++i) {
    if (members[i] == node) return started[i];
  }
  return false;
}

std::string LdmContext::RedoRefusal() const {
  return wire::TemporaryError(
      wire::kNdbRedoOverloaded,
      absl::StrCat("REDO log files overloaded (disk full: ",
                   redo_error ? redo_error() : std::string("the redo log cannot be written"), ")"));
}

void ReplyError(LdmContext* context, wire::FrameBuilder* out, uint64_t tag, uint16_t code,
                absl::string_view message) {
  ++context->stats.errors;
  if (out != nullptr) wire::AppendResult(out, code, 0, tag, {message});
}

}  // namespace shoal::node
