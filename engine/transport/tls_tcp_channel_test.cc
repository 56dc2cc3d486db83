// TcpChannel inside TLS (NewTlsServerChannel, NewTlsClientChannel) over loopback: frames both
// ways once both ends proved they belong to the cluster, frames written during the handshake,
// back-pressure, and the peers that must be refused — another CA, a certificate for another
// host, clear text.
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/tls/link_context.h"
#include "common/tls/signing.h"
#include "engine/transport/channel_test_helpers.h"
#include "engine/transport/tcp_channel.h"
#include "engine/transport/transport_test_util.h"
#include "gtest/gtest.h"

namespace shoal::transport {
namespace {

using testing::CheckFrame;
using testing::ExpectBackPressureThenEveryFrame;
using testing::FlushAll;
using testing::FrameSize;
using testing::MakeFrame;
using testing::NextFrame;
using testing::PollFd;

// A cluster CA; its members' contexts, for certificates naming `names`.
class TestCa {
 public:
  TestCa() {
    auto ca = tls::Sign("Test_CA", nullptr, tls::CaExtensions());
    EXPECT_TRUE(ca.ok()) << ca.status();
    ca_ = std::move(*ca);
    ca_pem_ = tls::ToPem(ca_)->cert_pem;
  }
  std::unique_ptr<tls::LinkContext> Member(const std::vector<std::string>& names) {
    tls::Extensions extensions = tls::LeafExtensions();
    extensions.emplace_back(NID_ext_key_usage, "serverAuth,clientAuth");
    extensions.emplace_back(NID_subject_alt_name, tls::SubjectAltNames(names));
    auto node = tls::Sign("Test_Node", &ca_, extensions);
    EXPECT_TRUE(node.ok()) << node.status();
    auto pem = tls::ToPem(*node);
    auto context = tls::LinkContext::FromPem(ca_pem_, pem->cert_pem, pem->key_pem);
    EXPECT_TRUE(context.ok()) << context.status();
    return std::move(*context);
  }

 private:
  tls::SignedKey ca_;
  std::string ca_pem_;
};

class TlsTcpChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    member_ = ca_.Member({"127.0.0.1"});
    auto listener = TcpListener::Listen("127.0.0.1", 0, member_.get());
    ASSERT_TRUE(listener.ok()) << listener.status();
    listener_ = std::move(*listener);
  }

  std::unique_ptr<Channel> AcceptOne() {
    for (;;) {
      EXPECT_TRUE(PollFd(listener_->fd(), 10000));
      auto channel = listener_->Accept();
      EXPECT_TRUE(channel.ok()) << channel.status();
      if (!channel.ok() || *channel != nullptr) return channel.ok() ? std::move(*channel) : nullptr;
    }
  }

  // The accepting end's reason for ending a channel whose peer it must refuse.
  absl::Status AcceptedEndFails(Channel* node) {
    absl::StatusOr<std::string> frame = NextFrame(node);
    EXPECT_FALSE(frame.ok()) << "a frame came through";
    return frame.status();
  }

  TestCa ca_;
  std::unique_ptr<tls::LinkContext> member_;
  std::unique_ptr<TcpListener> listener_;
};

TEST_F(TlsTcpChannelTest, FramesBothWaysBetweenMembers) {
  auto client_tls = ca_.Member({"127.0.0.1"});
  auto client = ConnectTcp("127.0.0.1", listener_->port(), absl::Seconds(5), client_tls.get());
  ASSERT_TRUE(client.ok()) << client.status();
  EXPECT_EQ((*client)->kind(), "tcp+tls");
  // Written before the handshake has even started on the other end: they wait, then go.
  for (uint64_t seq = 0; seq < 200; ++seq) {
    size_t size = seq == 100 ? kMaxFrameSize : FrameSize(seq, 100000);
    ASSERT_TRUE((*client)->TryWrite(MakeFrame(size, seq)));
  }
  auto node = AcceptOne();
  ASSERT_NE(node, nullptr);
  std::thread flusher([&] { FlushAll(client->get()); });
  for (uint64_t seq = 0; seq < 200; ++seq) {
    absl::StatusOr<std::string> frame = NextFrame(node.get());
    ASSERT_TRUE(frame.ok()) << frame.status();
    EXPECT_TRUE(CheckFrame(*frame, seq)) << seq;
  }
  flusher.join();
  for (uint64_t seq = 0; seq < 50; ++seq) {
    ASSERT_TRUE(node->TryWrite(MakeFrame(FrameSize(seq, 5000), seq)));
    FlushAll(node.get());
    absl::StatusOr<std::string> frame = NextFrame(client->get());
    ASSERT_TRUE(frame.ok()) << frame.status();
    EXPECT_TRUE(CheckFrame(*frame, seq));
  }
  EXPECT_TRUE(node->CheckAlive().ok());
}

