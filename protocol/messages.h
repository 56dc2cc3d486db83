// The MySQL client/server messages Shoal speaks, as plain structs named as MySQL's
// documentation names them. Encoding and decoding live in codec.h.
//
// Borrowed bytes: absl::string_view fields point into the payload they were decoded from (or,
// when encoding, into whatever the caller pointed them at); a decoded struct is valid only as
// long as that payload. Value parameters (client::StmtExecute) own their bytes.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "protocol/constants.h"
#include "protocol/value.h"

namespace shoal::mysql {

// The capabilities Shoal advertises (CLIENTS.md §1): MySQL mode (LONG_PASSWORD set), SSL only
// where the router has TLS set up (added then), no compression, no query attributes, no optional
// metadata. LOCAL_FILES as mysqld: whether LOAD DATA LOCAL may run is decided per statement
// (local_infile, the client's flag). A client that cannot handle an expired password is refused one
// at login (1862), as mysqld does.
inline constexpr uint32_t kServerCapabilities =
    capability::kLongPassword | capability::kFoundRows | capability::kLongFlag |
    capability::kConnectWithDb | capability::kProtocol41 | capability::kTransactions |
    capability::kSecureConnection | capability::kMultiStatements | capability::kMultiResults |
    capability::kPsMultiResults | capability::kPluginAuth | capability::kConnectAttrs |
    capability::kPluginAuthLenencClientData | capability::kDeprecateEof | capability::kLocalFiles |
    capability::kCanHandleExpiredPasswords;

inline constexpr absl::string_view kNativePasswordPlugin = "mysql_native_password";
inline constexpr absl::string_view kCachingSha2PasswordPlugin = "caching_sha2_password";

// A bound parameter type of COM_STMT_EXECUTE: the type byte and the flag byte (0x80 = unsigned).
struct ParamType {
  static constexpr uint8_t kUnsignedFlag = 0x80;
  ColumnType type = ColumnType::kNull;
  uint8_t flags = 0;
  bool is_unsigned() const { return (flags & kUnsignedFlag) != 0; }
  bool operator==(const ParamType&) const = default;
};

namespace server {

// HandshakeV10, the server's first packet.
struct Greeting {
  uint8_t protocol_version = 10;
  absl::string_view server_version;
  uint32_t connection_id = 0;
  std::string auth_plugin_data;  // the scramble, 20 bytes, without the trailing NUL
  uint32_t capabilities = kServerCapabilities;
  uint8_t charset = 255;
  uint16_t status_flags = status::kAutocommit;
  absl::string_view auth_plugin_name = kNativePasswordPlugin;
  bool operator==(const Greeting&) const = default;
};

// Which header byte an OK packet carries.
enum class OkHeader : uint8_t {
  kOk = 0x00,
  kEndOfRows = 0xFE,  // ends a result set when CLIENT_DEPRECATE_EOF is set
};

struct Ok {
  OkHeader header = OkHeader::kOk;
  uint64_t affected_rows = 0;
  uint64_t last_insert_id = 0;
  uint16_t status_flags = 0;
  uint16_t warnings = 0;
  absl::string_view info;
  // Only with CLIENT_SESSION_TRACK and SERVER_SESSION_STATE_CHANGED; Shoal never sends it,
  // the decoder keeps it for test clients talking to a real server.
  absl::string_view session_state_info;
  bool operator==(const Ok&) const = default;
};

struct Err {
  uint16_t code = 0;
  absl::string_view sqlstate = "HY000";  // five characters
  absl::string_view message;
  bool operator==(const Err&) const = default;
};

struct Eof {
  uint16_t warnings = 0;
  uint16_t status_flags = 0;
  bool operator==(const Eof&) const = default;
};

struct AuthSwitchRequest {
  absl::string_view plugin_name;
  absl::string_view plugin_data;  // the scramble, without the trailing NUL
  bool operator==(const AuthSwitchRequest&) const = default;
};

// caching_sha2_password: data 0x03 = fast auth success, 0x04 = perform full authentication.
struct AuthMoreData {
  static constexpr uint8_t kFastAuthSuccess = 0x03;
  static constexpr uint8_t kPerformFullAuthentication = 0x04;
  absl::string_view data;
  bool operator==(const AuthMoreData&) const = default;
};

// COM_STMT_PREPARE's first reply packet (parameter and column definitions follow).
struct PrepareOk {
  uint32_t statement_id = 0;
  uint16_t num_columns = 0;
  uint16_t num_params = 0;
  uint16_t warnings = 0;
  bool operator==(const PrepareOk&) const = default;
};

// LOAD DATA LOCAL: asks the client for the file the statement names. The client answers with
// the file's bytes in packets of its choosing and an empty packet at the end (or at once, when
// it refuses).
struct LocalInfileRequest {
  absl::string_view filename;
  bool operator==(const LocalInfileRequest&) const = default;
};

}  // namespace server

namespace client {

using ConnectAttrs = std::vector<std::pair<absl::string_view, absl::string_view>>;

struct HandshakeResponse41 {
  uint32_t capabilities = 0;  // the client's own capability word, as sent
  uint32_t max_packet_size = 0;
  uint8_t charset = 0;
  absl::string_view username;
  absl::string_view auth_response;  // raw bytes (20 for native, 32 for caching_sha2, or 0)
  absl::string_view database;       // with CLIENT_CONNECT_WITH_DB
  absl::string_view auth_plugin_name;
  ConnectAttrs connect_attrs;
  uint8_t zstd_level = 0;  // with CLIENT_ZSTD_COMPRESSION_ALGORITHM
  bool operator==(const HandshakeResponse41&) const = default;
};

// A reply to AuthSwitchRequest / AuthMoreData: raw bytes (a scramble, or `password\0`).
struct AuthSwitchResponse {
  absl::string_view data;
  bool operator==(const AuthSwitchResponse&) const = default;
};

struct Query {
  absl::string_view query;
  bool operator==(const Query&) const = default;
};

struct InitDb {
  absl::string_view schema;
  bool operator==(const InitDb&) const = default;
};

struct FieldList {
  absl::string_view table;
  absl::string_view wildcard;
  bool operator==(const FieldList&) const = default;
};

struct SetOption {
  static constexpr uint16_t kMultiStatementsOn = 0;
  static constexpr uint16_t kMultiStatementsOff = 1;
  uint16_t option = 0;
  bool operator==(const SetOption&) const = default;
};

struct ChangeUser {
  absl::string_view username;
  absl::string_view auth_response;
  absl::string_view database;
  uint16_t charset = 0;
  absl::string_view auth_plugin_name;
  ConnectAttrs connect_attrs;
  bool operator==(const ChangeUser&) const = default;
};

struct StmtPrepare {
  absl::string_view query;
  bool operator==(const StmtPrepare&) const = default;
};

struct StmtExecute {
  uint32_t statement_id = 0;
  uint8_t flags = 0;  // cursor type; Shoal opens no cursors
  uint32_t iteration_count = 1;
  // 1 when the types were on the wire; 0 when the previous execute's types were reused.
  uint8_t new_params_bound = 0;
  // The effective parameter types, on the wire or remembered; one per parameter.
  std::vector<ParamType> param_types;
  // One per parameter; Null where the null bitmap bit is set or the type is NULL.
  std::vector<Value> params;
  bool operator==(const StmtExecute&) const = default;
};

struct StmtSendLongData {
  uint32_t statement_id = 0;
  uint16_t param_id = 0;
  absl::string_view data;
  bool operator==(const StmtSendLongData&) const = default;
};

struct StmtClose {
  uint32_t statement_id = 0;
  bool operator==(const StmtClose&) const = default;
};

struct StmtReset {
  uint32_t statement_id = 0;
  bool operator==(const StmtReset&) const = default;
};

struct StmtFetch {
  uint32_t statement_id = 0;
  uint32_t num_rows = 0;
  bool operator==(const StmtFetch&) const = default;
};

}  // namespace client
}  // namespace shoal::mysql
