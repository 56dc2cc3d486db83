// "host:port" as written in connect strings (`--connect-string 127.0.0.1:1186`, `-c host`).
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shoal {

struct HostPort {
  std::string host;
  int port = 0;
};

// Accepts "host", "host:port", "[v6addr]:port". A missing port is `default_port`.
absl::StatusOr<HostPort> ParseHostPort(absl::string_view text, int default_port);

}  // namespace shoal
