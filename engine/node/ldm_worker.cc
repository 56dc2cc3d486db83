#include "engine/node/ldm_worker.h"

#include <poll.h>
#include <sched.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/wire/op.h"

namespace shoal::node {
namespace {

// Request record: int<1> kind | int<3> 0 | int<4> connection | int<4> count | payload.
// Result record:  int<4> connection | one kOpConf frame.
constexpr size_t kRequestHeader = 12;
constexpr absl::Duration kLockCheckInterval = absl::Milliseconds(5);
constexpr absl::Duration kIdleSleep = absl::Milliseconds(100);
constexpr absl::Duration kStatsInterval = absl::Milliseconds(100);

}  // namespace

LdmWorker::LdmWorker(std::unique_ptr<Ldm> ldm, int index, absl::Duration spin,
                     MetricsRegistry* metrics)
    : ldm_(std::move(ldm)), metrics_(metrics, index), spin_(spin) {}

absl::StatusOr<std::unique_ptr<LdmWorker>> LdmWorker::Start(std::unique_ptr<Ldm> ldm, int index,
                                                            absl::Duration spin,
                                                            MetricsRegistry* metrics,
                                                            size_t queue_bytes) {
  std::unique_ptr<LdmWorker> worker(new LdmWorker(std::move(ldm), index, spin, metrics));
  queue_bytes = std::max(queue_bytes, kMinQueueBytes);
  SHOAL_ASSIGN_OR_RETURN(worker->requests_, transport::InProcessQueue::Create(queue_bytes));
  SHOAL_ASSIGN_OR_RETURN(worker->results_, transport::InProcessQueue::Create(queue_bytes));
  LdmWorker* raw = worker.get();
  worker->thread_ = std::thread([raw, index] {
    std::string name = "ldm-" + std::to_string(index);
    pthread_setname_np(pthread_self(), name.c_str());
    raw->Run();
  });
  return worker;
}

LdmWorker::~LdmWorker() {
  stopping_.store(true, std::memory_order_relaxed);
  requests_->Flush();
  uint64_t one = 1;
  // The thread sleeps at most kIdleSleep; ringing its doorbell ends the wait at once.
  (void)!write(requests_->wait_fd(), &one, sizeof(one));
  if (thread_.joinable()) thread_.join();
  // Requests never taken may own a dictionary delta.
  for (absl::string_view record = requests_->Front(); !record.empty();
       record = requests_->Front()) {
    if (static_cast<Kind>(record[0]) == Kind::kDelta) {
      delete TakePointer<DictionaryDelta>(record);
    } else if (static_cast<Kind>(record[0]) == Kind::kGroup) {
      delete TakePointer<GroupView>(record);
    } else if (static_cast<Kind>(record[0]) == Kind::kCheckpoint) {
      delete TakePointer<std::shared_ptr<CheckpointPart>>(record);
    }
    requests_->Pop();
  }
}

bool LdmWorker::Push(Kind kind, uint32_t conn, uint32_t count, absl::string_view payload) {
  size_t size = kRequestHeader + payload.size();
  uint8_t* out = requests_->Reserve(size);
  if (out == nullptr) return false;
  uint8_t header[kRequestHeader] = {static_cast<uint8_t>(kind)};
  std::memcpy(header + 4, &conn, 4);
  std::memcpy(header + 8, &count, 4);
  std::memcpy(out, header, kRequestHeader);
  if (!payload.empty()) std::memcpy(out + kRequestHeader, payload.data(), payload.size());
  requests_->Commit(size);
  return true;
}

bool LdmWorker::PushOps(uint32_t conn, uint32_t count, absl::string_view ops) {
  return Push(Kind::kOps, conn, count, ops);
}

bool LdmWorker::PushConnectionClosed(uint32_t conn) { return Push(Kind::kClosed, conn, 0, {}); }

bool LdmWorker::PushDelta(const DictionaryDelta& delta) {
  return PushPointer(Kind::kDelta, new DictionaryDelta(delta));
}

bool LdmWorker::PushGroup(const GroupView& group) {
  return PushPointer(Kind::kGroup, new GroupView(group));
}

bool LdmWorker::PushStartCopy(int node, uint32_t conn, int ldm_count, uint64_t since_epoch) {
  char payload[12];
  const uint32_t count = static_cast<uint32_t>(ldm_count);
  std::memcpy(payload, &count, 4);
  std::memcpy(payload + 4, &since_epoch, 8);
  return Push(Kind::kCopy, conn, static_cast<uint32_t>(node),
              absl::string_view(payload, sizeof(payload)));
}

bool LdmWorker::PushStartCheckpoint(const std::shared_ptr<CheckpointPart>& part) {
  return PushPointer(Kind::kCheckpoint, new std::shared_ptr<CheckpointPart>(part));
}

template <typename T>
bool LdmWorker::PushPointer(Kind kind, T* owned) {
  if (Push(kind, 0, 1, absl::string_view(reinterpret_cast<const char*>(&owned), sizeof(owned)))) {
    return true;
  }
  delete owned;
  return false;
}

template <typename T>
T* LdmWorker::TakePointer(absl::string_view record) {
  T* owned;
  std::memcpy(&owned, record.data() + kRequestHeader, sizeof(owned));
  return owned;
}

bool LdmWorker::DrainResults(ReplySink* sink) {
  bool any = false;
  for (absl::string_view record = results_->Front(); !record.empty(); record = results_->Front()) {
    any = true;
    // Our own frame: read its header as written (its size may pass a client frame's limit
    // when one result is huge), then hand the results over one by one, so the connection's
    // frames keep within their limit.
    uint32_t conn = wire::GetU32(record.data());
    uint32_t count = wire::GetU32(record.data() + 4 + 8);
    absl::string_view body = record.substr(4 + wire::kFrameHeaderSize);
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t length = wire::GetU32(body.data());
      if (wire::FrameBuilder* out = sink->ReplyTo(conn); out != nullptr) {
        out->buffer()->append(body.data(), length);
        out->CountItem();
      }
      body.remove_prefix(length);
    }
    results_->Pop();
  }
  return any;
}

