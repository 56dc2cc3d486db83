// Frame header codec and the frame builder (layouts in frame.h).
#include "engine/wire/frame.h"

namespace shoal::wire {

DecodeStatus DecodeFrame(absl::string_view frame, FrameHeader* header, absl::string_view* body) {
  if (frame.size() < kFrameHeaderSize || frame.size() > kMaxFrameSize) {
    return DecodeStatus::kMalformed;
  }
  const char* p = frame.data();
  header->length = GetU32(p);
  uint16_t type = GetU16(p + 4);
  header->flags = GetU16(p + 6);
  header->count = GetU32(p + 8);
  header->schema_version = GetU32(p + 12);
  if (header->length != frame.size() || type < static_cast<uint16_t>(FrameType::kHelloReq) ||
      type > static_cast<uint16_t>(FrameType::kDictConf)) {
    return DecodeStatus::kMalformed;
  }
  header->type = static_cast<FrameType>(type);
  *body = frame.substr(kFrameHeaderSize);
  return DecodeStatus::kOk;
}

void FrameBuilder::Begin(FrameType type, uint32_t schema_version) {
  start_ = buffer_.size();
  PutU32(&buffer_, 0);
  PutU16(&buffer_, static_cast<uint16_t>(type));
  PutU16(&buffer_, 0);
  PutU32(&buffer_, 0);
  PutU32(&buffer_, schema_version);
  count_ = 0;
  type_ = type;
  in_frame_ = true;
}

void FrameBuilder::Finish() {
  if (!in_frame_) return;
  in_frame_ = false;
  if (count_ == 0) {
    buffer_.resize(start_);
    return;
  }
  SetU32(&buffer_, start_, static_cast<uint32_t>(buffer_.size() - start_));
  SetU32(&buffer_, start_ + 8, count_);
  finished_ = buffer_.size();
}

void FrameBuilder::Clear() {
  buffer_.clear();
  start_ = finished_ = 0;
  count_ = 0;
  in_frame_ = false;
}

void FrameBuilder::ConsumeFinished(size_t n) {
  // Erasing from the front is a memmove of what is left, which is nothing in the common case
  // (every finished frame went out) and a partial frame at most otherwise.
  buffer_.erase(0, n);
  finished_ -= n;
  if (in_frame_) start_ -= n;
}

absl::string_view FirstFrame(absl::string_view frames) {
  if (frames.size() < 4) return {};
  uint32_t length = GetU32(frames.data());
  if (length > frames.size()) return {};
  return frames.substr(0, length);
}

void AppendHello(FrameBuilder* builder, FrameType type, uint32_t id) {
  builder->Begin(type);
  std::string* out = builder->buffer();
  PutU32(out, kMagic);
  PutU16(out, kProtocolVersion);
  PutU16(out, 0);
  PutU32(out, id);
  builder->CountItem();
  builder->Finish();
}

DecodeStatus DecodeHello(absl::string_view body, uint32_t* id) {
  if (body.size() != 12 || GetU32(body.data()) != kMagic ||
      GetU16(body.data() + 4) != kProtocolVersion) {
    return DecodeStatus::kMalformed;
  }
  *id = GetU32(body.data() + 8);
  return DecodeStatus::kOk;
}

}  // namespace shoal::wire
