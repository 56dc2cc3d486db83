// Encoding and decoding of the messages in messages.h, in both directions: the server decodes
// client messages and encodes server messages; tests, fuzz targets and a test client use the
// reverse. `caps` is the negotiated capability word (the server's before the handshake
// response; for HandshakeResponse41 the parse follows the client's own word, as MySQL does).
//
// Decode(payload, caps, out) reads one whole payload (the packet framing already removed,
// see packet.h) and returns kOk only if the payload is fully consumed by the message (trailing
// garbage is kMalformed, except where MySQL itself ignores extra bytes, noted per message).
// On kOk, string_view fields of `*out` borrow `payload`. On failure `*out` is unspecified.
// Encode(msg, caps, writer) appends the payload (no packet header; see EncodePacket).
// Decoding never allocates except for vectors of attrs/params and Value strings.
#pragma once

#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "protocol/messages.h"
#include "protocol/packet.h"
#include "protocol/sql_error.h"
#include "protocol/wire.h"

namespace shoal::mysql {

// The first byte of a command payload; false when the payload is empty.
bool PeekCommand(absl::Span<const uint8_t> payload, Command* out);
// COM_STMT_EXECUTE etc.: the statement id at bytes 1..4, to find the statement before decoding.
bool PeekStatementId(absl::Span<const uint8_t> payload, uint32_t* out);
// An EOF packet (0xFE header, shorter than 9 bytes) as opposed to an OK with header 0xFE.
bool IsEofPacket(absl::Span<const uint8_t> payload);

// ---- Server messages -------------------------------------------------------------------

// An ERR packet for `error`; borrows its strings.
inline server::Err ToErr(const SqlError& error) {
  return server::Err{error.code, error.sqlstate, error.message};
}

// int<1> 10 | string<NUL> server_version | int<4> connection_id | string[8] scramble_1
// | int<1> 0x00 | int<2> capabilities_low | int<1> charset | int<2> status_flags
// | int<2> capabilities_high | int<1> auth_plugin_data_len (21) | string[10] reserved (zero)
// | string[max(13, len-8)] scramble_2 + NUL | string<NUL> auth_plugin_name
// Encode pads a scramble shorter than 20 bytes with zeros.
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, server::Greeting* out);
void Encode(const server::Greeting& msg, uint32_t caps, Writer* out);

// int<1> 0x00 or 0xFE | int<lenenc> affected_rows | int<lenenc> last_insert_id
// | int<2> status_flags | int<2> warnings
// | [string<lenenc> info, present when non-empty (or, with SESSION_TRACK, when state changed)]
// | [string<lenenc> session_state_info: SESSION_TRACK and SERVER_SESSION_STATE_CHANGED only]
// MySQL 8 writes info as string<lenenc> with or without SESSION_TRACK; so do we.
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, server::Ok* out);
void Encode(const server::Ok& msg, uint32_t caps, Writer* out);

// int<1> 0xFF | int<2> code | [string[1] '#' | string[5] sqlstate  (PROTOCOL_41)]
// | string<EOF> message
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, server::Err* out);
void Encode(const server::Err& msg, uint32_t caps, Writer* out);

// int<1> 0xFE | int<2> warnings | int<2> status_flags
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, server::Eof* out);
void Encode(const server::Eof& msg, uint32_t caps, Writer* out);

// int<1> 0xFE | string<NUL> plugin_name | string<EOF> plugin_data (scramble + NUL)
// The encoder appends the NUL after plugin_data; the decoder strips one.
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps,
                    server::AuthSwitchRequest* out);
void Encode(const server::AuthSwitchRequest& msg, uint32_t caps, Writer* out);

// int<1> 0x01 | string<EOF> data
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, server::AuthMoreData* out);
void Encode(const server::AuthMoreData& msg, uint32_t caps, Writer* out);

// int<1> 0x00 | int<4> statement_id | int<2> num_columns | int<2> num_params | int<1> 0x00
// | int<2> warnings
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, server::PrepareOk* out);
void Encode(const server::PrepareOk& msg, uint32_t caps, Writer* out);

// int<1> 0xFB | string<EOF> filename
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps,
                    server::LocalInfileRequest* out);
void Encode(const server::LocalInfileRequest& msg, uint32_t caps, Writer* out);

// ---- Client messages -------------------------------------------------------------------

