// The typed native messages: each encodes the bytes op.h lays out (what AppendOp wrote before
// them), decodes back to itself, refuses every strict prefix of its encoding and every other
// type, and checks what its sections must hold.
#include "engine/wire/messages.h"

#include <cstring>
#include <memory>
#include <string>

#include "gtest/gtest.h"

namespace shoal::wire {
namespace {

template <typename T>
std::string Encoded(const T& message) {
  FrameBuilder builder;
  builder.Begin(FrameType::kOpReq);
  message.Encode(&builder);
  EXPECT_EQ(builder.count(), 1u);
  return builder.buffer()->substr(kFrameHeaderSize);
}

std::string Legacy(const OpHeader& header, std::initializer_list<absl::string_view> sections) {
  FrameBuilder builder;
  builder.Begin(FrameType::kOpReq);
  AppendOp(&builder, header, sections);
  return builder.buffer()->substr(kFrameHeaderSize);
}

template <typename T>
bool DecodesAs(absl::string_view bytes) {
  T out;
  return DecodeMessage(&bytes, &out) == DecodeStatus::kOk;
}

template <typename Own, typename... T>
int OtherDecoders(absl::string_view bytes, TypeList<T...>) {
  return ((!std::is_same_v<Own, T> && DecodesAs<T>(bytes) ? 1 : 0) + ...);
}

// Round trip, every strict prefix, and no other type's decoder.
template <typename T>
void ExpectRoundTrip(const T& sample) {
  SCOPED_TRACE(std::string(OpTypeName(T::kType)));
  std::string bytes = Encoded(sample);
  ASSERT_GE(bytes.size(), kOpHeaderSize);
  EXPECT_EQ(static_cast<OpType>(bytes[4]), T::kType);
  absl::string_view in = bytes;
  T decoded;
  ASSERT_EQ(DecodeMessage(&in, &decoded), DecodeStatus::kOk);
  EXPECT_TRUE(in.empty());
  EXPECT_TRUE(decoded == sample);
  EXPECT_EQ(Encoded(decoded), bytes);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    // Exactly `cut` bytes on the heap: a read past them shows under the sanitizers.
    std::unique_ptr<char[]> copy(new char[cut + 1]);
    std::memcpy(copy.get(), bytes.data(), cut);
    absl::string_view prefix(copy.get(), cut);
    T out;
    EXPECT_EQ(DecodeMessage(&prefix, &out), DecodeStatus::kMalformed) << "prefix of " << cut;
    EXPECT_EQ(prefix.size(), cut);
  }
  EXPECT_EQ(OtherDecoders<T>(bytes, AllOps{}), 0);
}

// The header fields an OpTarget carries, as tests set them.
template <typename T>
T Targeted() {
  T message;
  message.table_id = 7;
  message.table_version = 3;
  message.partition = 5;
  message.txn = 99;
  message.tag = 1234567890123ull;
  return message;
}

OpHeader TargetHeader(OpType type, uint8_t flags = 0, uint16_t index = 0) {
  OpHeader h;
  h.type = type;
  h.flags = flags;
  h.index = index;
  h.table_id = 7;
  h.table_version = 3;
  h.partition = 5;
  h.txn = 99;
  h.tag = 1234567890123ull;
  return h;
}

TEST(KeyOpsTest, EncodeTheBytesOfOpH) {
  const std::string columns = EncodeColumns(std::vector<uint16_t>{0, 2});
  auto read = Targeted<Read>();
  read.lock_exclusive = true;
  read.key = "key";
  read.columns = columns;
  EXPECT_EQ(Encoded(read), Legacy(TargetHeader(OpType::kRead, kLockExclusive), {"key", columns}));
  ExpectRoundTrip(read);

  auto unique = Targeted<ReadUnique>();
  unique.index = 2;
  unique.key = "k";
  unique.columns = columns;
  EXPECT_EQ(Encoded(unique), Legacy(TargetHeader(OpType::kReadUnique, 0, 2), {"k", columns}));
  ExpectRoundTrip(unique);

  auto insert = Targeted<Insert>();
  insert.row = "row";
  EXPECT_EQ(Encoded(insert), Legacy(TargetHeader(OpType::kInsert), {"row"}));
  ExpectRoundTrip(insert);
  auto write = Targeted<Write>();
  write.row = "row2";
  EXPECT_EQ(Encoded(write), Legacy(TargetHeader(OpType::kWrite), {"row2"}));
  ExpectRoundTrip(write);

  auto update = Targeted<Update>();
  update.key = "k";
  update.program = "prog";
  EXPECT_EQ(Encoded(update), Legacy(TargetHeader(OpType::kUpdate), {"k", "prog"}));
  ExpectRoundTrip(update);
  auto update_if = Targeted<UpdateIf>();
  update_if.key = "k";
  update_if.filter = "f";
  update_if.program = "p";
  EXPECT_EQ(Encoded(update_if), Legacy(TargetHeader(OpType::kUpdateIf), {"k", "f", "p"}));
  ExpectRoundTrip(update_if);

  auto del = Targeted<Delete>();
  del.key = "k";
  EXPECT_EQ(Encoded(del), Legacy(TargetHeader(OpType::kDelete), {"k"}));
  ExpectRoundTrip(del);
  auto delete_if = Targeted<DeleteIf>();
  delete_if.key = "k";
  delete_if.filter = "filter";
  EXPECT_EQ(Encoded(delete_if), Legacy(TargetHeader(OpType::kDeleteIf), {"k", "filter"}));
  ExpectRoundTrip(delete_if);

  auto scan = Targeted<Scan>();
  scan.lock_exclusive = true;
  scan.index = 1;
  scan.lower = "a";
  scan.upper = "z";
  scan.resume = "m";
  scan.filter = "f";
  scan.columns = columns;
  scan.params = ScanParams{100, 1000, kLowerExclusive | kDescending};
  EXPECT_EQ(Encoded(scan), Legacy(TargetHeader(OpType::kScan, kLockExclusive, 1),
                                  {"a", "z", "m", "f", columns, EncodeScanParams(scan.params)}));
  ExpectRoundTrip(scan);
  ExpectRoundTrip(Targeted<Scan>());  // empty bounds, resume and filter

  auto commit = Targeted<Commit>();
  EXPECT_EQ(Encoded(commit), Legacy(TargetHeader(OpType::kCommit), {"", ""}));
  ExpectRoundTrip(commit);
  commit.tc = 3;
  commit.epoch = 0x0102030405060708ull;
  EXPECT_EQ(Encoded(commit), Legacy(TargetHeader(OpType::kCommit, 0, 3),
                                    {std::string("\x08\x07\x06\x05\x04\x03\x02\x01", 8), ""}));
  ExpectRoundTrip(commit);
  // A TC's commit of a backup, and one naming the backups it committed.
  std::string done;
  AddReplicaDone(&done, 3);
  AddReplicaDone(&done, 258);
  EXPECT_EQ(done, std::string("\x03\x00\x02\x01", 4));
  EXPECT_TRUE(HasReplicaDone(done, 258));
  EXPECT_FALSE(HasReplicaDone(done, 2));
  commit.replicas_done = done;
  EXPECT_EQ(Encoded(commit), Legacy(TargetHeader(OpType::kCommit, 0, 3),
                                    {std::string("\x08\x07\x06\x05\x04\x03\x02\x01", 8), done}));
  ExpectRoundTrip(commit);
  commit.replicas_done = {};
  commit.on_replica = true;
  EXPECT_EQ(Encoded(commit), Legacy(TargetHeader(OpType::kCommit, kOnReplica, 3),
                                    {std::string("\x08\x07\x06\x05\x04\x03\x02\x01", 8), ""}));
  ExpectRoundTrip(commit);
  EXPECT_FALSE(DecodesAs<Commit>(Legacy(TargetHeader(OpType::kCommit), {"", "odd"})));
  auto abort = Targeted<Abort>();
  abort.tc = 4;
  EXPECT_EQ(Encoded(abort), Legacy(TargetHeader(OpType::kAbort, 0, 4), {}));
  ExpectRoundTrip(abort);
}

TEST(KeyOpsTest, ColumnListsAndScanParametersAreChecked) {
  OpHeader h = TargetHeader(OpType::kRead);
  std::string odd = Legacy(h, {"key", "abc"});
  EXPECT_FALSE(DecodesAs<Read>(odd));
  h.type = OpType::kReadUnique;
  EXPECT_FALSE(DecodesAs<ReadUnique>(Legacy(h, {"key", "abc"})));
  h.type = OpType::kScan;
  std::string params = EncodeScanParams(ScanParams{});
  EXPECT_TRUE(DecodesAs<Scan>(Legacy(h, {"", "", "", "", "ab", params})));
  EXPECT_FALSE(DecodesAs<Scan>(Legacy(h, {"", "", "", "", "abc", params})));
  EXPECT_FALSE(DecodesAs<Scan>(Legacy(h, {"", "", "", "", "ab", params.substr(1)})));
}

TEST(KeyOpsTest, ScanRangeListsRoundTripAndRefuseWhatIsCutShort) {
  std::string list;
  AppendScanRange("ab", "", &list);
  AppendScanRange("", "xyz", &list);
  EXPECT_EQ(list, std::string("\x02\x00"
                              "ab"
                              "\x00\x00"
                              "\x00\x00"
                              "\x03\x00"
                              "xyz",
                              13));
  std::vector<ScanRange> ranges;
  ASSERT_TRUE(DecodeScanRanges(list, &ranges));
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].lower, "ab");
  EXPECT_EQ(ranges[0].upper, "");
  EXPECT_EQ(ranges[1].lower, "");
  EXPECT_EQ(ranges[1].upper, "xyz");
  for (size_t cut = 0; cut < list.size(); ++cut) {
    if (cut == 6) continue;  // the first range alone is a whole list
    EXPECT_FALSE(DecodeScanRanges(list.substr(0, cut), &ranges)) << cut;
  }
  size_t range = 9;
  absl::string_view token = "x";
  ASSERT_TRUE(DecodeScanRangeResume("", &range, &token));
  EXPECT_EQ(range, 0u);
  EXPECT_EQ(token, "");
  const std::string resume = ScanRangeResume(3, "tok");  // the token is a view into it
  ASSERT_TRUE(DecodeScanRangeResume(resume, &range, &token));
  EXPECT_EQ(range, 3u);
  EXPECT_EQ(token, "tok");
  EXPECT_FALSE(DecodeScanRangeResume("\x01", &range, &token));
}

