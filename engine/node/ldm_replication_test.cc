// Replication between the LDMs of a two-node group, with the network between them in the
// test's hands: messages are delivered only when the test pumps them, or dropped, so every
// step of a write, a commit, a node failure and a copy to a restarting node can be checked.
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/node/ldm.h"
#include "engine/schema/row.h"
#include "engine/schema/schema.h"
#include "engine/storage/memory_budget.h"
#include "engine/wire/errors.h"
#include "gtest/gtest.h"

namespace shoal::node {
namespace {

constexpr uint32_t kPartitions = 4;
constexpr uint32_t kClient = 7;  // the client's connection id on either node
constexpr int kNodeA = 2;        // primary of the even partitions
constexpr int kNodeB = 3;        // primary of the odd ones

// Connection ids as each node sees the other: node n's connection to node m is 100 + m.
uint32_t ConnTo(int node) { return 100 + static_cast<uint32_t>(node); }

struct Message {
  int to;
  uint32_t conn;  // the connection it arrives on, at `to`
  std::string op;
};

// The replication messages in flight, delivered or dropped by the test.
struct Network {
  std::deque<Message> messages;
};

// One data node: an LDM and what it sends, to the client and to the other node.
class Node : public ReplySink {
 public:
  Node(int node_id, Network* network, storage::MemoryBudget* budget)
      : id(node_id), network_(network) {
    Restart(budget);
  }
  void Restart(storage::MemoryBudget* budget,
               absl::Duration lock_wait_timeout = absl::Milliseconds(100)) {
    ldm = std::make_unique<Ldm>(PartitionPlacement{1, 2, 0, 1, 0}, budget, lock_wait_timeout);
  }
  wire::FrameBuilder* ReplyTo(uint32_t destination) override {
    wire::FrameBuilder& out = destination == kClient ? results : outbox_[destination];
    if (!out.in_frame()) {
      out.Begin(destination == kClient ? wire::FrameType::kOpConf : wire::FrameType::kOpReq);
    }
    return &out;
  }
  // Puts what this node sent to other nodes on the network, one message per operation.
  void Flush() {
    for (auto& [destination, out] : outbox_) {
      int to = (destination & kToNode) ? static_cast<int>(destination & ~kToNode)
                                       : static_cast<int>((destination & ~kOpsOn) - 100);
      out.Finish();
      absl::string_view frames = out.finished();
      while (!frames.empty()) {
        absl::string_view frame = wire::FirstFrame(frames);
        frames.remove_prefix(frame.size());
        absl::string_view body = frame.substr(wire::kFrameHeaderSize);
        while (!body.empty()) {
          absl::string_view start = body;
          wire::Op op;
          ASSERT_EQ(wire::DecodeOp(&body, &op), wire::DecodeStatus::kOk);
          network_->messages.push_back(
              Message{to, ConnTo(id), std::string(start.substr(0, start.size() - body.size()))});
        }
      }
      out.Clear();
    }
  }

  int id;
  std::unique_ptr<Ldm> ldm;
  wire::FrameBuilder results;  // to the client

 private:
  Network* network_;
  std::map<uint32_t, wire::FrameBuilder> outbox_;
};

class ReplicationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto table = std::make_shared<schema::TableDef>();
    table->database = "test";
    table->name = "t";
    schema::ColumnDef id, v;
    id.name = "id";
    id.type = schema::ColumnType::kInt;
    v.name = "v";
    v.type = schema::ColumnType::kInt;
    table->columns = {id, v};
    schema::IndexDef primary;
    primary.name = "PRIMARY";
    primary.columns = {0};
    primary.primary = primary.unique = true;
    table->indexes = {primary};
    table->partitions = kPartitions;
    ASSERT_TRUE(schema::ValidateAndComplete(table.get()).ok());
    table->id = 1;
    table->version = 1;
    table_ = table;
    DictionaryDelta delta;
    delta.created.push_back(table_);
    a_.ldm->Apply(delta);
    b_.ldm->Apply(delta);
    SetStarted(true, true);
  }

