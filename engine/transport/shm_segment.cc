// ShmSegment: memfd + eventfds, and passing them over a Unix socket with SCM_RIGHTS.
#include "engine/transport/shm_segment.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "engine/transport/shm_channel.h"

namespace shoal::transport {
namespace {

constexpr int kPassedFds = 3;  // memfd, node's doorbell, client's doorbell
constexpr unsigned kSeals = F_SEAL_SHRINK | F_SEAL_GROW;

absl::Status Errno(absl::string_view what) {
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(errno)));
}

}  // namespace

ShmSegment& ShmSegment::operator=(ShmSegment&& other) noexcept {
  if (this != &other) {
    Reset();
    socket = std::exchange(other.socket, -1);
    own_doorbell = std::exchange(other.own_doorbell, -1);
    peer_doorbell = std::exchange(other.peer_doorbell, -1);
    memfd = std::exchange(other.memfd, -1);
    base = std::exchange(other.base, nullptr);
    bytes = std::exchange(other.bytes, 0);
    ring_capacity = std::exchange(other.ring_capacity, 0);
  }
  return *this;
}

void ShmSegment::Reset() {
  if (base != nullptr) munmap(base, bytes);
  for (int* fd : {&socket, &own_doorbell, &peer_doorbell, &memfd}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
  base = nullptr;
}

absl::Status ShmSegment::Map() {
  base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
  if (base == MAP_FAILED) {
    base = nullptr;
    return absl::ResourceExhaustedError(
        absl::StrCat("shm: mmap of ", bytes, " bytes: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

absl::StatusOr<SpscRing> ShmSegment::Ring(int index) const {
  const size_t ring_bytes = SpscRing::RequiredBytes(ring_capacity);
  return SpscRing::Attach(static_cast<char*>(base) + index * ring_bytes, ring_bytes);
}

absl::StatusOr<ShmSegment> ShmSegment::Create(int socket, size_t ring_capacity) {
  ShmSegment s;
  s.socket = socket;
  s.ring_capacity = ring_capacity;
  s.bytes = SegmentBytes(ring_capacity);
  s.memfd = memfd_create("shoal-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (s.memfd < 0) return Errno("memfd_create");
  if (ftruncate(s.memfd, static_cast<off_t>(s.bytes)) != 0) return Errno("ftruncate");
  if (fcntl(s.memfd, F_ADD_SEALS, kSeals | F_SEAL_SEAL) != 0) return Errno("seal memfd");
  SHOAL_RETURN_IF_ERROR(s.Map());
  const size_t ring_bytes = SpscRing::RequiredBytes(ring_capacity);
  for (int i = 0; i < 2; ++i) {
    SHOAL_RETURN_IF_ERROR(
        SpscRing::Init(static_cast<char*>(s.base) + i * ring_bytes, ring_bytes).status());
  }
  s.own_doorbell = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (s.own_doorbell < 0) return Errno("eventfd");
  s.peer_doorbell = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (s.peer_doorbell < 0) return Errno("eventfd");
  return s;
}

absl::Status ShmSegment::SendHello() {
  ShmHello hello = {kShmHelloMagic, kShmHelloVersion, 0, ring_capacity, bytes};
  iovec iov = {&hello, sizeof(hello)};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kPassedFds)] = {};
  msghdr msg = {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN(sizeof(int) * kPassedFds);
  const int fds[kPassedFds] = {memfd, own_doorbell, peer_doorbell};
  std::memcpy(CMSG_DATA(cmsg), fds, sizeof(fds));
  ssize_t n;
  do {
    n = sendmsg(socket, &msg, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  // A fresh socket's buffer always takes these few bytes: EAGAIN would be a broken peer too.
  if (n != static_cast<ssize_t>(sizeof(hello))) {
    return absl::UnavailableError(absl::StrCat("shm: cannot send the segment to the client: ",
                                               n < 0 ? std::strerror(errno) : "short write"));
  }
  close(memfd);  // the mapping keeps the memory
  memfd = -1;
  return absl::OkStatus();
}

absl::StatusOr<ShmSegment> ShmSegment::Receive(int socket, absl::Time deadline,
                                               absl::FunctionRef<void()> while_waiting) {
  ShmSegment s;
  s.socket = socket;
  for (;;) {
    pollfd pfd = {socket, POLLIN, 0};
    int rc = poll(&pfd, 1, 1);
    if (rc > 0) break;
    if (rc < 0 && errno != EINTR) return Errno("poll");
    if (absl::Now() >= deadline) {
      return absl::DeadlineExceededError("shm: no segment from the data node in time");
    }
    while_waiting();
  }
  ShmHello hello = {};
  iovec iov = {&hello, sizeof(hello)};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kPassedFds)] = {};
  msghdr msg = {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  ssize_t n;
  do {
    n = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return Errno("shm: recvmsg");
  // Take ownership of whatever descriptors came, before judging the message.
  int fds[kPassedFds] = {-1, -1, -1};
  int received = 0;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    int count = static_cast<int>((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    int got[kPassedFds];
    std::memcpy(got, CMSG_DATA(c), sizeof(int) * std::min(count, kPassedFds));
    for (int i = 0; i < std::min(count, kPassedFds); ++i) {
      if (received < kPassedFds) {
        fds[received++] = got[i];
      } else {
        close(got[i]);
      }
    }
  }
  s.memfd = fds[0];
  s.peer_doorbell = fds[1];
  s.own_doorbell = fds[2];
  if (n == 0) return absl::UnavailableError("shm: the data node closed the connection");
  if (n != static_cast<ssize_t>(sizeof(hello)) || (msg.msg_flags & MSG_CTRUNC) != 0 ||
      received != kPassedFds) {
    return absl::DataLossError("shm: malformed hello from the data node");
  }
  if (hello.magic != kShmHelloMagic || hello.version != kShmHelloVersion) {
    return absl::DataLossError("shm: bad hello magic or version");
  }
  if (!std::has_single_bit(hello.ring_capacity) || hello.ring_capacity < kShmMinRingCapacity ||
      hello.ring_capacity > kShmMaxRingCapacity ||
      hello.segment_bytes != SegmentBytes(hello.ring_capacity)) {
    return absl::DataLossError(absl::StrCat("shm: bad ring size ", hello.ring_capacity));
  }
  struct stat st;
  if (fstat(s.memfd, &st) != 0) return Errno("shm: fstat");
  int seals = fcntl(s.memfd, F_GET_SEALS);
  if (static_cast<uint64_t>(st.st_size) != hello.segment_bytes || seals < 0 ||
      (static_cast<unsigned>(seals) & kSeals) != kSeals) {
    return absl::DataLossError("shm: the segment's size does not match the hello");
  }
  s.ring_capacity = hello.ring_capacity;
  s.bytes = hello.segment_bytes;
  SHOAL_RETURN_IF_ERROR(s.Map());
  close(s.memfd);
  s.memfd = -1;
  int flags = fcntl(socket, F_GETFL);
  if (flags < 0 || fcntl(socket, F_SETFL, flags | O_NONBLOCK) != 0) return Errno("fcntl");
  return s;
}

}  // namespace shoal::transport
