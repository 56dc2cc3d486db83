// ShmChannel, the two rings of one connection; plus the listener and client handshake.
#include "engine/transport/shm_channel.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "engine/transport/doorbell.h"
#include "engine/transport/shm_segment.h"
#include "engine/transport/spsc_ring.h"

namespace shoal::transport {
namespace {

// One end of a shared-memory connection. Owns the mapping and every descriptor; owned by one
// thread at a time (the Channel contract).
class ShmChannel final : public Channel {
 public:
  ShmChannel(ShmSegment segment, SpscRing out, SpscRing in, int wait_fd)
      : segment_(std::move(segment)), out_(out), in_(in), wait_fd_(wait_fd) {}
  ~ShmChannel() override { close(wait_fd_); }

  bool TryWrite(absl::string_view frame) override {
    if (!out_.TryPush(frame)) return false;
    unflushed_ = true;
    return true;
  }

  absl::Status Flush() override {
    if (out_.corrupted()) return absl::DataLossError("shm: the peer corrupted the outgoing ring");
    if (!unflushed_) return absl::OkStatus();
    unflushed_ = false;
    if (out_.ConsumerSleeping() && !RingDoorbell(segment_.peer_doorbell)) {
      return absl::InternalError(absl::StrCat("shm: doorbell: ", std::strerror(errno)));
    }
    return absl::OkStatus();
  }

  bool HasPendingOutput() const override { return false; }

  absl::Status Receive() override {
    if (in_.corrupted()) return absl::DataLossError("shm: the incoming ring is corrupted");
    if (!malformed_.ok()) return malformed_;
    return absl::OkStatus();
  }

  absl::string_view Peek() override {
    if (!malformed_.ok()) return {};
    absl::string_view frame = in_.Front();
    if (frame.empty()) return frame;
    uint32_t length = 0;
    if (frame.size() >= 4) std::memcpy(&length, frame.data(), 4);  // little-endian hosts only
    if (frame.size() < kMinFrameSize || frame.size() > kMaxFrameSize || length != frame.size()) {
      malformed_ = absl::DataLossError(
          absl::StrCat("shm: malformed frame of ", frame.size(), " bytes (length ", length, ")"));
      return {};
    }
    return frame;
  }

  void Consume() override { in_.Pop(); }

  bool PrepareToSleep() override { return in_.PrepareSleep(); }

  void WokeUp() override {
    DrainDoorbell(segment_.own_doorbell);
    in_.ClearSleep();
  }

  int wait_fd() const override { return wait_fd_; }
  int write_fd() const override { return -1; }

  absl::Status CheckAlive() override {
    SHOAL_RETURN_IF_ERROR(Receive());
    char byte;
    for (;;) {
      ssize_t n = recv(segment_.socket, &byte, 1, MSG_DONTWAIT);
      if (n == 0) return absl::UnavailableError("shm: the peer closed the connection");
      if (n > 0) return absl::DataLossError("shm: unexpected bytes on the handshake socket");
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return absl::OkStatus();
      return absl::UnavailableError(absl::StrCat("shm: peer socket: ", std::strerror(errno)));
    }
  }

  absl::string_view kind() const override { return "shm"; }

