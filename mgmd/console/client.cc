#include "mgmd/console/client.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace shoal::console {

absl::StatusOr<ConsoleClient> ConsoleClient::Connect(const std::string& host, int port,
                                                     absl::Duration timeout,
                                                     const tls::LinkContext* tls) {
  absl::StatusOr<control::BlockingConnection> connection =
      control::BlockingConnection::Connect(host, port, timeout, tls);
  if (!connection.ok()) {
    // Said for a person at the console: which daemon it could not reach.
    std::string message(connection.status().message());
    if (absl::StartsWith(message, "cannot connect to ")) {
      message = absl::StrCat("cannot connect to the management daemon at ",
                             message.substr(sizeof("cannot connect to ") - 1));
    }
    return absl::UnavailableError(message);
  }
  return ConsoleClient(std::move(*connection));
}

absl::StatusOr<control::ConsoleRep> ConsoleClient::Call(const control::ConsoleReq& request,
                                                        absl::Duration timeout) {
  absl::Time deadline = absl::Now() + timeout;
  control::ControlMessage message;
  *message.mutable_console_req() = request;
  if (absl::Status sent = connection_.Send(message, timeout); !sent.ok()) return sent;
  while (true) {
    absl::StatusOr<control::ControlMessage> reply =
        connection_.Receive(std::max(absl::ZeroDuration(), deadline - absl::Now()));
    if (absl::IsDeadlineExceeded(reply.status())) {
      return absl::DeadlineExceededError(absl::StrCat(
          "no answer from the management daemon within ", absl::FormatDuration(timeout)));
    }
    if (absl::IsUnavailable(reply.status())) {
      return absl::UnavailableError(
          absl::StrCat("the management daemon at ", address(), " closed the connection"));
    }
    if (!reply.ok()) return reply.status();
    if (reply->has_register_ref()) {
      return absl::PermissionDeniedError(absl::StrCat("the management daemon refused the console: ",
                                                      reply->register_ref().message()));
    }
    // Anything else is not for us (cannot happen on a console connection): skip it.
    if (reply->has_console_rep()) return reply->console_rep();
  }
}

}  // namespace shoal::console