  void SetStarted(bool a, bool b) {
    for (Node* node : {&a_, &b_}) SetStartedOn(*node, a, b);
  }
  // The view as one node learns it.
  void SetStartedOn(Node& node, bool a, bool b) {
    GroupView view;
    view.self = node.id;
    view.members = {kNodeA, kNodeB};
    view.started = {a, b};
    if (!a) view.down.push_back(kNodeA);
    if (!b) view.down.push_back(kNodeB);
    node.ldm->SetGroup(view, &node);
  }
  // B, down, starts again empty and A copies every partition to it; it does not serve yet.
  void RestartAndCopyB() {
    b_.Restart(&budget_);
    DictionaryDelta delta;
    delta.created.push_back(table_);
    b_.ldm->Apply(delta);
    SetStartedOn(b_, true, false);
    a_.ldm->StartCopy(kNodeB, ConnTo(kNodeB), 1);
    while (a_.ldm->CopyStep(&a_)) Pump();
    Pump();
  }

  uint32_t PartitionOfKey(const std::string& key) { return schema::KeyHash(key) % kPartitions; }
  // A key whose partition node `primary` is primary of.
  std::string KeyOn(int primary, int n) {
    for (int id = n * 100;; ++id) {
      std::string key = Key(id);
      uint32_t p = schema::KeyHash(key) % kPartitions;
      if (static_cast<int>(p % 2) == (primary == kNodeA ? 0 : 1)) return key;
    }
  }
  std::string Key(int id) {
    schema::RowWriter w;
    w.BeginKey();
    w.Int(table_->columns[0], id);
    return std::string(w.view());
  }
  int IdOf(const std::string& key) {
    for (int id = 0;; ++id) {
      if (Key(id) == key) return id;
    }
  }
  std::string Row(const std::string& key, int v) {
    schema::RowWriter w;
    w.BeginRow(2);
    w.Int(table_->columns[0], IdOf(key));
    w.Int(table_->columns[1], v);
    return std::string(w.view());
  }

  void Send(Node& node, wire::OpType type, const std::string& key, uint64_t tag, uint64_t txn,
            std::initializer_list<absl::string_view> sections, uint16_t index = 0,
            uint8_t flags = 0) {
    wire::OpHeader h;
    h.type = type;
    h.flags = flags;
    h.index = index;
    h.table_id = table_->id;
    h.table_version = table_->version;
    h.partition = schema::KeyHash(key) % kPartitions;
    h.tag = tag;
    h.txn = txn;
    wire::FrameBuilder frame;
    frame.Begin(wire::FrameType::kOpReq);
    wire::AppendOp(&frame, h, sections);
    frame.Finish();
    absl::string_view body = frame.finished().substr(wire::kFrameHeaderSize);
    wire::Op op;
    ASSERT_EQ(wire::DecodeOp(&body, &op), wire::DecodeStatus::kOk);
    node.ldm->Execute(op, kClient, &node);
  }
  void Insert(Node& node, const std::string& key, int v, uint64_t tag, uint64_t txn = 0) {
    std::string row = Row(key, v);
    Send(node, wire::OpType::kInsert, key, tag, txn, {row});
  }

  // Delivers replication messages until none is left (or only `limit` of them).
  void Pump(int limit = 1 << 30) {
    for (Node* node : {&a_, &b_}) node->Flush();
    while (!network_.messages.empty() && limit-- > 0) {
      Message m = std::move(network_.messages.front());
      network_.messages.pop_front();
      Node* to = m.to == kNodeA ? &a_ : &b_;
      absl::string_view in = m.op;
      wire::Op op;
      ASSERT_EQ(wire::DecodeOp(&in, &op), wire::DecodeStatus::kOk);
      to->ldm->Execute(op, m.conn, to);
      for (Node* node : {&a_, &b_}) node->Flush();
    }
  }
  void Drop() {
    for (Node* node : {&a_, &b_}) node->Flush();
    network_.messages.clear();
  }

