// Session, driven without sockets: a fake client built from the codec's client-side encoders
// sends packets and reads what the session answers.
#include "router/session/session.h"

#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_join.h"
#include "common/tls/credentials.h"
#include "common/tls/rsa_key_pair.h"
#include "engine/api/api_test_util.h"
#include "engine/api/client.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "protocol/auth.h"
#include "protocol/codec.h"
#include "protocol/resultset.h"
#include "protocol/sha2_crypt.h"
#include "router/access/accounts.h"

namespace shoal::router {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
namespace cap = mysql::capability;

constexpr uint32_t kClientCaps = cap::kLongPassword | cap::kLongFlag | cap::kConnectWithDb |
                                 cap::kProtocol41 | cap::kTransactions | cap::kSecureConnection |
                                 cap::kMultiResults | cap::kPsMultiResults | cap::kPluginAuth |
                                 cap::kPluginAuthLenencClientData;

class SessionTest : public ::testing::Test {
 protected:
  SessionTest() {
    context_.metrics = &metrics_;
    context_.server.version = "8.0.36-shoal-test";
    std::vector<config::UserConfig> users(2);
    users[0].name = "root";
    users[1].name = "app";
    mysql::PasswordHashes secret = mysql::HashPassword("secret");
    users[1].native_hash = mysql::FormatNativeHash(secret.native);
    users[1].sha256_hash = absl::BytesToHexString(mysql::DigestView(secret.caching_sha2));
    context_.server.seed_access =
        std::make_shared<const wire::AccessControl>(*access::SeedAccessControl(users));
    session_ = std::make_unique<Session>(&context_, 7, "localhost");
    session_->Start();
    std::vector<std::string> greeting = Split(TakeOutput());
    EXPECT_EQ(greeting.size(), 1u);
    greeting_payload_ = greeting[0];  // the decoded greeting borrows from it
    EXPECT_EQ(mysql::Decode(Bytes(greeting_payload_), 0, &greeting_), mysql::DecodeStatus::kOk);
    scramble_ = greeting_.auth_plugin_data;
  }

  // A new session of a client at 127.0.0.1 that came over `transport`, greeted.
  void Restart(Transport transport) {
    session_ = std::make_unique<Session>(&context_, 8, "127.0.0.1");
    session_->set_transport(transport);
    session_->Start();
    greeting_payload_ = Split(TakeOutput())[0];
    EXPECT_EQ(mysql::Decode(Bytes(greeting_payload_), 0, &greeting_), mysql::DecodeStatus::kOk);
    scramble_ = greeting_.auth_plugin_data;
  }

  // What the session has to send, taken (as the connection sends and erases it).
  std::string TakeOutput() {
    std::string out = std::move(session_->output());
    session_->output().clear();
    return out;
  }

  static absl::Span<const uint8_t> Bytes(const std::string& s) {
    return absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  }

  // The payloads of every packet in `wire`.
  static std::vector<std::string> Split(const std::string& wire) {
    std::vector<std::string> payloads;
    size_t at = 0;
    while (at + 4 <= wire.size()) {
      size_t length = static_cast<uint8_t>(wire[at]) | static_cast<uint8_t>(wire[at + 1]) << 8 |
                      static_cast<uint8_t>(wire[at + 2]) << 16;
      payloads.push_back(wire.substr(at + 4, length));
      at += 4 + length;
    }
    EXPECT_EQ(at, wire.size());
    return payloads;
  }

  // Sends `payload` as one packet with `seq`; returns the payloads of the answer.
  std::vector<std::string> Send(const std::string& payload, uint8_t seq) {
    std::string wire;
    mysql::AppendPacket(payload, &seq, &wire);
    return Feed(wire);
  }
  std::vector<std::string> Feed(const std::string& wire) {
    size_t consumed = 0;
    last_step_ = session_->OnInput(Bytes(wire), &consumed);
    EXPECT_EQ(consumed, wire.size());
    return Split(TakeOutput());
  }

