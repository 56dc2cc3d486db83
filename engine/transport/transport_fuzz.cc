// Fuzzes what a transport reads from a peer it cannot trust. The first byte picks the target:
//   even: an SpscRing whose head (next 8 bytes) and data area (the rest) a peer wrote — every
//         record the consumer returns must lie inside the data area;
//   odd:  a TCP byte stream (the rest, fed in chunks over a socketpair) — every frame Peek()
//         returns must have a length in range matching its first 4 bytes.
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "engine/transport/channel.h"
#include "engine/transport/spsc_ring.h"
#include "engine/transport/tcp_channel.h"

namespace {

using shoal::transport::Channel;
using shoal::transport::SpscRing;

void FuzzRing(const uint8_t* data, size_t size) {
  constexpr size_t kCapacity = 1024;
  alignas(
      shoal::transport::kRingLineSize) static uint8_t memory[SpscRing::kHeaderBytes + kCapacity];
  std::memset(memory, 0, sizeof(memory));
  SpscRing consumer = *SpscRing::Init(memory, sizeof(memory));
  uint64_t head = 0;
  std::memcpy(&head, data, std::min<size_t>(size, 8));
  if (size > 8)
    std::memcpy(memory + SpscRing::kHeaderBytes, data + 8, std::min(size - 8, kCapacity));
  reinterpret_cast<shoal::transport::RingHeader*>(memory)->head.store(head);
  const uint8_t* begin = memory + SpscRing::kHeaderBytes;
  for (int i = 0; i < 256; ++i) {
    absl::string_view record = consumer.Front();
    if (record.empty()) break;
    const auto* p = reinterpret_cast<const uint8_t*>(record.data());
    if (p < begin || p + record.size() > begin + kCapacity) std::abort();
    consumer.Pop();
  }
}

void Drain(Channel* channel) {
  for (;;) {
    absl::string_view frame = channel->Peek();
    if (frame.empty()) return;
    uint32_t length;
    std::memcpy(&length, frame.data(), 4);
    if (length != frame.size() || length < shoal::transport::kMinFrameSize ||
        length > shoal::transport::kMaxFrameSize) {
      std::abort();
    }
    channel->Consume();
  }
}

void FuzzTcp(const uint8_t* data, size_t size) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return;
  std::unique_ptr<Channel> channel = shoal::transport::NewTcpChannel(fds[0]);
  bool dead = false;
  for (size_t offset = 0; offset < size && !dead;) {
    size_t chunk = std::min<size_t>(size - offset, 1 + data[offset] * 16);
    ssize_t n = write(fds[1], data + offset, chunk);
    if (n <= 0) break;
    offset += static_cast<size_t>(n);
    dead = !channel->Receive().ok();
    if (!dead) Drain(channel.get());
  }
  close(fds[1]);
  for (int i = 0; i < 64 && !dead; ++i) {
    dead = !channel->Receive().ok();
    if (!dead) Drain(channel.get());
  }
  if (!dead) std::abort();  // after the peer's close, Receive must fail
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0) {
    FuzzRing(data + 1, size - 1);
  } else {
    FuzzTcp(data + 1, size - 1);
  }
  return 0;
}
