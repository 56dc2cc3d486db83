#include "engine/node/plane/connections.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/transport/tcp_channel.h"
#include "engine/wire/errors.h"
#include "engine/wire/op.h"
#include "gtest/gtest.h"

namespace shoal::node {
namespace {

class RecordingEvents : public ConnectionEvents {
 public:
  void OnClosing(const Connection& conn, absl::string_view why) override {
    log.push_back(absl::StrCat("closing ", conn.id, ": ", why));
  }
  void OnClosed(const Connection& conn, bool peer_link) override {
    log.push_back(absl::StrCat("closed ", conn.id, peer_link ? " (peer link)" : ""));
  }
  std::vector<std::string> log;
};

// A Connections listening on a free port, with one client connected to it.
class ConnectionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view_.Set(control::ClusterView());
    ASSERT_TRUE(connections_.Listen().ok());
    ASSERT_TRUE(connections_.StartPolling({}).ok());
    absl::StatusOr<std::unique_ptr<transport::Channel>> client =
        transport::ConnectTcp("127.0.0.1", connections_.port(), absl::Seconds(5));
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = std::move(*client);
    absl::Time deadline = absl::Now() + absl::Seconds(5);
    while (connections_.Find(1) == nullptr && absl::Now() < deadline) {
      connections_.PollEvents([] {});
    }
    ASSERT_NE(connections_.Find(1), nullptr);
  }

  // Sends `frames` from the client and reads until `want` frames after the hello came in.
  std::vector<wire::FrameType> SendAndRead(const wire::FrameBuilder& frames, size_t want) {
    for (absl::string_view rest = frames.finished(); !rest.empty();) {
      absl::string_view frame = wire::FirstFrame(rest);
      EXPECT_TRUE(client_->TryWrite(frame));
      rest.remove_prefix(frame.size());
    }
    EXPECT_TRUE(client_->Flush().ok());
    std::vector<wire::FrameType> got;
    absl::Time deadline = absl::Now() + absl::Seconds(5);
    while (got.size() < want && absl::Now() < deadline) {
      connections_.Read([](int) {}, [&got](Connection*, const wire::FrameHeader& header,
                                           absl::string_view) { got.push_back(header.type); });
    }
    return got;
  }

  static DataPlaneOptions Options(MetricsRegistry* metrics) {
    DataPlaneOptions options;
    options.node_id = 3;
    options.metrics = metrics;
    return options;
  }

  MetricsRegistry metrics_;
  DataPlaneOptions options_ = Options(&metrics_);
  NodeView view_{3};
  Dictionary dictionary_{8};
  RecordingEvents events_;
  Connections connections_{&options_, &view_, &dictionary_, &events_};
  std::unique_ptr<transport::Channel> client_;
};

TEST_F(ConnectionsTest, ReplyToGivesEachDestinationItsFrame) {
  Connection* conn = connections_.Find(1);
  wire::FrameBuilder* out = connections_.ReplyTo(1);
  ASSERT_EQ(out, &conn->out);
  EXPECT_EQ(out->type(), wire::FrameType::kOpConf);
  wire::AppendResult(out, wire::kResultOk, 0, /*tag=*/1, {});
  // More results join the same frame.
  EXPECT_EQ(connections_.ReplyTo(1), &conn->out);
  EXPECT_TRUE(conn->out.finished().empty());
  // Operations back on the connection (kOpsOn) need a kOpReq frame: the results are finished.
  out = connections_.ReplyTo(kOpsOn | 1);
  ASSERT_EQ(out, &conn->out);
  EXPECT_EQ(out->type(), wire::FrameType::kOpReq);
  EXPECT_FALSE(conn->out.finished().empty());

  EXPECT_EQ(connections_.ReplyTo(2), nullptr);            // no such connection
  EXPECT_EQ(connections_.ReplyTo(kOpsOn | 2), nullptr);   // nor on it
  EXPECT_EQ(connections_.ReplyTo(kToNode | 4), nullptr);  // a data node the view lacks
  EXPECT_EQ(connections_.PeerConnection(4), nullptr);
}

TEST_F(ConnectionsTest, FramesAfterTheHelloReachTheHandler) {
  wire::FrameBuilder frames;
  wire::AppendHello(&frames, wire::FrameType::kHelloReq, /*id=*/77);
  frames.Begin(wire::FrameType::kDictReq);
  frames.buffer()->append("x");
  frames.CountItem();
  frames.Finish();
  EXPECT_EQ(SendAndRead(frames, 1), std::vector<wire::FrameType>{wire::FrameType::kDictReq});
  Connection* conn = connections_.Find(1);
  EXPECT_TRUE(conn->hello_done);
  EXPECT_EQ(conn->hello_id, 77u);
  EXPECT_EQ(conn->data_node, 0);  // 77 is no data node of the view
  // Answered with our hello.
  wire::FrameHeader header;
  absl::string_view body;
  ASSERT_EQ(wire::DecodeFrame(wire::FirstFrame(conn->out.finished()), &header, &body),
            wire::DecodeStatus::kOk);
  EXPECT_EQ(header.type, wire::FrameType::kHelloConf);
}

TEST_F(ConnectionsTest, AFirstFrameThatIsNoHelloClosesTheConnection) {
  wire::FrameBuilder frames;
  frames.Begin(wire::FrameType::kDictReq);
  frames.buffer()->append("x");
  frames.CountItem();
  frames.Finish();
  Connection* conn = connections_.Find(1);
  ASSERT_TRUE(client_->TryWrite(frames.finished()));
  ASSERT_TRUE(client_->Flush().ok());
  absl::Time deadline = absl::Now() + absl::Seconds(5);
  while (!conn->dead && absl::Now() < deadline) {
    connections_.Read([](int) {},
                      [](Connection*, const wire::FrameHeader&, absl::string_view) {
                        ADD_FAILURE() << "a frame before the hello";
                      });
  }
  EXPECT_TRUE(conn->dead);  // erased at the end of the turn
  EXPECT_EQ(events_.log, (std::vector<std::string>{"closing 1: expected a hello", "closed 1"}));
  EXPECT_EQ(connections_.ReplyTo(1), nullptr);
  connections_.EraseDead();
  EXPECT_EQ(connections_.Find(1), nullptr);
}

}  // namespace
}  // namespace shoal::node