wire::FrameBuilder* LdmWorker::ReplyTo(uint32_t conn) {
  wire::FrameBuilder& out = replies_[conn];
  if (out.in_frame() && out.current_body_size() < wire::kFrameSoftLimit) return &out;
  out.Finish();
  out.Begin(wire::FrameType::kOpConf);
  return &out;
}

void LdmWorker::SendResults() {
  bool sent = false;
  for (auto& [conn, out] : replies_) {
    if (out.empty()) continue;
    out.Finish();
    absl::string_view frames = out.finished();
    while (!frames.empty()) {
      absl::string_view frame = wire::FirstFrame(frames);
      if (4 + frame.size() > results_->max_record_size()) {
        SHOAL_LOG(kError) << "dropping " << frame.size() << " bytes of results for connection "
                          << conn << ": larger than the results queue takes";
        frames.remove_prefix(frame.size());
        continue;
      }
      uint8_t* record;
      // Full: the data-plane thread is behind; it drains without ever waiting for us.
      while ((record = results_->Reserve(4 + frame.size())) == nullptr) {
        if (stopping_.load(std::memory_order_relaxed)) return;
        results_->Flush();
        sched_yield();
      }
      std::memcpy(record, &conn, 4);
      std::memcpy(record + 4, frame.data(), frame.size());
      results_->Commit(4 + frame.size());
      frames.remove_prefix(frame.size());
    }
    out.Clear();
    sent = true;
  }
  if (sent) results_->Flush();
}

void LdmWorker::Handle(absl::string_view record) {
  Kind kind = static_cast<Kind>(record[0]);
  uint32_t conn = wire::GetU32(record.data() + 4);
  uint32_t count = wire::GetU32(record.data() + 8);
  absl::string_view payload = record.substr(kRequestHeader);
  switch (kind) {
    case Kind::kOps:
      for (uint32_t i = 0; i < count; ++i) {
        wire::Op op;
        // The data-plane thread decoded these once already.
        SHOAL_CHECK(wire::DecodeOp(&payload, &op) == wire::DecodeStatus::kOk);
        ldm_->Execute(op, conn, this);
      }
      return;
    case Kind::kClosed:
      ldm_->ConnectionClosed(conn, this);
      replies_.erase(conn);
      return;
    case Kind::kDelta: {
      std::unique_ptr<DictionaryDelta> delta(TakePointer<DictionaryDelta>(record));
      ldm_->Apply(*delta);
      return;
    }
    case Kind::kGroup: {
      std::unique_ptr<GroupView> group(TakePointer<GroupView>(record));
      ldm_->SetGroup(*group, this);
      return;
    }
    case Kind::kCopy:
      ldm_->StartCopy(static_cast<int>(count), conn, static_cast<int>(wire::GetU32(payload.data())),
                      /*rows_per_step=*/4096, wire::GetU64(payload.data() + 4));
      return;
    case Kind::kCheckpoint: {
      std::unique_ptr<std::shared_ptr<CheckpointPart>> part(
          TakePointer<std::shared_ptr<CheckpointPart>>(record));
      ldm_->StartCheckpoint(std::move(*part), absl::Now());
      return;
    }
  }
}

void LdmWorker::Run() {
  absl::Time now = absl::Now();
  absl::Time busy_until = now;
  absl::Time last_lock_check = now;
  absl::Time last_stats = now;
  while (!stopping_.load(std::memory_order_relaxed)) {
    bool worked = false;
    for (int n = 0; n < 256; ++n) {
      absl::string_view record = requests_->Front();
      if (record.empty()) break;
      Handle(record);
      requests_->Pop();
      worked = true;
    }
    // A copy to a restarting node goes one partition per turn, between the operations; a
    // checkpoint one chunk, when its pace allows.
    worked |= ldm_->CopyStep(this);
    now = absl::Now();
    worked |= ldm_->CheckpointStep(now);
    if (ldm_->has_parked() && now - last_lock_check >= kLockCheckInterval) {
      last_lock_check = now;
      ldm_->ExpireLockWaits(now, this);
    }
    SendResults();
    if (now - last_stats >= kStatsInterval) {
      last_stats = now;
      rows_.store(static_cast<int64_t>(ldm_->row_count()), std::memory_order_relaxed);
      metrics_.Publish(*ldm_);
    }
    if (worked) {
      busy_until = now + spin_;
      continue;
    }
    if (now < busy_until || !requests_->PrepareToSleep()) continue;
    pollfd fd = {requests_->wait_fd(), POLLIN, 0};
    absl::Duration timeout =
        ldm_->has_parked() || ldm_->checkpointing() ? kLockCheckInterval : kIdleSleep;
    (void)poll(&fd, 1, static_cast<int>(absl::ToInt64Milliseconds(timeout)));
    requests_->WokeUp();
  }
}

}  // namespace shoal::node