  // Client results of `node` since the last call: tag → code.
  std::map<uint64_t, uint16_t> Results(Node& node) {
    std::map<uint64_t, uint16_t> codes;
    node.results.Finish();
    absl::string_view frames = node.results.finished();
    while (!frames.empty()) {
      absl::string_view frame = wire::FirstFrame(frames);
      frames.remove_prefix(frame.size());
      absl::string_view body = frame.substr(wire::kFrameHeaderSize);
      while (!body.empty()) {
        wire::Result result;
        EXPECT_EQ(wire::DecodeResult(&body, &result), wire::DecodeStatus::kOk);
        codes[result.tag] = result.code;
      }
    }
    node.results.Clear();
    return codes;
  }

  // A committed read of `key` on `node`: its v, or -1 when there is no row. (Drops other
  // results of `node` not taken yet.)
  int Value(Node& node, const std::string& key) {
    std::string columns = wire::EncodeColumns(std::vector<uint16_t>{1});
    Send(node, wire::OpType::kRead, key, 999, 0, {key, columns});
    node.results.Finish();
    absl::string_view frames = node.results.finished();
    int value = -2;
    while (!frames.empty()) {
      absl::string_view frame = wire::FirstFrame(frames);
      frames.remove_prefix(frame.size());
      absl::string_view body = frame.substr(wire::kFrameHeaderSize);
      while (!body.empty()) {
        wire::Result result;
        EXPECT_EQ(wire::DecodeResult(&body, &result), wire::DecodeStatus::kOk);
        if (result.tag != 999) continue;
        if (result.code != wire::kResultOk) {
          value = -1;
          continue;
        }
        std::vector<schema::Field> fields(1);
        size_t consumed = 0;
        std::vector<uint16_t> one = {1};
        EXPECT_TRUE(schema::SplitRow(*table_, one, result.sections[0], fields.data(), &consumed));
        value = static_cast<int>(schema::FieldInt(table_->columns[1], fields[0].bytes));
      }
    }
    node.results.Clear();
    return value;
  }

  // The takeover answer of `node` for the partition of `key` and TC `tc`, which must be down:
  // (transaction, committed) pairs.
  std::vector<std::pair<uint64_t, bool>> TakeoverAnswer(Node& node, const std::string& key,
                                                        uint16_t tc) {
    Send(node, wire::OpType::kTakeoverReq, key, 4444, 0, {}, tc);
    node.results.Finish();
    absl::string_view frame = wire::FirstFrame(node.results.finished());
    absl::string_view body = frame.substr(std::min(frame.size(), wire::kFrameHeaderSize));
    wire::Result answer;
    std::vector<std::pair<uint64_t, bool>> found;
    if (wire::DecodeResult(&body, &answer) != wire::DecodeStatus::kOk) answer.tag = 0;
    node.results.Clear();
    if (answer.tag != 4444u || answer.section_count == 0) {
      ADD_FAILURE() << "no takeover answer";
      return found;
    }
    absl::string_view entries = answer.sections[0];
    for (; entries.size() >= 9; entries.remove_prefix(9)) {
      found.emplace_back(wire::GetU64(entries.data()), entries[8] != 0);
    }
    return found;
  }

  storage::MemoryBudget budget_{64 << 20};
  Network network_;
  Node a_{kNodeA, &network_, &budget_};
  Node b_{kNodeB, &network_, &budget_};
  std::shared_ptr<const schema::TableDef> table_;
};

TEST_F(ReplicationTest, AutocommitWriteIsAnsweredOnceTheBackupHasIt) {
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 10, 1);
  EXPECT_TRUE(Results(a_).empty()) << "answered before the backup had it";
  EXPECT_EQ(Value(a_, key), -1) << "readers see a write before the backup has it";
  Pump();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{1, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, key), 10);
  EXPECT_EQ(Value(b_, key), 10);

  Send(a_, wire::OpType::kDelete, key, 2, 0, {key});
  Pump();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
  EXPECT_EQ(Value(b_, key), -1);
}