  template <typename T>
  static std::string Encoded(const T& message, uint32_t caps = kClientCaps) {
    std::string out;
    mysql::Writer writer(&out);
    mysql::Encode(message, caps, &writer);
    return out;
  }

  // The HandshakeResponse41 (with sequence id 2 after an SSLRequest, else 1).
  std::vector<std::string> Login(const std::string& user, absl::string_view plugin,
                                 const std::string& response, uint32_t extra_caps = 0,
                                 uint8_t seq = 1) {
    mysql::client::HandshakeResponse41 hello;
    hello.capabilities = kClientCaps | extra_caps;
    hello.max_packet_size = 1 << 24;
    hello.charset = 45;
    hello.username = user;
    hello.auth_response = response;
    hello.database = "shop";
    hello.auth_plugin_name = plugin;
    return Send(Encoded(hello, hello.capabilities), seq);
  }
  void LoginAsRoot(uint32_t extra_caps = 0) {
    std::vector<std::string> reply = Login("root", mysql::kNativePasswordPlugin, "", extra_caps);
    ASSERT_EQ(reply.size(), 1u);
    ASSERT_EQ(reply[0][0], '\0') << "not an OK packet";
  }
  static int ErrorCode(const std::string& payload) {
    mysql::server::Err err;
    if (mysql::Decode(Bytes(payload), cap::kProtocol41, &err) != mysql::DecodeStatus::kOk)
      return -1;
    return err.code;
  }
  std::vector<std::string> Query(const std::string& sql) {
    return Send(Encoded(mysql::client::Query{sql}), 0);
  }

  MetricsRegistry metrics_;
  RouterContext context_;
  std::unique_ptr<Session> session_;
  std::string greeting_payload_;
  mysql::server::Greeting greeting_;
  std::string scramble_;
  Session::Step last_step_ = Session::Step::kRead;
};

TEST_F(SessionTest, GreetsAsMySql8WithNativePassword) {
  EXPECT_EQ(greeting_.server_version, "8.0.36-shoal-test");
  EXPECT_EQ(greeting_.connection_id, 7u);
  EXPECT_EQ(greeting_.auth_plugin_name, mysql::kNativePasswordPlugin);
  EXPECT_EQ(scramble_.size(), 20u);
  EXPECT_TRUE(greeting_.capabilities & cap::kLongPassword);  // MySQL mode, not MariaDB's
  EXPECT_FALSE(greeting_.capabilities & cap::kSsl);
}

TEST_F(SessionTest, NativePasswordRightAndWrong) {
  std::vector<std::string> ok = Login("app", mysql::kNativePasswordPlugin,
                                      mysql::ComputeNativeAuthResponse("secret", scramble_));
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0], '\0');
  EXPECT_EQ(last_step_, Session::Step::kRead);
}

TEST_F(SessionTest, WrongPasswordAndUnknownUserGet1045AndClose) {
  std::vector<std::string> refused = Login("app", mysql::kNativePasswordPlugin,
                                           mysql::ComputeNativeAuthResponse("nope", scramble_));
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(ErrorCode(refused[0]), 1045);
  EXPECT_THAT(refused[0], HasSubstr("Access denied for user 'app'@'localhost'"));
  EXPECT_EQ(last_step_, Session::Step::kClose);
}

TEST_F(SessionTest, APasswordlessUserIsRefusedFromAnotherHost) {
  // The configuration's root has no password: reached from this host only.
  session_ = std::make_unique<Session>(&context_, 9, "10.1.2.3");
  session_->Start();
  std::vector<std::string> greeting = Split(TakeOutput());
  ASSERT_EQ(greeting.size(), 1u);
  std::vector<std::string> refused = Login("root", mysql::kNativePasswordPlugin, "");
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(ErrorCode(refused[0]), 1045);
  EXPECT_THAT(refused[0], HasSubstr("'root'@'10.1.2.3'"));
}

