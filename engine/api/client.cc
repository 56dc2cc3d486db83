// Operation definition, batching per data node, and result dispatch.
#include "engine/api/client.h"

#include <poll.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/api/client_state.h"
#include "engine/schema/row.h"
#include "engine/transport/shm_channel.h"
#include "engine/transport/tcp_channel.h"
#include "engine/wire/errors.h"
#include "engine/wire/messages.h"

namespace shoal::api {
namespace {

// MySQL's ER_GET_TEMPORARY_ERRMSG: the operation may succeed if retried.
using wire::kErTemporary;
constexpr absl::Duration kConnectTimeout = absl::Seconds(2);
constexpr absl::Duration kReconnectBackoff = absl::Milliseconds(200);
constexpr absl::Duration kLivenessInterval = absl::Milliseconds(100);
// How soon a dictionary request goes again when no master could be reached or the node asked
// was not the master (yet).
constexpr absl::Duration kDictionaryRetry = absl::Milliseconds(50);

// The end (wire::Commit or wire::Abort, from the client: no TC) of transaction `txn` in a
// partition it touched.
template <typename End>
End EndOf(uint64_t txn, const Transaction::Touch& touched) {
  End end;
  end.table_id = touched.table_id;
  end.table_version = touched.table_version;
  end.partition = touched.partition;
  end.txn = txn;
  return end;
}

}  // namespace

Client::Client(Cluster* cluster) : cluster_(cluster), topology_(cluster->topology()) {
  // Transaction ids name a transaction on every data node it reaches, and on their backups:
  // a random 31-bit prefix per client (bit 63 stays clear, data nodes' own ids set it) and a
  // 32-bit counter.
  uint32_t random[2] = {0, 0};
  if (getrandom(random, sizeof(random), 0) != sizeof(random)) {
    random[0] = static_cast<uint32_t>(absl::ToUnixNanos(absl::Now()) ^ getpid());
  }
  txn_prefix_ = (uint64_t{random[0]} & 0x7fffffff) << 32;
  next_txn_ = random[1];
}

Client::~Client() = default;

uint32_t Client::PartitionOf(const schema::TableDef& table, absl::string_view key) {
  return schema::KeyHash(table, key) % std::max<uint32_t>(1, table.partitions);
}

bool Client::KeyOfRow(const schema::TableDef& table, absl::string_view row, std::string* key) {
  return schema::KeyOfRow(table, 0, row, key);
}

Client::Link* Client::LinkTo(int node_id) {
  if (auto it = links_.find(node_id); it != links_.end()) return it->second.get();
  if (topology_ == nullptr) return nullptr;
  absl::Time now = absl::Now();
  if (auto it = reconnect_after_.find(node_id); it != reconnect_after_.end()) {
    // A node that just refused us is not asked again for every operation.
    if (now < it->second) return nullptr;
    reconnect_after_.erase(it);
  }
  const DataNodeInfo* node = topology_->Find(node_id);
  if (node == nullptr || node->port == 0) return nullptr;
  const Cluster::Options& options = cluster_->options();
  absl::StatusOr<std::unique_ptr<transport::Channel>> channel =
      options.use_shared_memory && !node->socket.empty() && node->host == options.local_host
          ? transport::ConnectShm(node->socket, kConnectTimeout)
          : transport::ConnectTcp(node->host, node->port, kConnectTimeout, options.link_tls);
  if (!channel.ok()) {
    reconnect_after_[node_id] = now + kReconnectBackoff;
    return nullptr;
  }
  auto link = std::make_unique<Link>();
  link->node = node_id;
  link->epoch = next_link_epoch_++;
  link->channel = std::move(*channel);
  wire::AppendHello(&link->out, wire::FrameType::kHelloReq, options.client_id);
  Link* raw = link.get();
  links_.emplace(node_id, std::move(link));
  return raw;
}

uint64_t Client::NewTag(Pending pending) {
  uint32_t slot;
  if (free_tags_.empty()) {
    slot = static_cast<uint32_t>(pending_.size());
    pending_.emplace_back();
  } else {
    slot = free_tags_.back();
    free_tags_.pop_back();
  }
  pending.generation = tag_generation_++;
  pending_[slot] = pending;
  ++in_flight_;
  return (uint64_t{pending.generation} << 32) | slot;
}

std::string Client::LostHolds(const Transaction& txn) const {
  for (const Transaction::Touch& t : txn.touched) {
    if (!t.holds) continue;
    auto link = links_.find(t.node);
    if (t.link_epoch == 0 || link == links_.end() || link->second->epoch != t.link_epoch) {
      return wire::TemporaryError(
          wire::kNdbNodeFailure,
          absl::StrCat("data node ", t.node, " lost: transaction rolled back"));
    }
    if (topology_ != nullptr && topology_->PrimaryOf(t.partition) != t.node) {
      return wire::TemporaryError(
          wire::kNdbNodeFailure,
          absl::StrCat("data node ", t.node, " is no longer the primary of partition ", t.partition,
                       ": transaction rolled back"));
    }
  }
  return {};
}

void Client::FailNow(Completion* done, uint16_t code, absl::string_view message) {
  Outcome outcome;
  outcome.code = code;
  outcome.message = message;
  done->Done(outcome);
}

wire::FrameBuilder* Client::OpenOp(int node, Link* link, uint32_t partition, Pending pending,
                                   uint64_t* tag) {
  pending.node = node;
  if (link == nullptr) {
    // Deliver the failure through the normal path so gathers and scans see it too.
    wire::Result result;
    result.code = kErTemporary;
    result.tag = NewTag(pending);
    std::string message =
        wire::TemporaryError(wire::kNdbClusterFailure,
                             node < 0 ? absl::StrCat("no data node serves partition ", partition)
                                      : absl::StrCat("data node ", node, " is not reachable"));
    result.sections[0] = message;
    result.section_count = 1;
    HandleResult(result);
    return nullptr;
  }
  *tag = NewTag(pending);
  wire::FrameBuilder& out = link->out;
  if (out.in_frame() && out.current_body_size() >= wire::kFrameSoftLimit) out.Finish();
  if (!out.in_frame()) out.Begin(wire::FrameType::kOpReq);
  return &out;
}

void Client::QueueRead(int node, wire::Read read, Pending pending) {
  Link* link = node < 0 ? nullptr : LinkTo(node);
  if (link == nullptr && pending.retry_read && RetryRead(node, read, pending)) return;
  wire::FrameBuilder* out = OpenOp(node, link, read.partition, pending, &read.tag);
  if (out == nullptr) return;
  size_t at = out->buffer()->size();
  read.Encode(out);
  if (pending.retry_read) {
    uint32_t slot = static_cast<uint32_t>(read.tag);
    if (retry_ops_.size() <= slot) retry_ops_.resize(pending_.size());
    retry_ops_[slot].assign(*out->buffer(), at, out->buffer()->size() - at);
  }
}

bool Client::RetryRead(int lost_node, const wire::Read& read, Pending pending) {
  RefreshTopology();
  int other = topology_ == nullptr ? -1 : topology_->OtherReplicaOf(read.partition, lost_node);
  if (other < 0 || LinkTo(other) == nullptr) return false;
  pending.retry_read = false;  // once
  QueueRead(other, read, pending);
  return true;
}

void Client::Address(const schema::TableDef& table, wire::OpType type, uint32_t partition, int node,
                     Transaction* txn, bool locks, wire::OpTarget* op) {
  op->table_id = table.id;
  op->table_version = table.version;
  op->partition = partition;
  if (txn != nullptr) {
    op->txn = txn->id;
    Link* link = node < 0 ? nullptr : LinkTo(node);
    bool reads = type == wire::OpType::kRead || type == wire::OpType::kReadUnique ||
                 type == wire::OpType::kScan;
    Transaction::Touch touch{node,      link == nullptr ? 0 : link->epoch,
                             table.id,  table.version,
                             partition, locks || !reads};
    if (node >= 0 && !absl::c_linear_search(txn->touched, touch)) txn->touched.push_back(touch);
  }
}

template <typename Message>
void Client::KeyOp(const schema::TableDef& table, Message op, Completion* done, Transaction* txn) {
  RefreshTopology();
  if (txn != nullptr) {
    if (std::string why = LostHolds(*txn); !why.empty()) return FailNow(done, kErTemporary, why);
  }
  constexpr bool kIsRead = std::is_same_v<Message, wire::Read>;
  bool locks = false;
  if constexpr (kIsRead) locks = op.lock_exclusive;
  int node = -1;
  if (topology_ != nullptr) {
    node = kIsRead && !locks && schema::ReadBackup(table)
               ? topology_->NearestReplicaOf(op.partition, cluster_->options().local_host)
               : topology_->PrimaryOf(op.partition);
  }
  Address(table, Message::kType, op.partition, node, txn, locks, &op);
  Pending pending;
  pending.kind = Pending::Kind::kKey;
  pending.done = done;
  if constexpr (kIsRead) {
    pending.retry_read = txn == nullptr && !locks;
    QueueRead(node, op, pending);
  } else {
    Queue(node, op, pending);
  }
}

void Client::Read(const schema::TableDef& table, absl::string_view key,
                  absl::Span<const uint16_t> columns, Completion* done, Transaction* txn,
                  Lock lock) {
  key_scratch_ = wire::EncodeColumns(columns);
  wire::Read op;
  op.partition = PartitionOf(table, key);
  op.lock_exclusive = Locks(lock);
  op.lock_wait = LockWaitOf(lock);
  op.key = key;
  op.columns = key_scratch_;
  KeyOp(table, op, done, txn);
}

void Client::Insert(const schema::TableDef& table, absl::string_view row, Completion* done,
                    Transaction* txn) {
  if (!KeyOfRow(table, row, &key_scratch_)) {
    FailNow(done, 1048, "Column in the primary key cannot be null or the row is malformed");
    return;
  }
  wire::Insert op;
  op.partition = PartitionOf(table, key_scratch_);
  op.row = row;
  KeyOp(table, op, done, txn);
}

void Client::Write(const schema::TableDef& table, absl::string_view row, Completion* done,
                   Transaction* txn) {
  if (!KeyOfRow(table, row, &key_scratch_)) {
    FailNow(done, 1048, "Column in the primary key cannot be null or the row is malformed");
    return;
  }
  wire::Write op;
  op.partition = PartitionOf(table, key_scratch_);
  op.row = row;
  KeyOp(table, op, done, txn);
}

void Client::Update(const schema::TableDef& table, absl::string_view key, absl::string_view program,
                    Completion* done, Transaction* txn, absl::string_view filter) {
  uint32_t partition = PartitionOf(table, key);
  if (filter.empty()) {
    wire::Update op;
    op.partition = partition;
    op.key = key;
    op.program = program;
    KeyOp(table, op, done, txn);
  } else {
    wire::UpdateIf op;
    op.partition = partition;
    op.key = key;
    op.filter = filter;
    op.program = program;
    KeyOp(table, op, done, txn);
  }
}

void Client::Delete(const schema::TableDef& table, absl::string_view key, Completion* done,
                    Transaction* txn, absl::string_view filter) {
  uint32_t partition = PartitionOf(table, key);
  if (filter.empty()) {
    wire::Delete op;
    op.partition = partition;
    op.key = key;
    KeyOp(table, op, done, txn);
  } else {
    wire::DeleteIf op;
    op.partition = partition;
    op.key = key;
    op.filter = filter;
    KeyOp(table, op, done, txn);
  }
}

void Client::ReadUnique(const schema::TableDef& table, int index, absl::string_view key,
                        absl::Span<const uint16_t> columns, Completion* done, Transaction* txn,
                        Lock lock) {
  RefreshTopology();
  if (txn != nullptr) {
    if (std::string why = LostHolds(*txn); !why.empty()) return FailNow(done, kErTemporary, why);
  }
  auto* gather = new Gather;
  gather->done = done;
  gather->remaining = static_cast<int>(table.partitions);
  std::string encoded = wire::EncodeColumns(columns);
  for (uint32_t p = 0; p < table.partitions; ++p) {
    int node = topology_ == nullptr ? -1 : topology_->PrimaryOf(p);
    wire::ReadUnique op;
    Address(table, wire::OpType::kReadUnique, p, node, txn, Locks(lock), &op);
    op.lock_exclusive = Locks(lock);
    op.lock_wait = LockWaitOf(lock);
    op.index = static_cast<uint16_t>(index);
    op.key = key;
    op.columns = encoded;
    Pending pending;
    pending.kind = Pending::Kind::kGather;
    pending.gather = gather;
    Queue(node, op, pending);
  }
}

Transaction Client::Begin() {
  Transaction txn;
  do {
    txn.id = txn_prefix_ | next_txn_++;
  } while (txn.id == 0);
  return txn;
}

void Client::Commit(Transaction* txn, Completion* done) {
  EndTransaction(txn, wire::OpType::kCommit, done);
}

void Client::Rollback(Transaction* txn, Completion* done) {
  EndTransaction(txn, wire::OpType::kAbort, done);
}

void Client::EndTransaction(Transaction* txn, wire::OpType type, Completion* done) {
  std::vector<Transaction::Touch> touched = std::move(txn->touched);
  txn->touched.clear();
  if (touched.empty()) {
    done->Done(Outcome{});
    return;
  }
  auto* gather = new Gather;
  gather->done = done;
  gather->code = wire::kResultOk;
  // A node whose connection was lost since the transaction touched it has rolled its part
  // back: the transaction cannot commit, so what remains is rolled back too.
  for (const Transaction::Touch& t : touched) {
    auto link = links_.find(t.node);
    if (t.link_epoch == 0 || link == links_.end() || link->second->epoch != t.link_epoch) {
      gather->code = kErTemporary;
      gather->message = wire::TemporaryError(
          wire::kNdbNodeFailure,
          absl::StrCat("data node ", t.node, " lost: transaction rolled back"));
      type = wire::OpType::kAbort;
    }
  }
  std::erase_if(touched, [this](const Transaction::Touch& t) {
    auto link = links_.find(t.node);
    return t.link_epoch == 0 || link == links_.end() || link->second->epoch != t.link_epoch;
  });
  if (type == wire::OpType::kCommit) {
    // What was read under locks on a primary of before may be stale.
    RefreshTopology();
    if (std::string why = LostHolds(Transaction{txn->id, touched}); !why.empty()) {
      gather->code = kErTemporary;
      gather->message = std::move(why);
      type = wire::OpType::kAbort;
    }
  }
  if (type == wire::OpType::kCommit && CommitThroughTc(*txn, touched, done)) {
    delete gather;
    return;
  }
  gather->remaining = static_cast<int>(touched.size());
  if (touched.empty()) {
    Outcome outcome;
    outcome.code = gather->code;
    outcome.message = gather->message;
    done->Done(outcome);
    delete gather;
    return;
  }
  for (const Transaction::Touch& t : touched) {
    Pending pending;
    pending.kind = Pending::Kind::kGather;
    pending.gather = gather;
    if (type == wire::OpType::kCommit) {
      Queue(t.node, EndOf<wire::Commit>(txn->id, t), pending);
    } else {
      Queue(t.node, EndOf<wire::Abort>(txn->id, t), pending);
    }
  }
}

bool Client::CommitThroughTc(const Transaction& txn, const std::vector<Transaction::Touch>& touched,
                             Completion* done) {
  std::string participants;
  std::vector<std::pair<uint32_t, uint32_t>> seen;
  for (const Transaction::Touch& t : touched) {
    std::pair<uint32_t, uint32_t> partition(t.table_id, t.partition);
    // Only partitions it holds something in take part; committed reads need no commit.
    if (!t.holds || absl::c_linear_search(seen, partition)) continue;
    seen.push_back(partition);
    wire::CommitTxn::AddParticipant(&participants, t.table_id, t.partition);
  }
  // One partition: its primary commits it on every replica by itself (no TC needed).
  if (seen.size() < 2) return false;
  RefreshTopology();
  wire::CommitTxn commit;
  commit.txn = txn.id;
  commit.participants = participants;
  const uint32_t first = seen.front().second;  // the TC is its primary's
  Pending pending;
  pending.kind = Pending::Kind::kKey;
  // A commit that fails leaves the TC's participants rolled back, but the transaction may
  // also hold locks on a node that was its primary when it ran and is no longer (the TC asks
  // the primaries of now): those are rolled back afterwards (prepared ones refuse).
  pending.done = new CleanupAfterFailedCommit(this, done, txn.id, touched);
  int node = topology_ == nullptr ? -1 : topology_->PrimaryOf(first);
  Link* link = node < 0 ? nullptr : LinkTo(node);
  if (wire::FrameBuilder* out = OpenOp(node, link, first, pending, &commit.tag)) {
    commit.Encode(out);
  }
  return true;
}

Client::CleanupAfterFailedCommit::CleanupAfterFailedCommit(Client* client, Completion* done,
                                                           uint64_t txn,
                                                           std::vector<Transaction::Touch> touched)
    : client_(client), done_(done), txn_(txn), touched_(std::move(touched)) {}

void Client::CleanupAfterFailedCommit::Done(const Outcome& outcome) {
  if (!outcome.ok()) {
    for (const Transaction::Touch& t : touched_) {
      Pending pending;
      pending.kind = Pending::Kind::kKey;
      pending.done = &client_->ignore_;
      client_->Queue(t.node, EndOf<wire::Abort>(txn_, t), pending);
    }
  }
  Completion* done = done_;
  delete this;
  done->Done(outcome);
}

void Client::Send() {
  std::vector<Link*> dead;
  for (auto& [node, link] : links_) {
    link->out.Finish();
    absl::string_view frames = link->out.finished();
    size_t sent = 0;
    while (sent < frames.size()) {
      absl::string_view frame = wire::FirstFrame(frames.substr(sent));
      if (!link->channel->TryWrite(frame)) break;  // full: Poll() sends the rest
      sent += frame.size();
    }
    if (sent > 0) {
      link->out.ConsumeFinished(sent);
      if (keep_alive_) link->last_sent = absl::Now();
    }
    if (sent > 0 || link->channel->HasPendingOutput()) {
      if (!link->channel->Flush().ok()) dead.push_back(link.get());
    }
  }
  for (Link* link : dead) CloseLink(link, "send failed");
}

void Client::KeepAlive(absl::Time now) {
  keep_alive_ = true;
  bool pinged = false;
  for (auto& [node, link] : links_) {
    if (now - link->last_sent < kKeepAliveInterval) continue;
    if (!link->out.in_frame()) link->out.Begin(wire::FrameType::kOpReq);
    wire::Ping{}.Encode(&link->out);
    pinged = true;
  }
  if (pinged) Send();
}

int Client::Poll(absl::Duration timeout) {
  absl::Time deadline = absl::InfiniteFuture();
  absl::Time spin_until = absl::InfinitePast();
  int ran_before = in_flight_;
  std::erase_if(scans_, [](const auto& s) { return s->finished && s->outstanding == 0; });
  int completed = 0;
  while (true) {
    if (!dict_requests_.empty()) ServiceDictionary(absl::Now());
    // Completions may define operations and so open links: walk a copy.
    std::vector<Link*> links;
    for (auto& [node, link] : links_) links.push_back(link.get());
    std::vector<Link*> dead;
    for (Link* link : links) {
      if (!link->channel->Receive().ok()) {
        dead.push_back(link);
        continue;
      }
      for (absl::string_view frame = link->channel->Peek(); !frame.empty();
           frame = link->channel->Peek()) {
        if (!HandleFrame(link, frame)) {
          dead.push_back(link);
          break;
        }
        link->channel->Consume();
      }
    }
    if (absl::Time now = absl::Now(); now >= next_liveness_check_) {
      // A shared-memory peer that died says nothing on its rings: ask each link now and then.
      next_liveness_check_ = now + kLivenessInterval;
      for (Link* link : links) {
        if (!absl::c_linear_search(dead, link) && !link->channel->CheckAlive().ok()) {
          dead.push_back(link);
        }
      }
    }
    for (Link* link : dead) CloseLink(link, "connection lost");
    completed = ran_before - in_flight_;
    bool output_waiting = false;
    for (auto& [node, link] : links_) output_waiting |= !link->out.empty();
    if (output_waiting) Send();
    if (completed > 0 || timeout <= absl::ZeroDuration()) break;
    absl::Time now = absl::Now();
    if (deadline == absl::InfiniteFuture()) {
      deadline = now + timeout;
      spin_until = now + std::min(timeout, cluster_->options().spin);
    }
    absl::Duration left = deadline - now;
    if (left <= absl::ZeroDuration()) break;
    if (links_.empty()) {
      // Nothing can answer; only a dictionary request waiting to go again is worth waiting for.
      absl::Time retry = NextDictionaryRetry();
      if (retry == absl::InfiniteFuture()) break;
      absl::SleepFor(std::min(left, std::max(absl::ZeroDuration(), retry - now)));
      continue;
    }
    if (now < spin_until) continue;
    // Sleep until a data node answers: announce it on every link, then wait on all of them.
    std::vector<pollfd> fds;
    bool may_sleep = true;
    for (auto& [node, link] : links_) {
      if (!link->channel->PrepareToSleep()) may_sleep = false;
      fds.push_back({link->channel->wait_fd(), POLLIN, 0});
    }
    if (may_sleep) {
      int ms = output_waiting ? 1 : static_cast<int>(absl::ToInt64Milliseconds(left) + 1);
      poll(fds.data(), fds.size(), std::min(ms, 100));
    }
    for (auto& [node, link] : links_) link->channel->WokeUp();
  }
  return completed;
}

bool Client::PrepareToSleep(std::vector<int>* fds) {
  fds->clear();
  bool may_sleep = !has_queued_output();
  for (auto& [node, link] : links_) {
    if (!link->channel->PrepareToSleep()) may_sleep = false;
    fds->push_back(link->channel->wait_fd());
  }
  return may_sleep;
}

void Client::WokeUp() {
  for (auto& [node, link] : links_) link->channel->WokeUp();
}

bool Client::has_queued_output() const {
  for (const auto& [node, link] : links_) {
    if (!link->out.empty() || link->channel->HasPendingOutput()) return true;
  }
  return false;
}

bool Client::HandleFrame(Link* link, absl::string_view frame) {
  wire::FrameHeader header;
  absl::string_view body;
  if (wire::DecodeFrame(frame, &header, &body) != wire::DecodeStatus::kOk) return false;
  seen_dictionary_version_ = std::max(seen_dictionary_version_, header.schema_version);
  switch (header.type) {
    case wire::FrameType::kOpConf:
      for (uint32_t i = 0; i < header.count; ++i) {
        wire::Result result;
        if (wire::DecodeResult(&body, &result) != wire::DecodeStatus::kOk) return false;
        HandleResult(result);
      }
      return true;
    case wire::FrameType::kDictConf: {
      wire::DictConf conf;
      if (!conf.ParseFromArray(body.data(), static_cast<int>(body.size()))) return false;
      if (conf.tag() == 0) {
        AcknowledgeNotice(link, header.schema_version);
        return true;
      }
      HandleDictConf(std::move(conf));
      return true;
    }
    case wire::FrameType::kHelloConf:
      (void)link;
      return true;
    default:
      return false;
  }
}

void Client::HandleResult(const wire::Result& result) {
  uint32_t slot = static_cast<uint32_t>(result.tag);
  if (slot >= pending_.size() || pending_[slot].kind == Pending::Kind::kFree ||
      pending_[slot].generation != static_cast<uint32_t>(result.tag >> 32)) {
    return;  // a late answer for something already failed
  }
  Pending pending = pending_[slot];
  pending_[slot].kind = Pending::Kind::kFree;
  free_tags_.push_back(slot);
  --in_flight_;
  absl::string_view first = result.section_count > 0 ? result.sections[0] : absl::string_view();
  switch (pending.kind) {
    case Pending::Kind::kKey: {
      Outcome outcome;
      outcome.code = result.code;
      if (result.code == wire::kResultOk) {
        outcome.unchanged = (result.flags & wire::kUnchanged) != 0;
        outcome.replaced = (result.flags & wire::kReplaced) != 0;
        outcome.row = first;
      } else {
        outcome.message = first;
      }
      pending.done->Done(outcome);
      return;
    }
    case Pending::Kind::kGather: {
      Gather* gather = pending.gather;
      if (result.code == wire::kResultOk) {
        if (gather->code != wire::kResultOk || gather->row.empty())
          gather->row = std::string(first);
        if (gather->code == wire::kResultNotFound) gather->code = wire::kResultOk;
      } else if (result.code != wire::kResultNotFound && gather->message.empty()) {
        gather->code = result.code;
        gather->message = std::string(first);
      }
      if (--gather->remaining == 0) {
        Outcome outcome;
        outcome.code = gather->code;
        outcome.row = gather->row;
        outcome.message = gather->message;
        gather->done->Done(outcome);
        delete gather;
      }
      return;
    }
    case Pending::Kind::kScan:
      OnScanBatch(pending.scan, pending.slot, result);
      return;
    case Pending::Kind::kFree:
      return;
  }
}

void Client::CloseLink(Link* link, absl::string_view why) {
  int node = link->node;
  std::string message =
      wire::TemporaryError(wire::kNdbNodeFailure, absl::StrCat("data node ", node, " lost: ", why));
  // Gone before any completion runs: one that retries must not queue on the dead link.
  links_.erase(node);
  RefreshTopology();
  // Dictionary requests it owed an answer go again (to whichever node is master by then).
  for (auto& [tag, request] : dict_requests_) {
    if (request->node != node) continue;
    request->node = -1;
    request->retry_at = absl::Now() + kDictionaryRetry;
  }
  std::vector<uint64_t> lost;
  for (uint32_t slot = 0; slot < pending_.size(); ++slot) {
    if (pending_[slot].kind == Pending::Kind::kFree || pending_[slot].node != node) continue;
    lost.push_back((uint64_t{pending_[slot].generation} << 32) | slot);
  }
  for (uint64_t tag : lost) {
    uint32_t slot = static_cast<uint32_t>(tag);
    if (pending_[slot].retry_read && pending_[slot].generation == (tag >> 32)) {
      std::string bytes = std::move(retry_ops_[slot]);
      Pending pending = pending_[slot];
      absl::string_view in = bytes;
      wire::Read read;
      if (wire::DecodeMessage(&in, &read) == wire::DecodeStatus::kOk) {
        pending_[slot].kind = Pending::Kind::kFree;
        free_tags_.push_back(slot);
        --in_flight_;
        if (RetryRead(node, read, pending)) continue;
        // No other replica: fail it as any other operation (under a new tag).
        pending.retry_read = false;
        pending.node = node;
        tag = NewTag(pending);
      }
    }
    wire::Result result;
    result.code = kErTemporary;
    result.tag = tag;
    result.sections[0] = message;
    result.section_count = 1;
    HandleResult(result);  // ignores a tag whose slot was reused meanwhile
  }
}

void Client::Dictionary(wire::DictReq request, DictionaryDone done, absl::Duration timeout) {
  absl::Time now = absl::Now();
  auto entry = std::make_unique<DictRequest>();
  uint64_t tag = next_dict_tag_++;
  entry->request = std::move(request);
  entry->request.set_tag(tag);
  entry->done = std::move(done);
  entry->deadline = now + timeout;
  DictRequest* raw = entry.get();
  dict_requests_.emplace(tag, std::move(entry));
  ++in_flight_;
  SendDictionary(raw, now);
}

void Client::RefreshDictionary(DictionaryDone done) {
  wire::DictReq request;
  request.mutable_get_dictionary();
  Dictionary(std::move(request), std::move(done));
}

void Client::SendDictionary(DictRequest* request, absl::Time now) {
  RefreshTopology();
  int master = topology_ == nullptr ? -1 : topology_->Master();
  Link* link = master < 0 ? nullptr : LinkTo(master);
  if (link == nullptr) {
    request->retry_at = now + kDictionaryRetry;
    return;
  }
  request->node = master;
  link->out.Finish();
  link->out.Begin(wire::FrameType::kDictReq);
  request->request.AppendToString(link->out.buffer());
  link->out.CountItem();
  link->out.Finish();
}

void Client::ServiceDictionary(absl::Time now) {
  // Callbacks may queue more requests: decide on the tags first, then act on each.
  std::vector<uint64_t> expired, due;
  for (const auto& [tag, request] : dict_requests_) {
    if (now >= request->deadline) {
      expired.push_back(tag);
    } else if (request->node < 0 && now >= request->retry_at) {
      due.push_back(tag);
    }
  }
  for (uint64_t tag : due) SendDictionary(dict_requests_[tag].get(), now);
  for (uint64_t tag : expired) {
    auto it = dict_requests_.find(tag);
    if (it == dict_requests_.end()) continue;
    std::unique_ptr<DictRequest> request = std::move(it->second);
    dict_requests_.erase(it);
    --in_flight_;
    request->done(absl::UnavailableError("no data node answered the dictionary request in time"));
  }
}

absl::Time Client::NextDictionaryRetry() const {
  absl::Time next = absl::InfiniteFuture();
  for (const auto& [tag, request] : dict_requests_) {
    if (request->node < 0) next = std::min(next, request->retry_at);
  }
  return next;
}

void Client::AcknowledgeNotice(Link* link, uint32_t version) {
  // seen_dictionary_version_ has the version already (HandleFrame): a statement that looks at
  // the dictionary from now on fetches it first (the router's RequireCurrentDictionary).
  wire::DictReq seen;
  seen.mutable_dictionary_seen()->set_version(version);
  link->out.Finish();
  link->out.Begin(wire::FrameType::kDictReq);
  seen.AppendToString(link->out.buffer());
  link->out.CountItem();
  link->out.Finish();
}

void Client::HandleDictConf(wire::DictConf conf) {
  auto it = dict_requests_.find(conf.tag());
  if (it == dict_requests_.end()) return;  // answered late, after its deadline
  if (conf.error_code() == kErTemporary) {
    // Not the master (yet): ask again.
    it->second->node = -1;
    it->second->retry_at = absl::Now() + kDictionaryRetry;
    return;
  }
  std::unique_ptr<DictRequest> request = std::move(it->second);
  dict_requests_.erase(it);
  --in_flight_;
  if (conf.has_dictionary()) {
    cluster_->SetDictionary(conf.dictionary());
    // A new incarnation starts its versions again: what frames said of the last one no
    // longer tells whether ours is behind.
    if (conf.dictionary().incarnation() != seen_incarnation_) {
      seen_incarnation_ = conf.dictionary().incarnation();
      seen_dictionary_version_ = conf.dictionary().version();
    }
  }
  request->done(std::move(conf));
}

}  // namespace shoal::api