TEST(KeyOpsTest, OtherFlagBitsAreIgnored) {
  Read read;
  std::string bytes = Legacy(TargetHeader(OpType::kRead, 0xfe), {"k", ""});
  absl::string_view in = bytes;
  ASSERT_EQ(DecodeMessage(&in, &read), DecodeStatus::kOk);
  EXPECT_FALSE(read.lock_exclusive);
}

TEST(ReplicaOpsTest, EncodeTheBytesOfOpH) {
  auto write = Targeted<ReplicaWrite>();
  write.from_node = 2;
  write.commit_now = true;
  write.row = "row";
  EXPECT_EQ(Encoded(write),
            Legacy(TargetHeader(OpType::kReplicaWrite, kReplicaCommitNow, 2), {"row", ""}));
  ExpectRoundTrip(write);
  write.epoch = 5;
  EXPECT_EQ(Encoded(write), Legacy(TargetHeader(OpType::kReplicaWrite, kReplicaCommitNow, 2),
                                   {"row", std::string("\x05\0\0\0\0\0\0\0", 8)}));
  ExpectRoundTrip(write);
  auto del = Targeted<ReplicaDelete>();
  del.from_node = 2;
  del.key = "k";
  del.epoch = 6;
  EXPECT_EQ(Encoded(del), Legacy(TargetHeader(OpType::kReplicaDelete, 0, 2),
                                 {"k", std::string("\x06\0\0\0\0\0\0\0", 8)}));
  ExpectRoundTrip(del);
  // An epoch section is empty or eight bytes.
  EXPECT_FALSE(
      DecodesAs<ReplicaDelete>(Legacy(TargetHeader(OpType::kReplicaDelete, 0, 2), {"k", "1234"})));

  auto commit = Targeted<ReplicaCommit>();
  commit.from_node = 1;
  commit.table_version = 0;
  OpHeader h = TargetHeader(OpType::kReplicaCommit, 0, 1);
  h.table_version = 0;
  EXPECT_EQ(Encoded(commit), Legacy(h, {""}));
  ExpectRoundTrip(commit);
  commit.epoch = 7;
  EXPECT_EQ(Encoded(commit), Legacy(h, {std::string("\x07\0\0\0\0\0\0\0", 8)}));
  ExpectRoundTrip(commit);
  auto abort = Targeted<ReplicaAbort>();
  abort.from_node = 1;
  EXPECT_EQ(Encoded(abort), Legacy(TargetHeader(OpType::kReplicaAbort, 0, 1), {}));
  ExpectRoundTrip(abort);

  auto ack = Targeted<ReplicaAck>();
  ack.from_node = 3;
  EXPECT_EQ(Encoded(ack), Legacy(TargetHeader(OpType::kReplicaAck, 0, 3), {""}));
  ExpectRoundTrip(ack);
  ack.error = 1114;
  ack.message = "The table 't' is full";
  std::string status;
  PutU16(&status, 1114);
  status += "The table 't' is full";
  EXPECT_EQ(Encoded(ack), Legacy(TargetHeader(OpType::kReplicaAck, 0, 3), {status}));
  ExpectRoundTrip(ack);
  ack.message = {};
  ExpectRoundTrip(ack);  // an error without a message

  auto prepare = Targeted<ReplicaPrepare>();
  prepare.from_node = 2;
  prepare.tc = 4;
  std::string tc;
  PutU32(&tc, 4);
  EXPECT_EQ(Encoded(prepare), Legacy(TargetHeader(OpType::kReplicaPrepare, 0, 2), {tc}));
  ExpectRoundTrip(prepare);

  OpHeader sender;
  sender.index = 9;
  sender.type = OpType::kCopyReq;
  EXPECT_EQ(Encoded(CopyReq{9}), Legacy(sender, {}));
  ExpectRoundTrip(CopyReq{9});
  sender.type = OpType::kPing;
  EXPECT_EQ(Encoded(Ping{9}), Legacy(sender, {}));
  ExpectRoundTrip(Ping{9});
  sender.type = OpType::kHandover;
  sender.partition = 6;
  EXPECT_EQ(Encoded(Handover{9, 6}), Legacy(sender, {}));
  ExpectRoundTrip(Handover{9, 6});

  Epoch epoch{.from_node = 9, .phase = EpochPhase::kSaved, .epoch = 42};
  OpHeader round;
  round.type = OpType::kEpoch;
  round.index = 9;
  round.flags = static_cast<uint8_t>(EpochPhase::kSaved);
  round.txn = 42;
  EXPECT_EQ(Encoded(epoch), Legacy(round, {}));
  ExpectRoundTrip(epoch);
  CopyReq since{.from_node = 9, .since_epoch = 77};
  OpHeader ask;
  ask.type = OpType::kCopyReq;
  ask.index = 9;
  ask.txn = 77;
  EXPECT_EQ(Encoded(since), Legacy(ask, {}));
  ExpectRoundTrip(since);
  auto keep = Targeted<CopyKeep>();
  keep.from_node = 2;
  keep.key = "k";
  EXPECT_EQ(Encoded(keep), Legacy(TargetHeader(OpType::kCopyKeep, 0, 2), {"k"}));
  ExpectRoundTrip(keep);
  auto edge = Targeted<CopyEdge>();
  edge.from_node = 2;
  EXPECT_EQ(Encoded(edge), Legacy(TargetHeader(OpType::kCopyEdge, 0, 2), {}));
  ExpectRoundTrip(edge);
  edge.end = true;
  EXPECT_EQ(Encoded(edge), Legacy(TargetHeader(OpType::kCopyEdge, kCopyComplete, 2), {}));
  ExpectRoundTrip(edge);

  round.flags = 0;
  EXPECT_FALSE(DecodesAs<Epoch>(Legacy(round, {})));
  round.flags = kMaxEpochPhase + 1;
  EXPECT_FALSE(DecodesAs<Epoch>(Legacy(round, {})));

  CopyDone done{.from_node = 9, .ldm = 1, .ldm_count = 2, .sent = 30, .total = 40};
  OpHeader progress;
  progress.type = OpType::kCopyDone;
  progress.index = 9;
  progress.table_id = 1;
  progress.partition = 2;
  progress.tag = 30;
  progress.txn = 40;
  EXPECT_EQ(Encoded(done), Legacy(progress, {}));
  ExpectRoundTrip(done);
  done.complete = true;
  progress.flags = kCopyComplete;
  EXPECT_EQ(Encoded(done), Legacy(progress, {}));
  ExpectRoundTrip(done);
}

