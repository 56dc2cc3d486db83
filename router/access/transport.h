// What a login came over, and the REQUIRE clause of an account (CREATE/ALTER USER … REQUIRE):
// NONE, SSL (any TLS connection), X509 (TLS with a client certificate the router's CA
// verified), or ISSUER/SUBJECT/CIPHER, each compared as mysqld compares them. A login that
// does not meet its account's clause is refused as a wrong password is (1045).
#pragma once

#include <string>

#include "engine/wire/dictionary.pb.h"

namespace shoal::access {

struct ClientTransport {
  bool tls = false;
  bool certificate_verified = false;  // the client gave a certificate the CA verified
  std::string subject, issuer;        // its names, "/CN=…" (X509_NAME_oneline)
  std::string version;                // "TLSv1.3"
  std::string cipher;                 // "TLS_AES_256_GCM_SHA384"
};

bool MeetsRequirement(const wire::Account& account, const ClientTransport& transport);

// " REQUIRE NONE", " REQUIRE SSL", " REQUIRE X509" or " REQUIRE ISSUER '…' AND SUBJECT '…'
// AND CIPHER '…'", as SHOW CREATE USER writes it.
std::string RequireClause(const wire::Account& account);

}  // namespace shoal::access