TEST_F(ReplicationTest, ALockWaitLeavesOutTimeTheLdmWasNotScheduled) {
  a_.Restart(&budget_, absl::Seconds(1));
  DictionaryDelta delta;
  delta.created.push_back(table_);
  a_.ldm->Apply(delta);
  SetStartedOn(a_, true, true);
  constexpr uint64_t kHolder = 42;
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 1, 1, kHolder);  // holds the row
  Pump();
  Send(a_, wire::OpType::kWrite, key, 2, 43, {Row(key, 2)});  // waits for it
  Pump();
  EXPECT_EQ(Results(a_).count(2), 0u);
  // The thread is not scheduled for ten seconds (the holder was not either): the wait goes on.
  absl::Time now = absl::Now() + absl::Seconds(10);
  a_.ldm->ExpireLockWaits(now, &a_);
  EXPECT_EQ(Results(a_).count(2), 0u) << "a stall ended the lock wait";
  // Then it runs on time: the rest of the second counts, and the wait ends with 1205.
  for (int step = 0; step < 7; ++step) {
    now += absl::Milliseconds(100);
    a_.ldm->ExpireLockWaits(now, &a_);
  }
  EXPECT_EQ(Results(a_).count(2), 0u) << "ended before its second";
  for (int step = 0; step < 3; ++step) {
    now += absl::Milliseconds(100);
    a_.ldm->ExpireLockWaits(now, &a_);
  }
  EXPECT_EQ(Results(a_)[2], wire::kErLockWaitTimeout);
}

TEST_F(ReplicationTest, WritesGoToTheirPrimaryOnly) {
  std::string key = KeyOn(kNodeB, 1);
  Insert(a_, key, 10, 1);
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{1, wire::kErTemporary}}));
  Insert(b_, key, 10, 2);
  Pump();
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, key), 10);
}

TEST_F(ReplicationTest, TransactionCommitsOnTheBackupFirstAndRollsBackThere) {
  constexpr uint64_t kTxn = 42;
  std::string k1 = KeyOn(kNodeA, 1), k2 = KeyOn(kNodeA, 2);
  Insert(a_, k1, 1, 1, kTxn);
  Insert(a_, k2, 2, 2, kTxn);
  Pump();
  EXPECT_EQ(Results(a_).size(), 2u);
  EXPECT_EQ(Value(b_, k1), -1) << "uncommitted on the backup";
  Send(a_, wire::OpType::kCommit, k1, 3, kTxn, {});
  Pump(1);  // the first commit reaches the backup; its answer has not come back
  EXPECT_TRUE(Results(a_).empty());
  Pump();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{3, wire::kResultOk}}));
  EXPECT_EQ(Value(b_, k1), 1);
  EXPECT_EQ(Value(b_, k2), 2);

  constexpr uint64_t kTxn2 = 43;
  std::string k3 = KeyOn(kNodeA, 3);
  Insert(a_, k3, 3, 4, kTxn2);
  Pump();
  Send(a_, wire::OpType::kAbort, k3, 5, kTxn2, {});
  Pump();
  EXPECT_EQ(Value(b_, k3), -1);
  // The backup released the row: a new write to it goes through.
  Insert(a_, k3, 4, 6);
  Pump();
  EXPECT_EQ(Results(a_)[6], wire::kResultOk);
  EXPECT_EQ(Value(b_, k3), 4);
}

TEST_F(ReplicationTest, LosingTheBackupAnswersTheWritesItOwed) {
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 10, 1);
  Drop();  // the backup died with the write
  EXPECT_TRUE(Results(a_).empty());
  SetStarted(true, false);
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{1, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, key), 10);
  // Alone, the primary answers at once; and it is primary of the other partitions now.
  Insert(a_, KeyOn(kNodeB, 2), 20, 2);
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
}

TEST_F(ReplicationTest, LosingThePrimaryRollsBackWhatItReplicatedUncommitted) {
  constexpr uint64_t kTxn = 42;
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 1, 1, kTxn);
  Pump();
  SetStarted(false, true);  // A died before committing
  // B is primary now, and the row is free: the transaction's lock went with it.
  Insert(b_, key, 5, 2);
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
  EXPECT_EQ(Value(b_, key), 5);
}

