// The data plane's dictionary role: answers dictionary reads anywhere, runs DDL on the master
// one request at a time, and installs each new dictionary on every other started data node
// before confirming, so a client that saw its DDL succeed finds the table on every node.
#include <poll.h>
#include <sys/epoll.h>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/node/data_plane.h"
#include "engine/transport/tcp_channel.h"
#include "engine/wire/errors.h"

namespace shoal::node {
namespace {

// The temporary error a client retries on: MySQL's ER_GET_TEMPORARY_ERRMSG.

}  // namespace

bool DataPlane::IsMaster() {
  for (const auto& node : view_.nodes()) {
    if (node.type() == control::DATANODE && node.state() == control::STARTED &&
        static_cast<int>(node.node_id()) < options_.node_id) {
      return false;
    }
  }
  return true;
}

bool DataPlane::IsStartedPeer(uint32_t node_id) const {
  for (const auto& node : view_.nodes()) {
    if (node.type() == control::DATANODE && node.node_id() == node_id &&
        node.state() == control::STARTED && static_cast<int>(node_id) != options_.node_id) {
      return true;
    }
  }
  return false;
}

void DataPlane::HandleDict(Connection* conn, absl::string_view body) {
  wire::DictReq req;
  if (!req.ParseFromArray(body.data(), static_cast<int>(body.size()))) {
    Close(conn, "malformed dictionary request");
    return;
  }
  wire::DictConf conf;
  conf.set_tag(req.tag());
  switch (req.op_case()) {
    case wire::DictReq::kGetDictionary:
      dictionary_.ToProto(conf.mutable_dictionary());
      break;
    case wire::DictReq::kInstallDictionary: {
      // Only the dictionary master installs: a data node of the view, by its hello.
      if (!IsStartedPeer(conn->hello_id)) {
        conf.set_error_code(1227);
        conf.set_error_message(
            "Access denied; you need (at least one of) the data node privilege(s) for this "
            "operation");
        break;
      }
      DictionaryDelta delta;
      const wire::InstallDictionary& install = req.install_dictionary();
      std::vector<uint32_t> truncated(install.truncated_tables().begin(),
                                      install.truncated_tables().end());
      if (absl::Status status = dictionary_.Install(install.dictionary(), truncated, &delta);
          !status.ok()) {
        conf.set_error_code(wire::kErInternal);
        conf.set_error_message(absl::StrCat("Internal error: ", status.message()));
      } else {
        ApplyDelta(delta);
        ForwardDictionary(delta);
      }
      break;
    }
    case wire::DictReq::kReserveAutoIncrement:
      if (IsMaster()) {
        dictionary_.ReserveAutoIncrement(req.reserve_auto_increment(), &conf);
      } else {
        conf.set_error_code(wire::kErTemporary);
        conf.set_error_message(
            wire::TemporaryError(wire::kNdbClusterFailure, "not the dictionary master"));
      }
      break;
    default:
      if (!IsMaster()) {
        conf.set_error_code(wire::kErTemporary);
        conf.set_error_message(
            wire::TemporaryError(wire::kNdbClusterFailure, "not the dictionary master"));
        break;
      }
      ddl_queue_.push_back(PendingDdl{conn->id, std::move(req), {}, {}});
      StartNextDdl();
      return;
  }
  SendFrame(conn, wire::FrameType::kDictConf, conf);
}

void DataPlane::StartNextDdl() {
  while (!ddl_in_flight_ && !ddl_queue_.empty()) {
    PendingDdl& ddl = ddl_queue_.front();
    ddl.conf.set_tag(ddl.req.tag());
    DictionaryDelta delta;
    uint32_t before = dictionary_.version();
    dictionary_.Apply(ddl.req, &ddl.conf, &delta);
    if (ddl.conf.error_code() != 0 || dictionary_.version() == before) {
      FinishDdl();
      continue;
    }
    ApplyDelta(delta);
    ForwardDictionary(delta);
    for (const auto& node : view_.nodes()) {
      int id = static_cast<int>(node.node_id());
      if (node.type() != control::DATANODE || node.state() != control::STARTED ||
          id == options_.node_id) {
        continue;
      }
      Connection* peer = PeerConnection(id);
      if (peer == nullptr) continue;
      SendDictionary(peer, delta.truncated);
      ddl.waiting_for.push_back(id);
    }
    if (ddl.waiting_for.empty()) {
      FinishDdl();
    } else {
      ddl_in_flight_ = true;
    }
  }
}

void DataPlane::SendDictionary(Connection* conn, absl::Span<const uint32_t> truncated) {
  wire::DictReq install;
  install.set_tag(dictionary_.version());
  dictionary_.ToProto(install.mutable_install_dictionary()->mutable_dictionary());
  for (uint32_t id : truncated) install.mutable_install_dictionary()->add_truncated_tables(id);
  SendFrame(conn, wire::FrameType::kDictReq, install);
}

void DataPlane::ForwardDictionary(const DictionaryDelta& delta) {
  for (const auto& [node, since] : copy_targets_) {
    auto peer = peers_.find(node);
    if (Connection* conn = peer == peers_.end() ? nullptr : Find(peer->second);
        conn != nullptr && !conn->dead) {
      SendDictionary(conn, delta.truncated);
    }
  }
}

void DataPlane::FinishDdl() {
  PendingDdl ddl = std::move(ddl_queue_.front());
  ddl_queue_.pop_front();
  ddl_in_flight_ = false;
  if (Connection* conn = Find(ddl.conn); conn != nullptr && !conn->dead) {
    SendFrame(conn, wire::FrameType::kDictConf, ddl.conf);
  }
}

void DataPlane::OnPeerConf(Connection* conn, const wire::DictConf& conf) {
  if (conf.error_code() != 0) {
    SHOAL_LOG(kWarning) << "data node " << conn->data_node
                        << " could not install the dictionary: " << conf.error_message();
  }
  if (!ddl_in_flight_) return;
  std::erase(ddl_queue_.front().waiting_for, conn->data_node);
  if (ddl_queue_.front().waiting_for.empty()) {
    FinishDdl();
    StartNextDdl();
  }
}

void DataPlane::PeerGone(int node_id) {
  auto it = peers_.find(node_id);
  if (it == peers_.end()) return;
  uint32_t conn_id = it->second;
  peers_.erase(it);
  if (Connection* conn = Find(conn_id); conn != nullptr && !conn->dead) {
    Close(conn, "the data node left the cluster");
  }
  if (ddl_in_flight_) {
    std::erase(ddl_queue_.front().waiting_for, node_id);
    if (ddl_queue_.front().waiting_for.empty()) {
      FinishDdl();
      StartNextDdl();
    }
  }
}

DataPlane::Connection* DataPlane::PeerConnection(int node_id) {
  if (auto it = peers_.find(node_id); it != peers_.end()) {
    Connection* conn = Find(it->second);
    if (conn != nullptr && !conn->dead) return conn;
    peers_.erase(it);
  }
  if (lost_peers_.contains(node_id)) return nullptr;
  absl::Time now = absl::Now();
  if (auto it = unreachable_until_.find(node_id); it != unreachable_until_.end()) {
    if (now < it->second) return nullptr;
    unreachable_until_.erase(it);
  }
  for (const auto& node : view_.nodes()) {
    if (static_cast<int>(node.node_id()) != node_id || node.data_port() == 0) continue;
    // Once per peer and process: a short blocking connect keeps the peer links simple.
    absl::StatusOr<std::unique_ptr<transport::Channel>> channel =
        transport::ConnectTcp(node.host(), static_cast<int>(node.data_port()), absl::Seconds(2));
    if (!channel.ok()) {
      SHOAL_LOG(kWarning) << "cannot reach data node " << node_id << ": "
                          << channel.status().message();
      unreachable_until_[node_id] = now + absl::Milliseconds(200);
      if (IsStartedPeer(node_id)) PeerLost(node_id, channel.status().message());
      return nullptr;
    }
    auto conn = std::make_unique<Connection>();
    conn->id = next_connection_id_++;
    conn->channel = std::move(*channel);
    conn->is_peer = true;
    conn->data_node = node_id;
    wire::AppendHello(&conn->out, wire::FrameType::kHelloReq,
                      static_cast<uint32_t>(options_.node_id));
    epoll_event event = {};
    event.events = EPOLLIN;
    event.data.u64 = conn->id;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, conn->channel->wait_fd(), &event);
    Connection* raw = conn.get();
    peers_[node_id] = conn->id;
    connections_.emplace(conn->id, std::move(conn));
    return raw;
  }
  return nullptr;
}

