// shoal-datanode: a data node. It joins the cluster through the management daemon, which gives
// it its node id and the cluster configuration; storage, replication and the native API come
// in engine/ as they are built.
#include <filesystem>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/control/managed_node.h"
#include "common/logging.h"

namespace {

constexpr char kUsage[] =
    "a Shoal data node.\n\n"
    "  shoal-datanode --connect-string mgmd-host:1186 [--node-id N]\n\n"
    "The node id and everything else come from the management daemon's configuration.";

absl::Status StartDataNode(const shoal::control::ManagedNodeContext& context) {
  const shoal::config::DataNodeConfig* self = context.config->FindDataNode(context.node_id);
  if (self == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("node ", context.node_id, " is not a data node in the configuration"));
  }
  std::error_code ec;
  std::filesystem::create_directories(self->data_dir, ec);
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("cannot create the data directory ", self->data_dir, ": ", ec.message()));
  }
  SHOAL_LOG(kInfo) << "data directory " << self->data_dir << ", node group " << self->node_group
                   << ", data memory "
                   << shoal::config::FormatSize(context.config->cluster.data_memory);
  return absl::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  shoal::control::ManagedNodeHooks hooks;
  hooks.start = &StartDataNode;
  return shoal::control::RunManagedNode(shoal::control::DATANODE, "shoal-datanode", kUsage, argc,
                                        argv, std::move(hooks));
}
