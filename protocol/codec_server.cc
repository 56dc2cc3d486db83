// Server messages: Greeting, OK, ERR, EOF, AuthSwitchRequest, AuthMoreData, LocalInfileRequest,
// PREPARE_OK (wire layouts in codec.h), plus the small peek helpers.
#include <algorithm>

#include "protocol/codec.h"

namespace shoal::mysql {
namespace {

constexpr uint8_t kOkHeader = 0x00;
constexpr uint8_t kEofHeader = 0xFE;
constexpr uint8_t kErrHeader = 0xFF;
constexpr uint8_t kAuthMoreDataHeader = 0x01;
constexpr uint8_t kLocalInfileHeader = 0xFB;
constexpr size_t kGreetingReservedBytes = 10;

}  // namespace

bool PeekCommand(absl::Span<const uint8_t> payload, Command* out) {
  if (payload.empty()) return false;
  *out = static_cast<Command>(payload[0]);
  return true;
}

bool PeekStatementId(absl::Span<const uint8_t> payload, uint32_t* out) {
  Reader in(payload);
  return in.Skip(1) && in.ReadInt4(out);
}

bool IsEofPacket(absl::Span<const uint8_t> payload) {
  return !payload.empty() && payload[0] == kEofHeader && payload.size() < 9;
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, server::Greeting* out) {
  Reader in(payload);
  uint16_t caps_low, caps_high;
  uint8_t filler, data_len;
  absl::string_view part1, reserved;
  if (!in.ReadInt1(&out->protocol_version) || !in.ReadNulString(&out->server_version) ||
      !in.ReadInt4(&out->connection_id) || !in.ReadFixedString(8, &part1) ||
      !in.ReadInt1(&filler) || !in.ReadInt2(&caps_low) || !in.ReadInt1(&out->charset) ||
      !in.ReadInt2(&out->status_flags) || !in.ReadInt2(&caps_high) || !in.ReadInt1(&data_len) ||
      !in.ReadFixedString(kGreetingReservedBytes, &reserved)) {
    return DecodeStatus::kMalformed;
  }
  if (out->protocol_version != 10) return DecodeStatus::kUnsupported;
  out->capabilities = caps_low | (static_cast<uint32_t>(caps_high) << 16);
  out->auth_plugin_data.assign(part1.data(), part1.size());
  if (out->capabilities & capability::kSecureConnection) {
    const size_t part2_len = (out->capabilities & capability::kPluginAuth)
                                 ? std::max<size_t>(13, data_len > 8 ? data_len - 8u : 0u)
                                 : 13;
    absl::string_view part2;
    // Part 2 always ends with a NUL, which is not part of the scramble.
    if (!in.ReadFixedString(part2_len, &part2) || part2.back() != '\0') {
      return DecodeStatus::kMalformed;
    }
    part2.remove_suffix(1);
    out->auth_plugin_data.append(part2.data(), part2.size());
  }
  out->auth_plugin_name = {};
  if (out->capabilities & capability::kPluginAuth) {
    // Some servers omit the final NUL.
    if (!in.ReadNulString(&out->auth_plugin_name)) out->auth_plugin_name = in.ReadRest();
  }
  return in.Finish();
}

void Encode(const server::Greeting& msg, uint32_t /*caps*/, Writer* out) {
  absl::string_view scramble = msg.auth_plugin_data;
  absl::string_view part1 = scramble.substr(0, 8);
  absl::string_view part2 = scramble.substr(std::min<size_t>(8, scramble.size()));
  out->WriteInt1(msg.protocol_version);
  out->WriteNulString(msg.server_version);
  out->WriteInt4(msg.connection_id);
  out->WriteBytes(part1);
  out->WriteZeros(8 - part1.size());
  out->WriteInt1(0);  // filler
  out->WriteInt2(static_cast<uint16_t>(msg.capabilities & 0xFFFF));
  out->WriteInt1(msg.charset);
  out->WriteInt2(msg.status_flags);
  out->WriteInt2(static_cast<uint16_t>(msg.capabilities >> 16));
  // Part 2 is the rest of the scramble plus a NUL: 13 bytes, or more for a longer scramble
  // (then announced in auth_plugin_data_len, which only exists with PLUGIN_AUTH).
  const bool plugin_auth = (msg.capabilities & capability::kPluginAuth) != 0;
  part2 = part2.substr(0, plugin_auth ? 0xFF - 8 - 1 : 12);
  const size_t part2_len = std::max<size_t>(13, part2.size() + 1);
  out->WriteInt1(plugin_auth ? static_cast<uint8_t>(8 + part2_len) : 0);
  // All ten reserved bytes zero: with capability bit 0 set, clients stay in MySQL mode.
  out->WriteZeros(kGreetingReservedBytes);
  if (msg.capabilities & capability::kSecureConnection) {
    out->WriteBytes(part2);
    out->WriteZeros(part2_len - part2.size());
  }
  if (msg.capabilities & capability::kPluginAuth) out->WriteNulString(msg.auth_plugin_name);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, server::Ok* out) {
  Reader in(payload);
  uint8_t header;
  if (!in.ReadInt1(&header) || (header != kOkHeader && header != kEofHeader)) {
    return DecodeStatus::kMalformed;
  }
  out->header = static_cast<server::OkHeader>(header);
  if (!in.ReadLenencInt(&out->affected_rows) || !in.ReadLenencInt(&out->last_insert_id) ||
      !in.ReadInt2(&out->status_flags) || !in.ReadInt2(&out->warnings)) {
    return DecodeStatus::kMalformed;
  }
  out->info = {};
  out->session_state_info = {};
  if (in.empty()) return DecodeStatus::kOk;
  if (!in.ReadLenencString(&out->info)) return DecodeStatus::kMalformed;
  if ((caps & capability::kSessionTrack) && (out->status_flags & status::kSessionStateChanged) &&
      !in.empty()) {
    if (!in.ReadLenencString(&out->session_state_info)) return DecodeStatus::kMalformed;
  }
  return in.Finish();
}

void Encode(const server::Ok& msg, uint32_t caps, Writer* out) {
  out->WriteInt1(static_cast<uint8_t>(msg.header));
  out->WriteLenencInt(msg.affected_rows);
  out->WriteLenencInt(msg.last_insert_id);
  out->WriteInt2(msg.status_flags);
  out->WriteInt2(msg.warnings);
  const bool state_changed =
      (caps & capability::kSessionTrack) && (msg.status_flags & status::kSessionStateChanged);
  if (state_changed || !msg.info.empty()) out->WriteLenencString(msg.info);
  if (state_changed) out->WriteLenencString(msg.session_state_info);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, server::Err* out) {
  Reader in(payload);
  uint8_t header;
  if (!in.ReadInt1(&header) || header != kErrHeader || !in.ReadInt2(&out->code)) {
    return DecodeStatus::kMalformed;
  }
  out->sqlstate = {};
  uint8_t marker;
  if ((caps & capability::kProtocol41) && in.PeekInt1(&marker) && marker == '#') {
    in.Skip(1);
    if (!in.ReadFixedString(5, &out->sqlstate)) return DecodeStatus::kMalformed;
  }
  out->message = in.ReadRest();
  return DecodeStatus::kOk;
}

void Encode(const server::Err& msg, uint32_t caps, Writer* out) {
  out->WriteInt1(kErrHeader);
  out->WriteInt2(msg.code);
  // Decoded ERRs without a SQLSTATE (pre-4.1 style) re-encode without one.
  if ((caps & capability::kProtocol41) && !msg.sqlstate.empty()) {
    out->WriteInt1('#');
    absl::string_view state = msg.sqlstate.substr(0, 5);
    out->WriteBytes(state);
    for (size_t i = state.size(); i < 5; ++i) out->WriteInt1('0');
  }
  out->WriteBytes(msg.message);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, server::Eof* out) {
  Reader in(payload);
  uint8_t header;
  if (!in.ReadInt1(&header) || header != kEofHeader || !in.ReadInt2(&out->warnings) ||
      !in.ReadInt2(&out->status_flags)) {
    return DecodeStatus::kMalformed;
  }
  return in.Finish();
}

void Encode(const server::Eof& msg, uint32_t /*caps*/, Writer* out) {
  out->WriteInt1(kEofHeader);
  out->WriteInt2(msg.warnings);
  out->WriteInt2(msg.status_flags);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/,
                    server::AuthSwitchRequest* out) {
  Reader in(payload);
  uint8_t header;
  if (!in.ReadInt1(&header) || header != kEofHeader || !in.ReadNulString(&out->plugin_name)) {
    return DecodeStatus::kMalformed;
  }
  out->plugin_data = in.ReadRest();
  if (!out->plugin_data.empty() && out->plugin_data.back() == '\0') {
    out->plugin_data.remove_suffix(1);
  }
  return DecodeStatus::kOk;
}

void Encode(const server::AuthSwitchRequest& msg, uint32_t /*caps*/, Writer* out) {
  out->WriteInt1(kEofHeader);
  out->WriteNulString(msg.plugin_name);
  out->WriteNulString(msg.plugin_data);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/,
                    server::AuthMoreData* out) {
  Reader in(payload);
  uint8_t header;
  if (!in.ReadInt1(&header) || header != kAuthMoreDataHeader) return DecodeStatus::kMalformed;
  out->data = in.ReadRest();
  return DecodeStatus::kOk;
}

void Encode(const server::AuthMoreData& msg, uint32_t /*caps*/, Writer* out) {
  out->WriteInt1(kAuthMoreDataHeader);
  out->WriteBytes(msg.data);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/,
                    server::LocalInfileRequest* out) {
  Reader in(payload);
  uint8_t header;
  if (!in.ReadInt1(&header) || header != kLocalInfileHeader) return DecodeStatus::kMalformed;
  out->filename = in.ReadRest();
  return DecodeStatus::kOk;
}

void Encode(const server::LocalInfileRequest& msg, uint32_t /*caps*/, Writer* out) {
  out->WriteInt1(kLocalInfileHeader);
  out->WriteBytes(msg.filename);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, server::PrepareOk* out) {
  Reader in(payload);
  uint8_t header, filler;
  if (!in.ReadInt1(&header) || header != kOkHeader || !in.ReadInt4(&out->statement_id) ||
      !in.ReadInt2(&out->num_columns) || !in.ReadInt2(&out->num_params) || !in.ReadInt1(&filler) ||
      !in.ReadInt2(&out->warnings)) {
    return DecodeStatus::kMalformed;
  }
  return in.Finish();
}

void Encode(const server::PrepareOk& msg, uint32_t /*caps*/, Writer* out) {
  out->WriteInt1(kOkHeader);
  out->WriteInt4(msg.statement_id);
  out->WriteInt2(msg.num_columns);
  out->WriteInt2(msg.num_params);
  out->WriteInt1(0);
  out->WriteInt2(msg.warnings);
}

}  // namespace shoal::mysql
