// shoal-router: a stateless MySQL front end. It joins the cluster through the management
// daemon, which gives it its node id and the cluster configuration; the MySQL listeners come
// in router/ as they are built.
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/control/managed_node.h"
#include "common/logging.h"

namespace {

constexpr char kUsage[] =
    "shoal-router: a Shoal MySQL router.\n\n"
    "  shoal-router --connect-string mgmd-host:1186 [--node-id N]\n\n"
    "The node id, sockets, ports and threads come from the management daemon's configuration.";

absl::Status StartRouter(const shoal::control::ManagedNodeContext& context) {
  const shoal::config::RouterConfig* self = context.config->FindRouter(context.node_id);
  if (self == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("node ", context.node_id, " is not a router in the configuration"));
  }
  SHOAL_LOG(kInfo) << "router " << self->id << ": " << self->threads << " worker thread(s)";
  return absl::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  shoal::control::ManagedNodeHooks hooks;
  hooks.start = &StartRouter;
  return shoal::control::RunManagedNode(shoal::control::ROUTER, "shoal-router", kUsage, argc, argv,
                                        std::move(hooks));
}
