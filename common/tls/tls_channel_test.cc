#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/tls/channel.h"
#include "common/tls/credentials.h"
#include "common/tls/openssl_util.h"
#include "common/tls/server_context.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::tls {
namespace {

using ::testing::HasSubstr;

// A TLS client over memory, pumped by hand against a Channel.
class TestClient {
 public:
  // Verifies the server against `ca_pem` for `host`; presents `cert_pem`/`key_pem` if given.
  TestClient(const std::string& ca_pem, const std::string& host, const std::string& cert_pem = "",
             const std::string& key_pem = "")
      : ctx_(SSL_CTX_new(TLS_client_method())) {
    auto cas = ParseCertificates(ca_pem);
    EXPECT_TRUE(cas.ok());
    for (const UniqueX509& ca : *cas)
      X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx_.get()), ca.get());
    SSL_CTX_set_verify(ctx_.get(), SSL_VERIFY_PEER, nullptr);
    if (!cert_pem.empty()) {
      auto certs = ParseCertificates(cert_pem);
      auto key = ParsePrivateKey(key_pem);
      EXPECT_EQ(SSL_CTX_use_certificate(ctx_.get(), (*certs)[0].get()), 1);
      EXPECT_EQ(SSL_CTX_use_PrivateKey(ctx_.get(), key->get()), 1);
    }
    ssl_ = SSL_new(ctx_.get());
    in_ = BIO_new(BIO_s_mem());
    out_ = BIO_new(BIO_s_mem());
    BIO_set_mem_eof_return(in_, -1);
    SSL_set_bio(ssl_, in_, out_);
    SSL_set_tlsext_host_name(ssl_, host.c_str());
    SSL_set1_host(ssl_, host.c_str());
    SSL_set_connect_state(ssl_);
  }
  ~TestClient() { SSL_free(ssl_); }

  // Moves bytes both ways until neither side has more to say; what the server decrypted is
  // appended to `server_plain`. False when the server's channel failed.
  bool Pump(Channel* server, std::string* server_plain) {
    for (int round = 0; round < 20; ++round) {
      SSL_do_handshake(ssl_);
      char* data = nullptr;
      long n = BIO_get_mem_data(out_, &data);
      std::string to_server(data, static_cast<size_t>(n));
      (void)BIO_reset(out_);
      server->Feed(to_server);
      char buffer[4096];
      for (;;) {
        absl::StatusOr<size_t> read = server->Read(buffer, sizeof(buffer));
        if (!read.ok()) {
          last_error_ = std::string(read.status().message());
          return false;
        }
        if (*read == 0) break;
        server_plain->append(buffer, *read);
      }
      std::string& to_client = server->output();
      BIO_write(in_, to_client.data(), static_cast<int>(to_client.size()));
      bool quiet = to_server.empty() && to_client.empty();
      to_client.clear();
      if (quiet) return true;
    }
    return true;
  }
  void Send(const std::string& text) {
    SSL_write(ssl_, text.data(), static_cast<int>(text.size()));
  }
  std::string Receive() {
    std::string text;
    char buffer[4096];
    int n;
    while ((n = SSL_read(ssl_, buffer, sizeof(buffer))) > 0) text.append(buffer, n);
    return text;
  }
  bool established() const { return SSL_is_init_finished(ssl_) == 1; }
  long verify_result() const { return SSL_get_verify_result(ssl_); }
  const std::string& last_error() const { return last_error_; }

 private:
  UniqueSslCtx ctx_;
  SSL* ssl_;
  BIO* in_;
  BIO* out_;
  std::string last_error_;
};

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = MakeCredentials({"localhost", "127.0.0.1", "::1", "router.example"});
    ASSERT_TRUE(made.ok()) << made.status();
    made_ = *made;
    Credentials credentials;
    credentials.ca_pem = made_.ca_pem;
    credentials.cert_pem = made_.server_cert_pem;
    credentials.key_pem = made_.server_key_pem;
    auto context = ServerContext::Create(credentials);
    ASSERT_TRUE(context.ok()) << context.status();
    context_ = std::move(*context);
  }
  MadeCredentials made_;
  std::unique_ptr<ServerContext> context_;
};

TEST_F(TlsTest, ClientVerifiesTheServerAndBothWaysCarryData) {
  for (const char* host : {"localhost", "router.example"}) {
    Channel server(context_->get());
    TestClient client(made_.ca_pem, host);
    std::string plain;
    ASSERT_TRUE(client.Pump(&server, &plain)) << client.last_error();
    EXPECT_TRUE(client.established());
    EXPECT_EQ(client.verify_result(), X509_V_OK);
    EXPECT_TRUE(server.established());
    EXPECT_THAT(server.version(), HasSubstr("TLSv1."));
    EXPECT_FALSE(server.cipher().empty());
    EXPECT_FALSE(server.peer_verified());   // no client certificate
    client.Send(std::string(100000, 'q'));  // several records
    ASSERT_TRUE(client.Pump(&server, &plain));
    EXPECT_EQ(plain, std::string(100000, 'q'));
    ASSERT_TRUE(server.Write("reply").ok());
    std::string ignored;
    ASSERT_TRUE(client.Pump(&server, &ignored));
    EXPECT_EQ(client.Receive(), "reply");
  }
}

