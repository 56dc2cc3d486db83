// The native frame format (docs/architecture.md I6): what native clients (routers, benchmarks,
// other data nodes) and data nodes exchange over shared memory or TCP. Fixed little-endian layouts,
// no protobuf and no allocation per operation; dictionary traffic rides in kDictReq/kDictConf
// frames as protobuf (dictionary.proto), because it is control plane.
//
// Frame (every integer little-endian):
//   int<4> length          the whole frame, header included (16 … transport::kMaxFrameSize)
//   int<2> type            FrameType
//   int<2> flags           0 (reserved)
//   int<4> count           number of items in the body (ops, results; 1 for the others)
//   int<4> schema_version  node → client: the node's dictionary version, so clients learn of
//                          DDL with the next reply; client → node: 0
//   body
//
// kHelloReq body:  int<4> magic "SHNL" | int<2> protocol version | int<2> 0 | int<4> client id
// kHelloConf body: int<4> magic | int<2> protocol version | int<2> 0 | int<4> data node id
// kOpReq body:     `count` operations (op.h); kOpConf body: `count` results (op.h)
// kDictReq / kDictConf body: one serialized shoal.wire.DictReq / DictConf
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"

namespace shoal::wire {

inline constexpr uint32_t kMagic = 0x4C4E4853;  // "SHNL"
inline constexpr uint16_t kProtocolVersion = 1;
inline constexpr size_t kFrameHeaderSize = 16;
inline constexpr size_t kMaxFrameSize = 1 << 20;
// Builders start a new frame once a body passes this, so one reply never outgrows a frame.
inline constexpr size_t kFrameSoftLimit = kMaxFrameSize / 2;

enum class FrameType : uint16_t {
  kHelloReq = 1,
  kHelloConf = 2,
  kOpReq = 3,
  kOpConf = 4,
  kDictReq = 5,
  kDictConf = 6,
};

struct FrameHeader {
  uint32_t length = 0;
  FrameType type = FrameType::kHelloReq;
  uint16_t flags = 0;
  uint32_t count = 0;
  uint32_t schema_version = 0;
};

enum class DecodeStatus : uint8_t { kOk, kMalformed };

// Decodes a whole frame's header and checks it against the frame's size: `frame` is exactly
// one frame as a transport delivered it. On kOk, `*body` points into `frame`.
DecodeStatus DecodeFrame(absl::string_view frame, FrameHeader* header, absl::string_view* body);

// Little-endian helpers shared by the codecs of this folder.
inline void PutU16(std::string* out, uint16_t v) { out->append(reinterpret_cast<char*>(&v), 2); }
inline void PutU32(std::string* out, uint32_t v) { out->append(reinterpret_cast<char*>(&v), 4); }
inline void PutU64(std::string* out, uint64_t v) { out->append(reinterpret_cast<char*>(&v), 8); }
inline uint16_t GetU16(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
inline uint32_t GetU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t GetU64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline void SetU32(std::string* out, size_t at, uint32_t v) {
  std::memcpy(out->data() + at, &v, 4);
}

// Builds frames into one growing buffer, several frames back to back (a transport takes them
// one at a time through FrameBuilder::frames()). Reuse: Clear() keeps the capacity.
class FrameBuilder {
 public:
  // Starts a frame; the previous one, if any, must have been finished.
  void Begin(FrameType type, uint32_t schema_version = 0);
  // Counts one item of the current frame's body (appended by the caller to buffer()).
  void CountItem() { ++count_; }
  // Writes the current frame's length and count. A frame with no items is dropped (hello and
  // dictionary frames count their one item like any other).
  void Finish();
  bool in_frame() const { return in_frame_; }
  FrameType type() const { return type_; }  // the current (or last) frame's
  uint32_t count() const { return count_; }
  size_t current_body_size() const { return buffer_.size() - start_ - kFrameHeaderSize; }
  std::string* buffer() { return &buffer_; }
  // Finished frames (the current one excluded while in_frame()).
  absl::string_view finished() const { return absl::string_view(buffer_).substr(0, finished_); }
  bool empty() const { return finished_ == 0 && !in_frame_; }
  void Clear();
  // Drops the first `n` bytes of finished frames (they were handed to a transport).
  void ConsumeFinished(size_t n);

 private:
  std::string buffer_;
  size_t start_ = 0;     // the current frame's first byte
  size_t finished_ = 0;  // bytes of finished frames at the front of buffer_
  uint32_t count_ = 0;
  FrameType type_ = FrameType::kOpReq;
  bool in_frame_ = false;
};

// Splits the front frame off a run of finished frames; empty when `frames` is empty.
absl::string_view FirstFrame(absl::string_view frames);

void AppendHello(FrameBuilder* builder, FrameType type, uint32_t id);
// Checks a hello body; on success `*id` is the sender's id.
DecodeStatus DecodeHello(absl::string_view body, uint32_t* id);

}  // namespace shoal::wire
