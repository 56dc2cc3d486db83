// Session: start-up, packet framing and authentication. Commands are in commands.cc.
#include "router/session/session.h"

#include <algorithm>
#include <array>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "protocol/access_errors.h"
#include "protocol/auth.h"
#include "protocol/codec.h"
#include "protocol/sha2_crypt.h"
#include "router/access/accounts.h"
#include "router/access/resource_limits.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/privilege_check.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/user_locks.h"
#include "router/sql/parse/redact.h"

namespace shoal::router {
namespace {

using mysql::DecodeStatus;

// ER_HANDSHAKE_ERROR, as mysqld answers a handshake it cannot read.
mysql::SqlError BadHandshake() { return {1043, "08S01", "Bad handshake"}; }

// A stored hash into its digest; an empty one stays as it is (the account has none of that
// kind). False for one of the wrong size.
template <size_t N>
bool CopyDigest(const std::string& bytes, std::array<uint8_t, N>* out) {
  if (bytes.empty()) return true;
  if (bytes.size() != N) return false;
  std::copy(bytes.begin(), bytes.end(), out->begin());
  return true;
}

}  // namespace

Session::Session(const RouterContext* context, uint32_t connection_id, std::string peer_host,
                 sql::DataAccess* data, absl::AnyInvocable<void()> answered,
                 absl::AnyInvocable<void()> kill)
    : context_(context),
      connection_id_(connection_id),
      peer_host_(std::move(peer_host)),
      decoder_(context->max_allowed_packet),
      answered_(std::move(answered)),
      commands_(context->metrics->GetCounter("shoal_router_commands_total",
                                             "MySQL protocol commands received.")),
      logins_failed_(context->metrics->GetCounter("shoal_router_logins_failed_total",
                                                  "Logins refused with ER_ACCESS_DENIED_ERROR.")),
      full_authentications_(context->metrics->GetCounter(
          "shoal_router_full_authentications_total",
          "caching_sha2_password logins that sent the password itself (an account known by its "
          "stored form, once per router)")),
      process_(context->server.processes.get(), connection_id, peer_host_, std::move(kill)) {
  sql_.server = &context->server;
  sql_.process = &process_;
  sql_.connection_id = connection_id;
  sql_.host = peer_host_;
  sql_.data = data;
  sql_.sink = this;
}

Session::~Session() {
  // MySQL's user-level locks end with the session.
  sql::EndSessionUserLocks(sql_.data, sql_.connection_id);
  // A transaction left open is rolled back: by the statement still running, once it is done,
  // or now.
  if (sql_.in_flight != nullptr) {
    sql::LocalInfile* infile = sql_.local_infile;
    sql_.in_flight->Orphan(std::move(sql_.txn));
    if (infile != nullptr) infile->Abandon();  // its file will not come: may free it now
  } else {
    sql::RollbackInBackground(sql_.data, std::move(sql_.txn));
  }
}

std::string Session::TooManyConnectionsPacket() {
  mysql::SqlError error = mysql::errors::TooManyConnections();
  mysql::server::Err err{error.code, error.sqlstate, error.message};
  std::string out;
  uint8_t seq = 0;
  mysql::EncodePacket(err, mysql::capability::kProtocol41, &seq, &out);
  return out;
}

void Session::Start() {
  absl::BitGen random;
  scramble_ = mysql::GenerateScramble([&random] { return absl::Uniform<uint32_t>(random); });
  mysql::server::Greeting greeting;
  greeting.server_version = context_->server.version;
  greeting.connection_id = connection_id_;
  greeting.auth_plugin_data = scramble_;
  greeting.charset = mysql::charset::kUtf8mb4_0900AiCi;
  greeting.status_flags = mysql::status::kAutocommit;
  if (context_->tls != nullptr) greeting.capabilities |= mysql::capability::kSsl;
  seq_ = 0;
  mysql::EncodePacket(greeting, mysql::kServerCapabilities, &seq_, &out_);
  decoder_.set_expected_seq(seq_);
}

Session::Step Session::OnInput(absl::Span<const uint8_t> in, size_t* consumed) {
  std::string* out = &out_;
  *consumed = 0;
  while (state_ != State::kClosing && (!waiting() || awaiting_ == Awaiting::kLocalInfile)) {
    if (awaiting_ == Awaiting::kLocalInfile && !sql_.local_infile->WantsData()) {
      infile_paused_ = true;  // backpressure: the rest stays in the connection's buffer
      return Step::kWait;
    }
    size_t used = 0;
    absl::Span<const uint8_t> payload;
    DecodeStatus status = decoder_.Next(in.subspan(*consumed), &used, &payload);
    if (status == DecodeStatus::kNeedMore) {
      *consumed += used;
      return Step::kRead;
    }
    if (status == DecodeStatus::kTooLarge) {
      // The oversized packet's id was not consumed: the error follows it.
      seq_ = static_cast<uint8_t>(decoder_.expected_seq() + 1);
      SendError(mysql::errors::PacketTooLarge(), out);
      state_ = State::kClosing;
      return Step::kClose;
    }
    if (status != DecodeStatus::kOk) {
      SHOAL_LOG(kDebug) << "connection " << connection_id_ << ": malformed packet framing";
      state_ = State::kClosing;
      return Step::kClose;
    }
    seq_ = decoder_.expected_seq();
    if (awaiting_ == Awaiting::kLocalInfile) {
      OnFilePacket(payload, out);
      *consumed += used;
      NoteCommandEnd();
      // The file's packets carry on the sequence; the command after it starts again at 0.
      if (awaiting_ != Awaiting::kLocalInfile) decoder_.ResetSequence();
      continue;
    }
    // The payload may point into `in`: handle it before its bytes are counted as consumed.
    Action action = OnPacket(payload, out);
    *consumed += used;
    NoteCommandEnd();
    // A command's exchange ends with our reply: the next command starts again at 0. During
    // authentication the sequence carries on. (Not reset before reading: a payload longer
    // than 16 MiB arrives over several calls, and its joined chunks must survive them.)
    if (awaiting_ == Awaiting::kLocalInfile) {
      decoder_.set_expected_seq(seq_);  // the client's file follows our request
    } else if (state_ == State::kCommand) {
      decoder_.ResetSequence();
    } else {
      decoder_.set_expected_seq(seq_);
    }
    if (action == Action::kClose) state_ = State::kClosing;
    // The bytes after an SSLRequest are TLS: the connection decrypts them before they come back.
    if (action == Action::kStartTls) return Step::kStartTls;
  }
  if (state_ == State::kClosing) return Step::kClose;
  return waiting() ? Step::kWait : Step::kRead;
}

Session::Action Session::OnPacket(absl::Span<const uint8_t> payload, std::string* out) {
  switch (state_) {
    case State::kGreeting:
      return OnHandshakeResponse(payload, out);
    case State::kAuthSwitch:
      return OnAuthSwitchResponse(payload, out);
    case State::kFullAuth:
      return OnFullAuthPacket(payload, out);
    case State::kCommand: {
      commands_->Increment();
      sql_.dictionary_fetched = sql::DictionaryFetched::kNo;
      sql_.auto_increment_read = nullptr;
      Action action = OnCommand(payload, out);
      if (sql_.wanted != nullptr) AwaitDictionary(payload);
      return action;
    }
    case State::kClosing:
      break;
  }
  return Action::kClose;
}

void Session::TlsEstablished(access::ClientTransport tls) {
  sql_.ssl_version = tls.version;
  sql_.ssl_cipher = tls.cipher;
  tls_ = std::move(tls);
}

Session::Action Session::OnSslRequest(std::string* out) {
  if (context_->tls == nullptr || tls_requested_) {
    SendError(BadHandshake(), out);
    return Action::kClose;
  }
  tls_requested_ = true;
  return Action::kStartTls;
}

Session::Action Session::OnHandshakeResponse(absl::Span<const uint8_t> payload, std::string* out) {
  if (mysql::IsSslRequest(payload)) return OnSslRequest(out);
  mysql::client::HandshakeResponse41 response;
  if (mysql::Decode(payload, mysql::kServerCapabilities, &response) != DecodeStatus::kOk ||
      (response.capabilities & mysql::capability::kProtocol41) == 0) {
    SendError(BadHandshake(), out);
    return Action::kClose;
  }
  if (tls_requested_ != tls_.tls) {  // TLS was asked for and not set up: never in the clear
    SendError(BadHandshake(), out);
    return Action::kClose;
  }
  if (transport_ == Transport::kTcp && !tls_.tls &&
      context_->server.require_secure_transport->load(std::memory_order_relaxed)) {
    SendError(mysql::errors::SecureTransportRequired(), out);
    return Action::kClose;
  }
  caps_ = response.capabilities & mysql::kServerCapabilities;
  user_ = std::string(response.username);
  requested_database_ = std::string(response.database);
  client_collation_ = response.charset;
  absl::string_view plugin = response.auth_plugin_name;
  if ((caps_ & mysql::capability::kPluginAuth) == 0 || plugin.empty()) {
    plugin = mysql::kNativePasswordPlugin;
  }
  return Authenticate(plugin, response.auth_response, out);
}

Session::Action Session::Authenticate(absl::string_view plugin, absl::string_view response,
                                      std::string* out) {
  switched_to_.clear();
  return CheckLogin(plugin, response, /*refreshed=*/false, out);
}

std::optional<std::string> Session::PluginToSwitchTo(const wire::Account* account,
                                                     absl::string_view plugin,
                                                     absl::string_view response) const {
  bool known_plugin =
      plugin == mysql::kCachingSha2PasswordPlugin || plugin == mysql::kNativePasswordPlugin;
  // libmysqlclient 8 opens caching_sha2_password with an empty response whatever the server
  // offered, and its plugin then expects a scramble, not a verdict: switch it to the plugin we
  // offered, as mysqld does (for every account, unknown ones included). An account whose
  // password came as one plugin's hash alone (IDENTIFIED … AS '*…' or AS '$A$005$…') is
  // checked by that plugin.
  bool empty_sha2_probe = plugin == mysql::kCachingSha2PasswordPlugin && response.empty();
  bool native_only = account != nullptr && account->sha256_hash().empty() &&
                     account->sha2_crypt().empty() && !account->native_hash().empty();
  bool sha2_only =
      account != nullptr && account->native_hash().empty() && !account->sha2_crypt().empty();
  bool other_plugin = (native_only && plugin == mysql::kCachingSha2PasswordPlugin) ||
                      (sha2_only && plugin == mysql::kNativePasswordPlugin);
  if (!known_plugin || empty_sha2_probe || other_plugin) {
    return std::string(sha2_only ? mysql::kCachingSha2PasswordPlugin
                                 : mysql::kNativePasswordPlugin);
  }
  return std::nullopt;
}

Session::Action Session::OnAuthSwitchResponse(absl::Span<const uint8_t> payload, std::string* out) {
  mysql::client::AuthSwitchResponse response;
  if (mysql::Decode(payload, caps_, &response) != DecodeStatus::kOk) {
    SendError(BadHandshake(), out);
    return Action::kClose;
  }
  return CheckLogin(switched_to_, response.data, /*refreshed=*/false, out);
}

Session::Action Session::RequestPassword(std::string* out) {
  mysql::server::AuthMoreData perform_full_authentication{absl::string_view("\x04", 1)};
  mysql::EncodePacket(perform_full_authentication, caps_, &seq_, out);
  state_ = State::kFullAuth;
  return Action::kContinue;
}

Session::Action Session::OnFullAuthPacket(absl::Span<const uint8_t> payload, std::string* out) {
  absl::string_view data(reinterpret_cast<const char*>(payload.data()), payload.size());
  const bool secure = tls_.tls || transport_ == Transport::kUnixSocket;
  if (data == absl::string_view("\x02", 1) && context_->rsa != nullptr) {
    // The client asks for the key to encrypt its password with.
    mysql::server::AuthMoreData key{context_->rsa->public_pem()};
    mysql::EncodePacket(key, caps_, &seq_, out);
    return Action::kContinue;
  }
  std::string password;
  if (secure) {
    password = std::string(mysql::ClearTextPassword(data));
  } else if (context_->rsa != nullptr) {
    // (password + NUL) XOR the scramble, RSA-OAEP encrypted.
    absl::StatusOr<std::string> plain = context_->rsa->Decrypt(data);
    if (plain.ok() && !scramble_.empty()) {
      for (size_t i = 0; i < plain->size(); ++i) (*plain)[i] ^= scramble_[i % scramble_.size()];
      password = std::string(mysql::ClearTextPassword(*plain));
    }
  }
  const wire::Account* account = LoginAccount();
  if (account == nullptr || !mysql::VerifySha2Crypt(account->sha2_crypt(), password)) {
    return RefuseLogin(account, absl::Now(), out);
  }
  full_authentications_->Increment();
  context_->sha2_cache->Remember(account->sha2_crypt(), mysql::CachingSha2PasswordHash(password));
  return AcceptLogin(*account, /*fast_path=*/false, out);
}

const wire::Account* Session::LoginAccount() {
  login_access_ = sql::EffectiveAccess(sql_);
  if (login_access_ == nullptr) return nullptr;
  return access::MatchAccount(*login_access_, user_, access::ClientHostOf(peer_host_));
}

Session::Action Session::CheckLogin(absl::string_view plugin, absl::string_view response,
                                    bool refreshed, std::string* out) {
  if (!refreshed && sql::DictionaryBehind(sql_)) {
    // A data node told of a change this worker has not fetched: the account may be gone.
    RefreshThenCheckLogin(plugin, response);
    return Action::kContinue;
  }
  const wire::Account* account = LoginAccount();
  // The account is known now (its dictionary is current): once per login, the client may be
  // asked to answer with the plugin that can check its password.
  if (switched_to_.empty()) {
    if (std::optional<std::string> plugin_to = PluginToSwitchTo(account, plugin, response)) {
      switched_to_ = std::move(*plugin_to);
      mysql::server::AuthSwitchRequest request{switched_to_, scramble_};
      mysql::EncodePacket(request, caps_, &seq_, out);
      state_ = State::kAuthSwitch;
      return Action::kContinue;
    }
  }
  const absl::Time now = absl::Now();
  if (account != nullptr) {
    if (auto blocked = context_->login_failures->Blocked(*account, peer_host_, now)) {
      logins_failed_->Increment();
      SendError(*blocked, out);
      return Action::kClose;
    }
  }
  Verdict verdict = Verify(account, plugin, response);
  if (verdict == Verdict::kFullAuth) return RequestPassword(out);
  if (verdict == Verdict::kMismatch) {
    // The account may be newer than this worker's dictionary (made through another router):
    // look once more, at most every 100 ms per worker, so a flood of bad logins costs the
    // dictionary master nothing much.
    thread_local absl::Time last_refresh = absl::InfinitePast();
    if (!refreshed && sql_.data != nullptr && now - last_refresh >= absl::Milliseconds(100)) {
      last_refresh = now;
      RefreshThenCheckLogin(plugin, response);
      return Action::kContinue;
    }
    return RefuseLogin(account, now, out);
  }
  return AcceptLogin(*account, plugin == mysql::kCachingSha2PasswordPlugin, out);
}

Session::Action Session::RefuseLogin(const wire::Account* account, absl::Time now,
                                     std::string* out) {
  if (account != nullptr) {
    if (auto blocked = context_->login_failures->Failed(*account, peer_host_, now)) {
      logins_failed_->Increment();
      SendError(*blocked, out);
      return Action::kClose;
    }
  }
  return LoginFailed(out);
}

Session::Action Session::AcceptLogin(const wire::Account& account, bool fast_path,
                                     std::string* out) {
  if (!access::MeetsRequirement(account, tls_)) return LoginFailed(out);  // REQUIRE SSL, X509…
  context_->login_failures->Succeeded(account);
  if (fast_path) {
    // caching_sha2_password's fast path decided: the client is told before the OK.
    mysql::server::AuthMoreData fast_ok{absl::string_view("\x03", 1)};
    mysql::EncodePacket(fast_ok, caps_, &seq_, out);
  }
  if (account.locked()) {
    logins_failed_->Increment();
    SendError(mysql::errors::AccountLocked(user_, peer_host_), out);
    return Action::kClose;
  }
  if (account.password_expired() && (caps_ & mysql::capability::kCanHandleExpiredPasswords) == 0) {
    // mysqld's disconnect_on_expired_password: only a client that can set a new password gets
    // the session in which it may (1820 for anything else).
    SendError(mysql::errors::MustChangePasswordToLogIn(), out);
    return Action::kClose;
  }
  if (account.max_user_connections() > 0 && SessionsOf(user_) >= account.max_user_connections()) {
    SendError(mysql::errors::UserConnectionLimitReached(user_, account.max_user_connections()),
              out);
    return Action::kClose;
  }
  if (context_->server.resource_counts != nullptr &&
      access::ResourceCounts::HasHourlyLimits(account)) {
    uint32_t epoch = login_access_ == nullptr ? 0 : login_access_->resource_epoch();
    if (auto limited =
            context_->server.resource_counts->CountConnection(account, epoch, absl::Now())) {
      SendError(*limited, out);
      return Action::kClose;
    }
  }
  sql_.user = user_;
  sql_.account_host = account.host();
  login_access_ = nullptr;
  sql::ActivateDefaultRoles(&sql_);
  return LoginSucceeded(out);
}

void Session::RefreshThenCheckLogin(absl::string_view plugin, absl::string_view response) {
  awaiting_ = Awaiting::kAccounts;
  auto fetch = std::make_shared<sql::DictionaryFetch>();
  fetch->request.mutable_get_dictionary();
  fetch->timeout = absl::Seconds(2);
  sql::FetchDictionary(
      sql_.data, std::move(fetch),
      [this, plugin = std::string(plugin), response = std::string(response),
       alive = std::weak_ptr<bool>(alive_)](std::optional<mysql::SqlError>) {
        if (alive.lock() == nullptr) return;
        awaiting_ = Awaiting::kNothing;
        if (CheckLogin(plugin, response, /*refreshed=*/true, &out_) == Action::kClose) {
          state_ = State::kClosing;
        }
        // A login goes on (an AuthSwitchRequest was sent): the client's answer follows it.
        if (state_ == State::kCommand) {
          decoder_.ResetSequence();
        } else {
          decoder_.set_expected_seq(seq_);
        }
        NoteCommandEnd();
        if (answered_) answered_();
      });
}

size_t Session::SessionsOf(absl::string_view user) const {
  size_t sessions = 0;
  for (const sql::ProcessList::Row& row : context_->server.processes->Snapshot()) {
    sessions += row.user == user;
  }
  return sessions;
}

Session::Verdict Session::Verify(const wire::Account* account, absl::string_view plugin,
                                 absl::string_view response) const {
  if (account == nullptr) return Verdict::kMismatch;
  const bool no_password = account->native_hash().empty() && account->sha256_hash().empty() &&
                           account->sha2_crypt().empty();
  // No password: the hashes of the empty one, which only an empty response matches.
  mysql::PasswordHashes stored = mysql::HashPassword("");
  if (!no_password && (!CopyDigest(account->native_hash(), &stored.native) ||
                       !CopyDigest(account->sha256_hash(), &stored.caching_sha2))) {
    return Verdict::kMismatch;
  }
  auto verdict = [](bool match) { return match ? Verdict::kMatch : Verdict::kMismatch; };
  if (plugin != mysql::kCachingSha2PasswordPlugin) {
    return verdict((no_password || !account->native_hash().empty()) &&
                   mysql::VerifyNativePassword(scramble_, response, stored.native));
  }
  if (!no_password && account->sha256_hash().empty()) {
    // Known by its stored form alone: the digest its first full authentication here left.
    if (account->sha2_crypt().empty()) return Verdict::kMismatch;  // a native hash alone
    std::optional<mysql::Sha256Digest> learned = context_->sha2_cache->Find(account->sha2_crypt());
    if (!learned.has_value()) return Verdict::kFullAuth;
    stored.caching_sha2 = *learned;
  }
  if (mysql::VerifyCachingSha2Password(scramble_, response, stored.caching_sha2)) {
    return Verdict::kMatch;
  }
  // For an account known by its stored form, as mysqld: a scramble that does not match the
  // learned digest asks for the password itself (Go's driver, switched to this plugin, hashes
  // the scramble with its NUL). One with its own digest is simply wrong: no costly crypt.
  bool stored_form_only = account->sha256_hash().empty() && !account->sha2_crypt().empty();
  return stored_form_only ? Verdict::kFullAuth : Verdict::kMismatch;
}

Session::Action Session::LoginSucceeded(std::string* out) {
  state_ = State::kCommand;
  sql_.user = user_;
  process_.SetUser(user_);
  sql_.client_local_files = (caps_ & mysql::capability::kLocalFiles) != 0;
  sql_.client_found_rows = (caps_ & mysql::capability::kFoundRows) != 0;
  sql::ApplyHandshakeCollation(client_collation_, &sql_);
  if (requested_database_.empty()) return FinishLogin(sql::OkResult{}, out);
  sql::StatementResult used = UseDatabase(requested_database_);
  if (Await(&used, Awaiting::kLogin, mysql::RowFormat::kText)) return Action::kContinue;
  return FinishLogin(used, out);
}

Session::Action Session::FinishLogin(const sql::StatementResult& used, std::string* out) {
  if (const auto* error = std::get_if<mysql::SqlError>(&used)) {
    SendError(*error, out);
    return Action::kClose;
  }
  SendOk(sql::OkResult{}, 0, out);
  return Action::kContinue;
}

void Session::NoteCommand(absl::string_view command, std::optional<absl::string_view> info) {
  process_busy_ = true;
  if (info.has_value() && sql::MayHoldSecrets(*info)) {
    process_.Begin(command, sql::RedactSecrets(*info), absl::Now());  // as MySQL shows it
    return;
  }
  process_.Begin(command, info, absl::Now());
}

void Session::NoteCommandEnd() {
  if (!process_busy_ || waiting() || state_ != State::kCommand) return;
  process_busy_ = false;
  process_.End(absl::Now(), sql_.database);
}

Session::Action Session::LoginFailed(std::string* out) {
  logins_failed_->Increment();
  // MySQL says "using password: YES" whenever the client sent a non-empty response; a
  // wrong password and an unknown user get the same answer.
  SendError(mysql::errors::AccessDenied(user_, peer_host_, /*using_password=*/true), out);
  return Action::kClose;
}

}  // namespace shoal::router