TEST_F(SessionTest, ALockedAccountGets3118) {
  auto access = std::make_shared<wire::AccessControl>(*context_.server.seed_access);
  access->mutable_accounts(1)->set_locked(true);  // app
  context_.server.seed_access = access;
  std::vector<std::string> refused = Login("app", mysql::kNativePasswordPlugin,
                                           mysql::ComputeNativeAuthResponse("secret", scramble_));
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(ErrorCode(refused[0]), 3118);
  EXPECT_EQ(last_step_, Session::Step::kClose);
}

// An SSLRequest: the first 32 bytes of a HandshakeResponse41 with CLIENT_SSL.
std::string SslRequest() {
  std::string payload;
  mysql::Writer writer(&payload);
  writer.WriteInt4(kClientCaps | cap::kSsl);
  writer.WriteInt4(1 << 24);
  writer.WriteInt1(45);
  writer.WriteZeros(23);
  return payload;
}

TEST_F(SessionTest, WithoutTlsAnSslRequestIsABadHandshake) {
  std::vector<std::string> refused = Send(SslRequest(), 1);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(ErrorCode(refused[0]), 1043);
  EXPECT_EQ(last_step_, Session::Step::kClose);
}

class TlsSessionTest : public SessionTest {
 protected:
  TlsSessionTest() {
    auto made = tls::MakeCredentials({"localhost"});
    EXPECT_TRUE(made.ok());
    tls::Credentials credentials;
    credentials.cert_pem = made->server_cert_pem;
    credentials.key_pem = made->server_key_pem;
    context_.tls = *tls::ServerContext::Create(credentials);
    Restart(Transport::kTcp);
  }
  // What the connection does once the handshake is done.
  void Establish() {
    access::ClientTransport tls;
    tls.tls = true;
    tls.version = "TLSv1.3";
    tls.cipher = "TLS_AES_256_GCM_SHA384";
    session_->TlsEstablished(tls);
  }
  // As app, through TLS (after the SSLRequest).
  std::vector<std::string> LoginApp() {
    return Login("app", mysql::kNativePasswordPlugin,
                 mysql::ComputeNativeAuthResponse("secret", scramble_), cap::kSsl, 2);
  }
};

TEST_F(TlsSessionTest, TheSslRequestStartsTlsAndTheLoginComesThroughIt) {
  EXPECT_TRUE(greeting_.capabilities & cap::kSsl);
  // The ClientHello that follows in the same read is left for the connection to decrypt.
  std::string wire;
  uint8_t seq = 1;
  mysql::AppendPacket(SslRequest(), &seq, &wire);
  const size_t request_size = wire.size();
  wire += "\x16\x03\x01 the TLS handshake";
  size_t consumed = 0;
  EXPECT_EQ(session_->OnInput(Bytes(wire), &consumed), Session::Step::kStartTls);
  EXPECT_EQ(consumed, request_size);
  EXPECT_TRUE(TakeOutput().empty());
  Establish();
  std::vector<std::string> ok = LoginApp();
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0], '\0') << ErrorCode(ok[0]);
  std::vector<std::string> status = Query("SHOW STATUS LIKE 'Ssl_version'");
  EXPECT_THAT(absl::StrJoin(status, "|"), HasSubstr("TLSv1.3"));
}

TEST_F(TlsSessionTest, RequireSslRefusesALoginInTheClear) {
  auto access = std::make_shared<wire::AccessControl>(*context_.server.seed_access);
  access->mutable_accounts(1)->set_ssl_type("ANY");  // app
  context_.server.seed_access = access;
  std::vector<std::string> refused = Login("app", mysql::kNativePasswordPlugin,
                                           mysql::ComputeNativeAuthResponse("secret", scramble_));
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(ErrorCode(refused[0]), 1045);
  Restart(Transport::kTcp);
  Send(SslRequest(), 1);
  Establish();
  std::vector<std::string> ok = LoginApp();
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0], '\0') << ErrorCode(ok[0]);
}