TEST_F(ReplicationTest, CopyBringsARestartedNodeUpToDateWhileWritesGoOn) {
  SetStarted(true, false);
  constexpr uint64_t kTxn = 42;
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back(KeyOn(i % 2 ? kNodeB : kNodeA, i + 1));
  for (int i = 0; i < 40; ++i) Insert(a_, keys[i], i, i + 1);
  Insert(a_, KeyOn(kNodeA, 100), 100, 100, kTxn);  // open while the copy runs
  Send(a_, wire::OpType::kDelete, keys[0], 101, kTxn, {keys[0]});
  EXPECT_EQ(Results(a_).size(), 42u);

  // B restarts empty and asks for a copy; A copies a partition per step.
  b_.Restart(&budget_);
  DictionaryDelta delta;
  delta.created.push_back(table_);
  b_.ldm->Apply(delta);
  GroupView view;
  view.self = kNodeB;
  view.members = {kNodeA, kNodeB};
  view.started = {true, false};
  b_.ldm->SetGroup(view, &b_);
  a_.ldm->StartCopy(kNodeB, ConnTo(kNodeB), 1, /*rows_per_step=*/1);  // a partition a step
  ASSERT_TRUE(a_.ldm->CopyStep(&a_));
  Pump();
  // A write during the copy: to a copied partition it is forwarded, else copied later.
  for (int i = 1; i < 40; ++i) Send(a_, wire::OpType::kDelete, keys[i], 200 + i, 0, {keys[i]});
  for (int i = 1; i < 40; ++i) Insert(a_, keys[i], 1000 + i, 300 + i);
  while (a_.ldm->CopyStep(&a_)) Pump();
  Pump();
  EXPECT_FALSE(a_.ldm->copying());
  Send(a_, wire::OpType::kCommit, keys[0], 400, kTxn, {});
  Pump();
  EXPECT_EQ(Results(a_)[400], wire::kResultOk);
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(Value(b_, keys[i]), Value(a_, keys[i])) << i;
  }
  EXPECT_EQ(Value(b_, keys[0]), -1);
  EXPECT_EQ(Value(b_, keys[5]), 1005);
  EXPECT_EQ(Value(b_, KeyOn(kNodeA, 100)), 100);
  EXPECT_EQ(b_.ldm->row_count(), a_.ldm->row_count());
}

TEST_F(ReplicationTest, PreparedTransactionOutlivesItsPrimaryAndItsTc) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeA;  // A coordinates, and fails
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 7, 1, kTxn);
  Pump();
  Send(a_, wire::OpType::kPrepare, key, 2, kTxn, {}, kTc);
  EXPECT_TRUE(Results(a_).count(1));
  Pump();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
  SetStarted(false, true);  // A (primary and TC) dies: B keeps the prepared transaction
  std::string row = Row(key, 9);
  Send(b_, wire::OpType::kWrite, key, 3, 0, {row});  // still locked by it
  EXPECT_TRUE(Results(b_).empty());

  // The node taking over asks B which of A's transactions it holds in this partition.
  Send(b_, wire::OpType::kTakeoverReq, key, 4, 0, {}, kTc);
  b_.results.Finish();
  absl::string_view body = wire::FirstFrame(b_.results.finished()).substr(wire::kFrameHeaderSize);
  wire::Result answer;
  ASSERT_EQ(wire::DecodeResult(&body, &answer), wire::DecodeStatus::kOk);
  b_.results.Clear();
  ASSERT_EQ(answer.tag, 4u);
  ASSERT_EQ(answer.sections[0].size(), 9u);
  EXPECT_EQ(wire::GetU64(answer.sections[0].data()), kTxn);
  EXPECT_EQ(answer.sections[0][8], 0) << "prepared, not committed";

  // Its outcome: commit. The write waiting for the lock goes through after it.
  Send(b_, wire::OpType::kCommit, key, 5, kTxn, {});
  EXPECT_EQ(Value(b_, key), 9);
}

TEST_F(ReplicationTest, CommittedPreparedTransactionIsRemembered) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeB;
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 7, 1, kTxn);
  Pump();
  Send(a_, wire::OpType::kPrepare, key, 2, kTxn, {}, kTc);
  Pump();
  Send(a_, wire::OpType::kCommit, key, 3, kTxn, {});
  Pump();
  EXPECT_EQ(Results(a_)[3], wire::kResultOk);
  SetStarted(true, false);  // the TC fails after the commit
  Send(a_, wire::OpType::kTakeoverReq, key, 4, 0, {}, kTc);
  a_.results.Finish();
  absl::string_view body = wire::FirstFrame(a_.results.finished()).substr(wire::kFrameHeaderSize);
  wire::Result answer;
  ASSERT_EQ(wire::DecodeResult(&body, &answer), wire::DecodeStatus::kOk);
  a_.results.Clear();
  ASSERT_EQ(answer.sections[0].size(), 9u);
  EXPECT_EQ(answer.sections[0][8], 1) << "committed";
  EXPECT_EQ(Value(b_, key), 7);
}

