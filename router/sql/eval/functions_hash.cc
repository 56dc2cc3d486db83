// Digests and identifiers: MD5(), SHA1(), SHA2() (OpenSSL's libcrypto), CRC32(), UUID() and
// UUID_SHORT().
#include <openssl/evp.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <random>

#include "absl/strings/str_format.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

// The digest of `data` by `md` as lower-case hex digits, as MySQL shows MD5(), SHA1() and
// SHA2(); nullopt if OpenSSL fails.
std::optional<std::string> HexDigest(const EVP_MD* md, absl::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (md == nullptr || EVP_Digest(data.data(), data.size(), digest, &size, md, nullptr) != 1) {
    return std::nullopt;
  }
  std::string hex;
  hex.reserve(size * 2);
  for (unsigned int i = 0; i < size; ++i) absl::StrAppendFormat(&hex, "%02x", digest[i]);
  return hex;
}

Value DigestOf(EvalCall& call, const EVP_MD* md) {
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  std::optional<std::string> hex = HexDigest(md, ValueText(v));
  return hex ? Value{*std::move(hex)} : Value{};
}

ColumnDefinition Md5Type(const TypingCall& call) {
  return StringColumn(32, call.state(), NullableIfAny(call.args));
}
Value Md5Value(EvalCall& call) { return DigestOf(call, EVP_md5()); }

ColumnDefinition Sha1Type(const TypingCall& call) {
  return StringColumn(40, call.state(), NullableIfAny(call.args));
}
Value Sha1Value(EvalCall& call) { return DigestOf(call, EVP_sha1()); }

// SHA2(str, bits): 224, 256 (or 0), 384 or 512 bits; NULL and warning 1583 for any other
// length, as MySQL.
ColumnDefinition Sha2Type(const TypingCall& call) {
  return StringColumn(128, call.state(), Nullability::kNullable);
}
Value Sha2Value(EvalCall& call) {
  Value bits = call.Arg(1);
  if (IsNull(bits)) return Value{};
  switch (IntegerArg(bits, call.engine())) {
    case 224:
      return DigestOf(call, EVP_sha224());
    case 0:
    case 256:
      return DigestOf(call, EVP_sha256());
    case 384:
      return DigestOf(call, EVP_sha384());
    case 512:
      return DigestOf(call, EVP_sha512());
    default:
      call.engine().Warn(1583, "Incorrect parameters in the call to native function 'sha2'");
      return Value{};
  }
}

// CRC32(str): the CRC-32 of zlib and MySQL (reflected polynomial 0xEDB88320) as INT UNSIGNED,
// what checksums over rows are built from (SUM(CRC32(CONCAT_WS(…)))). OpenSSL has no CRC-32;
// a byte table computed once.
uint32_t Crc32(absl::string_view data) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char byte : data) crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

ColumnDefinition Crc32Type(const TypingCall& call) {
  return IntColumn(10, /*is_unsigned=*/true, NullableIfAny(call.args));
}
Value Crc32Value(EvalCall& call) {
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  return Value{static_cast<uint64_t>(Crc32(ValueText(v)))};
}

ColumnDefinition UuidType(const TypingCall& call) {
  return StringColumn(36, call.state(), Nullability::kNotNull);
}
// A version-1 layout: the statement's time in 100 ns steps since 1582-10-15, then a random
// clock sequence and a random node (its multicast bit set, as RFC 4122 asks of a node that is
// not a MAC address). Each call differs, as MySQL's do.
Value UuidValue(EvalCall& call) {
  thread_local std::mt19937_64 random{std::random_device{}()};
  constexpr uint64_t kGregorianToUnix100ns = 0x01B21DD213814000;
  const uint64_t ticks = static_cast<uint64_t>(absl::ToUnixNanos(call.engine().ctx().now) / 100) +
                         kGregorianToUnix100ns + (random() & 0xfff);
  const uint64_t node = (random() & 0xffffffffffff) | 0x010000000000;
  const uint32_t clock_seq = static_cast<uint32_t>(random() & 0x3fff) | 0x8000;
  return absl::StrFormat("%08x-%04x-%04x-%04x-%012x", ticks & 0xffffffff, (ticks >> 32) & 0xffff,
                         ((ticks >> 48) & 0x0fff) | 0x1000, clock_seq, node);
}

ColumnDefinition UuidShortType(const TypingCall&) {
  return IntColumn(21, /*is_unsigned=*/true, Nullability::kNotNull);
}
// MySQL's layout: the server id's low byte, then the server's start in seconds from bit 24,
// plus a counter of the calls. Every router of a cluster is server 0 to MySQL's eyes, so the
// top byte is a random one drawn at the first call instead: routers started in the same
// second then still differ (with odds 255 in 256). One counter for the process, an atomic:
// sessions of every worker draw from it.
Value UuidShortValue(EvalCall& call) {
  static std::atomic<uint64_t> next = [&call] {
    const ServerInfo* server = call.state().server;
    const int64_t started = absl::ToUnixSeconds(server != nullptr ? server->started : absl::Now());
    const uint64_t node = std::random_device{}() & 0xFF;
    return node << 56 | (static_cast<uint64_t>(started) << 24 & 0x00FFFFFFFF000000);
  }();
  return next.fetch_add(1, std::memory_order_relaxed);
}

constexpr BuiltinFunction kHashFunctions[] = {
    {"MD5", 1, 1, Md5Type, Md5Value},
    {"SHA", 1, 1, Sha1Type, Sha1Value},
    {"SHA1", 1, 1, Sha1Type, Sha1Value},
    {"SHA2", 2, 2, Sha2Type, Sha2Value},
    {"CRC32", 1, 1, Crc32Type, Crc32Value},
    {"UUID", 0, 0, UuidType, UuidValue},
    {"UUID_SHORT", 0, 0, UuidShortType, UuidShortValue},
};

}  // namespace

absl::Span<const BuiltinFunction> HashFunctions() { return kHashFunctions; }

}  // namespace shoal::sql::internal
