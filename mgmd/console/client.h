// ConsoleClient: a blocking connection from shoal-mgm to the mgmd — send one ConsoleReq, wait
// for its ConsoleRep. Blocking is fine here: the console is a command-line tool.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/control/control.pb.h"

namespace shoal::console {

class ConsoleClient {
 public:
  static absl::StatusOr<ConsoleClient> Connect(const std::string& host, int port,
                                               absl::Duration timeout);
  ConsoleClient(ConsoleClient&& other) noexcept;
  ConsoleClient& operator=(ConsoleClient&& other) noexcept;
  ~ConsoleClient();

  // Waits at most `timeout` for the reply.
  absl::StatusOr<control::ConsoleRep> Call(const control::ConsoleReq& request,
                                           absl::Duration timeout);
  const std::string& address() const { return address_; }

 private:
  ConsoleClient(int fd, std::string address) : fd_(fd), address_(std::move(address)) {}

  int fd_ = -1;
  std::string address_;
  std::string buffer_;  // bytes read but not yet decoded
};

}  // namespace shoal::console
