#include "router/access/transport.h"

#include "absl/strings/str_cat.h"
#include "protocol/text_format.h"

namespace shoal::access {

bool MeetsRequirement(const wire::Account& account, const ClientTransport& transport) {
  const std::string& type = account.ssl_type();
  if (type.empty()) return true;
  if (!transport.tls) return false;
  if (type == "ANY") return true;
  if (type == "X509") return transport.certificate_verified;
  // SPECIFIED: each part that is set must match; an issuer or subject needs a certificate.
  if (!account.ssl_cipher().empty() && account.ssl_cipher() != transport.cipher) return false;
  bool needs_certificate = !account.x509_issuer().empty() || !account.x509_subject().empty();
  if (needs_certificate && !transport.certificate_verified) return false;
  if (!account.x509_issuer().empty() && account.x509_issuer() != transport.issuer) return false;
  return account.x509_subject().empty() || account.x509_subject() == transport.subject;
}

std::string RequireClause(const wire::Account& account) {
  const std::string& type = account.ssl_type();
  if (type.empty()) return " REQUIRE NONE";
  if (type == "ANY") return " REQUIRE SSL";
  if (type == "X509") return " REQUIRE X509";
  std::string clause = " REQUIRE";
  const char* separator = " ";
  for (const auto& [name, value] : {std::pair{"ISSUER ", &account.x509_issuer()},
                                    std::pair{"SUBJECT ", &account.x509_subject()},
                                    std::pair{"CIPHER ", &account.ssl_cipher()}}) {
    if (value->empty()) continue;
    absl::StrAppend(&clause, separator, name, mysql::QuoteSqlString(*value));
    separator = " AND ";
  }
  return clause;
}

}  // namespace shoal::access
