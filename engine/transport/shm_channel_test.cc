// ShmChannel: the handshake, frames both ways, back-pressure, sleeping on wait_fd(), peer
// hangup, and a client in a forked process.
#include "engine/transport/shm_channel.h"

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "engine/transport/channel_test_helpers.h"
#include "engine/transport/transport_test_util.h"
#include "gtest/gtest.h"

namespace shoal::transport {
namespace {

using testing::CheckFrame;
using testing::FrameSize;
using testing::kLoadDivisor;
using testing::MakeFrame;
using testing::PollFd;
using testing::ReadFrame;
using testing::TempDir;

struct Pair {
  std::unique_ptr<Channel> node;
  std::unique_ptr<Channel> client;
};

// Accepts on `listener` (polling its fd) while another thread connects.
Pair Connect(ShmListener* listener, const std::string& path) {
  Pair pair;
  absl::Status client_status;
  std::thread client([&] {
    auto channel = ConnectShm(path, absl::Seconds(10));
    client_status = channel.status();
    if (channel.ok()) pair.client = std::move(*channel);
  });
  while (pair.node == nullptr) {
    EXPECT_TRUE(PollFd(listener->fd(), 10000));
    auto channel = listener->Accept();
    EXPECT_TRUE(channel.ok()) << channel.status();
    if (!channel.ok()) break;
    pair.node = std::move(*channel);
  }
  client.join();
  EXPECT_TRUE(client_status.ok()) << client_status;
  return pair;
}

class ShmChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.Path("shm.sock");
    auto listener = ShmListener::Listen(path_, 4 << 20);
    ASSERT_TRUE(listener.ok()) << listener.status();
    listener_ = std::move(*listener);
  }

  TempDir dir_;
  std::string path_;
  std::unique_ptr<ShmListener> listener_;
};

TEST_F(ShmChannelTest, AcceptWithNothingPending) {
  auto channel = listener_->Accept();
  ASSERT_TRUE(channel.ok());
  EXPECT_EQ(*channel, nullptr);
}

TEST_F(ShmChannelTest, FramesBothWays) {
  Pair p = Connect(listener_.get(), path_);
  ASSERT_TRUE(p.node && p.client);
  EXPECT_EQ(p.node->kind(), "shm");
  EXPECT_EQ(p.client->write_fd(), -1);
  for (uint64_t seq = 0; seq < 100; ++seq) {
    size_t size = seq == 99 ? kMaxFrameSize : FrameSize(seq, 20000);
    ASSERT_TRUE(p.client->TryWrite(MakeFrame(size, seq)));
    ASSERT_TRUE(p.client->Flush().ok());
    EXPECT_FALSE(p.client->HasPendingOutput());
    std::string request = ReadFrame(p.node.get());
    EXPECT_TRUE(CheckFrame(request, seq));
    ASSERT_TRUE(p.node->TryWrite(MakeFrame(size, seq + 1000)));
    ASSERT_TRUE(p.node->Flush().ok());
    EXPECT_TRUE(CheckFrame(ReadFrame(p.client.get()), seq + 1000));
  }
  EXPECT_TRUE(p.node->CheckAlive().ok());
  EXPECT_TRUE(p.client->CheckAlive().ok());
}

TEST_F(ShmChannelTest, BackPressureLosesNothing) {
  Pair p = Connect(listener_.get(), path_);
  ASSERT_TRUE(p.node && p.client);
  const std::string frame = MakeFrame(16 << 10, 0);
  int accepted = 0;
  while (p.client->TryWrite(frame)) ++accepted;
  EXPECT_GT(accepted, 200);  // a 4 MiB ring
  EXPECT_LE(accepted, 256);
  ASSERT_TRUE(p.client->Flush().ok());
  // Drain with a writer thread that keeps retrying refused frames.
  const uint64_t kFrames = 20000 / kLoadDivisor;
  std::thread writer([&] {
    for (uint64_t seq = 0; seq < kFrames; ++seq) {
      std::string f = MakeFrame(FrameSize(seq, 60000), seq);
      while (!p.client->TryWrite(f)) {
        (void)p.client->Flush();
        std::this_thread::yield();
      }
      if (seq % 8 == 0) (void)p.client->Flush();
    }
    (void)p.client->Flush();
  });
  for (int i = 0; i < accepted; ++i) EXPECT_EQ(ReadFrame(p.node.get()), frame);
  uint64_t bad = 0;
  for (uint64_t seq = 0; seq < kFrames; ++seq) {
    if (!CheckFrame(ReadFrame(p.node.get()), seq)) ++bad;
  }
  writer.join();
  EXPECT_EQ(bad, 0u);
}

