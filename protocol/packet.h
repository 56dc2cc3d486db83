// MySQL packet framing: every message travels as one or more packets
//
//   int<3> payload_length | int<1> sequence_id | payload
//
// A payload of 0xFFFFFF bytes or more is split into 0xFFFFFF-byte packets followed by a shorter
// one (possibly empty): a packet of exactly 0xFFFFFF bytes always means "more follows". The
// sequence id increments (mod 256) with every packet in either direction and restarts at 0
// with every client command.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "protocol/wire.h"

namespace shoal::mysql {

inline constexpr size_t kPacketHeaderSize = 4;
inline constexpr size_t kMaxPacketChunk = 0xFFFFFF;
// MySQL 8.0's default max_allowed_packet (64 MiB).
inline constexpr size_t kDefaultMaxAllowedPacket = 64 * 1024 * 1024;

// Joins packets into logical payloads, checking sequence ids and the payload limit.
//
// Owned by one connection; used only on its thread. Usage, with `buf` the bytes received
// and not yet consumed:
//
//   decoder.ResetSequence();                   // a new command starts at seq 0
//   size_t consumed; absl::Span<const uint8_t> payload;
//   switch (decoder.Next(buf, &consumed, &payload)) {
//     case kOk:        handle(payload); drain(consumed); reply with decoder.expected_seq();
//     case kNeedMore:  drain(consumed); wait for more bytes;   // consumed may be > 0
//     case kTooLarge:  send ERR 1153 (errors::PacketTooLarge()) and close;
//     case kOutOfOrder, kMalformed: close;
//   }
//
// Borrowed bytes: on kOk `*payload` points either into `in` (the payload was one packet:
// valid while the caller keeps those bytes, so handle it before draining `consumed`) or
// into the decoder's join buffer (the payload spanned several packets: valid until the next
// Next() or Reset*()). Whole 0xFFFFFF-byte packets of an unfinished payload are copied into
// the join buffer and reported as consumed with kNeedMore, so the caller's buffer never needs
// to hold more than one packet. The join buffer never grows beyond max_payload bytes.
class PacketDecoder {
 public:
  explicit PacketDecoder(size_t max_payload = kDefaultMaxAllowedPacket)
      : max_payload_(max_payload) {}

  DecodeStatus Next(absl::Span<const uint8_t> in, size_t* consumed,
                    absl::Span<const uint8_t>* payload);

  // The id the next packet must carry; after kOk, the id of the server's first reply packet.
  uint8_t expected_seq() const { return expected_seq_; }
  void set_expected_seq(uint8_t seq) { expected_seq_ = seq; }
  // Starts a new command (expects seq 0) and drops any half-joined payload.
  void ResetSequence() {
    expected_seq_ = 0;
    Clear();
  }
  size_t max_payload() const { return max_payload_; }
  void set_max_payload(size_t max_payload) { max_payload_ = max_payload; }

 private:
  void Clear();

  size_t max_payload_;
  uint8_t expected_seq_ = 0;
  std::string joined_;     // whole chunks of a payload that spans several packets
  bool in_join_ = false;   // joined_ holds an unfinished payload
  bool returned_ = false;  // joined_ holds the payload returned last time
};

// Appends `payload` as one or more packets; `*seq` is the first packet's id and is advanced
// past the last one.
void AppendPacket(absl::string_view payload, uint8_t* seq, std::string* out);

// Building a payload in place, without a copy:
//   size_t start = StartPacket(out); Encode(msg, caps, &writer); FinishPacket(start, &seq, out);
// StartPacket appends a 4-byte header placeholder and returns its offset. FinishPacket fills
// it in (splitting into continuation packets when the payload reached 0xFFFFFF bytes).
size_t StartPacket(std::string* out);
void FinishPacket(size_t start, uint8_t* seq, std::string* out);

}  // namespace shoal::mysql