TEST_F(TlsSessionTest, RequireSecureTransportRefusesTcpInTheClearNotTheSocket) {
  context_.server.require_secure_transport->store(true);
  std::vector<std::string> refused = Login("root", mysql::kNativePasswordPlugin, "");
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(ErrorCode(refused[0]), 3159);
  Restart(Transport::kUnixSocket);
  LoginAsRoot();
}

TEST_F(TlsSessionTest, ASecondSslRequestIsABadHandshake) {
  Send(SslRequest(), 1);
  std::vector<std::string> refused = Send(SslRequest(), 2);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(ErrorCode(refused[0]), 1043);
}

TEST_F(SessionTest, CachingSha2FastPathIsVerifiedWithoutFullAuthentication) {
  std::vector<std::string> reply =
      Login("app", mysql::kCachingSha2PasswordPlugin,
            mysql::ComputeCachingSha2AuthResponse("secret", scramble_));
  ASSERT_EQ(reply.size(), 2u);
  EXPECT_EQ(reply[0], std::string("\x01\x03", 2));  // fast_auth_success
  EXPECT_EQ(reply[1][0], '\0');
}

// An account known by its caching_sha2_password stored form alone (IDENTIFIED WITH
// caching_sha2_password AS '$A$005$…', as MySQL 8 writes it).
class FullAuthTest : public SessionTest {
 protected:
  FullAuthTest() {
    auto access = std::make_shared<wire::AccessControl>(*context_.server.seed_access);
    wire::Account* app = access->mutable_accounts(1);
    app->clear_native_hash();
    app->clear_sha256_hash();
    app->set_sha2_crypt(mysql::MakeSha2Crypt("secret", "abcdefghij0123456789"));
    context_.server.seed_access = access;
    context_.rsa = *tls::RsaKeyPair::LoadOrMake("");
  }
  std::vector<std::string> LoginWithScramble(const std::string& password) {
    return Login("app", mysql::kCachingSha2PasswordPlugin,
                 mysql::ComputeCachingSha2AuthResponse(password, scramble_));
  }
  // What a client without TLS sends: (password + NUL) XOR the scramble, RSA-OAEP encrypted
  // with the key the router sent as PEM text.
  std::string EncryptForRouter(const std::string& password, const std::string& pem) {
    std::string plain = password + '\0';
    for (size_t i = 0; i < plain.size(); ++i) plain[i] ^= scramble_[i % scramble_.size()];
    BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    EVP_PKEY* key = PEM_read_bio_PUBKEY(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(key, nullptr);
    EVP_PKEY_encrypt_init(ctx);
    EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING);
    size_t size = 0;
    const auto* in = reinterpret_cast<const unsigned char*>(plain.data());
    EVP_PKEY_encrypt(ctx, nullptr, &size, in, plain.size());
    std::string encrypted(size, '\0');
    EVP_PKEY_encrypt(ctx, reinterpret_cast<unsigned char*>(encrypted.data()), &size, in,
                     plain.size());
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(key);
    encrypted.resize(size);
    return encrypted;
  }
};

const std::string kPerformFullAuthentication("\x01\x04", 2);
const std::string kFastAuthSuccess("\x01\x03", 2);

TEST_F(FullAuthTest, TheFirstLoginSendsThePasswordTheNextTakeTheFastPath) {
  // Over the Unix socket the password comes in the clear.
  std::vector<std::string> reply = LoginWithScramble("secret");
  ASSERT_EQ(reply.size(), 1u);
  EXPECT_EQ(reply[0], kPerformFullAuthentication);
  std::vector<std::string> ok = Send(std::string("secret\0", 7), 3);
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0], '\0') << ErrorCode(ok[0]);
  // The router has learned the digest: the next login is decided by the scramble.
  Restart(Transport::kTcp);
  reply = LoginWithScramble("secret");
  ASSERT_EQ(reply.size(), 2u);
  EXPECT_EQ(reply[0], kFastAuthSuccess);
  EXPECT_EQ(reply[1][0], '\0');
  // A scramble that does not match asks for the password itself, as mysqld does.
  Restart(Transport::kUnixSocket);
  EXPECT_EQ(LoginWithScramble("wrong"), std::vector<std::string>{kPerformFullAuthentication});
  reply = Send(std::string("wrong\0", 6), 3);
  ASSERT_EQ(reply.size(), 1u);
  EXPECT_EQ(ErrorCode(reply[0]), 1045);
}

