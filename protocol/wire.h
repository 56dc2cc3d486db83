// Wire primitives of the MySQL client/server protocol: a bounds-checked Reader over a borrowed
// byte span and a Writer that appends to a std::string. All integers are little-endian.
//
//   int<N>          N-byte unsigned integer, N in {1,2,3,4,6,8}
//   int<lenenc>     < 0xFB: 1 byte | 0xFC int<2> | 0xFD int<3> | 0xFE int<8>
//                   (0xFB is NULL in text rows; 0xFF never starts an integer)
//   string<lenenc>  int<lenenc> length | bytes
//   string<NUL>     bytes | 0x00
//   string<EOF>     the rest of the payload
//
// Every Reader call either succeeds and advances, or fails and leaves the position unchanged;
// it never reads past the end of the span. Strings returned by the Reader borrow the span.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace shoal::mysql {

// Result of every decoder in this folder.
enum class DecodeStatus : uint8_t {
  kOk,           // decoded; consumed bytes reported where relevant
  kNeedMore,     // (framing only) not enough bytes yet; nothing lost, call again with more
  kMalformed,    // bytes do not form a valid message (bad length, truncated, bad value)
  kTooLarge,     // (framing only) payload exceeds max_allowed_packet: send 1153 and close
  kOutOfOrder,   // (framing only) sequence id mismatch: MySQL answers 1156 and closes
  kUnsupported,  // well-formed but a protocol variant we do not speak (e.g. no PROTOCOL_41)
};

absl::string_view DecodeStatusName(DecodeStatus status);

inline constexpr uint8_t kLenencNull = 0xFB;

// Bytes as chars and back, for string_view fields that borrow a byte span.
inline absl::string_view AsStringView(absl::Span<const uint8_t> bytes) {
  return absl::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}
inline absl::Span<const uint8_t> AsBytes(absl::string_view s) {
  return absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// Reads from a borrowed span. Not thread-safe; cheap to copy (a copy is a saved position).
class Reader {
 public:
  explicit Reader(absl::Span<const uint8_t> in) : in_(in) {}
  explicit Reader(absl::string_view in) : in_(AsBytes(in)) {}

  size_t remaining() const { return in_.size() - pos_; }
  size_t position() const { return pos_; }
  bool empty() const { return remaining() == 0; }
  // How a whole message ends: every byte read, or the message is malformed.
  DecodeStatus Finish() const { return empty() ? DecodeStatus::kOk : DecodeStatus::kMalformed; }
  // The unread bytes.
  absl::Span<const uint8_t> rest() const { return in_.subspan(pos_); }

  bool ReadInt1(uint8_t* out);
  bool ReadInt2(uint16_t* out);
  bool ReadInt3(uint32_t* out);
  bool ReadInt4(uint32_t* out);
  bool ReadInt6(uint64_t* out);
  bool ReadInt8(uint64_t* out);
  // Fails on 0xFB (NULL) and 0xFF; use PeekInt1 first where NULL is allowed.
  bool ReadLenencInt(uint64_t* out);
  // Fails when the declared length runs past the end of the span.
  bool ReadLenencString(absl::string_view* out);
  // Fails when no NUL follows; the NUL is consumed but not returned.
  bool ReadNulString(absl::string_view* out);
  bool ReadFixedString(size_t n, absl::string_view* out);
  // Always succeeds (possibly empty).
  absl::string_view ReadRest();
  bool Skip(size_t n);
  bool PeekInt1(uint8_t* out) const;

 private:
  bool ReadLE(size_t n, uint64_t* out);

  absl::Span<const uint8_t> in_;
  size_t pos_ = 0;
};

// Appends to a caller-owned string, which it never shrinks. Not thread-safe.
class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}

  std::string* out() { return out_; }
  size_t size() const { return out_->size(); }

  void WriteInt1(uint8_t v) { out_->push_back(static_cast<char>(v)); }
  void WriteInt2(uint16_t v) { WriteLE(v, 2); }
  void WriteInt3(uint32_t v) { WriteLE(v, 3); }
  void WriteInt4(uint32_t v) { WriteLE(v, 4); }
  void WriteInt6(uint64_t v) { WriteLE(v, 6); }
  void WriteInt8(uint64_t v) { WriteLE(v, 8); }
  void WriteLenencInt(uint64_t v);
  void WriteLenencString(absl::string_view s);
  // REQUIRES: `s` contains no NUL (a NUL would end the string early on the other side).
  void WriteNulString(absl::string_view s);
  void WriteBytes(absl::string_view s) { out_->append(s.data(), s.size()); }
  void WriteZeros(size_t n) { out_->append(n, '\0'); }

  static size_t LenencIntSize(uint64_t v);

 private:
  void WriteLE(uint64_t v, size_t n);

  std::string* out_;
};

}  // namespace shoal::mysql
