// gtest helpers shared by the TCP channel tests, in clear text and inside TLS: reading a
// frame, flushing everything, and back-pressure from a peer that does not read.
#pragma once

#include <cstdint>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "engine/transport/channel.h"
#include "engine/transport/tcp_channel.h"
#include "engine/transport/transport_test_util.h"
#include "gtest/gtest.h"

namespace shoal::transport::testing {

// Waits for and returns the next frame; the error that ended the channel otherwise. Flushes
// what the channel has pending meanwhile (a TLS handshake's answers).
inline absl::StatusOr<std::string> NextFrame(Channel* channel) {
  for (;;) {
    if (absl::Status received = channel->Receive(); !received.ok()) return received;
    absl::string_view frame = channel->Peek();
    if (!frame.empty()) {
      std::string copy(frame);
      channel->Consume();
      return copy;
    }
    if (channel->HasPendingOutput()) {
      if (absl::Status flushed = channel->Flush(); !flushed.ok()) return flushed;
    }
    if (channel->PrepareToSleep() && !PollFd(channel->wait_fd(), 10000)) {
      return absl::DeadlineExceededError("no frame within 10 s");
    }
    channel->WokeUp();
  }
}

// The next frame, "" on error.
inline std::string ReadFrame(Channel* channel) { return NextFrame(channel).value_or(""); }

// Flushes until everything has left, reading meanwhile (a TLS handshake needs the peer's
// answers before frames can go).
inline void FlushAll(Channel* channel) {
  ASSERT_TRUE(channel->Flush().ok());
  while (channel->HasPendingOutput()) {
    PollFd(channel->wait_fd(), 10, POLLIN | POLLOUT);
    ASSERT_TRUE(channel->Receive().ok());
    ASSERT_TRUE(channel->Flush().ok());
  }
}

// Writes 64 KiB frames numbered from `first` until `writer` refuses one — the kernel's buffers
// full, then its own up to the high-water mark — then lets `reader` read while the writer goes
// on: every frame arrives once, in order.
inline void ExpectBackPressureThenEveryFrame(Channel* writer, Channel* reader, uint64_t first) {
  uint64_t written = first;
  while (writer->TryWrite(MakeFrame(64 << 10, written))) {
    ++written;
    ASSERT_TRUE(writer->Flush().ok());
  }
  EXPECT_TRUE(writer->HasPendingOutput());
  EXPECT_GE((written - first) * (64 << 10), kTcpOutputHighWater);
  const uint64_t total = written + 50;
  std::thread more([&] {
    for (uint64_t seq = written; seq < total; ++seq) {
      std::string frame = MakeFrame(64 << 10, seq);
      while (!writer->TryWrite(frame)) {
        ASSERT_TRUE(writer->Flush().ok());
        if (writer->HasPendingOutput()) PollFd(writer->write_fd(), 1000, POLLOUT);
      }
    }
    FlushAll(writer);
  });
  uint64_t bad = 0;
  for (uint64_t seq = first; seq < total; ++seq) {
    if (!CheckFrame(ReadFrame(reader), seq)) ++bad;
  }
  more.join();
  EXPECT_EQ(bad, 0u);
}

}  // namespace shoal::transport::testing