TEST_F(TlsTcpChannelTest, BackPressureFromAPeerThatDoesNotRead) {
  auto client_tls = ca_.Member({"127.0.0.1"});
  auto client = ConnectTcp("127.0.0.1", listener_->port(), absl::Seconds(5), client_tls.get());
  ASSERT_TRUE(client.ok());
  auto node = AcceptOne();
  ASSERT_NE(node, nullptr);
  // One frame each way finishes the handshake.
  ASSERT_TRUE((*client)->TryWrite(MakeFrame(100, 0)));
  std::thread first([&] { FlushAll(client->get()); });
  ASSERT_TRUE(CheckFrame(*NextFrame(node.get()), 0));
  first.join();
  ExpectBackPressureThenEveryFrame(client->get(), node.get(), 1);
}

TEST_F(TlsTcpChannelTest, AnotherCaIsRefusedByBothEnds) {
  TestCa other;
  auto stranger = other.Member({"127.0.0.1"});
  auto client = ConnectTcp("127.0.0.1", listener_->port(), absl::Seconds(5), stranger.get());
  ASSERT_TRUE(client.ok());
  ASSERT_TRUE((*client)->TryWrite(MakeFrame(100, 1)));
  auto node = AcceptOne();
  ASSERT_NE(node, nullptr);
  std::thread server(
      [&] { EXPECT_NE(AcceptedEndFails(node.get()).message().find("TLS"), std::string::npos); });
  absl::StatusOr<std::string> frame = NextFrame(client->get());
  ASSERT_FALSE(frame.ok());
  EXPECT_NE(frame.status().message().find("certificate verify failed"), std::string::npos)
      << frame.status();
  server.join();
}

TEST_F(TlsTcpChannelTest, ACertificateForAnotherHostIsRefused) {
  // A member of the cluster, but the listener's certificate names 10.9.9.9 alone.
  auto elsewhere = ca_.Member({"10.9.9.9"});
  auto listener = TcpListener::Listen("127.0.0.1", 0, elsewhere.get());
  ASSERT_TRUE(listener.ok());
  auto client_tls = ca_.Member({"127.0.0.1"});
  auto client = ConnectTcp("127.0.0.1", (*listener)->port(), absl::Seconds(5), client_tls.get());
  ASSERT_TRUE(client.ok());
  ASSERT_TRUE(PollFd((*listener)->fd(), 10000));
  auto node = (*listener)->Accept();
  ASSERT_TRUE(node.ok() && *node != nullptr);
  std::thread server([&] { (void)NextFrame(node->get()); });
  absl::StatusOr<std::string> frame = NextFrame(client->get());
  ASSERT_FALSE(frame.ok());
  EXPECT_NE(frame.status().message().find("certificate verify failed"), std::string::npos)
      << frame.status();
  client->reset();  // the server side hears the alert, or the close
  server.join();
}

TEST_F(TlsTcpChannelTest, ClearTextIsRefused) {
  auto plain = ConnectTcp("127.0.0.1", listener_->port(), absl::Seconds(5));
  ASSERT_TRUE(plain.ok());
  ASSERT_TRUE((*plain)->TryWrite(MakeFrame(100, 1)));
  ASSERT_TRUE((*plain)->Flush().ok());
  auto node = AcceptOne();
  ASSERT_NE(node, nullptr);
  absl::Status why = AcceptedEndFails(node.get());
  EXPECT_EQ(why.code(), absl::StatusCode::kUnavailable) << why;
  EXPECT_NE(why.message().find("tls"), std::string::npos) << why;
}

TEST_F(TlsTcpChannelTest, PeerCloseAfterAFrame) {
  auto client_tls = ca_.Member({"127.0.0.1"});
  auto client = ConnectTcp("127.0.0.1", listener_->port(), absl::Seconds(5), client_tls.get());
  ASSERT_TRUE(client.ok());
  ASSERT_TRUE((*client)->TryWrite(MakeFrame(100, 7)));
  auto node = AcceptOne();
  ASSERT_NE(node, nullptr);
  std::thread flusher([&] { FlushAll(client->get()); });
  absl::StatusOr<std::string> frame = NextFrame(node.get());
  flusher.join();
  ASSERT_TRUE(frame.ok()) << frame.status();
  EXPECT_TRUE(CheckFrame(*frame, 7));
  client->reset();
  absl::Status status;
  while ((status = node->Receive()).ok()) ASSERT_TRUE(PollFd(node->wait_fd(), 5000));
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace shoal::transport
