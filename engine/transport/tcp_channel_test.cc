// TcpChannel over loopback: frames both ways, frames arriving a byte at a time, malformed
// lengths, back-pressure from a peer that does not read, and the peer closing.
#include "engine/transport/tcp_channel.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <thread>

#include "engine/transport/channel_test_helpers.h"
#include "engine/transport/transport_test_util.h"
#include "gtest/gtest.h"

namespace shoal::transport {
namespace {

using testing::CheckFrame;
using testing::ExpectBackPressureThenEveryFrame;
using testing::FlushAll;
using testing::FrameSize;
using testing::MakeFrame;
using testing::PollFd;
using testing::ReadFrame;

class TcpChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto listener = TcpListener::Listen("127.0.0.1", 0);
    ASSERT_TRUE(listener.ok()) << listener.status();
    listener_ = std::move(*listener);
    ASSERT_GT(listener_->port(), 0);
  }

  std::unique_ptr<Channel> AcceptOne() {
    for (;;) {
      EXPECT_TRUE(PollFd(listener_->fd(), 10000));
      auto channel = listener_->Accept();
      EXPECT_TRUE(channel.ok()) << channel.status();
      if (!channel.ok() || *channel != nullptr) return channel.ok() ? std::move(*channel) : nullptr;
    }
  }

  // A plain blocking socket connected to the listener, for writing raw bytes.
  int RawClient() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr = {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(listener_->port()));
    EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    return fd;
  }

  std::unique_ptr<TcpListener> listener_;
};

TEST_F(TcpChannelTest, FramesBothWays) {
  auto client = ConnectTcp("127.0.0.1", listener_->port(), absl::Seconds(5));
  ASSERT_TRUE(client.ok()) << client.status();
  auto node = AcceptOne();
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->kind(), "tcp");
  EXPECT_EQ((*client)->wait_fd(), (*client)->write_fd());
  // A burst of frames in one direction, including a largest one.
  for (uint64_t seq = 0; seq < 200; ++seq) {
    size_t size = seq == 100 ? kMaxFrameSize : FrameSize(seq, 100000);
    ASSERT_TRUE((*client)->TryWrite(MakeFrame(size, seq)));
  }
  std::thread flusher([&] { FlushAll(client->get()); });
  for (uint64_t seq = 0; seq < 200; ++seq) EXPECT_TRUE(CheckFrame(ReadFrame(node.get()), seq));
  flusher.join();
  // And back.
  for (uint64_t seq = 0; seq < 50; ++seq) {
    ASSERT_TRUE(node->TryWrite(MakeFrame(FrameSize(seq, 5000), seq)));
    FlushAll(node.get());
    EXPECT_TRUE(CheckFrame(ReadFrame(client->get()), seq));
  }
  EXPECT_TRUE(node->CheckAlive().ok());
}

TEST_F(TcpChannelTest, FrameArrivingByteByByte) {
  int raw = RawClient();
  auto node = AcceptOne();
  ASSERT_NE(node, nullptr);
  std::string two = MakeFrame(40, 1) + MakeFrame(30, 2);
  for (size_t i = 0; i < two.size(); ++i) {
    ASSERT_EQ(write(raw, &two[i], 1), 1);
    if (i + 1 == 40) break;
    ASSERT_TRUE(PollFd(node->wait_fd(), 5000));
    ASSERT_TRUE(node->Receive().ok());
    EXPECT_TRUE(node->Peek().empty()) << i;
    EXPECT_TRUE(node->PrepareToSleep());
  }
  EXPECT_TRUE(CheckFrame(ReadFrame(node.get()), 1));
  ASSERT_EQ(write(raw, two.data() + 40, 30), 30);
  EXPECT_TRUE(CheckFrame(ReadFrame(node.get()), 2));
  close(raw);
}

TEST_F(TcpChannelTest, MalformedLengthIsDataLoss) {
  for (uint32_t bad : {uint32_t{0}, uint32_t{7}, uint32_t{kMaxFrameSize + 1}, ~uint32_t{0}}) {
    int raw = RawClient();
    auto node = AcceptOne();
    ASSERT_NE(node, nullptr);
    std::string bytes = MakeFrame(20, 1) + std::string(reinterpret_cast<char*>(&bad), 4) + "xx";
    ASSERT_EQ(write(raw, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    // The good frame comes through, then the stream is declared broken.
    EXPECT_TRUE(CheckFrame(ReadFrame(node.get()), 1)) << bad;
    absl::Status status;
    while ((status = node->Receive()).ok()) ASSERT_TRUE(PollFd(node->wait_fd(), 5000));
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << bad;
    EXPECT_TRUE(node->Peek().empty());
    EXPECT_FALSE(node->PrepareToSleep());
    close(raw);
  }
}

TEST_F(TcpChannelTest, BackPressureFromAPeerThatDoesNotRead) {
  auto client = ConnectTcp("127.0.0.1", listener_->port(), absl::Seconds(5));
  ASSERT_TRUE(client.ok());
  auto node = AcceptOne();
  ASSERT_NE(node, nullptr);
  ExpectBackPressureThenEveryFrame(client->get(), node.get(), 0);
}

TEST_F(TcpChannelTest, PeerCloseAfterAFrame) {
  auto client = ConnectTcp("127.0.0.1", listener_->port(), absl::Seconds(5));
  ASSERT_TRUE(client.ok());
  auto node = AcceptOne();
  ASSERT_NE(node, nullptr);
  ASSERT_TRUE((*client)->TryWrite(MakeFrame(100, 7)));
  FlushAll(client->get());
  client->reset();
  // The frame that arrived before the close is still delivered, then the close is an error.
  EXPECT_TRUE(CheckFrame(ReadFrame(node.get()), 7));
  absl::Status status;
  while ((status = node->Receive()).ok()) ASSERT_TRUE(PollFd(node->wait_fd(), 5000));
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_FALSE(node->CheckAlive().ok());
}

TEST_F(TcpChannelTest, CheckAliveSeesAClose) {
  int raw = RawClient();
  auto node = AcceptOne();
  ASSERT_NE(node, nullptr);
  EXPECT_TRUE(node->CheckAlive().ok());
  close(raw);
  ASSERT_TRUE(PollFd(node->wait_fd(), 5000));
  EXPECT_EQ(node->CheckAlive().code(), absl::StatusCode::kUnavailable);
}

TEST_F(TcpChannelTest, ConnectToAClosedPort) {
  int port = listener_->port();
  listener_.reset();
  auto client = ConnectTcp("127.0.0.1", port, absl::Seconds(2));
  EXPECT_FALSE(client.ok());
}

TEST_F(TcpChannelTest, AcceptWithNothingPending) {
  auto channel = listener_->Accept();
  ASSERT_TRUE(channel.ok());
  EXPECT_EQ(*channel, nullptr);
}

}  // namespace
}  // namespace shoal::transport