TEST_F(ReplicationTest, TakeoverQueryWaitsUntilTheTcIsKnownDown) {
  constexpr uint16_t kTc = kNodeB;
  std::string key = KeyOn(kNodeA, 1);
  Send(a_, wire::OpType::kTakeoverReq, key, 4, 0, {}, kTc);
  EXPECT_TRUE(Results(a_).empty()) << "answered while the TC may still send a commit";
  GroupView view;
  view.self = kNodeA;
  view.members = {kNodeA, kNodeB};
  view.started = {true, false};
  view.down = {kNodeB};
  a_.ldm->SetGroup(view, &a_);
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{4, wire::kResultOk}}));
}

TEST_F(ReplicationTest, RestartedNodeIsPrimaryOnlyOnceHandedOver) {
  SetStarted(true, false);
  RestartAndCopyB();
  constexpr uint64_t kLocker = 42;  // SELECT … FOR UPDATE on A: a lock A alone knows of
  constexpr uint64_t kWriter = 43;
  const std::string k1 = KeyOn(kNodeB, 1), k2 = KeyOn(kNodeB, 2), stays = KeyOn(kNodeA, 3);
  const std::string columns = wire::EncodeColumns(std::vector<uint16_t>{1});
  Insert(a_, k1, 1, 1);
  Send(a_, wire::OpType::kRead, k1, 2, kLocker, {k1, columns}, 0, wire::kLockExclusive);
  Insert(a_, k2, 2, 3, kWriter);
  Insert(a_, stays, 3, 9, kWriter);  // in a partition A keeps
  Pump();
  EXPECT_EQ(Results(a_).size(), 4u);

  // B learns first that it serves, and is k1's primary: it waits for A to hand over. (Else
  // B's transaction would lock k1 too, and both would update it from the same value.)
  constexpr uint64_t kOnB = 44;
  SetStartedOn(b_, true, true);
  Send(b_, wire::OpType::kRead, k1, 4, kOnB, {k1, columns}, 0, wire::kLockExclusive);
  Pump();
  EXPECT_TRUE(Results(b_).empty()) << "B acted as primary before A handed over";
  // A learns it: it rolls back what holds rows there, then hands over; B's read goes on.
  SetStartedOn(a_, true, true);
  Pump();
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{4, wire::kResultOk}}));
  Send(b_, wire::OpType::kWrite, k1, 5, kOnB, {Row(k1, 5)});
  Send(b_, wire::OpType::kCommit, k1, 6, kOnB, {});
  Pump();
  EXPECT_EQ(Results(b_),
            (std::map<uint64_t, uint16_t>{{5, wire::kResultOk}, {6, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, k1), 5);
  EXPECT_EQ(Value(b_, k1), 5);
  EXPECT_EQ(Value(a_, k2), -1);
  EXPECT_EQ(Value(b_, k2), -1);
  // Their clients learn it at their next operation, even where A is still primary (it would
  // run without what came before), or at the commit.
  EXPECT_EQ(Value(a_, stays), -1);
  Insert(a_, KeyOn(kNodeA, 4), 4, 10, kWriter);
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{10, wire::kErTemporary}}));
  Send(a_, wire::OpType::kCommit, k1, 7, kLocker, {});
  Send(a_, wire::OpType::kCommit, k2, 8, kWriter, {});
  Pump();
  EXPECT_EQ(Results(a_),
            (std::map<uint64_t, uint16_t>{{7, wire::kErTemporary}, {8, wire::kErTemporary}}));
  EXPECT_EQ(Value(b_, k2), -1);
}

