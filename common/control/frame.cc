#include "common/control/frame.h"

#include "absl/strings/string_view.h"

namespace shoal::control {

size_t FrameLength(absl::Span<const uint8_t> header) {
  return size_t{header[0]} | size_t{header[1]} << 8 | size_t{header[2]} << 16 |
         size_t{header[3]} << 24;
}

DecodeStatus DecodeFrame(absl::Span<const uint8_t> in, absl::string_view* payload,
                         size_t* consumed) {
  if (in.size() < kFrameHeaderSize) return DecodeStatus::kNeedMore;
  size_t length = FrameLength(in);
  if (length > kMaxControlFrame) return DecodeStatus::kMalformed;
  if (in.size() - kFrameHeaderSize < length) return DecodeStatus::kNeedMore;
  *payload = absl::string_view(reinterpret_cast<const char*>(in.data()) + kFrameHeaderSize, length);
  *consumed = kFrameHeaderSize + length;
  return DecodeStatus::kOk;
}

DecodeStatus DecodeMessage(absl::Span<const uint8_t> in, ControlMessage* message,
                           size_t* consumed) {
  absl::string_view payload;
  DecodeStatus status = DecodeFrame(in, &payload, consumed);
  if (status != DecodeStatus::kOk) return status;
  if (!message->ParseFromArray(payload.data(), static_cast<int>(payload.size())) ||
      message->body_case() == ControlMessage::BODY_NOT_SET) {
    return DecodeStatus::kMalformed;
  }
  return DecodeStatus::kOk;
}

void AppendMessage(const ControlMessage& message, std::string* out) {
  size_t length = message.ByteSizeLong();
  const char header[kFrameHeaderSize] = {
      static_cast<char>(length & 0xff), static_cast<char>((length >> 8) & 0xff),
      static_cast<char>((length >> 16) & 0xff), static_cast<char>((length >> 24) & 0xff)};
  out->append(header, kFrameHeaderSize);
  size_t start = out->size();
  out->resize(start + length);
  message.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(out->data() + start));
}

}  // namespace shoal::control