TEST_F(TlsTest, AnotherHostNameFailsVerification) {
  Channel server(context_->get());
  TestClient client(made_.ca_pem, "elsewhere.example");
  std::string plain;
  client.Pump(&server, &plain);
  EXPECT_FALSE(client.established());
  EXPECT_FALSE(server.established());
}

TEST_F(TlsTest, AClientCertificateOfTheCaIsVerified) {
  Channel server(context_->get());
  TestClient client(made_.ca_pem, "localhost", made_.client_cert_pem, made_.client_key_pem);
  std::string plain;
  ASSERT_TRUE(client.Pump(&server, &plain)) << client.last_error();
  client.Send("x");  // TLS 1.3 finishes the server's side with the client's next record
  ASSERT_TRUE(client.Pump(&server, &plain));
  EXPECT_TRUE(server.peer_verified());
  EXPECT_EQ(server.peer_subject(), "/CN=Shoal_Router_Auto_Generated_Client_Certificate");
  EXPECT_EQ(server.peer_issuer(), "/CN=Shoal_Router_Auto_Generated_CA_Certificate");
}

TEST_F(TlsTest, AClientCertificateOfAnotherCaFailsTheHandshake) {
  auto other = MakeCredentials({"localhost"});
  ASSERT_TRUE(other.ok());
  Channel server(context_->get());
  TestClient client(made_.ca_pem, "localhost", other->client_cert_pem, other->client_key_pem);
  std::string plain;
  bool ok = client.Pump(&server, &plain);
  if (ok) {
    client.Send("x");
    ok = client.Pump(&server, &plain);
  }
  EXPECT_FALSE(ok);
  EXPECT_FALSE(server.peer_verified());
}

TEST_F(TlsTest, GarbageIsAnErrorNotACrash) {
  for (const std::string& bytes :
       {std::string("\x03SELECT 1", 9), std::string(5000, '\x16'), std::string(3, '\0')}) {
    Channel server(context_->get());
    server.Feed(bytes);
    char buffer[64];
    absl::StatusOr<size_t> read = server.Read(buffer, sizeof(buffer));
    EXPECT_TRUE(!read.ok() || *read == 0);
  }
}

TEST(Credentials, MadeOnceInTheDirectoryAndSharedByRoutersStartingAtOnce) {
  std::string dir = absl::StrCat(::testing::TempDir(), "/shoal-tls-", getpid(), "/tls");
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
  CredentialOptions options;
  options.dir = dir;
  options.names = {"localhost"};
  std::vector<absl::StatusOr<Credentials>> results(4);
  std::vector<std::thread> threads;
  for (auto& result : results) {
    threads.emplace_back([&result, &options] { result = LoadOrMakeCredentials(options); });
  }
  for (std::thread& thread : threads) thread.join();
  for (const auto& result : results) {
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->cert_pem, results[0]->cert_pem);
    EXPECT_EQ(result->cert_file, dir + "/server-cert.pem");
  }
  auto again = LoadOrMakeCredentials(options);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->cert_pem, results[0]->cert_pem);
  EXPECT_EQ(std::filesystem::status(dir + "/server-key.pem").permissions() &
                std::filesystem::perms::others_read,
            std::filesystem::perms::none);
  for (const char* file : {"ca.pem", "ca-key.pem", "client-cert.pem", "client-key.pem"}) {
    EXPECT_TRUE(std::filesystem::exists(absl::StrCat(dir, "/", file))) << file;
  }
  EXPECT_EQ(
      std::distance(std::filesystem::directory_iterator(std::filesystem::path(dir).parent_path()),
                    std::filesystem::directory_iterator()),
      1);  // the losers' sets are gone
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

TEST(Credentials, AnSslDirHoldingSomethingElseIsAClearError) {
  std::string dir = absl::StrCat(::testing::TempDir(), "/shoal-tls-other-", getpid());
  std::filesystem::create_directories(dir);
  FILE* f = fopen((dir + "/notes.txt").c_str(), "w");
  fputs("not ours\n", f);
  fclose(f);
  CredentialOptions options;
  options.dir = dir;
  auto credentials = LoadOrMakeCredentials(options);
  ASSERT_FALSE(credentials.ok());
  EXPECT_THAT(credentials.status().message(), HasSubstr("holds files but no certificate set"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/notes.txt"));  // left as it was
  std::filesystem::remove_all(dir);
}

TEST(Credentials, ConfiguredFilesThatAreNotPemAreAClearError) {
  std::string dir = absl::StrCat(::testing::TempDir(), "/shoal-tls-bad-", getpid());
  std::filesystem::create_directories(dir);
  std::string cert = dir + "/cert.pem";
  FILE* f = fopen(cert.c_str(), "w");
  fputs("not a certificate\n", f);
  fclose(f);
  CredentialOptions options;
  options.cert_file = options.key_file = cert;
  auto credentials = LoadOrMakeCredentials(options);
  ASSERT_TRUE(credentials.ok());
  auto context = ServerContext::Create(*credentials);
  ASSERT_FALSE(context.ok());
  EXPECT_THAT(context.status().message(), HasSubstr("ssl_cert " + cert));
  options.cert_file = dir + "/none.pem";
  auto missing = LoadOrMakeCredentials(options);
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("none.pem"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace shoal::tls
