#include "protocol/codec.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "protocol/sql_error.h"
#include "protocol/test_util.h"

namespace shoal::mysql {
namespace {

using testing::FromHex;
using testing::Span;
using testing::ToHex;

constexpr uint32_t kCaps = kServerCapabilities;
constexpr uint32_t kTrackCaps = kServerCapabilities | capability::kSessionTrack;

template <typename T>
std::string EncodeToString(const T& msg, uint32_t caps) {
  std::string out;
  Writer writer(&out);
  Encode(msg, caps, &writer);
  return out;
}

enum class Prefixes { kMustDiffer, kMayDecode };

// Encode, decode, compare; then every strict prefix must fail or decode to something else
// (unless the message ends in a terminator that MySQL lets senders omit: kMayDecode).
template <typename T>
void ExpectRoundTrip(const T& msg, uint32_t caps, Prefixes prefixes = Prefixes::kMustDiffer) {
  const std::string bytes = EncodeToString(msg, caps);
  T decoded;
  ASSERT_EQ(Decode(Span(bytes), caps, &decoded), DecodeStatus::kOk) << ToHex(bytes);
  EXPECT_TRUE(decoded == msg) << ToHex(bytes);
  EXPECT_EQ(EncodeToString(decoded, caps), bytes);
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::string prefix = bytes.substr(0, n);  // own copy, so ASAN sees overreads
    T truncated;
    const DecodeStatus status = Decode(Span(prefix), caps, &truncated);
    if (prefixes == Prefixes::kMayDecode && n + 1 == bytes.size()) continue;
    EXPECT_TRUE(status != DecodeStatus::kOk || !(truncated == msg))
        << "prefix of " << n << " bytes decoded to the whole message: " << ToHex(bytes);
  }
}

TEST(CodecTest, OkAfterAuthExactBytes) {
  server::Ok ok;
  ok.status_flags = status::kAutocommit;
  EXPECT_EQ(ToHex(EncodeToString(ok, kCaps)), "00000002000000");
  std::string packet;
  uint8_t seq = 2;
  EncodePacket(ok, kCaps, &seq, &packet);
  EXPECT_EQ(ToHex(packet), "0700000200000002000000");
  EXPECT_EQ(seq, 3);
}

TEST(CodecTest, OkRoundTrips) {
  server::Ok ok;
  ExpectRoundTrip(ok, kCaps);
  ok.affected_rows = 1000;
  ok.last_insert_id = 1ULL << 40;
  ok.status_flags = status::kAutocommit | status::kInTrans;
  ok.warnings = 3;
  ok.info = "Records: 1000  Duplicates: 0  Warnings: 0";
  ExpectRoundTrip(ok, kCaps);
  ok.header = server::OkHeader::kEndOfRows;
  ExpectRoundTrip(ok, kCaps);
  ok.status_flags |= status::kSessionStateChanged;
  const std::string state = FromHex("0007 0673 6274 6573 74");  // SCHEMA=sbtest
  ok.session_state_info = state;
  ExpectRoundTrip(ok, kTrackCaps);
  ok.info = "";
  ExpectRoundTrip(ok, kTrackCaps);
}

TEST(CodecTest, OkWithSessionTrackFromMariaDb) {
  // OK with SESSION_STATE_CHANGED and a SCHEMA tracker, as MariaDB sends after auth.
  const std::string bytes = FromHex("000000024000000009 0007 0673 6274 6573 74");
  server::Ok ok;
  ASSERT_EQ(Decode(Span(bytes), kTrackCaps, &ok), DecodeStatus::kOk);
  EXPECT_EQ(ok.info, "");
  EXPECT_EQ(ok.session_state_info.size(), 9u);
}

TEST(CodecTest, ErrExactBytes) {
  const SqlError error = errors::UnknownDatabase("x");
  const std::string bytes = EncodeToString(ToErr(error), kCaps);
  EXPECT_EQ(ToHex(bytes.substr(0, 9)), "ff1904233432303030");
  EXPECT_EQ(bytes.substr(9), "Unknown database 'x'");
  server::Err err;
  ASSERT_EQ(Decode(Span(bytes), kCaps, &err), DecodeStatus::kOk);
  EXPECT_EQ(err.code, 1049);
  EXPECT_EQ(err.sqlstate, "42000");
  // Before PROTOCOL_41 is agreed there is no SQLSTATE.
  EXPECT_EQ(ToHex(EncodeToString(ToErr(errors::TooManyConnections()), 0).substr(0, 3)), "ff1004");
}

TEST(CodecTest, ServerMessagesRoundTrip) {
  ExpectRoundTrip(server::Err{1045, "28000", "Access denied"}, kCaps);
  ExpectRoundTrip(server::Err{1040, "", "Too many connections"}, 0);
  ExpectRoundTrip(server::Eof{0, status::kAutocommit}, kCaps);
  ExpectRoundTrip(server::AuthSwitchRequest{kNativePasswordPlugin, "abcdefghijklmnopqrst"}, kCaps,
                  Prefixes::kMayDecode);
  ExpectRoundTrip(server::AuthMoreData{"\x03"}, kCaps);
  ExpectRoundTrip(server::PrepareOk{45, 1, 2, 0}, kCaps);
  ExpectRoundTrip(server::LocalInfileRequest{"rows.tsv"}, kCaps, Prefixes::kMayDecode);
}

TEST(CodecTest, EofAndAuthExactBytes) {
  EXPECT_EQ(ToHex(EncodeToString(server::Eof{0, status::kAutocommit}, kCaps)), "fe00000200");
  EXPECT_EQ(ToHex(EncodeToString(server::AuthMoreData{absl::string_view("\x03", 1)}, kCaps)),
            "0103");
  const std::string scramble = "abcdefghijklmnopqrst";
  const std::string bytes =
      EncodeToString(server::AuthSwitchRequest{kNativePasswordPlugin, scramble}, kCaps);
  EXPECT_EQ(bytes, std::string("\xfe") + "mysql_native_password" + std::string(1, '\0') + scramble +
                       std::string(1, '\0'));
  EXPECT_TRUE(IsEofPacket(Span(FromHex("fe00000200"))));
  EXPECT_FALSE(IsEofPacket(Span(FromHex("fe000002000000000000"))));
}

TEST(CodecTest, PrepareOkExactBytes) {
  EXPECT_EQ(ToHex(EncodeToString(server::PrepareOk{45, 1, 1, 0}, kCaps)),
            "002d00000001000100000000");
}

TEST(CodecTest, GreetingLayout) {
  server::Greeting greeting;
  greeting.server_version = "8.0.36";
  greeting.connection_id = 1234;
  greeting.auth_plugin_data = "abcdefghijklmnopqrst";
  greeting.auth_plugin_name = kCachingSha2PasswordPlugin;
  const std::string bytes = EncodeToString(greeting, kCaps);
  const std::string expected =
      "0a" + ToHex("8.0.36") + "00" + "d2040000" + ToHex("abcdefgh") + "00" +
      "8fa2"  // capabilities low: 0xa28f (CLIENT_LOCAL_FILES 0x80 for LOAD DATA LOCAL)
      "ff"
      "0200" +  // charset 255, status AUTOCOMMIT
      "7f01"    // capabilities high: 0x017f (CAN_HANDLE_EXPIRED_PASSWORDS too)
      "15" +
      std::string(20, '0') + ToHex("ijklmnopqrst") + "00" + ToHex("caching_sha2_password") + "00";
  EXPECT_EQ(ToHex(bytes), expected);
  ExpectRoundTrip(greeting, kCaps, Prefixes::kMayDecode);
  greeting.capabilities &= ~capability::kPluginAuth;
  greeting.auth_plugin_name = "";
  ExpectRoundTrip(greeting, kCaps);
}

// PyMySQL's HandshakeResponse41 in MySQL-8 mode (auth.txt), with an arbitrary 32-byte scramble.
std::string PyMysqlHandshake() {
  std::string attrs;
  Writer w(&attrs);
  for (const char* kv : {"_client_name", "pymysql", "_client_version", "1.2.4", "_pid", "25602"}) {
    w.WriteLenencString(kv);
  }
  std::string out = FromHex("0da23a00 ffffff00 2d") + std::string(23, '\0') + "sbtest" +
                    std::string(1, '\0') + "\x20" + std::string(32, '\x5a') + "sbtest" +
                    std::string(1, '\0') + "caching_sha2_password" + std::string(1, '\0');
  out.push_back(static_cast<char>(attrs.size()));
  return out + attrs;
}

TEST(CodecTest, HandshakeResponseFromPyMysql) {
  const std::string bytes = PyMysqlHandshake();
  client::HandshakeResponse41 hr;
  ASSERT_EQ(Decode(Span(bytes), kCaps, &hr), DecodeStatus::kOk);
  EXPECT_EQ(hr.capabilities, 0x003aa20du);
  EXPECT_EQ(hr.max_packet_size, 16777215u);
  EXPECT_EQ(hr.charset, 45);
  EXPECT_EQ(hr.username, "sbtest");
  EXPECT_EQ(hr.auth_response.size(), 32u);
  EXPECT_EQ(hr.database, "sbtest");
  EXPECT_EQ(hr.auth_plugin_name, kCachingSha2PasswordPlugin);
  ASSERT_EQ(hr.connect_attrs.size(), 3u);
  EXPECT_EQ(hr.connect_attrs[2].first, "_pid");
  EXPECT_EQ(hr.connect_attrs[2].second, "25602");
  EXPECT_EQ(EncodeToString(hr, kCaps), bytes);
  ExpectRoundTrip(hr, kCaps);
}

TEST(CodecTest, HandshakeResponseVariants) {
  client::HandshakeResponse41 hr;
  hr.capabilities = 0x00bfa284;  // mariadb CLI: no CONNECT_WITH_DB
  hr.max_packet_size = 1048576;
  hr.charset = 33;
  hr.username = "sbtest";
  hr.auth_plugin_name = kCachingSha2PasswordPlugin;  // empty response
  hr.connect_attrs = {{"_os", "Linux"}, {"program_name", "mysql"}};
  ExpectRoundTrip(hr, kCaps);
  hr.capabilities &= ~capability::kPluginAuthLenencClientData;  // 1-byte length
  hr.auth_response = "01234567890123456789";
  ExpectRoundTrip(hr, kCaps);
  hr.capabilities &= ~(capability::kSecureConnection | capability::kConnectAttrs);
  hr.connect_attrs.clear();
  ExpectRoundTrip(hr, kCaps);  // NUL-terminated response
}

TEST(CodecTest, HandshakeResponseRejections) {
  client::HandshakeResponse41 hr;
  // HandshakeResponse320 (no PROTOCOL_41).
  const std::string old = FromHex("85a00000000000") + "root" + std::string(1, '\0');
  EXPECT_EQ(Decode(Span(old), kCaps, &hr), DecodeStatus::kUnsupported);
  // SSLRequest.
  const std::string ssl = FromHex("0daa3a00 ffffff00 2d") + std::string(23, '\0');
  EXPECT_EQ(Decode(Span(ssl), kCaps, &hr), DecodeStatus::kUnsupported);
  // Attrs whose declared length runs past the packet.
  std::string bad = PyMysqlHandshake();
  const size_t attrs_len_at = bad.size() - 1 - 54;
  ASSERT_EQ(static_cast<uint8_t>(bad[attrs_len_at]), 54);
  bad[attrs_len_at] = 60;
  EXPECT_EQ(Decode(Span(bad), kCaps, &hr), DecodeStatus::kMalformed);
  // A lenenc auth response that claims 2^64-1 bytes.
  std::string huge = FromHex("0da23a00 ffffff00 2d") + std::string(23, '\0') + "u" +
                     std::string(1, '\0') + FromHex("feffffffffffffffff");
  EXPECT_EQ(Decode(Span(huge), kCaps, &hr), DecodeStatus::kMalformed);
}

TEST(CodecTest, CommandsRoundTrip) {
  ExpectRoundTrip(client::Query{"SELECT c FROM sbtest1 WHERE id=3"}, kCaps);
  ExpectRoundTrip(client::Query{""}, kCaps);
  ExpectRoundTrip(client::InitDb{"sbtest"}, kCaps);
  ExpectRoundTrip(client::FieldList{"sbtest1", ""}, kCaps);
  ExpectRoundTrip(client::FieldList{"sbtest1", "c%"}, kCaps);
  ExpectRoundTrip(client::SetOption{client::SetOption::kMultiStatementsOff}, kCaps);
  ExpectRoundTrip(client::StmtPrepare{"SELECT c FROM sbtest1 WHERE id=?"}, kCaps);
  ExpectRoundTrip(client::StmtSendLongData{7, 1, std::string("blob\0data", 9)}, kCaps);
  ExpectRoundTrip(client::StmtClose{45}, kCaps);
  ExpectRoundTrip(client::StmtReset{45}, kCaps);
  ExpectRoundTrip(client::StmtFetch{45, 100}, kCaps);
  ExpectRoundTrip(client::AuthSwitchResponse{"sbtest\0"}, kCaps);
  client::ChangeUser change{"bob", "01234567890123456789", "db",
                            45,    kNativePasswordPlugin,  {{"_pid", "1"}}};
  ExpectRoundTrip(change, kCaps);
  change.connect_attrs.clear();
  ExpectRoundTrip(change, kCaps & ~capability::kSecureConnection & ~capability::kConnectAttrs);
}

TEST(CodecTest, CommandExactBytes) {
  EXPECT_EQ(ToHex(EncodeToString(client::StmtClose{45}, kCaps)), "192d000000");
  EXPECT_EQ(ToHex(EncodeToString(client::Query{"select 1"}, kCaps)), "0373656c6563742031");
  Command command;
  ASSERT_TRUE(PeekCommand(Span(FromHex("0e")), &command));
  EXPECT_EQ(command, Command::kPing);
  uint32_t id;
  ASSERT_TRUE(PeekStatementId(Span(FromHex("172d000000")), &id));
  EXPECT_EQ(id, 45u);
  EXPECT_FALSE(PeekStatementId(Span(FromHex("172d0000")), &id));
  client::StmtClose close;
  EXPECT_EQ(Decode(Span(FromHex("192d00000000")), kCaps, &close), DecodeStatus::kMalformed);
  EXPECT_EQ(Decode(Span(FromHex("1a2d000000")), kCaps, &close), DecodeStatus::kMalformed);
}

TEST(CodecTest, StmtExecuteSysbenchFirstAndLaterExecutes) {
  // stmt=45 flags=0 iter=1 nullmap=00 new_params_bound=1 types=[LONGLONG] values=[5]
  const std::string first = FromHex("172d000000 00 01000000 00 01 0800 0500000000000000");
  client::StmtExecute exec;
  ASSERT_EQ(Decode(Span(first), kCaps, 1, {}, &exec), DecodeStatus::kOk);
  EXPECT_EQ(exec.statement_id, 45u);
  EXPECT_EQ(exec.new_params_bound, 1);
  ASSERT_EQ(exec.param_types.size(), 1u);
  EXPECT_EQ(exec.param_types[0].type, ColumnType::kLongLong);
  EXPECT_EQ(exec.params[0], Value(int64_t{5}));
  EXPECT_EQ(EncodeToString(exec, kCaps), first);
  const std::vector<ParamType> remembered = exec.param_types;

  // Later executes: new_params_bound=0, no type block; the remembered types apply.
  const std::string later = FromHex("172d000000 00 01000000 00 00 0600000000000000");
  ASSERT_EQ(Decode(Span(later), kCaps, 1, remembered, &exec), DecodeStatus::kOk);
  EXPECT_EQ(exec.new_params_bound, 0);
  EXPECT_EQ(exec.params[0], Value(int64_t{6}));
  EXPECT_EQ(EncodeToString(exec, kCaps), later);
  // ... and without remembered types the execute is malformed (1210).
  EXPECT_EQ(Decode(Span(later), kCaps, 1, {}, &exec), DecodeStatus::kMalformed);
}

TEST(CodecTest, StmtExecuteUnsignedTinyAndNulls) {
  // mysql-connector-python: TINY with the unsigned flag.
  const std::string bytes = FromHex("172200000000010000000001 0180 03");
  client::StmtExecute exec;
  ASSERT_EQ(Decode(Span(bytes), kCaps, 1, {}, &exec), DecodeStatus::kOk);
  EXPECT_TRUE(exec.param_types[0].is_unsigned());
  EXPECT_EQ(exec.params[0], Value(uint64_t{3}));
  // Signed TINY 0xff is -1.
  const std::string neg = FromHex("172200000000010000000001 0100 ff");
  ASSERT_EQ(Decode(Span(neg), kCaps, 1, {}, &exec), DecodeStatus::kOk);
  EXPECT_EQ(exec.params[0], Value(int64_t{-1}));
  // Second param NULL: no value bytes for it.
  const std::string with_null = FromHex("1722000000000100000002 01 0800 fd00 0700000000000000");
  ASSERT_EQ(Decode(Span(with_null), kCaps, 2, {}, &exec), DecodeStatus::kOk);
  EXPECT_EQ(exec.params[0], Value(int64_t{7}));
  EXPECT_TRUE(IsNull(exec.params[1]));
  EXPECT_EQ(EncodeToString(exec, kCaps), with_null);
  // An unknown type byte is malformed.
  const std::string bad_type = FromHex("172200000000010000000001 1100 03");
  EXPECT_EQ(Decode(Span(bad_type), kCaps, 1, {}, &exec), DecodeStatus::kMalformed);
}

TEST(CodecTest, StmtExecuteAllTypesRoundTrip) {
  client::StmtExecute exec;
  exec.statement_id = 9;
  exec.new_params_bound = 1;
  auto add = [&](ColumnType type, uint8_t flags, Value v) {
    exec.param_types.push_back(ParamType{type, flags});
    exec.params.push_back(std::move(v));
  };
  add(ColumnType::kTiny, 0, int64_t{-5});
  add(ColumnType::kShort, 0x80, uint64_t{65535});
  add(ColumnType::kLong, 0, int64_t{-100000});
  add(ColumnType::kInt24, 0, int64_t{7});
  add(ColumnType::kLongLong, 0x80, uint64_t{18446744073709551615ULL});
  add(ColumnType::kYear, 0x80, uint64_t{2024});
  add(ColumnType::kFloat, 0, 1.5);
  add(ColumnType::kDouble, 0, 0.1);
  add(ColumnType::kDate, 0, DateTime{2024, 1, 2});
  add(ColumnType::kDateTime, 0, DateTime{2024, 1, 2, 3, 4, 5});
  add(ColumnType::kTimestamp, 0, DateTime{2024, 1, 2, 3, 4, 5, 678});
  add(ColumnType::kDateTime, 0, DateTime{});
  add(ColumnType::kTime, 0, Time{true, 1, 2, 3, 4});
  add(ColumnType::kTime, 0, Time{false, 0, 0, 0, 0, 5});
  add(ColumnType::kTime, 0, Time{});
  add(ColumnType::kNewDecimal, 0, Decimal{"-12.50"});
  add(ColumnType::kVarString, 0, std::string("abc"));
  add(ColumnType::kString, 0, std::string(300, 'x'));
  add(ColumnType::kBlob, 0, std::string("\0\1", 2));
  add(ColumnType::kNull, 0, Null{});
  add(ColumnType::kLongLong, 0, Null{});
  const std::string bytes = EncodeToString(exec, kCaps);
  client::StmtExecute decoded;
  const uint16_t n = static_cast<uint16_t>(exec.params.size());
  ASSERT_EQ(Decode(Span(bytes), kCaps, n, {}, &decoded), DecodeStatus::kOk);
  EXPECT_TRUE(decoded == exec);
  for (size_t len = 0; len < bytes.size(); ++len) {
    const std::string prefix = bytes.substr(0, len);
    EXPECT_NE(Decode(Span(prefix), kCaps, n, {}, &decoded), DecodeStatus::kOk) << len;
  }
  // The DATETIME value is `07 yyyy mm dd hh mi ss` (observed in connector_j.txt).
  EXPECT_NE(ToHex(bytes).find("07e8070102030405"), std::string::npos);
}

TEST(CodecTest, StmtExecuteWithoutParamsIgnoresTail) {
  const std::string bytes = FromHex("1703000000 00 01000000");
  client::StmtExecute exec;
  ASSERT_EQ(Decode(Span(bytes), kCaps, 0, {}, &exec), DecodeStatus::kOk);
  EXPECT_EQ(exec.statement_id, 3u);
  EXPECT_TRUE(exec.params.empty());
}

TEST(CodecTest, StmtExecuteBadTemporalLength) {
  const std::string bytes = FromHex("172200000000010000000001 0c00 05 e807010203");
  client::StmtExecute exec;
  EXPECT_EQ(Decode(Span(bytes), kCaps, 1, {}, &exec), DecodeStatus::kMalformed);
}

TEST(CodecTest, SqlErrorsMatchMysql) {
  const SqlError denied = errors::AccessDenied("sbtest", "127.0.0.1", true);
  EXPECT_EQ(denied.code, 1045);
  EXPECT_EQ(denied.sqlstate, "28000");
  EXPECT_EQ(denied.message, "Access denied for user 'sbtest'@'127.0.0.1' (using password: YES)");
  EXPECT_EQ(errors::PacketTooLarge().code, 1153);
  EXPECT_EQ(errors::PacketTooLarge().sqlstate, "08S01");
  EXPECT_EQ(errors::UnsupportedPreparedStatement().code, 1295);
  EXPECT_EQ(errors::ParseError("FRO t", 1).message,
            "You have an error in your SQL syntax; check the manual that corresponds to your "
            "MySQL server version for the right syntax to use near 'FRO t' at line 1");
  EXPECT_EQ(errors::NoSuchTable("sbtest", "t").message, "Table 'sbtest.t' doesn't exist");
  EXPECT_EQ(errors::WrongArguments("mysqld_stmt_execute").code, 1210);
  EXPECT_EQ(errors::MalformedPacket().code, 1835);
}

}  // namespace
}  // namespace shoal::mysql
