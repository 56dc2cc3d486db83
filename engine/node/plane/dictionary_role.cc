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
namespace {

// How long a change of the accounts waits for the routers to say they saw it.
constexpr absl::Duration kRouterWait = absl::Seconds(2);
// How long a new master waits, before it grants user-level locks, for the routers to say which
// ones their sessions hold (they look for a new master every 100 ms: router/sql/exec/
// user_locks.h).
constexpr absl::Duration kUserLockGrace = absl::Seconds(2);

}  // namespace

DictionaryRole::DictionaryRole(int node_id, MetricsRegistry* metrics, Dictionary* dictionary,
                               const NodeView* view, Connections* connections, Changed changed,
                               CeilingsRaised ceilings_raised)
    : node_id_(node_id),
      dictionary_(dictionary),
      view_(view),
      connections_(connections),
      changed_(std::move(changed)),
      ceilings_raised_(std::move(ceilings_raised)),
      run_(absl::Uniform<uint64_t>(absl::BitGen())) {
  version_metric_ = metrics->GetGauge("shoal_datanode_dictionary_version",
                                      "Version of the dictionary held here.");
  raises_metric_ = metrics->GetCounter(
      "shoal_datanode_auto_increment_ceiling_raises_total",
      "AUTO_INCREMENT ceilings raised on the other data nodes by this node as master.");
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
    case wire::DictReq::kRaiseAutoIncrement:
      RaiseCeilings(conn, req);
      return;
    case wire::DictReq::kDictionarySeen:
      if (ddl_queue_.RouterSaw(conn->id, req.dictionary_seen().version())) {
        FinishDdl();
        StartNextDdl();
      }
      return;
    case wire::DictReq::kReserveAutoIncrement:
      if (view_->IsMaster()) {
        ReserveAutoIncrement(conn, req);
        return;
      }
      conf.set_error_code(wire::kErTemporary);
      conf.set_error_message(
          wire::TemporaryError(wire::kNdbClusterFailure, "not the dictionary master"));
      break;
    case wire::DictReq::kUserLock:
      if (!view_->IsMaster()) {
        conf.set_error_code(wire::kErTemporary);
        conf.set_error_message(
            wire::TemporaryError(wire::kNdbClusterFailure, "not the dictionary master"));
        break;
      }
      HandleUserLock(conn, req, &conf);
      if (req.user_lock().op() == wire::UserLock::CANCEL) return;
      break;
    case wire::DictReq::kReadAutoIncrement:
      if (view_->IsMaster()) {
        dictionary_->ReadAutoIncrement(req.read_auto_increment(), &conf);
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

void DictionaryRole::ReserveAutoIncrement(Connection* conn, const wire::DictReq& req) {
  wire::DictConf conf;
  conf.set_tag(req.tag());
  const uint32_t table_id = req.reserve_auto_increment().table_id();
  std::optional<wire::AutoIncrementCeiling> raised =
      dictionary_->ReserveAutoIncrement(req.reserve_auto_increment(), &conf);
  // Answered once every node has a ceiling above the range on disk: the raise this made, or
  // the latest one of the table still in flight (whose ceiling the range lies under).
  uint64_t wait_for = raises_.Unconfirmed(table_id);
  if (raised.has_value()) {
    wire::RaiseAutoIncrement raise;
    *raise.add_ceilings() = *raised;
    wait_for = SendRaise(table_id, raise);
  }
  if (conf.error_code() == 0 && wait_for != 0 && raises_.Hold(wait_for, conn->id, &conf)) return;
  connections_->SendFrame(conn, wire::FrameType::kDictConf, conf);
}

uint64_t DictionaryRole::SaveCeilings() {
  const uint64_t save = ++saves_;
  ceilings_raised_([saved = saved_, connections = connections_, save] {
    saved->store(save, std::memory_order_release);
    connections->Wake();
  });
  return save;
}

uint64_t DictionaryRole::SendRaise(uint32_t table_id, const wire::RaiseAutoIncrement& raise) {
  raises_metric_->Increment();
  std::vector<Connection*> peers;
  std::vector<int> waiting_for = {node_id_};  // our own disk too
  for (const auto& node : view_->view().nodes()) {
    const int id = static_cast<int>(node.node_id());
    if (node.type() != control::DATANODE || node.state() != control::STARTED || id == node_id_) {
      continue;
    }
    if (Connection* peer = connections_->PeerConnection(id); peer != nullptr) {
      peers.push_back(peer);
      waiting_for.push_back(id);
    }
  }
  wire::DictReq req;
  req.set_tag(raises_.Start(table_id, std::move(waiting_for)));
  *req.mutable_raise_auto_increment() = raise;
  after_save_.push_back(AfterSave{SaveCeilings(), req.tag(), 0});
  for (Connection* peer : peers) connections_->SendFrame(peer, wire::FrameType::kDictReq, req);
  return req.tag();
}

void DictionaryRole::RaiseCeilings(Connection* conn, const wire::DictReq& req) {
  // From any data node: a ceiling only ever goes up, and one raised too far costs a gap in
  // the values only, where one refused could cost a value handed out twice.
  if (!view_->IsDataNode(conn->hello_id)) {
    wire::DictConf conf;
    conf.set_tag(req.tag());
    conf.set_error_code(1227);
    conf.set_error_message(
        "Access denied; you need (at least one of) the data node privilege(s) for this "
        "operation");
    connections_->SendFrame(conn, wire::FrameType::kDictConf, conf);
    return;
  }
  dictionary_->RaiseCeilings(req.raise_auto_increment());
  // Confirmed once on our disk: a system restart must not bring back a ceiling below values
  // the routers still hold.
  after_save_.push_back(AfterSave{SaveCeilings(), req.tag(), conn->id});
}

void DictionaryRole::HandleUserLock(Connection* conn, const wire::DictReq& req,
                                    wire::DictConf* conf) {
  const wire::UserLock& lock = req.user_lock();
  const UserLockTable::Holder who{conn->id, lock.session()};
  wire::UserLockAnswer* answer = conf->mutable_user_lock();
  const absl::Time now = absl::Now();
  switch (lock.op()) {
    case wire::UserLock::ACQUIRE:
      if (now < user_lock_grace_) {
        // A router may still hold it from the last master: it has not said so yet.
        conf->set_error_code(wire::kErTemporary);
        conf->set_error_message(wire::TemporaryError(
            wire::kNdbClusterFailure, "user-level locks are being taken over by a new master"));
        return;
      }
      switch (user_locks_.Acquire(lock.name(), who, lock.wait(), now)) {
        case UserLockTable::Acquired::kGranted:
          answer->set_value(1);
          break;
        case UserLockTable::Acquired::kBusy:
          answer->set_value(0);
          break;
        case UserLockTable::Acquired::kDeadlock:
          conf->set_error_code(3058);
          conf->set_error_message(
              "Deadlock found when trying to get user-level lock; try rolling back "
              "transaction/releasing locks and restarting lock acquisition.");
          break;
      }
      return;
    case wire::UserLock::RELEASE:
      if (std::optional<bool> released = user_locks_.Release(lock.name(), who)) {
        answer->set_value(*released ? 1 : 0);
      } else {
        answer->set_is_null(true);
      }
      return;
    case wire::UserLock::RELEASE_ALL:
      answer->set_value(static_cast<int64_t>(user_locks_.ReleaseAll(who)));
      return;
    case wire::UserLock::IS_USED:
      if (now < user_lock_grace_) {
        conf->set_error_code(wire::kErTemporary);
        conf->set_error_message(wire::TemporaryError(
            wire::kNdbClusterFailure, "user-level locks are being taken over by a new master"));
        return;
      }
      if (std::optional<uint64_t> holder = user_locks_.HolderOf(lock.name())) {
        answer->set_value(static_cast<int64_t>(*holder));
      } else {
        answer->set_is_null(true);
      }
      return;
    case wire::UserLock::CANCEL:
      user_locks_.Cancel(lock.name(), who);
      return;
    case wire::UserLock::REASSERT:
      for (const wire::HeldUserLock& held : lock.held()) {
        if (!user_locks_.Reassert(held.name(), {conn->id, held.session()}, held.count())) {
          SHOAL_LOG(kWarning) << "user-level lock '" << held.name() << "' of session "
                              << held.session() << " was taken by another session meanwhile";
          answer->add_lost(held.name());
        }
      }
      return;
    default:
      conf->set_error_code(wire::kErInternal);
      conf->set_error_message("Internal error: unknown user-level lock request");
      return;
  }
}

void DictionaryRole::ClientGone(uint32_t conn) {
  user_locks_.ConnectionGone(conn);
  if (ddl_queue_.RouterSaw(conn, UINT32_MAX)) {
    FinishDdl();
    StartNextDdl();
  }
}

void DictionaryRole::Tick() {
  if (ddl_queue_.in_flight()) {
    if (size_t unseen = ddl_queue_.ExpireRouters(absl::Now()); unseen > 0) {
      SHOAL_LOG(kWarning) << "a change of the accounts is confirmed without " << unseen
                          << " router connection(s) saying they saw it in "
                          << absl::FormatDuration(kRouterWait);
      if (ddl_queue_.waits_for_nobody()) {
        FinishDdl();
        StartNextDdl();
      }
    }
  }
  const uint64_t saved = saved_->load(std::memory_order_acquire);
  while (!after_save_.empty() && after_save_.front().save <= saved) {
    const AfterSave done = after_save_.front();
    after_save_.pop_front();
    if (done.conn == 0) {
      Answer(raises_.Confirm(node_id_, done.raise));
      continue;
    }
    if (Connection* conn = connections_->Find(done.conn); conn != nullptr && !conn->dead) {
      wire::DictConf conf;
      conf.set_tag(done.raise);
      conf.set_ceilings_raised(true);
      connections_->SendFrame(conn, wire::FrameType::kDictConf, conf);
    }
  }
}

void DictionaryRole::Answer(std::vector<CeilingRaises::Held> held) {
  for (CeilingRaises::Held& h : held) {
    if (Connection* conn = connections_->Find(h.conn); conn != nullptr && !conn->dead) {
      connections_->SendFrame(conn, wire::FrameType::kDictConf, h.conf);
    }
  }
}

void DictionaryRole::OnView() {
  absl::flat_hash_set<int> serving;
  for (const auto& node : view_->view().nodes()) {
    const int id = static_cast<int>(node.node_id());
    if (node.type() == control::DATANODE && node.state() == control::STARTED && id != node_id_) {
      serving.insert(id);
    }
  }
  const bool master = view_->IsMaster();
  if (master && !was_master_) {
    user_lock_grace_ = absl::Now() + kUserLockGrace;
    SHOAL_LOG(kInfo) << "dictionary master: granting user-level locks in "
                     << absl::FormatDuration(kUserLockGrace)
                     << ", once the routers have said which ones they hold";
  }
  if (!master && was_master_) user_locks_ = UserLockTable();
  was_master_ = master;
  if (master) {
    for (int id : serving) {
      if (serving_peers_.contains(id)) continue;
      Connection* peer = connections_->PeerConnection(id);
      if (peer == nullptr) continue;
      wire::DictReq req;
      dictionary_->Ceilings(req.mutable_raise_auto_increment());
      connections_->SendFrame(peer, wire::FrameType::kDictReq, req);
    }
  }
  serving_peers_ = std::move(serving);
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
    std::vector<uint32_t> routers = connections_->AnnounceDictionary();
    if (ddl->req.has_set_access_control()) {
      // A GRANT or REVOKE is confirmed once every router says its next statement uses it (or
      // after kRouterWait, for a router that cannot say so: stopped, or starved of the CPU).
      ddl->routers = std::move(routers);
      ddl->version = dictionary_->version();
      ddl->routers_deadline = absl::Now() + kRouterWait;
    }
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
    if (ddl->waiting_for.empty() && ddl->routers.empty()) {
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
  if (conf.ceilings_raised()) {
    Answer(raises_.Confirm(conn.data_node, conf.tag()));
    return;
  }
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
  Answer(raises_.Confirm(node_id, CeilingRaises::kEveryRaise));
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