absl::StatusOr<wire::Dictionary> FetchDictionary(const std::string& host, int port,
                                                 absl::Duration timeout) {
  absl::Time deadline = absl::Now() + timeout;
  SHOAL_ASSIGN_OR_RETURN(std::unique_ptr<transport::Channel> channel,
                         transport::ConnectTcp(host, port, timeout));
  wire::FrameBuilder out;
  wire::AppendHello(&out, wire::FrameType::kHelloReq, 0);
  wire::DictReq req;
  req.mutable_get_dictionary();
  out.Begin(wire::FrameType::kDictReq);
  req.AppendToString(out.buffer());
  out.CountItem();
  out.Finish();
  for (absl::string_view frames = out.finished(); !frames.empty();) {
    absl::string_view frame = wire::FirstFrame(frames);
    if (!channel->TryWrite(frame)) return absl::UnavailableError("cannot send to the data node");
    frames.remove_prefix(frame.size());
  }
  while (true) {
    SHOAL_RETURN_IF_ERROR(channel->Flush());
    SHOAL_RETURN_IF_ERROR(channel->Receive());
    for (absl::string_view frame = channel->Peek(); !frame.empty(); frame = channel->Peek()) {
      wire::FrameHeader header;
      absl::string_view body;
      if (wire::DecodeFrame(frame, &header, &body) != wire::DecodeStatus::kOk) {
        return absl::DataLossError("malformed frame from the data node");
      }
      if (header.type == wire::FrameType::kDictConf) {
        wire::DictConf conf;
        if (!conf.ParseFromArray(body.data(), static_cast<int>(body.size()))) {
          return absl::DataLossError("malformed dictionary from the data node");
        }
        return conf.dictionary();
      }
      channel->Consume();
    }
    absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) {
      return absl::DeadlineExceededError(
          absl::StrCat("no dictionary from ", host, ":", port, " in time"));
    }
    pollfd fd = {channel->wait_fd(), POLLIN, 0};
    poll(&fd, 1, static_cast<int>(std::min<int64_t>(100, absl::ToInt64Milliseconds(left) + 1)));
  }
}

}  // namespace shoal::node