TEST(ReplicaOpsTest, ContentsAreChecked) {
  OpHeader h = TargetHeader(OpType::kReplicaAck, 0, 3);
  EXPECT_FALSE(DecodesAs<ReplicaAck>(Legacy(h, {"x"})));                // half an error code
  EXPECT_FALSE(DecodesAs<ReplicaAck>(Legacy(h, {std::string(2, 0)})));  // error 0
  h.type = OpType::kReplicaPrepare;
  EXPECT_FALSE(DecodesAs<ReplicaPrepare>(Legacy(h, {"abc"})));
  EXPECT_FALSE(DecodesAs<ReplicaPrepare>(Legacy(h, {"abcde"})));
  OpHeader progress;
  progress.type = OpType::kCopyDone;
  progress.table_id = 2;
  progress.partition = 2;  // LDM 2 of 2
  EXPECT_FALSE(DecodesAs<CopyDone>(Legacy(progress, {})));
  progress.table_id = 0;
  progress.partition = 0;
  EXPECT_FALSE(DecodesAs<CopyDone>(Legacy(progress, {})));
}

TEST(TxnOpsTest, EncodeTheBytesOfOpH) {
  std::string participants;
  CommitTxn::AddParticipant(&participants, 7, 5);
  CommitTxn::AddParticipant(&participants, 8, 1);
  CommitTxn commit{.txn = 99, .tag = 12, .participants = participants};
  ASSERT_EQ(commit.participant_count(), 2u);
  EXPECT_EQ(commit.participant(1).table_id, 8u);
  EXPECT_EQ(commit.participant(1).partition, 1u);
  OpHeader h;
  h.type = OpType::kCommitTxn;
  h.table_id = 7;
  h.partition = 5;
  h.txn = 99;
  h.tag = 12;
  EXPECT_EQ(Encoded(commit), Legacy(h, {participants}));
  ExpectRoundTrip(commit);

  Prepare prepare{.tc = 2,
                  .table_id = 7,
                  .partition = 5,
                  .txn = 99,
                  .tag = 13,
                  .on_replica = false,
                  .replicas_done = {}};
  h = OpHeader();
  h.type = OpType::kPrepare;
  h.index = 2;
  h.table_id = 7;
  h.partition = 5;
  h.txn = 99;
  h.tag = 13;
  EXPECT_EQ(Encoded(prepare), Legacy(h, {""}));
  ExpectRoundTrip(prepare);
  std::string done;
  AddReplicaDone(&done, 4);
  prepare.replicas_done = done;
  EXPECT_EQ(Encoded(prepare), Legacy(h, {done}));
  ExpectRoundTrip(prepare);
  prepare.replicas_done = {};
  prepare.on_replica = true;
  h.flags = kOnReplica;
  EXPECT_EQ(Encoded(prepare), Legacy(h, {""}));
  ExpectRoundTrip(prepare);
  EXPECT_FALSE(DecodesAs<Prepare>(Legacy(h, {"odd"})));
  h.flags = 0;

  TakeoverReq takeover{.failed_tc = 3, .table_id = 7, .partition = 5, .tag = 14};
  h.type = OpType::kTakeoverReq;
  h.index = 3;
  h.txn = 0;
  h.tag = 14;
  EXPECT_EQ(Encoded(takeover), Legacy(h, {}));
  ExpectRoundTrip(takeover);
}

