#include "common/control/frame.h"

#include <string>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace shoal::control {
namespace {

absl::Span<const uint8_t> Bytes(const std::string& s) {
  return absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

ControlMessage Heartbeat(uint64_t sequence) {
  ControlMessage m;
  m.mutable_heartbeat()->set_sequence(sequence);
  return m;
}

TEST(ControlFrameTest, RoundTripsSeveralMessagesBackToBack) {
  std::string wire;
  AppendMessage(Heartbeat(1), &wire);
  ControlMessage reg;
  reg.mutable_register_req()->set_type(DATANODE);
  reg.mutable_register_req()->set_requested_node_id(3);
  AppendMessage(reg, &wire);

  ControlMessage out;
  size_t consumed = 0;
  ASSERT_EQ(DecodeMessage(Bytes(wire), &out, &consumed), DecodeStatus::kOk);
  EXPECT_EQ(out.heartbeat().sequence(), 1u);
  ASSERT_EQ(DecodeMessage(Bytes(wire).subspan(consumed), &out, &consumed), DecodeStatus::kOk);
  EXPECT_EQ(out.register_req().requested_node_id(), 3u);
}

TEST(ControlFrameTest, EveryPrefixNeedsMore) {
  std::string wire;
  AppendMessage(Heartbeat(77), &wire);
  for (size_t n = 0; n < wire.size(); ++n) {
    ControlMessage out;
    size_t consumed = 0;
    EXPECT_EQ(DecodeMessage(Bytes(wire.substr(0, n)), &out, &consumed), DecodeStatus::kNeedMore)
        << "prefix " << n;
  }
}

TEST(ControlFrameTest, OversizedLengthIsMalformedBeforeTheBodyArrives) {
  std::string wire = {'\xff', '\xff', '\xff', '\x7f'};
  absl::string_view payload;
  size_t consumed = 0;
  EXPECT_EQ(DecodeFrame(Bytes(wire), &payload, &consumed), DecodeStatus::kMalformed);
}

TEST(ControlFrameTest, GarbagePayloadIsMalformed) {
  std::string wire = {'\x03', '\0', '\0', '\0', '\xff', '\xff', '\xff'};
  ControlMessage out;
  size_t consumed = 0;
  EXPECT_EQ(DecodeMessage(Bytes(wire), &out, &consumed), DecodeStatus::kMalformed);
}

TEST(ControlFrameTest, EmptyMessageIsMalformed) {
  std::string wire = {'\0', '\0', '\0', '\0'};
  ControlMessage out;
  size_t consumed = 0;
  EXPECT_EQ(DecodeMessage(Bytes(wire), &out, &consumed), DecodeStatus::kMalformed);
}

}  // namespace
}  // namespace shoal::control