TEST_F(ShmChannelTest, DoorbellRingsOnlyForASleeper) {
  Pair p = Connect(listener_.get(), path_);
  ASSERT_TRUE(p.node && p.client);
  // Awake reader: no doorbell.
  ASSERT_TRUE(p.client->TryWrite(MakeFrame(100, 1)));
  ASSERT_TRUE(p.client->Flush().ok());
  EXPECT_FALSE(PollFd(p.node->wait_fd(), 0));
  EXPECT_FALSE(p.node->PrepareToSleep());  // data is there
  EXPECT_TRUE(CheckFrame(ReadFrame(p.node.get()), 1));
  // Sleeping reader: the doorbell rings.
  ASSERT_TRUE(p.node->PrepareToSleep());
  EXPECT_FALSE(PollFd(p.node->wait_fd(), 0));
  ASSERT_TRUE(p.client->TryWrite(MakeFrame(100, 2)));
  ASSERT_TRUE(p.client->Flush().ok());
  EXPECT_TRUE(PollFd(p.node->wait_fd(), 5000));
  p.node->WokeUp();
  EXPECT_FALSE(PollFd(p.node->wait_fd(), 0));  // drained
  EXPECT_TRUE(CheckFrame(p.node->Peek(), 2));
  p.node->Consume();
}

TEST_F(ShmChannelTest, HangupDetected) {
  Pair p = Connect(listener_.get(), path_);
  ASSERT_TRUE(p.node && p.client);
  ASSERT_TRUE(p.node->PrepareToSleep());
  p.client.reset();
  EXPECT_TRUE(PollFd(p.node->wait_fd(), 5000));
  p.node->WokeUp();
  EXPECT_EQ(p.node->CheckAlive().code(), absl::StatusCode::kUnavailable);

  Pair q = Connect(listener_.get(), path_);
  ASSERT_TRUE(q.node && q.client);
  q.node.reset();
  EXPECT_TRUE(PollFd(q.client->wait_fd(), 5000));
  EXPECT_EQ(q.client->CheckAlive().code(), absl::StatusCode::kUnavailable);
}

TEST_F(ShmChannelTest, MalformedFrameIsDataLoss) {
  Pair p = Connect(listener_.get(), path_);
  ASSERT_TRUE(p.node && p.client);
  std::string frame = MakeFrame(100, 1);
  frame[0] = 99;  // the length prefix disagrees with the record
  ASSERT_TRUE(p.client->TryWrite(frame));
  EXPECT_TRUE(p.node->Peek().empty());
  EXPECT_EQ(p.node->Receive().code(), absl::StatusCode::kDataLoss);
  EXPECT_FALSE(p.node->CheckAlive().ok());
}

