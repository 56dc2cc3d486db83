// The dictionary role: reads anywhere, DDL on the master, installs elsewhere; and the one
// blocking fetch of a dictionary at start-up.
#include "engine/node/plane/dictionary_role.h"

#include <poll.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/transport/tcp_channel.h"
#include "engine/wire/errors.h"

namespace shoal::node {

DictionaryRole::DictionaryRole(int node_id, MetricsRegistry* metrics, Dictionary* dictionary,
                               const NodeView* view, Connections* connections, Changed changed)
    : node_id_(node_id),
      dictionary_(dictionary),
      view_(view),
      connections_(connections),
      changed_(std::move(changed)),
      run_(absl::Uniform<uint64_t>(absl::BitGen())) {
  version_metric_ = metrics->GetGauge("shoal_datanode_dictionary_version",
                                      "Version of the dictionary held here.");
}

absl::Status DictionaryRole::Load(const std::optional<wire::Dictionary>& dictionary) {
  if (dictionary.has_value()) {
    DictionaryDelta delta;
    SHOAL_RETURN_IF_ERROR(dictionary_->Install(*dictionary, {}, &delta));
    changed_(delta);
  } else {
    dictionary_->BeginIncarnation(absl::Uniform<uint64_t>(absl::BitGen(), 1, ~uint64_t{0}));
    SHOAL_LOG(kInfo) << "no data node serves: starting with an empty dictionary (incarnation "
                     << absl::StrCat(absl::Hex(dictionary_->incarnation())) << ")";
  }
  return absl::OkStatus();
}

void DictionaryRole::HandleDict(Connection* conn, absl::string_view body) {
  wire::DictReq req;
  if (!req.ParseFromArray(body.data(), static_cast<int>(body.size()))) {
    connections_->Close(conn, "malformed dictionary request");
    return;
  }
  wire::DictConf conf;
  conf.set_tag(req.tag());
  switch (req.op_case()) {
    case wire::DictReq::kGetDictionary:
      dictionary_->ToProto(conf.mutable_dictionary());
      break;
    case wire::DictReq::kInstallDictionary: {
      // Only the dictionary master installs: a data node of the view, by its hello.
      if (!view_->IsStartedPeer(conn->hello_id)) {
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
      if (absl::Status status = dictionary_->Install(install.dictionary(), truncated, &delta);
          !status.ok()) {
        conf.set_error_code(wire::kErInternal);
        conf.set_error_message(absl::StrCat("Internal error: ", status.message()));
      } else {
        changed_(delta);
        connections_->AnnounceDictionary();
      }
      break;
    }
    case wire::DictReq::kAwaitAlter:
      if (!view_->IsMaster()) {
        conf.set_error_code(wire::kErTemporary);
        conf.set_error_message(
            wire::TemporaryError(wire::kNdbClusterFailure, "not the dictionary master"));
      } else if (EndOrphanedAlter(req.await_alter().table_id())) {
        // Still running: the client asks again (every 50 ms) until it ends or it gives up.
        conf.set_error_code(wire::kErTemporary);
        conf.set_error_message(
            wire::TemporaryError(wire::kNdbClusterFailure, "the table is being altered"));
      } else {
        dictionary_->ToProto(conf.mutable_dictionary());
      }
      break;
    case wire::DictReq::kReserveAutoIncrement:
    case wire::DictReq::kReadAutoIncrement:
      if (view_->IsMaster()) {
        if (req.has_read_auto_increment()) {
          dictionary_->ReadAutoIncrement(req.read_auto_increment(), &conf);
        } else {
          dictionary_->ReserveAutoIncrement(req.reserve_auto_increment(), &conf);
        }
      } else {
        conf.set_error_code(wire::kErTemporary);
        conf.set_error_message(
            wire::TemporaryError(wire::kNdbClusterFailure, "not the dictionary master"));
      }
      break;
    default:
      if (!view_->IsMaster()) {
        conf.set_error_code(wire::kErTemporary);
        conf.set_error_message(
            wire::TemporaryError(wire::kNdbClusterFailure, "not the dictionary master"));
        break;
      }
      ddl_queue_.Push(conn->id, std::move(req));
      StartNextDdl();
      return;
  }
  connections_->SendFrame(conn, wire::FrameType::kDictConf, conf);
}

void DictionaryRole::StartNextDdl() {
  while (DdlQueue::Ddl* ddl = ddl_queue_.Next()) {
    ddl->conf.set_tag(ddl->req.tag());
    DictionaryDelta delta;
    uint32_t before = dictionary_->version();
    dictionary_->Apply(ddl->req, &ddl->conf, &delta, DdlOwner{uint32_t(node_id_), ddl->conn, run_});
    if (ddl->conf.error_code() != 0 || dictionary_->version() == before) {
      FinishDdl();
      continue;
    }
    changed_(delta);
    connections_->AnnounceDictionary();
    for (const auto& node : view_->view().nodes()) {
      int id = static_cast<int>(node.node_id());
      if (node.type() != control::DATANODE || node.state() != control::STARTED || id == node_id_) {
        continue;
      }
      Connection* peer = connections_->PeerConnection(id);
      if (peer == nullptr) continue;
      SendDictionary(peer, delta.truncated);
      ddl->waiting_for.push_back(id);
    }
    if (ddl->waiting_for.empty()) {
      FinishDdl();
    } else {
      ddl_queue_.Wait();
    }
  }
}

bool DictionaryRole::EndOrphanedAlter(uint32_t table_id) {
  const wire::AlterLock* lock = dictionary_->AlterLockOf(table_id);
  if (lock == nullptr) return false;
  Connection* owner =
      lock->owner_node() == static_cast<uint32_t>(node_id_) && lock->owner_run() == run_
          ? connections_->Find(lock->owner_conn())
          : nullptr;
  if (owner != nullptr && !owner->dead) return true;
  TablePtr table = dictionary_->FindTable(table_id);
  if (table == nullptr || ending_alters_.contains(table_id)) return true;
  // Its client is gone (or the master changed since): nobody will finish this ALTER. Queued
  // like any DDL, answered to no connection.
  SHOAL_LOG(kWarning) << "ALTER TABLE of " << table->database << "." << table->name
                      << " abandoned by its client: the copy " << lock->temp_table()
                      << " is dropped";
  ending_alters_.insert(table_id);
  wire::DictReq end;
  end.mutable_finish_alter()->set_database(table->database);
  end.mutable_finish_alter()->set_name(table->name);
  end.mutable_finish_alter()->set_commit(false);
  ddl_queue_.Push(0, std::move(end));
  StartNextDdl();
  return true;
}

void DictionaryRole::SendDictionary(Connection* conn, absl::Span<const uint32_t> truncated) {
  wire::DictReq install;
  install.set_tag(dictionary_->version());
  dictionary_->ToProto(install.mutable_install_dictionary()->mutable_dictionary());
  for (uint32_t id : truncated) install.mutable_install_dictionary()->add_truncated_tables(id);
  connections_->SendFrame(conn, wire::FrameType::kDictReq, install);
}

void DictionaryRole::FinishDdl() {
  DdlQueue::Ddl ddl = ddl_queue_.Finish();
  if (ddl.req.has_finish_alter() && ddl.conn == 0) ending_alters_.clear();
  if (Connection* conn = connections_->Find(ddl.conn); conn != nullptr && !conn->dead) {
    connections_->SendFrame(conn, wire::FrameType::kDictConf, ddl.conf);
  }
}

void DictionaryRole::OnPeerConf(const Connection& conn, const wire::DictConf& conf) {
  if (conf.error_code() != 0) {
    SHOAL_LOG(kWarning) << "data node " << conn.data_node
                        << " could not install the dictionary: " << conf.error_message();
  }
  if (ddl_queue_.Confirm(conn.data_node)) {
    FinishDdl();
    StartNextDdl();
  }
}

void DictionaryRole::PeerGone(int node_id) {
  if (ddl_queue_.Confirm(node_id)) {
    FinishDdl();
    StartNextDdl();
  }
}

void DictionaryRole::PublishStats() { version_metric_->Set(dictionary_->version()); }

absl::StatusOr<wire::Dictionary> FetchDictionary(const std::string& host, int port,
                                                 absl::Duration timeout,
                                                 const tls::LinkContext* link_tls) {
  absl::Time deadline = absl::Now() + timeout;
  SHOAL_ASSIGN_OR_RETURN(std::unique_ptr<transport::Channel> channel,
                         transport::ConnectTcp(host, port, timeout, link_tls));
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