TEST_F(ReplicationTest, HandoverWaitEndsWhenTheFormerPrimaryFails) {
  SetStarted(true, false);
  RestartAndCopyB();
  const std::string key = KeyOn(kNodeB, 1);
  SetStartedOn(b_, true, true);
  Insert(b_, key, 3, 1);
  EXPECT_TRUE(Results(b_).empty());
  SetStartedOn(b_, false, true);  // A fails before it hands over
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{1, wire::kResultOk}}));
  EXPECT_EQ(Value(b_, key), 3);
}

TEST_F(ReplicationTest, PreparedTransactionOutlivesTheHandover) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeB;
  SetStarted(true, false);
  RestartAndCopyB();
  const std::string key = KeyOn(kNodeB, 1);
  Insert(a_, key, 7, 1, kTxn);
  Send(a_, wire::OpType::kPrepare, key, 2, kTxn, {}, kTc);
  Pump();
  EXPECT_EQ(Results(a_).size(), 2u);
  SetStarted(true, true);
  Pump();
  // The TC's commit reaches the new primary, which ends it on A too.
  Send(b_, wire::OpType::kCommit, key, 3, kTxn, {}, kTc);
  Pump();
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{3, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, key), 7);
  EXPECT_EQ(Value(b_, key), 7);
  Send(b_, wire::OpType::kWrite, key, 4, 0, {Row(key, 8)});
  Pump();
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{4, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, key), 8);
  SetStarted(true, false);  // B, the TC, fails: A knows the transaction committed, and no more
  EXPECT_EQ(TakeoverAnswer(a_, key, kTc), (std::vector<std::pair<uint64_t, bool>>{{kTxn, true}}));
}

TEST_F(ReplicationTest, CopyCarriesPreparedTransactions) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeA;
  SetStarted(true, false);
  const std::string key = KeyOn(kNodeB, 1);
  Insert(a_, key, 7, 1, kTxn);
  Send(a_, wire::OpType::kPrepare, key, 2, kTxn, {}, kTc);
  EXPECT_EQ(Results(a_).size(), 2u);
  RestartAndCopyB();
  SetStarted(true, true);
  Pump();
  SetStarted(false, true);  // A, its primary until now and its TC, fails
  EXPECT_EQ(TakeoverAnswer(b_, key, kTc), (std::vector<std::pair<uint64_t, bool>>{{kTxn, false}}))
      << "B must keep the prepared transaction for the node taking over";
  Send(b_, wire::OpType::kCommit, key, 3, kTxn, {}, kTc);
  EXPECT_EQ(Value(b_, key), 7);
}

TEST_F(ReplicationTest, PrepareNeedsWhatTheTransactionHeldInThatPartition) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeA;
  std::string in_q = KeyOn(kNodeA, 1);
  std::string in_p = in_q;
  for (int n = 2; PartitionOfKey(in_p) == PartitionOfKey(in_q); ++n) in_p = KeyOn(kNodeA, n);
  // It wrote in q; its writes in p were lost (rolled back when p's primary moved, say).
  Insert(a_, in_q, 1, 1, kTxn);
  Pump();
  Send(a_, wire::OpType::kPrepare, in_p, 2, kTxn, {}, kTc);
  Pump();
  EXPECT_EQ(Results(a_)[2], wire::kErTemporary);
  EXPECT_EQ(Value(b_, in_q), -1);

  // An operation that found nothing still makes the partition its: it may prepare there.
  constexpr uint64_t kTxn2 = 43;
  Send(a_, wire::OpType::kDelete, in_p, 3, kTxn2, {in_p});
  Insert(a_, in_q, 2, 4, kTxn2);
  Pump();
  EXPECT_EQ(Results(a_),
            (std::map<uint64_t, uint16_t>{{3, wire::kResultNotFound}, {4, wire::kResultOk}}));
  Send(a_, wire::OpType::kPrepare, in_p, 5, kTxn2, {}, kTc);
  Send(a_, wire::OpType::kPrepare, in_q, 6, kTxn2, {}, kTc);
  Pump();
  EXPECT_EQ(Results(a_),
            (std::map<uint64_t, uint16_t>{{5, wire::kResultOk}, {6, wire::kResultOk}}));
}

}  // namespace
}  // namespace shoal::node