TEST_F(ShmChannelTest, ConnectErrors) {
  EXPECT_FALSE(ConnectShm(dir_.Path("nobody.sock"), absl::Seconds(1)).ok());
  // Listening but never accepting: the client gives up at its deadline.
  auto channel = ConnectShm(path_, absl::Milliseconds(100));
  EXPECT_EQ(channel.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_FALSE(ShmListener::Listen(std::string(200, 'x'), 4 << 20).ok());
}

// Two data nodes that link to each other at the same moment: each, while it waits for the
// other's segment, accepts the other's connection — neither waits out its timeout.
TEST_F(ShmChannelTest, TwoNodesConnectingToEachOtherAtOnceBothGetThrough) {
  std::string path_b = dir_.Path("b.sock");
  auto listener_b = ShmListener::Listen(path_b, 4 << 20);
  ASSERT_TRUE(listener_b.ok()) << listener_b.status();
  struct Node {
    ShmListener* listener;
    std::string peer_path;
    std::unique_ptr<Channel> out, in;
    absl::Status status;
  };
  Node a{listener_.get(), path_b, nullptr, nullptr, absl::OkStatus()};
  Node b{listener_b->get(), path_, nullptr, nullptr, absl::OkStatus()};
  auto run = [](Node* node) {
    auto accept = [node] {
      if (node->in != nullptr) return;
      auto channel = node->listener->Accept();
      if (channel.ok() && *channel != nullptr) node->in = std::move(*channel);
    };
    auto out = ConnectShm(node->peer_path, absl::Seconds(10), accept);
    node->status = out.status();
    if (out.ok()) node->out = std::move(*out);
    while (node->in == nullptr && node->status.ok()) accept();
  };
  absl::Time start = absl::Now();
  std::thread node_a(run, &a);
  std::thread node_b(run, &b);
  node_a.join();
  node_b.join();
  ASSERT_TRUE(a.status.ok()) << a.status;
  ASSERT_TRUE(b.status.ok()) << b.status;
  EXPECT_LT(absl::Now() - start, absl::Seconds(5));  // far below the 10 s timeout
  // Each node's outgoing link reaches the other's accepted one.
  ASSERT_TRUE(a.out->TryWrite(MakeFrame(64, 7)));
  ASSERT_TRUE(a.out->Flush().ok());
  EXPECT_TRUE(CheckFrame(ReadFrame(b.in.get()), 7));
  ASSERT_TRUE(b.out->TryWrite(MakeFrame(64, 8)));
  ASSERT_TRUE(b.out->Flush().ok());
  EXPECT_TRUE(CheckFrame(ReadFrame(a.in.get()), 8));
}

TEST_F(ShmChannelTest, StaleSocketFileReplacedAndRemoved) {
  std::string path = dir_.Path("stale.sock");
  std::ofstream(path) << "stale";
  {
    auto listener = ShmListener::Listen(path, 1);
    ASSERT_TRUE(listener.ok()) << listener.status();
    EXPECT_EQ((*listener)->ring_capacity(), kShmMinRingCapacity);
  }
  EXPECT_NE(access(path.c_str(), F_OK), 0);
}

#if !defined(__SANITIZE_THREAD__)
// The client in another process: requests go up, echoes come back, and the child's exit is
// seen as a hangup.
TEST_F(ShmChannelTest, ClientInForkedProcess) {
  const int kFrames = 2000;
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto channel = ConnectShm(path_, absl::Seconds(10));
    if (!channel.ok()) _exit(2);
    Channel* c = channel->get();
    for (int seq = 0; seq < kFrames; ++seq) {
      std::string frame = MakeFrame(FrameSize(seq, 30000), seq);
      while (!c->TryWrite(frame)) {
        if (!c->Flush().ok()) _exit(3);
      }
      if (!c->Flush().ok()) _exit(3);
      if (!CheckFrame(ReadFrame(c), seq + 1)) _exit(4);
    }
    _exit(0);
  }
  ASSERT_TRUE(PollFd(listener_->fd(), 10000));
  auto accepted = listener_->Accept();
  ASSERT_TRUE(accepted.ok() && *accepted != nullptr);
  Channel* node = accepted->get();
  for (int seq = 0; seq < kFrames; ++seq) {
    std::string request = ReadFrame(node);
    ASSERT_TRUE(CheckFrame(request, seq));
    ASSERT_TRUE(node->TryWrite(MakeFrame(request.size(), seq + 1)));
    ASSERT_TRUE(node->Flush().ok());
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_TRUE(PollFd(node->wait_fd(), 5000));
  EXPECT_EQ(node->CheckAlive().code(), absl::StatusCode::kUnavailable);
}
#endif

}  // namespace
}  // namespace shoal::transport
