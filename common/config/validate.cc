// Cross-field checks on a loaded configuration (each field was already read and range-checked
// by the loader), and the message helpers every part of the loader shares.
#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "common/config/config.h"
#include "common/config/internal.h"
#include "common/status_macros.h"
#include "common/utf8.h"

namespace shoal::config::internal {
namespace {

constexpr size_t kMaxShownBytes = 64;
constexpr size_t kMaxHostNameBytes = 253;  // RFC 1035, written without the final dot
// sun_path holds the path and its terminating NUL.
constexpr size_t kMaxSocketPathBytes = sizeof(sockaddr_un::sun_path) - 1;

// Decodes the character at the front of `*text` and advances past it. Returns -1, and advances
// one byte, on malformed UTF-8; surrogates are malformed too (Utf8Check::kUnicode), as YAML
// readers take them.
int32_t NextCodePoint(absl::string_view* text) {
  const Utf8Char c = DecodeUtf8(*text, Utf8Check::kUnicode);
  text->remove_prefix(c.length == 0 ? 1 : c.length);
  return c.length == 0 ? -1 : static_cast<int32_t>(c.code_point);
}

// YAML 1.2 c-printable.
bool IsYamlPrintable(int32_t cp) {
  return cp == '\t' || cp == '\n' || cp == '\r' || (cp >= 0x20 && cp <= 0x7E) || cp == 0x85 ||
         (cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) || cp >= 0x10000;
}

std::string BadCharacter(int32_t cp) {
  if (cp < 0) return "invalid UTF-8";
  return absl::StrCat("character U+", absl::Hex(cp, absl::kZeroPad4), " is not allowed");
}

// Per host, which field already holds a port, a socket or a data dir: "routers[0].port".
class UsedOn {
 public:
  // OK if `value` is new on `host`, and now held by `path`; else an error that names the
  // holder. `shown` is how the message names the value: "port 3306".
  absl::Status Claim(const ClusterConfig& config, const SourceLines& lines, const std::string& host,
                     const std::string& value, const std::string& path, absl::string_view shown) {
    auto [it, inserted] = holders_.try_emplace(absl::StrCat(host, "\n", value), path);
    if (inserted) return absl::OkStatus();
    return ConfigError(config.source, lines.Get(path), path,
                       absl::StrCat(shown, " on host ", host, " is already used by ", it->second,
                                    " (line ", lines.Get(it->second), ")"));
  }

