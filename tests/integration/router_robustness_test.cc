// Bad input closes that one connection with the MySQL error a server gives, never the router:
// a handshake that is not one (1043), a packet over max_allowed_packet (1153), and one
// connection too many (1040, instead of the greeting). The router keeps serving throughout.
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/test_cluster.h"

namespace shoal::testing {
namespace {

using ::testing::HasSubstr;

constexpr char kConfig[] = R"(
cluster:
  replicas: 1
mgmd:
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
datanodes:
  - id: 2
    data_dir: {RUN_DIR}/dn2
routers:
  - id: 3
    socket: {RUN_DIR}/r3.sock
    threads: 2
    max_connections: 3
users:
  - name: root
)";

// A raw MySQL connection that speaks bytes, to send what no real client would.
class RawConnection {
 public:
  explicit RawConnection(const std::string& socket_path) {
    fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, socket_path.c_str(), sizeof(addr.sun_path) - 1);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  }
  ~RawConnection() { close(fd_); }
  bool connected() const { return connected_; }

  // The next packet's payload, or nullopt when the server closed or 10 s passed.
  std::optional<std::string> ReadPacket() {
    std::string header = ReadExactly(4);
    if (header.size() < 4) return std::nullopt;
    size_t length = static_cast<uint8_t>(header[0]) | static_cast<uint8_t>(header[1]) << 8 |
                    static_cast<uint8_t>(header[2]) << 16;
    std::string payload = ReadExactly(length);
    if (payload.size() < length) return std::nullopt;
    return payload;
  }
  // True when the server closed the connection within 10 s: EOF, or a reset when it closed
  // with our bytes still unread (as after an oversized packet).
  bool Closed() {
    char byte;
    pollfd p{fd_, POLLIN, 0};
    return poll(&p, 1, 10000) == 1 && recv(fd_, &byte, 1, 0) <= 0;
  }
  void Send(const std::string& bytes) {
    for (size_t sent = 0; sent < bytes.size();) {
      ssize_t n = send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return;  // the server may close before taking it all
      sent += static_cast<size_t>(n);
    }
  }

 private:
  std::string ReadExactly(size_t n) {
    std::string out;
    while (out.size() < n) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 10000) != 1) break;
      char buf[65536];
      ssize_t got = recv(fd_, buf, std::min(sizeof(buf), n - out.size()), 0);
      if (got <= 0) break;
      out.append(buf, static_cast<size_t>(got));
    }
    return out;
  }

  int fd_;
  bool connected_ = false;
};

std::string Packet(uint8_t seq, const std::string& payload) {
  std::string out(4, '\0');
  out[0] = static_cast<char>(payload.size() & 0xff);
  out[1] = static_cast<char>((payload.size() >> 8) & 0xff);
  out[2] = static_cast<char>((payload.size() >> 16) & 0xff);
  out[3] = static_cast<char>(seq);
  return out + payload;
}

// The error code of an ERR packet payload, or -1.
int ErrorCode(const std::optional<std::string>& payload) {
  if (!payload.has_value() || payload->size() < 3 || static_cast<uint8_t>((*payload)[0]) != 0xFF) {
    return -1;
  }
  return static_cast<uint8_t>((*payload)[1]) | static_cast<uint8_t>((*payload)[2]) << 8;
}

class RouterRobustnessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_.emplace(TestCluster::FromConfig(kConfig, {"--launch"}));
    ASSERT_TRUE(cluster_->WaitForState({2, 3}, "started")) << cluster_->MgmdLog();
    socket_ = cluster_->run_dir() + "/r3.sock";
    router_pid_ = cluster_->Show()[3].pid;
  }
  // The router still answers a real client, in the same process.
  void ExpectRouterServes() {
    CommandResult r = RunCommand({"/usr/bin/mariadb", "-S", socket_, "-u", "root", "--batch",
                                  "--skip-column-names", "-e", "SELECT 40 + 2"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "42\n");
    EXPECT_EQ(cluster_->Show()[3].pid, router_pid_);
  }

  std::optional<TestCluster> cluster_;
  std::string socket_;
  int router_pid_ = 0;
};

