// Packet framing: the incremental decoder and the splitting encoder (see packet.h).
#include "protocol/packet.h"

#include <algorithm>

#include "common/logging.h"

namespace shoal::mysql {
namespace {

void WriteHeader(size_t length, uint8_t seq, char* out) {
  out[0] = static_cast<char>(length & 0xFF);
  out[1] = static_cast<char>((length >> 8) & 0xFF);
  out[2] = static_cast<char>((length >> 16) & 0xFF);
  out[3] = static_cast<char>(seq);
}

}  // namespace

void PacketDecoder::Clear() {
  joined_.clear();
  in_join_ = false;
  returned_ = false;
}

DecodeStatus PacketDecoder::Next(absl::Span<const uint8_t> in, size_t* consumed,
                                 absl::Span<const uint8_t>* payload) {
  if (returned_) Clear();  // the previous joined payload is no longer needed
  *consumed = 0;
  while (true) {
    absl::Span<const uint8_t> rest = in.subspan(*consumed);
    if (rest.size() < kPacketHeaderSize) return DecodeStatus::kNeedMore;
    const size_t length = static_cast<size_t>(rest[0]) | (static_cast<size_t>(rest[1]) << 8) |
                          (static_cast<size_t>(rest[2]) << 16);
    const uint8_t seq = rest[3];
    if (seq != expected_seq_) return DecodeStatus::kOutOfOrder;
    if (length > max_payload_ || joined_.size() + length > max_payload_) {
      return DecodeStatus::kTooLarge;
    }
    if (rest.size() < kPacketHeaderSize + length) return DecodeStatus::kNeedMore;
    absl::Span<const uint8_t> body = rest.subspan(kPacketHeaderSize, length);
    ++expected_seq_;
    *consumed += kPacketHeaderSize + length;
    if (length == kMaxPacketChunk) {
      // More follows. Only whole chunks are copied, so the copy is bounded by max_payload_.
      joined_.append(reinterpret_cast<const char*>(body.data()), body.size());
      in_join_ = true;
      continue;
    }
    if (!in_join_) {
      *payload = body;  // the common case: one packet, no copy
      return DecodeStatus::kOk;
    }
    joined_.append(reinterpret_cast<const char*>(body.data()), body.size());
    in_join_ = false;
    returned_ = true;
    *payload = AsBytes(joined_);
    return DecodeStatus::kOk;
  }
}

void AppendPacket(absl::string_view payload, uint8_t* seq, std::string* out) {
  size_t offset = 0;
  while (true) {
    const size_t chunk = std::min(payload.size() - offset, kMaxPacketChunk);
    char header[kPacketHeaderSize];
    WriteHeader(chunk, (*seq)++, header);
    out->append(header, kPacketHeaderSize);
    out->append(payload.data() + offset, chunk);
    offset += chunk;
    // A full chunk always promises a successor, even an empty one.
    if (chunk < kMaxPacketChunk) break;
  }
}

size_t StartPacket(std::string* out) {
  const size_t start = out->size();
  out->append(kPacketHeaderSize, '\0');
  return start;
}

void FinishPacket(size_t start, uint8_t* seq, std::string* out) {
  SHOAL_CHECK(out->size() >= start + kPacketHeaderSize) << "FinishPacket without StartPacket";
  const size_t length = out->size() - start - kPacketHeaderSize;
  if (length < kMaxPacketChunk) {
    WriteHeader(length, (*seq)++, out->data() + start);
    return;
  }
  // Rare: a payload of 16 MiB or more. Re-frame it through a copy.
  std::string payload = out->substr(start + kPacketHeaderSize);
  out->resize(start);
  AppendPacket(payload, seq, out);
}

}  // namespace shoal::mysql
