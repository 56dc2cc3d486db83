// Fuzzes control-plane frame decoding: whatever a peer sends, decoding never crashes, and a
// message that decodes re-encodes to a frame that decodes to the same message.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/control/frame.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using shoal::control::ControlMessage;
  using shoal::control::DecodeStatus;
  absl::Span<const uint8_t> in(data, size);
  while (!in.empty()) {
    ControlMessage message;
    size_t consumed = 0;
    if (shoal::control::DecodeMessage(in, &message, &consumed) != DecodeStatus::kOk) break;
    std::string again;
    shoal::control::AppendMessage(message, &again);
    ControlMessage second;
    size_t second_consumed = 0;
    if (shoal::control::DecodeMessage(
            absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(again.data()), again.size()),
            &second, &second_consumed) != DecodeStatus::kOk ||
        second.SerializeAsString() != message.SerializeAsString()) {
      std::abort();
    }
    in.remove_prefix(consumed);
  }
  return 0;
}
