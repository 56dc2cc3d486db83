// Fuzzes what a data node and a native client decode from a peer: frame headers, operations
// with their sections and scan parameters, results, hellos and dictionary messages.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/wire/dictionary.pb.h"
#include "engine/wire/frame.h"
#include "engine/wire/op.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shoal::wire;
  absl::string_view frame(reinterpret_cast<const char*>(data), size);
  FrameHeader header;
  absl::string_view body;
  if (DecodeFrame(frame, &header, &body) != DecodeStatus::kOk) return 0;
  std::vector<uint16_t> columns;
  switch (header.type) {
    case FrameType::kOpReq:
      for (uint32_t i = 0; i < header.count; ++i) {
        Op op;
        if (DecodeOp(&body, &op) != DecodeStatus::kOk) break;
        for (int s = 0; s < op.section_count; ++s) DecodeColumns(op.sections[s], &columns);
        if (op.header.type == OpType::kScan) {
          ScanParams params;
          DecodeScanParams(op.sections[5], &params);
        }
      }
      break;
    case FrameType::kOpConf:
      for (uint32_t i = 0; i < header.count; ++i) {
        Result result;
        if (DecodeResult(&body, &result) != DecodeStatus::kOk) break;
      }
      break;
    case FrameType::kHelloReq:
    case FrameType::kHelloConf: {
      uint32_t id;
      DecodeHello(body, &id);
      break;
    }
    case FrameType::kDictReq: {
      DictReq req;
      req.ParseFromArray(body.data(), static_cast<int>(body.size()));
      break;
    }
    case FrameType::kDictConf: {
      DictConf conf;
      conf.ParseFromArray(body.data(), static_cast<int>(body.size()));
      break;
    }
  }
  return 0;
}