TEST(TxnOpsTest, CommitTxnContentsAreChecked) {
  OpHeader h;
  h.type = OpType::kCommitTxn;
  h.txn = 99;
  std::string one;
  CommitTxn::AddParticipant(&one, 1, 2);
  EXPECT_TRUE(DecodesAs<CommitTxn>(Legacy(h, {one})));
  EXPECT_FALSE(DecodesAs<CommitTxn>(Legacy(h, {""})));
  EXPECT_FALSE(DecodesAs<CommitTxn>(Legacy(h, {one.substr(1)})));
  EXPECT_FALSE(DecodesAs<CommitTxn>(Legacy(h, {one + "x"})));
  std::string too_many((CommitTxn::kMaxParticipants + 1) * CommitTxn::kParticipantSize, '\0');
  EXPECT_FALSE(DecodesAs<CommitTxn>(Legacy(h, {too_many})));
  h.txn = 0;
  EXPECT_FALSE(DecodesAs<CommitTxn>(Legacy(h, {one})));
  h.txn = uint64_t{1} << 63;
  EXPECT_FALSE(DecodesAs<CommitTxn>(Legacy(h, {one})));
}

TEST(TxnOpsTest, TakeoverConfRoundTripsAndRefusesPrefixes) {
  std::string entries;
  TakeoverConf::AddEntry(&entries, 41, false);
  TakeoverConf::AddEntry(&entries, 42, true);
  TakeoverConf conf{.tag = 15, .entries = entries};
  ASSERT_EQ(conf.entry_count(), 2u);
  EXPECT_EQ(conf.entry(0).txn, 41u);
  EXPECT_FALSE(conf.entry(0).committed);
  EXPECT_TRUE(conf.entry(1).committed);

  FrameBuilder builder;
  builder.Begin(FrameType::kOpConf);
  conf.Encode(&builder);
  std::string bytes = builder.buffer()->substr(kFrameHeaderSize);
  FrameBuilder legacy;
  legacy.Begin(FrameType::kOpConf);
  AppendResult(&legacy, kResultOk, 0, 15, {entries});
  EXPECT_EQ(bytes, legacy.buffer()->substr(kFrameHeaderSize));

  absl::string_view in = bytes;
  Result result;
  ASSERT_EQ(DecodeResult(&in, &result), DecodeStatus::kOk);
  TakeoverConf decoded;
  ASSERT_EQ(TakeoverConf::Decode(result, &decoded), DecodeStatus::kOk);
  EXPECT_TRUE(decoded == conf);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    std::unique_ptr<char[]> copy(new char[cut + 1]);
    std::memcpy(copy.get(), bytes.data(), cut);
    absl::string_view prefix(copy.get(), cut);
    EXPECT_EQ(DecodeResult(&prefix, &result), DecodeStatus::kMalformed) << cut;
  }
  result.sections[0] = absl::string_view(entries).substr(1);
  EXPECT_EQ(TakeoverConf::Decode(result, &decoded), DecodeStatus::kMalformed);
  result.sections[0] = entries;
  result.code = kResultNotFound;
  EXPECT_EQ(TakeoverConf::Decode(result, &decoded), DecodeStatus::kMalformed);
}

TEST(MessagesTest, EncodeDropsTheOperationWithoutABuilder) {
  Read read;
  read.Encode(nullptr);
  ReplicaAck ack;
  ack.error = 1;
  ack.Encode(nullptr);
  TakeoverConf().Encode(nullptr);
}

}  // namespace
}  // namespace shoal::wire
