// The LDMs of a two-node group, with the network between them in the test's hands: messages
// are delivered only when the test pumps them, or dropped, so every step of a write, a commit,
// a node failure, a copy to a restarting node and a handover can be checked. The roles' tests
// (replication_test.cc, partition_copier_test.cc, participant_test.cc, handover_test.cc) use it.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/node/ldm/ldm.h"
#include "engine/node/node_test_util.h"
#include "engine/schema/row.h"
#include "engine/schema/schema.h"
#include "engine/storage/memory_budget.h"
#include "engine/wire/errors.h"
#include "gtest/gtest.h"

namespace shoal::node::ldm_test {

constexpr uint32_t kPartitions = 4;
constexpr uint32_t kClient = 7;  // the client's connection id on either node
constexpr int kNodeA = 2;        // primary of the even partitions
constexpr int kNodeB = 3;        // primary of the odd ones

// Connection ids as each node sees the other: node n's connection to node m is 100 + m.
inline uint32_t ConnTo(int node) { return 100 + static_cast<uint32_t>(node); }

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
    LdmDurability durability;
    durability.redo_healthy = &redo_healthy;
    durability.redo_error = [] { return std::string("write redo/r1: No space left on device"); };
    ldm = std::make_unique<Ldm>(PartitionPlacement{1, 2, 0, 1, 0}, budget, lock_wait_timeout,
                                std::move(durability));
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
  // As the node's redo writer would say it (false: a full disk); before `ldm`, which reads it.
  std::atomic<bool> redo_healthy{true};
  std::unique_ptr<Ldm> ldm;
  wire::FrameBuilder results;  // to the client

 private:
  Network* network_;
  std::map<uint32_t, wire::FrameBuilder> outbox_;
};

class TwoNodeGroupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    table_ = testing::KeyValueTable(kPartitions);
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
    if (type == wire::OpType::kCommit && sections.size() == 0) {
      // No epoch and no replicas done: a client's commit.
      wire::AppendOp(&frame, h, {absl::string_view(), absl::string_view()});
    } else if (type == wire::OpType::kPrepare && sections.size() == 0) {
      wire::AppendOp(&frame, h, {absl::string_view()});  // no replicas done
    } else {
      wire::AppendOp(&frame, h, sections);
    }
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

  // Client results of `node` since the last call: tag → (code, text: the error message).
  std::map<uint64_t, std::pair<uint16_t, std::string>> Answers(Node& node) {
    std::map<uint64_t, std::pair<uint16_t, std::string>> answers;
    node.results.Finish();
    absl::string_view frames = node.results.finished();
    while (!frames.empty()) {
      absl::string_view frame = wire::FirstFrame(frames);
      frames.remove_prefix(frame.size());
      absl::string_view body = frame.substr(wire::kFrameHeaderSize);
      while (!body.empty()) {
        wire::Result result;
        EXPECT_EQ(wire::DecodeResult(&body, &result), wire::DecodeStatus::kOk);
        answers[result.tag] = {result.code, result.section_count > 0
                                                ? std::string(result.sections[0])
                                                : std::string()};
      }
    }
    node.results.Clear();
    return answers;
  }
  // The same, codes only.
  std::map<uint64_t, uint16_t> Results(Node& node) {
    std::map<uint64_t, uint16_t> codes;
    for (const auto& [tag, answer] : Answers(node)) codes[tag] = answer.first;
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

}  // namespace shoal::node::ldm_test
