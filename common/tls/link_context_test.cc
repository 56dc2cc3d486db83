// The cluster's own certificates: the per-host sets --make-cluster-certificates makes, the set a
// cluster on one host makes on first start, loading them, and a client channel's handshake
// between two members (in memory).
#include "common/tls/link_context.h"

#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/tls/openssl_util.h"
#include "gtest/gtest.h"

namespace shoal::tls {
namespace {

class LinkContextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/shoal-link-XXXXXX";
    dir_ = mkdtemp(pattern);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir_;
};

// The subjectAltName of the certificate in `file`, as openssl prints it.
std::string AltNames(const std::string& file) {
  absl::StatusOr<std::string> pem = ReadPemFile(file);
  if (!pem.ok()) return "";
  absl::StatusOr<std::vector<UniqueX509>> certs = ParseCertificates(*pem);
  if (!certs.ok()) return "";
  GENERAL_NAMES* names = static_cast<GENERAL_NAMES*>(
      X509_get_ext_d2i((*certs)[0].get(), NID_subject_alt_name, nullptr, nullptr));
  std::string text;
  for (int i = 0; names != nullptr && i < sk_GENERAL_NAME_num(names); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names, i);
    if (name->type == GEN_DNS) {
      absl::StrAppend(&text,
                      "DNS:", reinterpret_cast<const char*>(ASN1_STRING_get0_data(name->d.dNSName)),
                      ",");
    } else if (name->type == GEN_IPADD) {
      absl::StrAppend(&text, "IP(", ASN1_STRING_length(name->d.iPAddress), " bytes),");
    }
  }
  GENERAL_NAMES_free(names);
  return text;
}

// Runs a handshake between two channels in memory; whether both ends finished it. What the
// server decrypted meanwhile goes to `server_read`.
bool Handshake(Channel* client, Channel* server, std::string* server_read = nullptr) {
  char buffer[4096];
  for (int round = 0; round < 10; ++round) {
    server->Feed(std::exchange(client->output(), {}));
    absl::StatusOr<size_t> n = server->Read(buffer, sizeof(buffer));
    if (!n.ok()) return false;
    if (server_read != nullptr) server_read->append(buffer, *n);
    client->Feed(std::exchange(server->output(), {}));
    if (!client->Read(buffer, sizeof(buffer)).ok()) return false;
    if (client->established() && server->established()) return true;
  }
  return false;
}

TEST_F(LinkContextTest, MakesASetPerHostAndRefusesToOverwrite) {
  std::string certs = dir_ + "/certs";
  ASSERT_TRUE(MakeClusterCertificates(certs, {"10.1.2.3", "db-2.example"}).ok());
  for (const char* host : {"10.1.2.3", "db-2.example"}) {
    std::string set = absl::StrCat(certs, "/", host);
    for (const char* file : {kLinkCaFile, kLinkCertFile, kLinkKeyFile}) {
      EXPECT_TRUE(std::filesystem::exists(absl::StrCat(set, "/", file))) << set << file;
    }
    struct stat key;
    ASSERT_EQ(stat(absl::StrCat(set, "/", kLinkKeyFile).c_str(), &key), 0);
    EXPECT_EQ(key.st_mode & 0777, 0600u) << host;
    absl::StatusOr<std::unique_ptr<LinkContext>> loaded = LinkContext::Load(set);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ((*loaded)->dir(), set);
  }
  EXPECT_EQ(AltNames(certs + "/10.1.2.3/node-cert.pem"),
            "IP(4 bytes),DNS:localhost,IP(4 bytes),IP(16 bytes),");
  EXPECT_EQ(AltNames(certs + "/db-2.example/node-cert.pem"),
            "DNS:db-2.example,DNS:localhost,IP(4 bytes),IP(16 bytes),");
  absl::Status again = MakeClusterCertificates(certs, {"10.1.2.3"});
  EXPECT_EQ(again.code(), absl::StatusCode::kFailedPrecondition) << again;
  EXPECT_NE(again.message().find("not empty"), std::string::npos) << again;
}

