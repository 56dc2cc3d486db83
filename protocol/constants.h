// MySQL protocol constants: capability and status flags, column types and flags, command
// bytes, character sets. Values as in MySQL's documentation (and mysql_com.h).
#pragma once

#include <cstdint>

namespace shoal::mysql {

// Capability flags (HandshakeV10 / HandshakeResponse41).
namespace capability {
inline constexpr uint32_t kLongPassword = 1u << 0;
inline constexpr uint32_t kFoundRows = 1u << 1;
inline constexpr uint32_t kLongFlag = 1u << 2;
inline constexpr uint32_t kConnectWithDb = 1u << 3;
inline constexpr uint32_t kNoSchema = 1u << 4;
inline constexpr uint32_t kCompress = 1u << 5;
inline constexpr uint32_t kOdbc = 1u << 6;
inline constexpr uint32_t kLocalFiles = 1u << 7;
inline constexpr uint32_t kIgnoreSpace = 1u << 8;
inline constexpr uint32_t kProtocol41 = 1u << 9;
inline constexpr uint32_t kInteractive = 1u << 10;
inline constexpr uint32_t kSsl = 1u << 11;
inline constexpr uint32_t kIgnoreSigpipe = 1u << 12;
inline constexpr uint32_t kTransactions = 1u << 13;
inline constexpr uint32_t kReserved = 1u << 14;
inline constexpr uint32_t kSecureConnection = 1u << 15;
inline constexpr uint32_t kMultiStatements = 1u << 16;
inline constexpr uint32_t kMultiResults = 1u << 17;
inline constexpr uint32_t kPsMultiResults = 1u << 18;
inline constexpr uint32_t kPluginAuth = 1u << 19;
inline constexpr uint32_t kConnectAttrs = 1u << 20;
inline constexpr uint32_t kPluginAuthLenencClientData = 1u << 21;
inline constexpr uint32_t kCanHandleExpiredPasswords = 1u << 22;
inline constexpr uint32_t kSessionTrack = 1u << 23;
inline constexpr uint32_t kDeprecateEof = 1u << 24;
inline constexpr uint32_t kOptionalResultsetMetadata = 1u << 25;
inline constexpr uint32_t kZstdCompression = 1u << 26;
inline constexpr uint32_t kQueryAttributes = 1u << 27;
}  // namespace capability

// Server status flags (OK, EOF and the handshake).
namespace status {
inline constexpr uint16_t kInTrans = 0x0001;
inline constexpr uint16_t kAutocommit = 0x0002;
inline constexpr uint16_t kMoreResultsExist = 0x0008;
inline constexpr uint16_t kNoGoodIndexUsed = 0x0010;
inline constexpr uint16_t kNoIndexUsed = 0x0020;
inline constexpr uint16_t kCursorExists = 0x0040;
inline constexpr uint16_t kLastRowSent = 0x0080;
inline constexpr uint16_t kDbDropped = 0x0100;
inline constexpr uint16_t kNoBackslashEscapes = 0x0200;
inline constexpr uint16_t kMetadataChanged = 0x0400;
inline constexpr uint16_t kQueryWasSlow = 0x0800;
inline constexpr uint16_t kPsOutParams = 0x1000;
inline constexpr uint16_t kInTransReadonly = 0x2000;
inline constexpr uint16_t kSessionStateChanged = 0x4000;
}  // namespace status

enum class ColumnType : uint8_t {
  kDecimal = 0,
  kTiny = 1,
  kShort = 2,
  kLong = 3,
  kFloat = 4,
  kDouble = 5,
  kNull = 6,
  kTimestamp = 7,
  kLongLong = 8,
  kInt24 = 9,
  kDate = 10,
  kTime = 11,
  kDateTime = 12,
  kYear = 13,
  kVarChar = 15,
  kBit = 16,
  kJson = 245,
  kNewDecimal = 246,
  kEnum = 247,
  kSet = 248,
  kTinyBlob = 249,
  kMediumBlob = 250,
  kLongBlob = 251,
  kBlob = 252,
  kVarString = 253,
  kString = 254,
  kGeometry = 255,
};

// Column definition flags.
namespace column_flag {
inline constexpr uint16_t kNotNull = 0x0001;
inline constexpr uint16_t kPrimaryKey = 0x0002;
inline constexpr uint16_t kUniqueKey = 0x0004;
inline constexpr uint16_t kMultipleKey = 0x0008;
inline constexpr uint16_t kBlob = 0x0010;
inline constexpr uint16_t kUnsigned = 0x0020;
inline constexpr uint16_t kZerofill = 0x0040;
inline constexpr uint16_t kBinary = 0x0080;
inline constexpr uint16_t kEnum = 0x0100;
inline constexpr uint16_t kAutoIncrement = 0x0200;
inline constexpr uint16_t kTimestamp = 0x0400;
inline constexpr uint16_t kSet = 0x0800;
inline constexpr uint16_t kNoDefaultValue = 0x1000;
inline constexpr uint16_t kOnUpdateNow = 0x2000;
inline constexpr uint16_t kNum = 0x8000;
}  // namespace column_flag

enum class Command : uint8_t {
  kSleep = 0x00,
  kQuit = 0x01,
  kInitDb = 0x02,
  kQuery = 0x03,
  kFieldList = 0x04,
  kCreateDb = 0x05,
  kDropDb = 0x06,
  kRefresh = 0x07,
  kShutdown = 0x08,
  kStatistics = 0x09,
  kProcessInfo = 0x0a,
  kConnect = 0x0b,
  kProcessKill = 0x0c,
  kDebug = 0x0d,
  kPing = 0x0e,
  kTime = 0x0f,
  kDelayedInsert = 0x10,
  kChangeUser = 0x11,
  kBinlogDump = 0x12,
  kTableDump = 0x13,
  kConnectOut = 0x14,
  kRegisterSlave = 0x15,
  kStmtPrepare = 0x16,
  kStmtExecute = 0x17,
  kStmtSendLongData = 0x18,
  kStmtClose = 0x19,
  kStmtReset = 0x1a,
  kSetOption = 0x1b,
  kStmtFetch = 0x1c,
  kDaemon = 0x1d,
  kBinlogDumpGtid = 0x1e,
  kResetConnection = 0x1f,
};

// Character set / collation ids a router meets.
namespace charset {
inline constexpr uint16_t kUtf8mb3GeneralCi = 33;
inline constexpr uint16_t kUtf8mb4GeneralCi = 45;
inline constexpr uint16_t kBinary = 63;
inline constexpr uint16_t kUtf8mb4_0900AiCi = 255;
}  // namespace charset

}  // namespace shoal::mysql
