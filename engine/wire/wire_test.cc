#include <string>

#include "engine/wire/errors.h"
#include "engine/wire/frame.h"
#include "engine/wire/op.h"
#include "gtest/gtest.h"

namespace shoal::wire {
namespace {

TEST(FrameTest, OpsRoundTripThroughAFrame) {
  FrameBuilder builder;
  builder.Begin(FrameType::kOpReq);
  OpHeader h;
  h.type = OpType::kRead;
  h.flags = kLockExclusive;
  h.table_id = 7;
  h.table_version = 3;
  h.partition = 5;
  h.txn = 99;
  h.tag = 1234567890123ull;
  AppendOp(&builder, h, {"key", EncodeColumns(std::vector<uint16_t>{0, 2})});
  h.type = OpType::kAbort;
  h.tag = 2;
  AppendOp(&builder, h, {});
  builder.Finish();

  absl::string_view frame = FirstFrame(builder.finished());
  ASSERT_EQ(frame.size(), builder.finished().size());
  FrameHeader header;
  absl::string_view body;
  ASSERT_EQ(DecodeFrame(frame, &header, &body), DecodeStatus::kOk);
  EXPECT_EQ(header.type, FrameType::kOpReq);
  EXPECT_EQ(header.count, 2u);

  Op op;
  ASSERT_EQ(DecodeOp(&body, &op), DecodeStatus::kOk);
  EXPECT_EQ(op.header.type, OpType::kRead);
  EXPECT_EQ(op.header.flags, kLockExclusive);
  EXPECT_EQ(op.header.table_id, 7u);
  EXPECT_EQ(op.header.table_version, 3u);
  EXPECT_EQ(op.header.partition, 5u);
  EXPECT_EQ(op.header.txn, 99u);
  EXPECT_EQ(op.header.tag, 1234567890123ull);
  EXPECT_EQ(op.sections[0], "key");
  std::vector<uint16_t> columns;
  ASSERT_TRUE(DecodeColumns(op.sections[1], &columns));
  EXPECT_EQ(columns, (std::vector<uint16_t>{0, 2}));
  ASSERT_EQ(DecodeOp(&body, &op), DecodeStatus::kOk);
  EXPECT_EQ(op.header.type, OpType::kAbort);
  EXPECT_EQ(op.section_count, 0);
  EXPECT_TRUE(body.empty());
}

TEST(FrameTest, ResultsWithSectionsWrittenInPlace) {
  FrameBuilder builder;
  builder.Begin(FrameType::kOpConf, 42);
  size_t at = BeginResult(&builder, kResultOk, 0, 5);
  size_t section;
  BeginSection(&builder, &section);
  builder.buffer()->append("row bytes");
  EndSection(&builder, section);
  EndResult(&builder, at);
  AppendResult(&builder, 1062, 0, 6, {"Duplicate entry '1' for key 't.PRIMARY'"});
  builder.Finish();

  FrameHeader header;
  absl::string_view body;
  ASSERT_EQ(DecodeFrame(builder.finished(), &header, &body), DecodeStatus::kOk);
  EXPECT_EQ(header.schema_version, 42u);
  Result r;
  ASSERT_EQ(DecodeResult(&body, &r), DecodeStatus::kOk);
  EXPECT_EQ(r.tag, 5u);
  ASSERT_EQ(r.section_count, 1);
  EXPECT_EQ(r.sections[0], "row bytes");
  ASSERT_EQ(DecodeResult(&body, &r), DecodeStatus::kOk);
  EXPECT_EQ(r.code, 1062);
  EXPECT_EQ(r.sections[0], "Duplicate entry '1' for key 't.PRIMARY'");
}

TEST(FrameTest, EmptyFramesAreDroppedAndFramesQueueBackToBack) {
  FrameBuilder builder;
  builder.Begin(FrameType::kOpReq);
  builder.Finish();
  EXPECT_TRUE(builder.empty());
  AppendHello(&builder, FrameType::kHelloReq, 4);
  AppendHello(&builder, FrameType::kHelloConf, 2);
  absl::string_view first = FirstFrame(builder.finished());
  FrameHeader header;
  absl::string_view body;
  ASSERT_EQ(DecodeFrame(first, &header, &body), DecodeStatus::kOk);
  uint32_t id = 0;
  ASSERT_EQ(DecodeHello(body, &id), DecodeStatus::kOk);
  EXPECT_EQ(id, 4u);
  builder.ConsumeFinished(first.size());
  ASSERT_EQ(DecodeFrame(FirstFrame(builder.finished()), &header, &body), DecodeStatus::kOk);
  EXPECT_EQ(header.type, FrameType::kHelloConf);
}

TEST(FrameTest, MalformedInputIsRefused) {
  FrameHeader header;
  absl::string_view body;
  EXPECT_EQ(DecodeFrame("short", &header, &body), DecodeStatus::kMalformed);
  std::string frame(16, '\0');
  SetU32(&frame, 0, 17);  // claims one byte more than there is
  frame[4] = 3;
  EXPECT_EQ(DecodeFrame(frame, &header, &body), DecodeStatus::kMalformed);
  SetU32(&frame, 0, 16);
  frame[4] = 99;  // unknown type
  EXPECT_EQ(DecodeFrame(frame, &header, &body), DecodeStatus::kMalformed);

  FrameBuilder builder;
  builder.Begin(FrameType::kOpReq);
  OpHeader h;
  h.type = OpType::kUpdate;
  AppendOp(&builder, h, {"k", "p"});
  std::string op = builder.buffer()->substr(kFrameHeaderSize);
  for (size_t cut = 0; cut < op.size(); ++cut) {
    absl::string_view in(op.data(), cut);
    Op decoded;
    EXPECT_EQ(DecodeOp(&in, &decoded), DecodeStatus::kMalformed) << cut;
  }
  std::string wrong_sections = op;
  wrong_sections[4] = static_cast<char>(OpType::kInsert);  // one section expected, two given
  absl::string_view in(wrong_sections);
  Op decoded;
  EXPECT_EQ(DecodeOp(&in, &decoded), DecodeStatus::kMalformed);
  std::vector<uint16_t> columns;
  EXPECT_FALSE(DecodeColumns("abc", &columns));
}

}  // namespace
TEST(ErrorsTest, TemporaryErrorsAreWordedAsMysqldWithNdbWordsThem) {
  EXPECT_EQ(TemporaryError(kNdbNodeFailure, "data node 3 lost: connection lost"),
            "Got temporary error 4010 'data node 3 lost: connection lost' from NDBCLUSTER");
  EXPECT_EQ(TemporaryError(kNdbClusterFailure, "Cluster Failure"),
            "Got temporary error 4009 'Cluster Failure' from NDBCLUSTER");
}

}  // namespace shoal::wire
