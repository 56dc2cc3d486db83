// The client's private bookkeeping, shared by client.cc (key operations) and client_scan.cc.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "engine/api/client.h"
#include "engine/schema/row.h"

namespace shoal::api {

struct Client::Link {
  int node = 0;
  uint64_t epoch = 0;  // which connection to the node this is (transactions live in one)
  std::unique_ptr<transport::Channel> channel;
  wire::FrameBuilder out;
  absl::Time last_sent;  // KeepAlive: when Send last handed it a frame
};

// Several answers that make one: a unique-key read asked of every partition, or a commit
// sent to every partition a transaction touched.
struct Gather {
  Completion* done = nullptr;
  int remaining = 0;
  uint16_t code = wire::kResultNotFound;
  std::string row;
  std::string message;
};

struct Client::Pending {
  enum class Kind : uint8_t { kFree, kKey, kGather, kScan };
  Kind kind = Kind::kFree;
  int node = 0;
  Completion* done = nullptr;
  Gather* gather = nullptr;
  ScanState* scan = nullptr;
  int slot = 0;  // scans: which partition
  uint32_t generation = 0;
  // A committed read without a transaction: if its data node is lost before it answers, the
  // read goes to another replica (Client::retry_ops_ keeps its bytes).
  bool retry_read = false;
};

struct Client::DictRequest {
  wire::DictReq request;  // its tag is the key in Client::dict_requests_
  DictionaryDone done;
  absl::Time deadline;
  int node = -1;  // the master it was sent to, awaiting the answer; -1 when not sent
  absl::Time retry_at = absl::InfinitePast();  // when not sent: when to try again
};

template <typename Message>
void Client::Queue(int node, Message op, const Pending& pending) {
  Link* link = node < 0 ? nullptr : LinkTo(node);
  if (wire::FrameBuilder* out = OpenOp(node, link, op.partition, pending, &op.tag)) op.Encode(out);
}

struct Client::ScanState {
  struct Part {
    uint32_t partition = 0;
    std::string resume;
    bool more = true;
    bool waiting = false;
    bool held = false;             // its next batch waits for ResumeScan (ScanReceiver::Paused)
    std::deque<std::string> rows;  // ordered scans: rows not yet merged
  };
  ScanRequest request;
  std::string range_list;  // request.ranges as the wire carries them (wire::kRangeList)
  ScanReceiver* receiver = nullptr;
  std::vector<Part> parts;
  std::vector<int> key_positions;  // ordered: where the index columns are in request.columns
  std::vector<schema::Field> a, b;
  uint64_t delivered = 0;
  int outstanding = 0;
  bool finished = false;
};

}  // namespace shoal::api