// int<4> capabilities | int<4> max_packet_size | int<1> charset | string[23] filler
// | string<NUL> username
// | auth_response: string<lenenc> (PLUGIN_AUTH_LENENC_CLIENT_DATA)
//                 | int<1> len + string[len] (SECURE_CONNECTION) | string<NUL>
// | [string<NUL> database (CONNECT_WITH_DB)] | [string<NUL> auth_plugin_name (PLUGIN_AUTH)]
// | [int<lenenc> attrs_length | (string<lenenc> key | string<lenenc> value)* (CONNECT_ATTRS)]
// | [int<1> zstd_level (ZSTD_COMPRESSION_ALGORITHM)]
// Trailing optional fields may be absent (decoded as empty), as MySQL tolerates.
// kUnsupported without CLIENT_PROTOCOL_41 (HandshakeResponse320) and for an SSLRequest
// (IsSslRequest).
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps,
                    client::HandshakeResponse41* out);
// An SSLRequest: the first 32 bytes of a HandshakeResponse41 (capabilities with CLIENT_SSL,
// max packet size, charset, filler) and nothing more; TLS starts after it.
bool IsSslRequest(absl::Span<const uint8_t> payload);
void Encode(const client::HandshakeResponse41& msg, uint32_t caps, Writer* out);

// string<EOF> data (the whole payload)
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps,
                    client::AuthSwitchResponse* out);
void Encode(const client::AuthSwitchResponse& msg, uint32_t caps, Writer* out);

// int<1> 0x03 | string<EOF> query
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, client::Query* out);
void Encode(const client::Query& msg, uint32_t caps, Writer* out);

// int<1> 0x02 | string<EOF> schema
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, client::InitDb* out);
void Encode(const client::InitDb& msg, uint32_t caps, Writer* out);

// int<1> 0x04 | string<NUL> table | string<EOF> wildcard
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, client::FieldList* out);
void Encode(const client::FieldList& msg, uint32_t caps, Writer* out);

// int<1> 0x1b | int<2> option
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, client::SetOption* out);
void Encode(const client::SetOption& msg, uint32_t caps, Writer* out);

// int<1> 0x11 | string<NUL> username
// | auth_response: int<1> len + string[len] (SECURE_CONNECTION) | string<NUL>
// | string<NUL> database | [int<2> charset | [string<NUL> auth_plugin_name (PLUGIN_AUTH)]
// | [int<lenenc> attrs_length | pairs (CONNECT_ATTRS)]]
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, client::ChangeUser* out);
void Encode(const client::ChangeUser& msg, uint32_t caps, Writer* out);

// int<1> 0x16 | string<EOF> query
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, client::StmtPrepare* out);
void Encode(const client::StmtPrepare& msg, uint32_t caps, Writer* out);

// int<1> 0x17 | int<4> statement_id | int<1> flags | int<4> iteration_count
// | if num_params > 0: string[(num_params+7)/8] null_bitmap | int<1> new_params_bound
//   | if new_params_bound: num_params × (int<1> type | int<1> flags (0x80 unsigned))
//   | values of the non-NULL parameters, see binary_value.h
// The statement's parameter count and the types bound by its previous execute come from the
// session (`previous_types`, empty if none). kMalformed when new_params_bound is 0 but no
// types were bound before (MySQL answers 1210 Incorrect arguments to mysqld_stmt_execute).
// On kOk, out->param_types holds the effective types: store them on the statement when
// out->new_params_bound is 1, for the next execute.
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, uint16_t num_params,
                    absl::Span<const ParamType> previous_types, client::StmtExecute* out);
// REQUIRES: msg.param_types.size() == msg.params.size().
void Encode(const client::StmtExecute& msg, uint32_t caps, Writer* out);

// int<1> 0x18 | int<4> statement_id | int<2> param_id | string<EOF> data
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps,
                    client::StmtSendLongData* out);
void Encode(const client::StmtSendLongData& msg, uint32_t caps, Writer* out);

// int<1> 0x19 | int<4> statement_id
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, client::StmtClose* out);
void Encode(const client::StmtClose& msg, uint32_t caps, Writer* out);

// int<1> 0x1a | int<4> statement_id
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, client::StmtReset* out);
void Encode(const client::StmtReset& msg, uint32_t caps, Writer* out);

// int<1> 0x1c | int<4> statement_id | int<4> num_rows
DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, client::StmtFetch* out);
void Encode(const client::StmtFetch& msg, uint32_t caps, Writer* out);

// Appends `msg` as a complete packet (or packets) with sequence id *seq, advancing it.
template <typename T>
void EncodePacket(const T& msg, uint32_t caps, uint8_t* seq, std::string* out) {
  const size_t start = StartPacket(out);
  Writer writer(out);
  Encode(msg, caps, &writer);
  FinishPacket(start, seq, out);
}

}  // namespace shoal::mysql