TEST_F(FullAuthTest, WithoutTlsThePasswordComesRsaEncrypted) {
  Restart(Transport::kTcp);
  ASSERT_EQ(LoginWithScramble("secret"), std::vector<std::string>{kPerformFullAuthentication});
  std::vector<std::string> key = Send(std::string("\x02", 1), 3);  // the public key, please
  ASSERT_EQ(key.size(), 1u);
  ASSERT_EQ(key[0][0], '\x01');
  EXPECT_THAT(key[0], HasSubstr("-----BEGIN PUBLIC KEY-----"));
  std::vector<std::string> ok = Send(EncryptForRouter("secret", key[0].substr(1)), 5);
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0], '\0') << ErrorCode(ok[0]);
}

TEST_F(FullAuthTest, AWrongPasswordOrGarbageIs1045) {
  Restart(Transport::kTcp);
  LoginWithScramble("wrong");
  std::vector<std::string> key = Send(std::string("\x02", 1), 3);
  std::vector<std::string> refused = Send(EncryptForRouter("wrong", key[0].substr(1)), 5);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(ErrorCode(refused[0]), 1045);
  Restart(Transport::kTcp);
  LoginWithScramble("secret");
  // Over TCP without TLS a password in the clear is not decrypted into one.
  refused = Send(std::string("secret\0", 7), 3);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(ErrorCode(refused[0]), 1045);
}

TEST_F(FullAuthTest, ANativePasswordClientIsSwitchedToCachingSha2) {
  std::vector<std::string> reply = Login("app", mysql::kNativePasswordPlugin,
                                         mysql::ComputeNativeAuthResponse("secret", scramble_));
  ASSERT_EQ(reply.size(), 1u);
  mysql::server::AuthSwitchRequest request;
  ASSERT_EQ(mysql::Decode(Bytes(reply[0]), kClientCaps, &request), mysql::DecodeStatus::kOk);
  EXPECT_EQ(request.plugin_name, mysql::kCachingSha2PasswordPlugin);
  reply = Send(mysql::ComputeCachingSha2AuthResponse("secret", scramble_), 3);
  EXPECT_EQ(reply, std::vector<std::string>{kPerformFullAuthentication});
  std::vector<std::string> ok = Send(std::string("secret\0", 7), 5);
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0], '\0') << ErrorCode(ok[0]);
}

TEST_F(SessionTest, AnEmptyCachingSha2ProbeIsSwitchedToNativePassword) {
  std::vector<std::string> reply = Login("app", mysql::kCachingSha2PasswordPlugin, "");
  ASSERT_EQ(reply.size(), 1u);
  mysql::server::AuthSwitchRequest request;
  ASSERT_EQ(mysql::Decode(Bytes(reply[0]), kClientCaps, &request), mysql::DecodeStatus::kOk);
  EXPECT_EQ(request.plugin_name, mysql::kNativePasswordPlugin);
  std::vector<std::string> ok = Send(mysql::ComputeNativeAuthResponse("secret", scramble_), 3);
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0], '\0');
}

TEST_F(SessionTest, AnEmptyCachingSha2ProbeIsSwitchedEvenForAnEmptyPassword) {
  // libmysqlclient 8's plugin expects a scramble after its empty first response.
  std::vector<std::string> reply = Login("root", mysql::kCachingSha2PasswordPlugin, "");
  ASSERT_EQ(reply.size(), 1u);
  mysql::server::AuthSwitchRequest request;
  ASSERT_EQ(mysql::Decode(Bytes(reply[0]), kClientCaps, &request), mysql::DecodeStatus::kOk);
  std::vector<std::string> ok = Send("", 3);  // the empty password's native response
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0], '\0');
}

