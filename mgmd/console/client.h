// ConsoleClient: a blocking connection from shoal-mgm to the mgmd — send one ConsoleReq, wait
// for its ConsoleRep. Blocking is fine here: the console is a command-line tool.
#pragma once

#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/control/blocking_connection.h"
#include "common/control/control.pb.h"
#include "common/tls/link_context.h"

namespace shoal::console {

class ConsoleClient {
 public:
  // With `tls`, over TLS (a cluster whose links use TLS refuses a console without).
  static absl::StatusOr<ConsoleClient> Connect(const std::string& host, int port,
                                               absl::Duration timeout,
                                               const tls::LinkContext* tls = nullptr);

  // Waits at most `timeout` for the reply.
  absl::StatusOr<control::ConsoleRep> Call(const control::ConsoleReq& request,
                                           absl::Duration timeout);
  const std::string& address() const { return connection_.peer(); }

 private:
  explicit ConsoleClient(control::BlockingConnection connection)
      : connection_(std::move(connection)) {}

  control::BlockingConnection connection_;
};

}  // namespace shoal::console
