// tls_handshake: the router's CPU for one TLS handshake, measured in one process over memory
// (no sockets, no scheduler): a client made with OpenSSL talks to a tls::Channel of the
// router's own ServerContext and made credentials, and only the Channel's calls are timed
// (thread CPU time). Cases: a client without a certificate (most drivers), and one that
// presents the CA's client certificate (sysbench --mysql-ssl=on always does; REQUIRE X509
// accounts), which the router verifies.
//
//   tls_handshake [--handshakes 500]
#include <openssl/ssl.h>

#include <cstdio>
#include <ctime>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "common/tls/channel.h"
#include "common/tls/credentials.h"
#include "common/tls/server_context.h"

ABSL_FLAG(int, handshakes, 500, "handshakes per case");

namespace {

using shoal::tls::Channel;

double ThreadCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// One handshake against a new Channel; the router's CPU seconds for it, or a negative number
// when it failed.
double Handshake(SSL_CTX* server, SSL_CTX* client_ctx) {
  SSL* client = SSL_new(client_ctx);
  BIO* in = BIO_new(BIO_s_mem());
  BIO* out = BIO_new(BIO_s_mem());
  BIO_set_mem_eof_return(in, -1);
  SSL_set_bio(client, in, out);
  SSL_set_connect_state(client);
  double start = ThreadCpuSeconds();
  auto* channel = new Channel(server);
  double cpu = ThreadCpuSeconds() - start;
  bool ok = true;
  char plain[1024];
  for (int round = 0; round < 10 && ok; ++round) {
    SSL_do_handshake(client);
    SSL_read(client, plain, sizeof(plain));  // takes what TLS 1.3 sends after it
    char* data = nullptr;
    long size = BIO_get_mem_data(out, &data);
    std::string to_server(data, static_cast<size_t>(size));
    (void)BIO_reset(out);
    start = ThreadCpuSeconds();
    channel->Feed(to_server);
    ok = channel->Read(plain, sizeof(plain)).ok();
    std::string& to_client = channel->output();
    cpu += ThreadCpuSeconds() - start;
    BIO_write(in, to_client.data(), static_cast<int>(to_client.size()));
    bool quiet = to_server.empty() && to_client.empty();
    to_client.clear();
    if (quiet) break;
  }
  ok = ok && channel->established() && SSL_is_init_finished(client) == 1;
  start = ThreadCpuSeconds();
  delete channel;
  cpu += ThreadCpuSeconds() - start;
  SSL_free(client);
  return ok ? cpu : -1;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const int handshakes = absl::GetFlag(FLAGS_handshakes);
  auto made = shoal::tls::MakeCredentials({"localhost"});
  if (!made.ok()) return 1;
  shoal::tls::Credentials credentials;
  credentials.ca_pem = made->ca_pem;
  credentials.cert_pem = made->server_cert_pem;
  credentials.key_pem = made->server_key_pem;
  auto server = shoal::tls::ServerContext::Create(credentials);
  if (!server.ok()) return 1;

  SSL_CTX* plain_client = SSL_CTX_new(TLS_client_method());
  SSL_CTX* certificate_client = SSL_CTX_new(TLS_client_method());
  auto certs = shoal::tls::ParseCertificates(made->client_cert_pem);
  auto key = shoal::tls::ParsePrivateKey(made->client_key_pem);
  if (!certs.ok() || !key.ok()) return 1;
  SSL_CTX_use_certificate(certificate_client, (*certs)[0].get());
  SSL_CTX_use_PrivateKey(certificate_client, key->get());

  std::printf("| handshake | router µs |\n| --- | --: |\n");
  struct Case {
    const char* name;
    SSL_CTX* client;
  };
  for (const Case& c : {Case{"client without a certificate", plain_client},
                        Case{"client with a certificate", certificate_client}}) {
    double total = 0;
    for (int i = 0; i < handshakes; ++i) {
      double cpu = Handshake((*server)->get(), c.client);
      if (cpu < 0) {
        std::fprintf(stderr, "%s: a handshake failed\n", c.name);
        return 1;
      }
      total += cpu;
    }
    std::printf("| %s | %.1f |\n", c.name, total / handshakes * 1e6);
  }
  SSL_CTX_free(plain_client);
  SSL_CTX_free(certificate_client);
  return 0;
}