TEST_F(SessionTest, ChangeUserAuthenticatesLikeTheHandshake) {
  LoginAsRoot();
  mysql::client::ChangeUser change;
  change.username = "app";
  std::string response = mysql::ComputeCachingSha2AuthResponse("secret", scramble_);
  change.auth_response = response;
  change.charset = 45;
  change.auth_plugin_name = mysql::kCachingSha2PasswordPlugin;
  std::vector<std::string> reply = Send(Encoded(change), 0);
  ASSERT_EQ(reply.size(), 2u);
  EXPECT_EQ(reply[0], std::string("\x01\x03", 2));  // fast_auth_success before the OK
  EXPECT_EQ(reply[1][0], '\0');
  EXPECT_EQ(Query("SELECT USER()")[3],
            "\x0d"
            "app@localhost");
}

TEST_F(SessionTest, LongDataPastMaxAllowedPacketFailsTheExecuteNotTheRouter) {
  context_.max_allowed_packet = 1000;
  LoginAsRoot();
  std::vector<std::string> prepared = Send(Encoded(mysql::client::StmtPrepare{"SELECT ?"}), 0);
  mysql::server::PrepareOk ok;
  ASSERT_EQ(mysql::Decode(Bytes(prepared[0]), kClientCaps, &ok), mysql::DecodeStatus::kOk);
  std::string chunk(600, 'x');
  for (int i = 0; i < 3; ++i) {  // 1800 bytes in all: no reply to any of them
    EXPECT_TRUE(
        Send(Encoded(mysql::client::StmtSendLongData{ok.statement_id, 0, chunk}), 0).empty());
  }
  // Long data for a parameter the statement does not have is ignored.
  EXPECT_TRUE(Send(Encoded(mysql::client::StmtSendLongData{ok.statement_id, 9, chunk}), 0).empty());
  mysql::client::StmtExecute execute;
  execute.statement_id = ok.statement_id;
  execute.new_params_bound = 1;
  execute.param_types = {{mysql::ColumnType::kBlob, 0}};
  execute.params = {std::string()};
  std::vector<std::string> failed = Send(Encoded(execute), 0);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(ErrorCode(failed[0]), 1153);
  // The statement works again afterwards: count, definition, EOF, row, EOF.
  EXPECT_EQ(Send(Encoded(execute), 0).size(), 5u);
}

TEST_F(SessionTest, TextResultSetWithEofs) {
  LoginAsRoot();
  std::vector<std::string> reply = Query("SELECT 1");
  // column count, column definition, EOF, row, EOF (no CLIENT_DEPRECATE_EOF).
  ASSERT_EQ(reply.size(), 5u);
  EXPECT_EQ(reply[0], "\x01");
  EXPECT_EQ(static_cast<uint8_t>(reply[2][0]), 0xFE);
  EXPECT_EQ(reply[3],
            "\x01"
            "1");
  EXPECT_EQ(static_cast<uint8_t>(reply[4][0]), 0xFE);
}

TEST_F(SessionTest, MultiStatementsSetMoreResultsExistBetweenResults) {
  LoginAsRoot(cap::kMultiStatements | cap::kDeprecateEof);
  std::vector<std::string> reply = Query("SELECT 1; SELECT 2");
  // Per result: count, definition, row, 0xFE-OK (DEPRECATE_EOF).
  ASSERT_EQ(reply.size(), 8u);
  mysql::server::Ok first_end;
  ASSERT_EQ(mysql::Decode(Bytes(reply[3]), kClientCaps | cap::kDeprecateEof, &first_end),
            mysql::DecodeStatus::kOk);
  EXPECT_TRUE(first_end.status_flags & mysql::status::kMoreResultsExist);
  mysql::server::Ok last_end;
  ASSERT_EQ(mysql::Decode(Bytes(reply[7]), kClientCaps | cap::kDeprecateEof, &last_end),
            mysql::DecodeStatus::kOk);
  EXPECT_FALSE(last_end.status_flags & mysql::status::kMoreResultsExist);
}

