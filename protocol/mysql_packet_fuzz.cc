// Fuzzes packet framing: an arbitrary byte stream arrives in arbitrary pieces; the decoder never
// crashes, never returns a payload above the limit, and every payload it returns re-frames
// into packets that decode to the same payload.
//
// Input: int<2> max_payload | int<1> split seed | stream bytes.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "protocol/packet.h"

namespace {

using shoal::mysql::AppendPacket;
using shoal::mysql::AsStringView;
using shoal::mysql::DecodeStatus;
using shoal::mysql::PacketDecoder;

void CheckReframes(absl::Span<const uint8_t> payload, uint8_t first_seq, size_t max_payload) {
  std::string wire;
  uint8_t seq = first_seq;
  AppendPacket(AsStringView(payload), &seq, &wire);
  PacketDecoder again(max_payload);
  again.set_expected_seq(first_seq);
  size_t consumed;
  absl::Span<const uint8_t> out;
  const auto bytes =
      absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(wire.data()), wire.size());
  if (again.Next(bytes, &consumed, &out) != DecodeStatus::kOk || consumed != wire.size() ||
      AsStringView(out) != AsStringView(payload) || again.expected_seq() != seq) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const size_t max_payload = static_cast<size_t>(data[0]) | (static_cast<size_t>(data[1]) << 8);
  uint32_t split = data[2] | 1u;
  const absl::Span<const uint8_t> stream(data + 3, size - 3);

  PacketDecoder decoder(max_payload);
  std::string buffer;  // what a connection has received and not yet consumed
  size_t fed = 0;
  while (true) {
    // Deliver the next piece: between 1 and 16 bytes, chosen by a small LCG.
    split = split * 1103515245u + 12345u;
    const size_t piece = std::min<size_t>(stream.size() - fed, 1 + (split >> 16) % 16);
    buffer.append(reinterpret_cast<const char*>(stream.data() + fed), piece);
    fed += piece;
    bool stop = false;
    while (!stop) {
      const uint8_t seq_before = decoder.expected_seq();
      size_t consumed = 0;
      absl::Span<const uint8_t> payload;
      const auto in =
          absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(buffer.data()), buffer.size());
      const DecodeStatus status = decoder.Next(in, &consumed, &payload);
      if (consumed > buffer.size()) std::abort();
      switch (status) {
        case DecodeStatus::kOk:
          if (payload.size() > max_payload) std::abort();
          CheckReframes(payload, seq_before, max_payload);
          buffer.erase(0, consumed);
          // Half the time start a new "command"; otherwise keep counting.
          if (split & 0x100) decoder.ResetSequence();
          break;
        case DecodeStatus::kNeedMore:
          buffer.erase(0, consumed);
          stop = true;
          break;
        default:
          return 0;  // too large, out of order: the connection would close
      }
    }
    if (fed == stream.size()) break;
  }
  return 0;
}
