// Fuzzes the typed native messages (messages.h): arbitrary bytes, split into operations as a
// kOpReq body is, decoded as every typed message. Whatever decodes must encode to bytes that
// decode to the same message; no decoder may crash or read past its input. The same bytes are
// also read as a kOpConf body of takeover answers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/wire/frame.h"
#include "engine/wire/messages.h"
#include "engine/wire/op.h"

namespace shoal::wire {
namespace {

template <typename T>
void Touch(const T&) {}
void Touch(const CommitTxn& commit) {
  uint64_t sum = 0;
  for (size_t i = 0; i < commit.participant_count(); ++i) sum += commit.participant(i).partition;
  (void)sum;
}
// A scan's range list decodes to ranges that encode back to the same bytes.
void Touch(const Scan& scan) {
  if (!(scan.params.flags & kRangeList)) return;
  std::vector<ScanRange> ranges;
  if (DecodeScanRanges(scan.lower, &ranges)) {
    std::string again;
    for (const ScanRange& range : ranges) AppendScanRange(range.lower, range.upper, &again);
    if (again != scan.lower) __builtin_trap();
  }
  size_t range = 0;
  absl::string_view token;
  if (DecodeScanRangeResume(scan.resume, &range, &token) && !scan.resume.empty() &&
      ScanRangeResume(range, token) != scan.resume) {
    __builtin_trap();
  }
}
void Touch(const TakeoverConf& conf) {
  uint64_t sum = 0;
  for (size_t i = 0; i < conf.entry_count(); ++i) sum += conf.entry(i).txn;
  (void)sum;
}

template <typename T>
void TryAs(const Op& op, FrameBuilder* builder) {
  T message;
  if (T::Decode(op, &message) != DecodeStatus::kOk) return;
  Touch(message);
  builder->Clear();
  builder->Begin(FrameType::kOpReq);
  message.Encode(builder);
  absl::string_view again = absl::string_view(*builder->buffer()).substr(kFrameHeaderSize);
  T decoded;
  if (DecodeMessage(&again, &decoded) != DecodeStatus::kOk || !again.empty() ||
      !(decoded == message)) {
    __builtin_trap();
  }
}

template <typename... T>
void TryAll(const Op& op, FrameBuilder* builder, TypeList<T...>) {
  (TryAs<T>(op, builder), ...);
}

void TryTakeoverConfs(absl::string_view in, FrameBuilder* builder) {
  while (!in.empty()) {
    Result result;
    if (DecodeResult(&in, &result) != DecodeStatus::kOk) return;
    TakeoverConf conf;
    if (TakeoverConf::Decode(result, &conf) != DecodeStatus::kOk) continue;
    Touch(conf);
    builder->Clear();
    builder->Begin(FrameType::kOpConf);
    conf.Encode(builder);
    absl::string_view again = absl::string_view(*builder->buffer()).substr(kFrameHeaderSize);
    TakeoverConf decoded;
    if (DecodeResult(&again, &result) != DecodeStatus::kOk || !again.empty() ||
        TakeoverConf::Decode(result, &decoded) != DecodeStatus::kOk || !(decoded == conf)) {
      __builtin_trap();
    }
  }
}

}  // namespace
}  // namespace shoal::wire

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shoal::wire;
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  FrameBuilder builder;
  for (absl::string_view in = input; !in.empty();) {
    Op op;
    if (DecodeOp(&in, &op) != DecodeStatus::kOk) break;
    TryAll(op, &builder, AllOps{});
  }
  TryTakeoverConfs(input, &builder);
  return 0;
}
