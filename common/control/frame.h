// Control-plane framing: a frame is
//
//   int<4> payload_length (little-endian) | payload_length bytes: one serialized ControlMessage
//
// Pure codec over byte spans; no I/O. Frames larger than kMaxControlFrame are malformed: a
// peer that sends one is closed, never trusted with a huge allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "common/control/control.pb.h"

namespace shoal::control {

inline constexpr size_t kFrameHeaderSize = 4;
inline constexpr size_t kMaxControlFrame = 16 << 20;

enum class DecodeStatus { kOk, kNeedMore, kMalformed };

// The payload length a frame header announces. REQUIRES: header.size() >= kFrameHeaderSize.
size_t FrameLength(absl::Span<const uint8_t> header);

// Looks for one whole frame at the start of `in`. On kOk, `*payload` points into `in` (valid as
// long as those bytes are) and `*consumed` is the frame's size including its header.
DecodeStatus DecodeFrame(absl::Span<const uint8_t> in, absl::string_view* payload,
                         size_t* consumed);

// Decodes one whole frame and parses its ControlMessage; kMalformed when the payload does not
// parse or the message carries no body.
DecodeStatus DecodeMessage(absl::Span<const uint8_t> in, ControlMessage* message, size_t* consumed);

// Appends `message` as one frame to `out`.
void AppendMessage(const ControlMessage& message, std::string* out);

}  // namespace shoal::control
