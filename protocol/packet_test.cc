#include "protocol/packet.h"

#include <string>

#include "gtest/gtest.h"
#include "protocol/test_util.h"

namespace shoal::mysql {
namespace {

using testing::FromHex;
using testing::Span;
using testing::ToHex;

TEST(PacketTest, SinglePacketIsZeroCopy) {
  std::string in = FromHex("01000000 0e");  // COM_PING
  PacketDecoder decoder;
  size_t consumed;
  absl::Span<const uint8_t> payload;
  ASSERT_EQ(decoder.Next(Span(in), &consumed, &payload), DecodeStatus::kOk);
  EXPECT_EQ(consumed, 5u);
  EXPECT_EQ(payload.data(), reinterpret_cast<const uint8_t*>(in.data()) + 4);
  EXPECT_EQ(AsStringView(payload), "\x0e");
  EXPECT_EQ(decoder.expected_seq(), 1);
}

TEST(PacketTest, NeedsMoreUntilWholePacket) {
  std::string in = FromHex("05000000 03 73656c");  // "sel" of 5 bytes
  PacketDecoder decoder;
  size_t consumed;
  absl::Span<const uint8_t> payload;
  for (size_t n = 0; n < in.size(); ++n) {
    EXPECT_EQ(decoder.Next(Span(in).subspan(0, n), &consumed, &payload), DecodeStatus::kNeedMore);
    EXPECT_EQ(consumed, 0u);
  }
  in += "ec";
  ASSERT_EQ(decoder.Next(Span(in), &consumed, &payload), DecodeStatus::kOk);
  EXPECT_EQ(consumed, 9u);  // the extra byte belongs to the next packet
  EXPECT_EQ(AsStringView(payload), "\x03sele");
}

TEST(PacketTest, ChecksSequence) {
  std::string in = FromHex("01000001 0e");
  PacketDecoder decoder;
  size_t consumed;
  absl::Span<const uint8_t> payload;
  EXPECT_EQ(decoder.Next(Span(in), &consumed, &payload), DecodeStatus::kOutOfOrder);
  decoder.set_expected_seq(1);
  EXPECT_EQ(decoder.Next(Span(in), &consumed, &payload), DecodeStatus::kOk);
  EXPECT_EQ(decoder.expected_seq(), 2);
  decoder.ResetSequence();
  EXPECT_EQ(decoder.expected_seq(), 0);
}

TEST(PacketTest, SequenceWrapsAt256) {
  std::string out;
  uint8_t seq = 255;
  AppendPacket("a", &seq, &out);
  AppendPacket("b", &seq, &out);
  EXPECT_EQ(ToHex(out),
            "01000"
            "0ff61"
            "01000000"
            "62");
  EXPECT_EQ(seq, 1);
}

TEST(PacketTest, LargePayloadSplitsAndRejoins) {
  std::string payload(kMaxPacketChunk + 10, '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>(i * 7);
  std::string wire;
  uint8_t seq = 0;
  AppendPacket(payload, &seq, &wire);
  EXPECT_EQ(seq, 2);
  ASSERT_EQ(wire.size(), payload.size() + 2 * kPacketHeaderSize);
  EXPECT_EQ(ToHex(wire.substr(0, 4)), "ffffff00");
  EXPECT_EQ(ToHex(wire.substr(4 + kMaxPacketChunk, 4)), "0a000001");

  PacketDecoder decoder;
  size_t consumed;
  absl::Span<const uint8_t> out;
  // Only the first chunk present: it is taken into the join buffer.
  ASSERT_EQ(decoder.Next(Span(wire).subspan(0, 4 + kMaxPacketChunk + 3), &consumed, &out),
            DecodeStatus::kNeedMore);
  EXPECT_EQ(consumed, 4 + kMaxPacketChunk);
  ASSERT_EQ(decoder.Next(Span(wire).subspan(consumed), &consumed, &out), DecodeStatus::kOk);
  EXPECT_EQ(consumed, 14u);
  EXPECT_TRUE(AsStringView(out) == payload);
  EXPECT_EQ(decoder.expected_seq(), 2);
}

TEST(PacketTest, ExactChunkNeedsEmptyTrailer) {
  std::string payload(kMaxPacketChunk, 'x');
  std::string wire;
  uint8_t seq = 3;
  AppendPacket(payload, &seq, &wire);
  EXPECT_EQ(seq, 5);
  ASSERT_EQ(wire.size(), payload.size() + 8);
  EXPECT_EQ(ToHex(wire.substr(wire.size() - 4)), "00000004");

  PacketDecoder decoder;
  decoder.set_expected_seq(3);
  size_t consumed;
  absl::Span<const uint8_t> out;
  // Without the trailer the payload is not complete.
  ASSERT_EQ(decoder.Next(Span(wire).subspan(0, wire.size() - 4), &consumed, &out),
            DecodeStatus::kNeedMore);
  ASSERT_EQ(decoder.Next(Span(wire).subspan(consumed), &consumed, &out), DecodeStatus::kOk);
  EXPECT_EQ(out.size(), kMaxPacketChunk);
}

TEST(PacketTest, EmptyPayload) {
  std::string wire;
  uint8_t seq = 0;
  AppendPacket("", &seq, &wire);
  EXPECT_EQ(ToHex(wire), "00000000");
}

TEST(PacketTest, MaxAllowedPacketExceeded) {
  PacketDecoder decoder(/*max_payload=*/16);
  std::string wire;
  uint8_t seq = 0;
  AppendPacket(std::string(17, 'q'), &seq, &wire);
  size_t consumed;
  absl::Span<const uint8_t> out;
  // Reported from the header alone, before the payload arrives.
  EXPECT_EQ(decoder.Next(Span(wire).subspan(0, 4), &consumed, &out), DecodeStatus::kTooLarge);
  PacketDecoder ok_decoder(/*max_payload=*/17);
  EXPECT_EQ(ok_decoder.Next(Span(wire), &consumed, &out), DecodeStatus::kOk);
}

TEST(PacketTest, MaxAllowedPacketCountsJoinedChunks) {
  PacketDecoder decoder(/*max_payload=*/kMaxPacketChunk + 5);
  std::string wire;
  uint8_t seq = 0;
  AppendPacket(std::string(kMaxPacketChunk + 6, 'q'), &seq, &wire);
  size_t consumed;
  absl::Span<const uint8_t> out;
  EXPECT_EQ(decoder.Next(Span(wire), &consumed, &out), DecodeStatus::kTooLarge);
}

TEST(PacketTest, FinishPacketFramesInPlaceAndSplits) {
  std::string out;
  uint8_t seq = 0;
  size_t start = StartPacket(&out);
  out += "hello";
  FinishPacket(start, &seq, &out);
  EXPECT_EQ(ToHex(out), "0500000068656c6c6f");
  std::string big;
  start = StartPacket(&big);
  big.append(kMaxPacketChunk + 1, 'z');
  FinishPacket(start, &seq, &big);
  EXPECT_EQ(big.size(), kMaxPacketChunk + 1 + 8);
  EXPECT_EQ(ToHex(big.substr(0, 4)), "ffffff01");
  EXPECT_EQ(ToHex(big.substr(4 + kMaxPacketChunk, 4)), "01000002");
  EXPECT_EQ(seq, 3);
}

TEST(PacketTest, TwoPacketsInOneBuffer) {
  std::string wire;
  uint8_t seq = 0;
  AppendPacket("one", &seq, &wire);
  AppendPacket("two", &seq, &wire);
  PacketDecoder decoder;
  size_t consumed;
  absl::Span<const uint8_t> out;
  ASSERT_EQ(decoder.Next(Span(wire), &consumed, &out), DecodeStatus::kOk);
  EXPECT_EQ(AsStringView(out), "one");
  ASSERT_EQ(decoder.Next(Span(wire).subspan(consumed), &consumed, &out), DecodeStatus::kOk);
  EXPECT_EQ(AsStringView(out), "two");
}

}  // namespace
}  // namespace shoal::mysql