TEST_F(LinkContextTest, MembersOfOneClusterShakeHandsAndStrangersDoNot) {
  ASSERT_TRUE(MakeClusterCertificates(dir_ + "/ours", {"10.1.2.3", "10.1.2.4"}).ok());
  ASSERT_TRUE(MakeClusterCertificates(dir_ + "/theirs", {"10.1.2.3"}).ok());
  auto a = LinkContext::Load(dir_ + "/ours/10.1.2.3");
  auto b = LinkContext::Load(dir_ + "/ours/10.1.2.4");
  auto stranger = LinkContext::Load(dir_ + "/theirs/10.1.2.3");
  ASSERT_TRUE(a.ok() && b.ok() && stranger.ok());
  {
    auto client = (*a)->NewClientChannel("10.1.2.4");
    auto server = (*b)->NewServerChannel();
    // Written before the handshake: kept, and sent once it has finished.
    ASSERT_TRUE(client->Write("hello").ok());
    std::string read;
    ASSERT_TRUE(Handshake(client.get(), server.get(), &read));
    server->Feed(std::exchange(client->output(), {}));
    char buffer[64];
    absl::StatusOr<size_t> n = server->Read(buffer, sizeof(buffer));
    ASSERT_TRUE(n.ok()) << n.status();
    read.append(buffer, *n);
    EXPECT_EQ(read, "hello");
    EXPECT_TRUE(server->peer_verified());
  }
  // The host dialled must be named by the peer's certificate.
  EXPECT_FALSE(Handshake((*a)->NewClientChannel("10.1.2.9").get(), (*b)->NewServerChannel().get()));
  // Another cluster's member is refused whichever end it is.
  EXPECT_FALSE(
      Handshake((*stranger)->NewClientChannel("10.1.2.4").get(), (*b)->NewServerChannel().get()));
  EXPECT_FALSE(
      Handshake((*a)->NewClientChannel("10.1.2.3").get(), (*stranger)->NewServerChannel().get()));
}

TEST_F(LinkContextTest, OneHostMakesItsSetOnceAndLoadsItAfter) {
  std::string set = dir_ + "/cluster-tls";
  EXPECT_TRUE(absl::IsNotFound(LinkContext::Load(set).status()));
  auto made = LoadOrMakeLocalSet(set, {"127.0.0.2"});
  ASSERT_TRUE(made.ok()) << made.status();
  absl::StatusOr<std::string> first = ReadPemFile(set + "/ca.pem");
  ASSERT_TRUE(first.ok());
  EXPECT_NE(AltNames(set + "/node-cert.pem").find("DNS:localhost"), std::string::npos);
  auto again = LoadOrMakeLocalSet(set, {"127.0.0.2"});
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*ReadPemFile(set + "/ca.pem"), *first);  // loaded, not made again
  // Nothing else is left beside it.
  int entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) entries += entry.exists();
  EXPECT_EQ(entries, 1);
}

TEST_F(LinkContextTest, ABrokenSetIsAnErrorNamingTheFile) {
  ASSERT_TRUE(MakeClusterCertificates(dir_ + "/certs", {"10.1.2.3"}).ok());
  std::string set = dir_ + "/certs/10.1.2.3";
  std::filesystem::remove(set + "/node-key.pem");
  absl::Status missing = LinkContext::Load(set).status();
  EXPECT_FALSE(missing.ok());
  EXPECT_FALSE(absl::IsNotFound(missing) &&
               missing.message().find("node-cert") != std::string::npos);
  EXPECT_NE(missing.message().find("node-key.pem"), std::string::npos) << missing;
  std::ofstream(set + "/node-key.pem") << "not a key";
  absl::Status garbage = LinkContext::Load(set).status();
  EXPECT_EQ(garbage.code(), absl::StatusCode::kInvalidArgument) << garbage;
  EXPECT_NE(garbage.message().find("node-key.pem"), std::string::npos) << garbage;
}

}  // namespace
}  // namespace shoal::tls
