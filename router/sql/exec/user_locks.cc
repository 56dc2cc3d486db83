// GET_LOCK and its kin asked of the dictionary master, without holding up the worker.
#include "router/sql/exec/user_locks.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/client.h"
#include "protocol/sql_error.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql {
namespace {

// How often the locks a worker holds are told to the master again, in case its connection to
// the master broke and came back (the master then freed them).
constexpr absl::Duration kReassertInterval = absl::Seconds(1);
// How long one request waits for a master to answer (one is asked again and again while none
// serves, and a new master answers only after its grace period).
constexpr absl::Duration kAnswerTimeout = absl::Seconds(30);

wire::DictReq LockRequest(wire::UserLock::Op op, uint64_t session, const std::string& name) {
  wire::DictReq req;
  wire::UserLock* lock = req.mutable_user_lock();
  lock->set_op(op);
  lock->set_session(session);
  lock->set_name(name);
  return req;
}

// Sends `req`, whose answer nobody reads.
void SendUnanswered(DataAccess* data, wire::DictReq req) {
  data->client().Dictionary(std::move(req), [](absl::StatusOr<wire::DictConf>) {});
  data->Flush();
}

// Takes `count` acquisitions of `name` (every lock of the session when `name` is empty) off
// what the worker tells a new master its session holds.
void ForgetHeld(DataAccess* data, uint64_t session, const std::string& name, uint64_t count) {
  auto held = data->user_locks.by_session.find(session);
  if (held == data->user_locks.by_session.end()) return;
  if (!name.empty()) {
    auto lock = held->second.find(name);
    if (lock != held->second.end() && (lock->second -= std::min(count, lock->second)) == 0) {
      held->second.erase(lock);
    }
  }
  if (name.empty() || held->second.empty()) data->user_locks.by_session.erase(held);
}

// A statement waiting for the master's answer to one call, then running again with it.
class UserLockRun : public AsyncStatement {
 public:
  UserLockRun(const internal::ExecContext& ctx, UserLockRequest request)
      : AsyncStatement(ctx),
        request_(std::move(request)),
        session_(ctx.state->connection_id),
        may_retry_(ctx.may_retry),
        keep_warnings_(ctx.state->user_lock_calls.keep_warnings),
        deadline_(request_.timeout == absl::InfiniteDuration() ? absl::InfiniteFuture()
                                                               : absl::Now() + request_.timeout) {}

  void Start() {
    if (request_.op == UserLockOp::kGet && state()->process != nullptr) {
      state()->process->SetState("User lock");
    }
    Ask();
  }

 private:
  // Shared with the request in flight: the run may end before its answer comes (KILL QUERY).
  struct Link {
    UserLockRun* run;
  };

  wire::DictReq Request() const {
    switch (request_.op) {
      case UserLockOp::kGet: {
        wire::DictReq req = LockRequest(wire::UserLock::ACQUIRE, session_, request_.name);
        req.mutable_user_lock()->set_wait(deadline_ > absl::Now());
        return req;
      }
      case UserLockOp::kRelease:
        return LockRequest(wire::UserLock::RELEASE, session_, request_.name);
      case UserLockOp::kReleaseAll:
        return LockRequest(wire::UserLock::RELEASE_ALL, session_, "");
      case UserLockOp::kIsFree:
      case UserLockOp::kIsUsed:
        break;
    }
    return LockRequest(wire::UserLock::IS_USED, session_, request_.name);
  }

  void Ask() {
    // What a release gives back is no longer ours to tell a new master of, from now on.
    if (request_.op == UserLockOp::kRelease || request_.op == UserLockOp::kReleaseAll) {
      ForgetHeld(data(), session_, request_.op == UserLockOp::kRelease ? request_.name : "", 1);
    }
    link_ = std::make_shared<Link>(Link{this});
    DataAccess* data_access = data();
    data_access->client().Dictionary(
        Request(),
        [link = link_, data_access, session = session_, name = request_.name,
         get = request_.op == UserLockOp::kGet](absl::StatusOr<wire::DictConf> conf) {
          if (link->run != nullptr) return link->run->Answered(std::move(conf));
          // The statement ended without this answer: a lock granted now is nobody's.
          if (get && conf.ok() && conf->error_code() == 0 && conf->user_lock().value() == 1) {
            SendUnanswered(data_access, LockRequest(wire::UserLock::RELEASE, session, name));
          }
        },
        kAnswerTimeout);
    data_access->Flush();
    if (request_.op == UserLockOp::kGet) WatchForKill();
  }

  // While a GET_LOCK's request is out, a KILL QUERY still ends the statement at once.
  void WatchForKill() {
    std::weak_ptr<Link> weak = link_;
    data()->After(kUserLockPoll, [weak] {
      std::shared_ptr<Link> link = weak.lock();
      if (link == nullptr || link->run == nullptr) return;
      UserLockRun* run = link->run;
      if (run->link_ != link) return;  // an older request's watch
      if (run->Killed()) {
        link->run = nullptr;
        SendUnanswered(run->data(),
                       LockRequest(wire::UserLock::CANCEL, run->session_, run->request_.name));
        return run->Finish(mysql::Value{});
      }
      run->WatchForKill();
    });
  }

  bool Killed() const {
    return state() == nullptr || (state()->process != nullptr && state()->process->interrupted());
  }