 private:
  absl::flat_hash_map<std::string, std::string> holders_;  // host "\n" value → path
};

// The fields every node has, whatever its type.
struct NodeRef {
  std::string path;  // "mgmd", "datanodes[1]", "routers[0]"
  int id;
  const std::string& host;
  int metrics_port;
};

std::vector<NodeRef> AllNodes(const ClusterConfig& config) {
  std::vector<NodeRef> nodes;
  nodes.push_back({"mgmd", config.mgmd.id, config.mgmd.host, config.mgmd.metrics_port});
  for (size_t i = 0; i < config.datanodes.size(); ++i) {
    const DataNodeConfig& d = config.datanodes[i];
    nodes.push_back({absl::StrCat("datanodes[", i, "]"), d.id, d.host, d.metrics_port});
  }
  for (size_t i = 0; i < config.routers.size(); ++i) {
    const RouterConfig& r = config.routers[i];
    nodes.push_back({absl::StrCat("routers[", i, "]"), r.id, r.host, r.metrics_port});
  }
  return nodes;
}

absl::Status CheckDataNodeCount(const ClusterConfig& config, const SourceLines& lines) {
  int count = static_cast<int>(config.datanodes.size());
  if (count == 0) {
    return ConfigError(config.source, lines.Get("datanodes"), "datanodes", "no data nodes");
  }
  if (count % config.cluster.replicas != 0) {
    return ConfigError(config.source, lines.Get("datanodes"), "datanodes",
                       absl::StrCat(count, " data nodes is not a multiple of replicas: ",
                                    config.cluster.replicas));
  }
  return absl::OkStatus();
}

absl::Status CheckIds(const ClusterConfig& config, const SourceLines& lines) {
  absl::flat_hash_map<int, std::string> first_use;  // id → field path of its first use
  for (const NodeRef& node : AllNodes(config)) {
    std::string path = absl::StrCat(node.path, ".id");
    if (node.id == 0)
      return ConfigError(config.source, lines.Get(node.path), node.path, "missing id");
    auto [it, inserted] = first_use.try_emplace(node.id, path);
    if (!inserted) {
      return ConfigError(config.source, lines.Get(path), path,
                         absl::StrCat("duplicate node id ", node.id, " (first used at line ",
                                      lines.Get(it->second), ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDataDir(const ClusterConfig& config, const SourceLines& lines,
                          const std::string& node_path, const std::string& host,
                          const std::string& data_dir, UsedOn* dirs) {
  if (data_dir.empty()) {
    return ConfigError(config.source, lines.Get(node_path), node_path, "missing data_dir");
  }
  std::string path = absl::StrCat(node_path, ".data_dir");
  if (data_dir[0] != '/') {
    return ConfigError(config.source, lines.Get(path), path,
                       absl::StrCat("must be an absolute path, got ", Quote(data_dir)));
  }
  return dirs->Claim(config, lines, host, data_dir, path,
                     absl::StrCat("data_dir ", Quote(data_dir)));
}

absl::Status CheckDataDirs(const ClusterConfig& config, const SourceLines& lines) {
  UsedOn dirs;
  SHOAL_RETURN_IF_ERROR(
      CheckDataDir(config, lines, "mgmd", config.mgmd.host, config.mgmd.data_dir, &dirs));
  for (size_t i = 0; i < config.datanodes.size(); ++i) {
    const DataNodeConfig& d = config.datanodes[i];
    SHOAL_RETURN_IF_ERROR(
        CheckDataDir(config, lines, absl::StrCat("datanodes[", i, "]"), d.host, d.data_dir, &dirs));
  }
  return absl::OkStatus();
}

absl::Status CheckSocket(const ClusterConfig& config, const SourceLines& lines,
                         const std::string& node_path, const std::string& host,
                         const std::string& socket, UsedOn* sockets) {
  if (socket.empty()) return absl::OkStatus();
  std::string path = absl::StrCat(node_path, ".socket");
  if (socket[0] != '/') {
    return ConfigError(config.source, lines.Get(path), path,
                       absl::StrCat("must be an absolute path, got ", Quote(socket)));
  }
  if (socket.size() > kMaxSocketPathBytes) {
    return ConfigError(
        config.source, lines.Get(path), path,
        absl::StrCat("is ", socket.size(), " bytes; a Unix socket path must be shorter than ",
                     kMaxSocketPathBytes + 1));
  }
  return sockets->Claim(config, lines, host, socket, path, absl::StrCat("socket ", Quote(socket)));
}

// Unix sockets: routers' MySQL listeners and data nodes' shared-memory handshakes.
absl::Status CheckSockets(const ClusterConfig& config, const SourceLines& lines) {
  UsedOn sockets;
  for (size_t i = 0; i < config.datanodes.size(); ++i) {
    const DataNodeConfig& d = config.datanodes[i];
    SHOAL_RETURN_IF_ERROR(
        CheckSocket(config, lines, absl::StrCat("datanodes[", i, "]"), d.host, d.socket, &sockets));
  }
  for (size_t i = 0; i < config.routers.size(); ++i) {
    const RouterConfig& r = config.routers[i];
    std::string node_path = absl::StrCat("routers[", i, "]");
    if (r.socket.empty() && r.port == 0) {
      return ConfigError(config.source, lines.Get(node_path), node_path,
                         "needs a socket or a non-zero port");
    }
    SHOAL_RETURN_IF_ERROR(CheckSocket(config, lines, node_path, r.host, r.socket, &sockets));
  }
  return absl::OkStatus();
}

// A router's TLS files: a certificate goes with its key, a CA with a certificate, and TCP
// clients cannot be required to use TLS that is not offered.
absl::Status CheckRouterTls(const ClusterConfig& config, const SourceLines& lines) {
  for (size_t i = 0; i < config.routers.size(); ++i) {
    const RouterConfig& r = config.routers[i];
    std::string path = absl::StrCat("routers[", i, "]");
    if (r.ssl_cert.empty() != r.ssl_key.empty()) {
      std::string field = path + (r.ssl_cert.empty() ? ".ssl_key" : ".ssl_cert");
      return ConfigError(config.source, lines.Get(field), field,
                         "ssl_cert and ssl_key go together (the certificate and its key)");
    }
    if (!r.ssl_ca.empty() && r.ssl_cert.empty()) {
      return ConfigError(config.source, lines.Get(path + ".ssl_ca"), path + ".ssl_ca",
                         "ssl_ca needs ssl_cert and ssl_key (ssl_dir holds a CA of its own)");
    }
    if (r.require_secure_transport && !r.ssl) {
      return ConfigError(config.source, lines.Get(path + ".require_secure_transport"),
                         path + ".require_secure_transport",
                         "TCP clients cannot be required to use TLS when ssl is false");
    }
  }
  return absl::OkStatus();
}

absl::Status CheckLinkTls(const ClusterConfig& config, const SourceLines& lines) {
  const std::string& tls = config.cluster.tls;
  if (tls == "auto" || tls == "true" || tls == "false") return absl::OkStatus();
  return ConfigError(config.source, lines.Get("cluster.tls"), "cluster.tls",
                     absl::StrCat("expected auto, true or false, got ", Quote(tls)));
}

// Every TCP listener of the cluster: the mgmd and router ports and each /metrics endpoint.
absl::Status CheckPorts(const ClusterConfig& config, const SourceLines& lines) {
  UsedOn ports;
  auto claim = [&](const std::string& host, int port, const std::string& path) {
    if (port == 0) return absl::OkStatus();  // Not listening, or an ephemeral port.
    return ports.Claim(config, lines, host, absl::StrCat(port), path, absl::StrCat("port ", port));
  };
  SHOAL_RETURN_IF_ERROR(claim(config.mgmd.host, config.mgmd.port, "mgmd.port"));
  for (size_t i = 0; i < config.datanodes.size(); ++i) {
    SHOAL_RETURN_IF_ERROR(claim(config.datanodes[i].host, config.datanodes[i].port,
                                absl::StrCat("datanodes[", i, "].port")));
  }
  for (size_t i = 0; i < config.routers.size(); ++i) {
    SHOAL_RETURN_IF_ERROR(claim(config.routers[i].host, config.routers[i].port,
                                absl::StrCat("routers[", i, "].port")));
  }
  for (const NodeRef& node : AllNodes(config)) {
    SHOAL_RETURN_IF_ERROR(
        claim(node.host, node.metrics_port, absl::StrCat(node.path, ".metrics_port")));
  }
  return absl::OkStatus();
}

// Empty if `host` is an IP literal or a name the resolver knows; else why not. IP literals are
// checked first so that a configuration written with addresses never waits on DNS.
std::string ResolveHost(const std::string& host) {
  if (host.empty()) return "must not be empty";
  in6_addr addr;
  if (inet_pton(AF_INET, host.c_str(), &addr) == 1) return "";
  if (inet_pton(AF_INET6, host.c_str(), &addr) == 1) return "";
  // getaddrinfo would take "10.0.0.011" as octal or "10.1" as 10.0.0.1; nobody means that.
  if (absl::c_all_of(host, [](char c) { return absl::ascii_isdigit(c) || c == '.'; })) {
    return absl::StrCat("invalid IPv4 address ", Quote(host));
  }
  bool name_chars = absl::c_all_of(host, [](char c) {
    return absl::ascii_isalnum(c) || c == '.' || c == '-' || c == '_' || c == ':' || c == '%';
  });
  if (!name_chars || host.size() > kMaxHostNameBytes) {
    return absl::StrCat("not an IP address or host name: ", Quote(host));
  }
  addrinfo hints = {};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  // A ':' can only be an IPv6 address with a zone ("fe80::1%eth0"); never ask DNS about it.
  if (host.find(':') != std::string::npos) hints.ai_flags = AI_NUMERICHOST;
  addrinfo* result = nullptr;
  int rc = getaddrinfo(host.c_str(), nullptr, &hints, &result);
  if (rc != 0) return absl::StrCat("unknown host ", Quote(host), " (", gai_strerror(rc), ")");
  freeaddrinfo(result);
  return "";
}

// Runs last: a lookup can be slow, and is wasted on a configuration that is wrong anyway.
absl::Status CheckHosts(const ClusterConfig& config, const SourceLines& lines) {
  absl::flat_hash_map<std::string, std::string> resolved;  // host → error, each asked once
  for (const NodeRef& node : AllNodes(config)) {
    auto it = resolved.find(node.host);
    if (it == resolved.end()) it = resolved.emplace(node.host, ResolveHost(node.host)).first;
    if (!it->second.empty()) {
      std::string path = absl::StrCat(node.path, ".host");
      return ConfigError(config.source, lines.Get(path), path, it->second);
    }
  }
  return absl::OkStatus();
}

}  // namespace

int SourceLines::Get(absl::string_view path) const {
  while (!path.empty()) {
    if (auto it = lines_.find(path); it != lines_.end()) return it->second;
    size_t parent = path.find_last_of(".[");
    path = path.substr(0, parent == absl::string_view::npos ? 0 : parent);
  }
  return 1;
}

absl::Status ConfigError(absl::string_view source, int line, absl::string_view path,
                         absl::string_view message) {
  std::string text = absl::StrCat(source, ":", line, ": ", path, ": ", message);
  std::string one_line;
  for (char ch : text) {
    if (static_cast<uint8_t>(ch) < 0x20 || ch == 0x7F) {
      absl::StrAppend(&one_line, "\\x", absl::Hex(static_cast<uint8_t>(ch), absl::kZeroPad2));
    } else {
      one_line.push_back(ch);
    }
  }
  return absl::InvalidArgumentError(one_line);
}

std::string Truncate(absl::string_view text) {
  if (text.size() <= kMaxShownBytes) return std::string(text);
  return absl::StrCat(Utf8Prefix(text, kMaxShownBytes), "...");
}

std::string Quote(absl::string_view text) {
  return absl::StrCat("'", absl::Utf8SafeCHexEscape(Truncate(text)), "'");
}

std::string CheckDocumentText(absl::string_view text, int* line) {
  *line = 1;
  while (!text.empty()) {
    int32_t cp = NextCodePoint(&text);
    if (cp == '\n') ++*line;
    if (cp < 0 || !IsYamlPrintable(cp)) return BadCharacter(cp);
  }
  return "";
}

std::string CheckFieldText(absl::string_view text) {
  while (!text.empty()) {
    int32_t cp = NextCodePoint(&text);
    // Line breaks and tabs are printable YAML but have no business in a name or a path, and a
    // BOM would be dropped on the way back in.
    if (cp < 0 || !IsYamlPrintable(cp) || cp < 0x20 || cp == 0x85 || cp == 0x2028 || cp == 0x2029 ||
        cp == 0xFEFF) {
      return BadCharacter(cp);
    }
  }
  return "";
}

// MySQL user names are at most 32 characters; hashes must be in the forms the router reads.
absl::Status CheckUsers(const ClusterConfig& config, const SourceLines& lines) {
  auto is_hex = [](absl::string_view text, bool upper) {
    for (char c : text) {
      bool digit = c >= '0' && c <= '9';
      bool letter = upper ? (c >= 'A' && c <= 'F') : (c >= 'a' && c <= 'f');
      if (!digit && !letter) return false;
    }
    return true;
  };
  for (size_t i = 0; i < config.users.size(); ++i) {
    const UserConfig& u = config.users[i];
    std::string path = absl::StrCat("users[", i, "]");
    if (u.name.empty() || u.name.size() > 32) {
      return ConfigError(config.source, lines.Get(path + ".name"), path + ".name",
                         "a user name has 1 to 32 characters");
    }
    for (size_t j = 0; j < i; ++j) {
      if (config.users[j].name == u.name) {
        return ConfigError(config.source, lines.Get(path + ".name"), path + ".name",
                           absl::StrCat("duplicate user ", Quote(u.name), " (first at line ",
                                        lines.Get(absl::StrCat("users[", j, "]")), ")"));
      }
    }
    absl::string_view native = u.native_hash;
    if (!native.empty() &&
        (native.size() != 41 || native[0] != '*' || !is_hex(native.substr(1), true))) {
      return ConfigError(config.source, lines.Get(path + ".native_hash"), path + ".native_hash",
                         "expected '*' and 40 upper-case hex digits (SHA1(SHA1(password)))");
    }
    if (!u.sha256_hash.empty() && (u.sha256_hash.size() != 64 || !is_hex(u.sha256_hash, false))) {
      return ConfigError(config.source, lines.Get(path + ".sha256_hash"), path + ".sha256_hash",
                         "expected 64 lower-case hex digits (SHA256(SHA256(password)))");
    }
    if (u.native_hash.empty() != u.sha256_hash.empty()) {
      return ConfigError(config.source, lines.Get(path), path,
                         "give both native_hash and sha256_hash (or neither, for an empty "
                         "password), so both authentication plugins can check the password");
    }
  }
  return absl::OkStatus();
}

absl::Status Validate(const ClusterConfig& config, const SourceLines& lines) {
  SHOAL_RETURN_IF_ERROR(CheckUsers(config, lines));
  SHOAL_RETURN_IF_ERROR(CheckDataNodeCount(config, lines));
  SHOAL_RETURN_IF_ERROR(CheckIds(config, lines));
  SHOAL_RETURN_IF_ERROR(CheckDataDirs(config, lines));
  SHOAL_RETURN_IF_ERROR(CheckSockets(config, lines));
  SHOAL_RETURN_IF_ERROR(CheckRouterTls(config, lines));
  SHOAL_RETURN_IF_ERROR(CheckLinkTls(config, lines));
  SHOAL_RETURN_IF_ERROR(CheckPorts(config, lines));
  return CheckHosts(config, lines);
}

}  // namespace shoal::config::internal