 private:
  ShmSegment segment_;
  SpscRing out_;
  SpscRing in_;
  int wait_fd_;
  bool unflushed_ = false;
  absl::Status malformed_;
};

// Builds the channel for one side once the segment is mapped: `out_index` is the ring this
// side writes (0: client → node, 1: node → client).
absl::StatusOr<std::unique_ptr<Channel>> MakeChannel(ShmSegment segment, int out_index) {
  SHOAL_ASSIGN_OR_RETURN(SpscRing out, segment.Ring(out_index));
  SHOAL_ASSIGN_OR_RETURN(SpscRing in, segment.Ring(1 - out_index));
  // One pollable fd for "the doorbell rang or the peer hung up".
  int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd < 0) return absl::InternalError(absl::StrCat("epoll: ", std::strerror(errno)));
  epoll_event doorbell = {};
  doorbell.events = EPOLLIN;
  epoll_event hangup = {};
  hangup.events = EPOLLIN | EPOLLRDHUP;
  hangup.data.u64 = 1;
  if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, segment.own_doorbell, &doorbell) != 0 ||
      epoll_ctl(epoll_fd, EPOLL_CTL_ADD, segment.socket, &hangup) != 0) {
    int error = errno;
    close(epoll_fd);
    return absl::InternalError(absl::StrCat("epoll_ctl: ", std::strerror(error)));
  }
  return std::unique_ptr<Channel>(new ShmChannel(std::move(segment), out, in, epoll_fd));
}

absl::StatusOr<sockaddr_un> UnixAddress(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(addr.sun_path)) {
    return absl::InvalidArgumentError(absl::StrCat("bad Unix socket path '", path, "'"));
  }
  std::memcpy(addr.sun_path, path.data(), path.size());
  return addr;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ShmListener>> ShmListener::Listen(const std::string& path,
                                                                 size_t ring_bytes) {
  SHOAL_ASSIGN_OR_RETURN(sockaddr_un addr, UnixAddress(path));
  size_t capacity = std::bit_ceil(std::max(ring_bytes, kShmMinRingCapacity));
  if (capacity > kShmMaxRingCapacity) {
    return absl::InvalidArgumentError(absl::StrCat("shm ring too large: ", ring_bytes));
  }
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::InternalError(absl::StrCat("socket: ", std::strerror(errno)));
  unlink(path.c_str());  // a stale socket file from a process that died
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd, 128) != 0) {
    int error = errno;
    close(fd);
    return absl::UnavailableError(
        absl::StrCat("cannot listen on the Unix socket ", path, ": ", std::strerror(error)));
  }
  return std::unique_ptr<ShmListener>(new ShmListener(fd, path, capacity));
}

ShmListener::~ShmListener() {
  close(fd_);
  unlink(path_.c_str());
}

absl::StatusOr<std::unique_ptr<Channel>> ShmListener::Accept() {
  int fd;
  for (;;) {
    fd = accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) break;
    if (errno == EINTR || errno == ECONNABORTED) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return std::unique_ptr<Channel>();
    return absl::UnavailableError(absl::StrCat("shm accept: ", std::strerror(errno)));
  }
  SHOAL_ASSIGN_OR_RETURN(ShmSegment segment, ShmSegment::Create(fd, ring_capacity_));
  SHOAL_RETURN_IF_ERROR(segment.SendHello());
  return MakeChannel(std::move(segment), /*out_index=*/1);
}

absl::StatusOr<std::unique_ptr<Channel>> ConnectShm(const std::string& path, absl::Duration timeout,
                                                    absl::FunctionRef<void()> while_waiting) {
  const absl::Time deadline = absl::Now() + timeout;
  SHOAL_ASSIGN_OR_RETURN(sockaddr_un addr, UnixAddress(path));
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::InternalError(absl::StrCat("socket: ", std::strerror(errno)));
  int rc;
  for (;;) {
    rc = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    if (rc == 0 || (errno != EINTR && errno != EAGAIN) || absl::Now() >= deadline) break;
    // EAGAIN: the listener's backlog is full; it drains as the data node accepts.
    if (errno == EAGAIN) poll(nullptr, 0, 1);
  }
  if (rc != 0) {
    int error = errno;
    close(fd);
    return absl::UnavailableError(
        absl::StrCat("cannot connect to the Unix socket ", path, ": ", std::strerror(error)));
  }
  // From here on `segment` owns fd.
  SHOAL_ASSIGN_OR_RETURN(ShmSegment segment, ShmSegment::Receive(fd, deadline, while_waiting));
  return MakeChannel(std::move(segment), /*out_index=*/0);
}

}  // namespace shoal::transport
