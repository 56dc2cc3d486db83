// transport_bench: throughput and round trips of the data-plane transports between two threads
// of one process. Never gates anything; figures go to bench/RESULTS.md.
//
//   transport_bench [frames]   streams `frames` 16 KiB frames (default 200000) over shm, TCP
//                              loopback and TCP inside TLS (the links between hosts), then
//                              ping-pongs 64 B and 16 KiB frames.
// Readers spin briefly before sleeping on wait_fd(), as the data node does.
#include <poll.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "common/tls/link_context.h"
#include "engine/transport/shm_channel.h"
#include "engine/transport/tcp_channel.h"
#include "engine/transport/transport_test_util.h"

namespace shoal::transport {
namespace {

constexpr int kSpins = 2000;

struct Pair {
  std::unique_ptr<Channel> a;  // the client
  std::unique_ptr<Channel> b;  // the data node
};

void Die(const absl::Status& status) {
  std::fprintf(stderr, "transport_bench: %s\n", status.ToString().c_str());
  std::exit(1);
}

template <typename Listener, typename ConnectFn>
Pair Connect(Listener* listener, ConnectFn connect) {
  Pair pair;
  std::thread client([&] {
    auto channel = connect();
    if (!channel.ok()) Die(channel.status());
    pair.a = std::move(*channel);
  });
  while (pair.b == nullptr) {
    pollfd pfd = {listener->fd(), POLLIN, 0};
    poll(&pfd, 1, 1000);
    auto channel = listener->Accept();
    if (!channel.ok()) Die(channel.status());
    pair.b = std::move(*channel);
  }
  client.join();
  return pair;
}

// Blocks until one frame arrives on `channel`; copies it to `out` (as a decoder would read it).
size_t ReadOne(Channel* channel, std::string* out) {
  int spins = 0;
  for (;;) {
    if (absl::Status status = channel->Receive(); !status.ok()) Die(status);
    absl::string_view frame = channel->Peek();
    if (!frame.empty()) {
      out->assign(frame.data(), frame.size());
      channel->Consume();
      return out->size();
    }
    if (++spins < kSpins) continue;
    spins = 0;
    if (channel->PrepareToSleep()) {
      pollfd pfd = {channel->wait_fd(), POLLIN, 0};
      poll(&pfd, 1, 1000);
      channel->WokeUp();
    }
  }
}

// Writes one frame, waiting for room (and, for TCP, for the socket) while refused.
void WriteOne(Channel* channel, absl::string_view frame) {
  while (!channel->TryWrite(frame)) {
    if (absl::Status status = channel->Flush(); !status.ok()) Die(status);
    if (channel->write_fd() >= 0 && channel->HasPendingOutput()) {
      pollfd pfd = {channel->write_fd(), POLLOUT, 0};
      poll(&pfd, 1, 1000);
    }
  }
}

void Stream(const char* name, Pair* p, size_t frame_size, uint64_t frames) {
  const std::string frame = testing::MakeFrame(frame_size, 0);
  absl::Time start = absl::Now();
  std::thread writer([&] {
    for (uint64_t i = 0; i < frames; ++i) {
      WriteOne(p->a.get(), frame);
      if (i % 16 == 15) (void)p->a->Flush();
    }
    while (p->a->Flush().ok() && p->a->HasPendingOutput()) {
      pollfd pfd = {p->a->write_fd(), POLLOUT, 0};
      poll(&pfd, 1, 1000);
    }
  });
  std::string buffer;
  uint64_t bytes = 0;
  for (uint64_t i = 0; i < frames; ++i) bytes += ReadOne(p->b.get(), &buffer);
  writer.join();
  double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  std::printf("%-4s stream    %6zu B frames: %10.0f frames/s %7.2f GB/s\n", name, frame_size,
              frames / seconds, bytes / seconds / 1e9);
}

void PingPong(const char* name, Pair* p, size_t frame_size, int rounds) {
  const std::string frame = testing::MakeFrame(frame_size, 0);
  std::thread echo([&] {
    std::string buffer;
    for (int i = 0; i < rounds; ++i) {
      ReadOne(p->b.get(), &buffer);
      WriteOne(p->b.get(), buffer);
      if (absl::Status status = p->b->Flush(); !status.ok()) Die(status);
    }
  });
  std::string buffer;
  absl::Time start = absl::Now();
  for (int i = 0; i < rounds; ++i) {
    WriteOne(p->a.get(), frame);
    if (absl::Status status = p->a->Flush(); !status.ok()) Die(status);
    ReadOne(p->a.get(), &buffer);
  }
  double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  echo.join();
  std::printf("%-4s pingpong  %6zu B frames: %10.0f round trips/s, %6.2f us each\n", name,
              frame_size, rounds / seconds, seconds / rounds * 1e6);
}

}  // namespace
}  // namespace shoal::transport

int main(int argc, char** argv) {
  using namespace shoal::transport;  // NOLINT
  uint64_t frames = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 200000;
  testing::TempDir dir;
  std::string path = dir.Path("bench.sock");
  auto shm_listener = ShmListener::Listen(path, 8 << 20);
  if (!shm_listener.ok()) Die(shm_listener.status());
  auto tcp_listener = TcpListener::Listen("127.0.0.1", 0);
  if (!tcp_listener.ok()) Die(tcp_listener.status());
  Pair shm = Connect(shm_listener->get(), [&] { return ConnectShm(path, absl::Seconds(5)); });
  int port = (*tcp_listener)->port();
  Pair tcp =
      Connect(tcp_listener->get(), [&] { return ConnectTcp("127.0.0.1", port, absl::Seconds(5)); });

  auto link = shoal::tls::LoadOrMakeLocalSet(dir.Path("tls"), {});
  if (!link.ok()) Die(link.status());
  auto tls_listener = TcpListener::Listen("127.0.0.1", 0, link->get());
  if (!tls_listener.ok()) Die(tls_listener.status());
  int tls_port = (*tls_listener)->port();
  Pair tls = Connect(tls_listener->get(), [&] {
    return ConnectTcp("127.0.0.1", tls_port, absl::Seconds(5), link->get());
  });
  // Finishes the handshake, which needs both ends reading; its line is the handshake's cost.
  PingPong("tls+handshake", &tls, 64, 10);

  Stream("shm", &shm, 16 << 10, frames);
  Stream("tcp", &tcp, 16 << 10, frames / 4);
  Stream("tls", &tls, 16 << 10, frames / 4);
  Stream("shm", &shm, 256, frames * 4);
  Stream("tcp", &tcp, 256, frames);
  Stream("tls", &tls, 256, frames);
  for (size_t size : {size_t{64}, size_t{16 << 10}}) {
    PingPong("shm", &shm, size, static_cast<int>(frames / 4));
    PingPong("tcp", &tcp, size, static_cast<int>(frames / 20));
    PingPong("tls", &tls, size, static_cast<int>(frames / 20));
  }
  return 0;
}