  void Answered(absl::StatusOr<wire::DictConf> conf) {
    link_->run = nullptr;
    link_.reset();
    if (std::optional<mysql::SqlError> error = DictionaryAnswerError(conf)) {
      if (request_.op == UserLockOp::kGet && deadline_ > absl::Now()) {
        SendUnanswered(data(), LockRequest(wire::UserLock::CANCEL, session_, request_.name));
      }
      return Fail(*std::move(error));
    }
    const wire::UserLockAnswer& answer = conf->user_lock();
    switch (request_.op) {
      case UserLockOp::kGet:
        if (answer.value() == 1) {
          if (state() == nullptr) {  // orphaned: nobody holds it
            SendUnanswered(data(), LockRequest(wire::UserLock::RELEASE, session_, request_.name));
            return Deliver(OkResult{});
          }
          ++data()->user_locks.by_session[session_][request_.name];
          return Finish(int64_t{1});
        }
        return Busy();
      case UserLockOp::kRelease:
      case UserLockOp::kIsUsed:
        if (answer.is_null()) return Finish(mysql::Value{});
        return request_.op == UserLockOp::kRelease ? Finish(int64_t{answer.value()})
                                                   : Finish(static_cast<uint64_t>(answer.value()));
      case UserLockOp::kIsFree:
        return Finish(int64_t{answer.is_null() ? 1 : 0});
      case UserLockOp::kReleaseAll:
        return Finish(static_cast<uint64_t>(answer.value()));
    }
  }

  // GET_LOCK found its lock taken: 0 once its time is up, else it asks again shortly.
  void Busy() {
    if (Killed()) {
      SendUnanswered(data(), LockRequest(wire::UserLock::CANCEL, session_, request_.name));
      return Finish(mysql::Value{});
    }
    const absl::Duration left = deadline_ - absl::Now();
    if (left <= absl::ZeroDuration()) {
      if (request_.timeout > absl::ZeroDuration()) {
        SendUnanswered(data(), LockRequest(wire::UserLock::CANCEL, session_, request_.name));
      }
      return Finish(int64_t{0});
    }
    const bool waits = data()->After(std::min(left, kUserLockPoll), [this] {
      if (Killed()) {
        SendUnanswered(data(), LockRequest(wire::UserLock::CANCEL, session_, request_.name));
        return Finish(mysql::Value{});
      }
      Ask();
    });
    if (!waits) Finish(int64_t{0});  // no loop to wait on (tests)
  }

  void Fail(mysql::SqlError error) {
    if (state() != nullptr) state()->user_lock_calls.Reset();
    Deliver(std::move(error));
  }

  // The call's answer: the statement runs again with it (or, orphaned, ends).
  void Finish(mysql::Value answer) {
    SessionState* s = state();
    if (s == nullptr) return Deliver(OkResult{});
    if (s->process != nullptr) s->process->SetState("");
    s->user_lock_calls.answers.push_back(std::move(answer));
    s->user_lock_calls.wanted.reset();
    RunAgain(may_retry_, keep_warnings_);
  }

  UserLockRequest request_;
  uint64_t session_;
  bool may_retry_;
  size_t keep_warnings_;
  absl::Time deadline_;
  std::shared_ptr<Link> link_;  // of the request in flight
};

}  // namespace

StatementResult RunWithUserLocks(const internal::ExecContext& ctx,
                                 const std::function<StatementResult()>& run) {
  UserLockCalls& calls = ctx.state->user_lock_calls;
  // Only a statement of its own, which can run again from the start: not a subquery's.
  if (ctx.parent != nullptr || ctx.state->data == nullptr) return run();
  if (calls.answers.empty()) calls.keep_warnings = ctx.state->warnings.size();
  calls.next = 0;
  calls.allowed = true;
  StatementResult result = run();
  calls.allowed = false;
  if (!calls.wanted.has_value()) {
    calls.Reset();
    return result;
  }
  UserLockRequest request = *calls.wanted;
  auto* wait = new UserLockRun(ctx, std::move(request));
  wait->Start();
  return Deferred{};
}

void EndSessionUserLocks(DataAccess* data, uint64_t session) {
  if (data == nullptr || !data->user_locks.by_session.contains(session)) return;
  data->user_locks.by_session.erase(session);
  SendUnanswered(data, LockRequest(wire::UserLock::RELEASE_ALL, session, ""));
}

void MaintainUserLocks(DataAccess* data, int master, absl::Time now) {
  UserLockHolds& holds = data->user_locks;
  if (holds.by_session.empty() || master < 0) {
    holds.master = master;
    return;
  }
  if (master == holds.master && now < holds.next_reassert) return;
  holds.master = master;
  holds.next_reassert = now + kReassertInterval;
  wire::DictReq req;
  wire::UserLock* lock = req.mutable_user_lock();
  lock->set_op(wire::UserLock::REASSERT);
  for (const auto& [session, names] : holds.by_session) {
    for (const auto& [name, count] : names) {
      wire::HeldUserLock* held = lock->add_held();
      held->set_session(session);
      held->set_name(name);
      held->set_count(count);
    }
  }
  data->client().Dictionary(
      req,
      [data, req](absl::StatusOr<wire::DictConf> conf) {
        if (!conf.ok() || conf->error_code() != 0) return;
        // Taken by another session while the master did not know of ours: no longer ours.
        for (const std::string& lost : conf->user_lock().lost()) {
          for (const wire::HeldUserLock& held : req.user_lock().held()) {
            if (held.name() == lost) ForgetHeld(data, held.session(), lost, UINT64_MAX);
          }
        }
      },
      kAnswerTimeout);
  data->Flush();
}

}  // namespace shoal::sql
