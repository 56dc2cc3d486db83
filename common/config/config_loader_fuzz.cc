// Feeds arbitrary bytes to the configuration loader. It must never crash, every error must be
// one line, and every configuration it accepts must survive ToYaml → LoadConfigString
// unchanged (the mgmd ships configurations to nodes in exactly that form).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/config/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<shoal::config::ClusterConfig> config =
      shoal::config::LoadConfigString(input, "fuzz.yaml");
  if (!config.ok()) {
    std::string message(config.status().message());
    if (message.find('\n') != std::string::npos || message.rfind("fuzz.yaml:", 0) != 0) {
      std::fprintf(stderr, "malformed error: %s\n", message.c_str());
      std::abort();
    }
    return 0;
  }
  std::string yaml = shoal::config::ToYaml(*config);
  absl::StatusOr<shoal::config::ClusterConfig> again =
      shoal::config::LoadConfigString(yaml, "canonical.yaml");
  if (!again.ok()) {
    std::fprintf(stderr, "canonical YAML does not load: %s\n%s",
                 std::string(again.status().message()).c_str(), yaml.c_str());
    std::abort();
  }
  std::string yaml_again = shoal::config::ToYaml(*again);
  if (yaml_again != yaml) {
    std::fprintf(stderr, "round trip changed the configuration:\n%s---\n%s", yaml.c_str(),
                 yaml_again.c_str());
    std::abort();
  }
  return 0;
}