TEST_F(SessionTest, PreparedStatementsRememberTheirParameterTypes) {
  LoginAsRoot(cap::kDeprecateEof);
  std::vector<std::string> prepared = Send(Encoded(mysql::client::StmtPrepare{"SELECT ? + 1"}), 0);
  ASSERT_GE(prepared.size(), 2u);
  mysql::server::PrepareOk ok;
  ASSERT_EQ(mysql::Decode(Bytes(prepared[0]), kClientCaps, &ok), mysql::DecodeStatus::kOk);
  EXPECT_EQ(ok.num_params, 1);
  mysql::client::StmtExecute execute;
  execute.statement_id = ok.statement_id;
  execute.new_params_bound = 1;
  execute.param_types = {{mysql::ColumnType::kLongLong, 0}};
  execute.params = {int64_t{41}};
  std::vector<std::string> first = Send(Encoded(execute), 0);
  ASSERT_EQ(first.size(), 4u);  // count, definition, binary row, end
  // The second execute sends no types (as sysbench does): the first ones are reused.
  execute.new_params_bound = 0;
  execute.params = {int64_t{99}};
  std::vector<std::string> second = Send(Encoded(execute), 0);
  ASSERT_EQ(second.size(), 4u);
  EXPECT_NE(first[2], second[2]);
  EXPECT_EQ(Send(Encoded(mysql::client::StmtReset{ok.statement_id}), 0).size(), 1u);
  EXPECT_TRUE(Send(Encoded(mysql::client::StmtClose{ok.statement_id}), 0).empty());
  std::vector<std::string> unknown = Send(Encoded(execute), 0);
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(ErrorCode(unknown[0]), 1243);
}

TEST_F(SessionTest, OtherCommands) {
  LoginAsRoot();
  EXPECT_EQ(Send(std::string("\x0e"), 0)[0][0], '\0');  // COM_PING
  EXPECT_EQ(Send(Encoded(mysql::client::InitDb{"other"}), 0)[0][0], '\0');
  EXPECT_EQ(ErrorCode(Send(Encoded(mysql::client::FieldList{"t", ""}), 0)[0]), 1146);
  EXPECT_EQ(ErrorCode(Send(std::string("\x1d"), 0)[0]), 1047);           // COM_DAEMON: unknown
  EXPECT_THAT(Send(std::string("\x09"), 0)[0], StartsWith("Uptime: "));  // COM_STATISTICS
  EXPECT_EQ(ErrorCode(Query("SELEKT 1")[0]), 1064);
  EXPECT_TRUE(Send(std::string("\x01"), 0).empty());  // COM_QUIT: no answer
  EXPECT_EQ(last_step_, Session::Step::kClose);
}

TEST_F(SessionTest, PipelinedAndFragmentedInput) {
  LoginAsRoot();
  std::string two;
  uint8_t seq = 0;
  mysql::AppendPacket(std::string("\x0e"), &seq, &two);
  seq = 0;
  mysql::AppendPacket(std::string("\x0e"), &seq, &two);
  EXPECT_EQ(Feed(two).size(), 2u);  // both pings answered
  // One byte at a time: nothing until the packet is whole.
  std::string ping;
  seq = 0;
  mysql::AppendPacket(Encoded(mysql::client::Query{"SELECT 7"}), &seq, &ping);
  size_t pending = 0;
  for (size_t i = 0; i < ping.size(); ++i) {
    size_t consumed = 0;
    session_->OnInput(Bytes(ping.substr(pending, i + 1 - pending)), &consumed);
    pending += consumed;
  }
  EXPECT_EQ(pending, ping.size());
  EXPECT_EQ(Split(TakeOutput()).size(), 5u);
}

