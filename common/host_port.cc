#include "common/host_port.h"

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace shoal {

absl::StatusOr<HostPort> ParseHostPort(absl::string_view text, int default_port) {
  HostPort out;
  out.port = default_port;
  absl::string_view host = text;
  absl::string_view port;
  if (!text.empty() && text.front() == '[') {
    size_t close = text.find(']');
    if (close == absl::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat("bad address '", text, "': missing ']'"));
    }
    host = text.substr(1, close - 1);
    absl::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') {
        return absl::InvalidArgumentError(absl::StrCat("bad address '", text, "'"));
      }
      port = rest.substr(1);
    }
  } else if (size_t colon = text.rfind(':'); colon != absl::string_view::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (host.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("bad address '", text, "': no host"));
  }
  out.host = std::string(host);
  if (!port.empty()) {
    if (!absl::SimpleAtoi(port, &out.port) || out.port <= 0 || out.port > 65535) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad address '", text, "': port must be 1..65535"));
    }
  }
  return out;
}

}  // namespace shoal