TEST_F(RouterRobustnessTest, AGarbageHandshakeGetsBadHandshakeAndOnlyThatConnectionCloses) {
  RawConnection raw(socket_);
  ASSERT_TRUE(raw.connected());
  ASSERT_TRUE(raw.ReadPacket().has_value());  // the greeting
  raw.Send(Packet(1, "\x05hello"));
  std::optional<std::string> reply = raw.ReadPacket();
  EXPECT_EQ(ErrorCode(reply), 1043);
  EXPECT_THAT(reply.value_or(""), HasSubstr("Bad handshake"));
  EXPECT_TRUE(raw.Closed());
  ExpectRouterServes();
}

TEST_F(RouterRobustnessTest, APacketOverMaxAllowedPacketGets1153) {
  RawConnection raw(socket_);
  ASSERT_TRUE(raw.connected());
  ASSERT_TRUE(raw.ReadPacket().has_value());
  // Five full 16 MiB chunks announce a payload over the 64 MiB max_allowed_packet.
  std::string chunk(0xFFFFFF, 'x');
  for (uint8_t seq = 1; seq <= 5; ++seq) {
    std::string header = {'\xff', '\xff', '\xff', static_cast<char>(seq)};
    raw.Send(header + chunk);
  }
  std::optional<std::string> reply = raw.ReadPacket();
  EXPECT_EQ(ErrorCode(reply), 1153);
  EXPECT_THAT(reply.value_or(""), HasSubstr("max_allowed_packet"));
  EXPECT_TRUE(raw.Closed());
  ExpectRouterServes();
}

TEST_F(RouterRobustnessTest, OneConnectionTooManyGets1040InsteadOfTheGreeting) {
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(std::make_unique<RawConnection>(socket_));
    ASSERT_TRUE(held.back()->ReadPacket().has_value()) << "connection " << i;
  }
  RawConnection refused(socket_);
  std::optional<std::string> reply = refused.ReadPacket();
  EXPECT_EQ(ErrorCode(reply), 1040);
  EXPECT_THAT(reply.value_or(""), HasSubstr("Too many connections"));
  held.clear();
  // Once they are gone, there is room again (the count drops as the router sees them close).
  EXPECT_TRUE(WaitUntil(
      [&] {
        return RunCommand({"/usr/bin/mariadb", "-S", socket_, "-u", "root", "-e", "SELECT 1"})
                   .exit_code == 0;
      },
      absl::Seconds(10)));
  ExpectRouterServes();
  EXPECT_EQ(cluster_->Show()[3].restarts, 0);
}

TEST_F(RouterRobustnessTest, AnIdleConnectionIsClosedAfterItsWaitTimeoutWith4031) {
  // A real driver sets the session's wait_timeout, goes quiet, and finds itself disconnected.
  std::string script = absl::StrCat(R"(
import sys, time, pymysql
c = pymysql.connect(unix_socket=")",
                                    socket_, R"(", user="root")
cur = c.cursor()
cur.execute("SET SESSION wait_timeout = 1")
cur.execute("SELECT @@wait_timeout")
assert cur.fetchall() == ((1,),), "wait_timeout not set"
time.sleep(3)
try:
    cur.execute("SELECT 1")
    print("still open")
except pymysql.err.OperationalError as e:
    print("closed", e.args[0])
)");
  CommandResult r = RunCommand({SourceDir() + "/build/clients/pyvenv/bin/python", "-c", script});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The router sends 4031 and closes; a driver that writes its next query first sees the
  // closed socket instead (2006/2013), as with MySQL 8.0 itself.
  EXPECT_THAT(r.out, ::testing::AnyOf("closed 4031\n", "closed 2006\n", "closed 2013\n")) << r.err;
  ExpectRouterServes();
}

}  // namespace
}  // namespace shoal::testing