TEST_F(SessionTest, AQueryLongerThan16MiBArrivesInPiecesAndIsAnswered) {
  LoginAsRoot();
  // 17 MiB of comment: two packets (16 MiB - 1 and the rest), fed 64 KiB at a time as the
  // socket delivers them.
  std::string query = "SELECT 1 /*" + std::string(17 << 20, 'x') + "*/";
  std::string wire;
  uint8_t seq = 0;
  mysql::AppendPacket(Encoded(mysql::client::Query{query}), &seq, &wire);
  size_t start = 0;  // first byte not consumed yet
  for (size_t end = 0; end < wire.size();) {
    end = std::min(wire.size(), end + (64 << 10));
    size_t consumed = 0;
    ASSERT_EQ(session_->OnInput(Bytes(wire.substr(start, end - start)), &consumed),
              Session::Step::kRead);
    start += consumed;
  }
  EXPECT_EQ(start, wire.size());
  std::vector<std::string> reply = Split(TakeOutput());
  ASSERT_EQ(reply.size(), 5u);  // count, definition, EOF, row, EOF
  EXPECT_EQ(reply[3],
            "\x01"
            "1");
  // And the connection goes on: the next command starts at sequence 0 again.
  EXPECT_EQ(Query("SELECT 2")[3],
            "\x01"
            "2");
}

// With data nodes: what waits for them returns kWait at once, and the answer is appended to
// the output and announced by `answered` from inside the client's Poll — here the login's USE
// of a database the router does not know yet (a dictionary refresh), then DDL.
class ClientAccess : public sql::DataAccess {
 public:
  explicit ClientAccess(api::Cluster* cluster) : client_(cluster) {}
  api::Client& client() override { return client_; }
  void Flush() override { client_.Send(); }

 private:
  api::Client client_;
};

TEST_F(SessionTest, CommandsWaitingForTheDataNodesAnswerByCallback) {
  api::testing::FakeMaster master;
  ASSERT_TRUE(master.ok());
  master.answer = [](const wire::DictReq& request) {
    wire::DictConf conf;
    if (request.has_get_dictionary()) {
      conf.mutable_dictionary()->set_version(1);
      conf.mutable_dictionary()->add_databases("shop");
    }
    return std::optional<wire::DictConf>(conf);
  };
  api::Cluster::Options options;
  options.use_shared_memory = false;
  api::Cluster cluster(options);
  cluster.SetView(master.View());
  ClientAccess access(&cluster);
  int answered = 0;
  session_ = std::make_unique<Session>(&context_, 8, "localhost", &access, [&] { ++answered; });
  session_->Start();
  TakeOutput();
  auto answer = [&] {
    absl::Time deadline = absl::Now() + absl::Seconds(10);
    while (answered == 0 && absl::Now() < deadline) {
      master.Serve();
      access.client().Poll(absl::Milliseconds(5));
    }
    EXPECT_EQ(answered, 1);
    answered = 0;
    return Split(TakeOutput());
  };

  EXPECT_TRUE(Login("root", mysql::kNativePasswordPlugin, "").empty());
  EXPECT_EQ(last_step_, Session::Step::kWait);
  EXPECT_TRUE(session_->waiting());
  std::vector<std::string> ok = answer();
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0], '\0') << "not an OK packet";
  EXPECT_FALSE(session_->waiting());

  EXPECT_TRUE(Query("CREATE DATABASE d").empty());
  EXPECT_EQ(last_step_, Session::Step::kWait);
  ok = answer();
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0][0], '\0') << "not an OK packet";
  EXPECT_EQ(Query("SELECT DATABASE()")[3],
            "\x04"
            "shop");
  ASSERT_EQ(master.requests.size(), 2u);
  EXPECT_TRUE(master.requests[1].has_create_database());
  session_.reset();  // before the data access it holds (the session ends its user locks there)
}

}  // namespace
}  // namespace shoal::router
