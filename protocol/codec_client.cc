// Client messages: HandshakeResponse41, auth data and the commands (wire layouts in codec.h).
#include "common/logging.h"
#include "protocol/binary_value.h"
#include "protocol/codec.h"
#include "protocol/text_format.h"

namespace shoal::mysql {
namespace {

constexpr size_t kHandshakeFillerBytes = 23;
constexpr size_t kSslRequestSize = 32;

bool ReadCommand(Reader* in, Command command) {
  uint8_t byte;
  return in->ReadInt1(&byte) && byte == static_cast<uint8_t>(command);
}

void WriteCommand(Command command, Writer* out) { out->WriteInt1(static_cast<uint8_t>(command)); }

// int<lenenc> total | (string<lenenc> key | string<lenenc> value)*, all within `total` bytes.
bool ReadConnectAttrs(Reader* in, client::ConnectAttrs* out) {
  absl::string_view block;
  if (!in->ReadLenencString(&block)) return false;
  Reader attrs(block);
  while (!attrs.empty()) {
    absl::string_view key, value;
    if (!attrs.ReadLenencString(&key) || !attrs.ReadLenencString(&value)) return false;
    out->emplace_back(key, value);
  }
  return true;
}

void WriteConnectAttrs(const client::ConnectAttrs& attrs, Writer* out) {
  uint64_t total = 0;
  for (const auto& [key, value] : attrs) {
    total += Writer::LenencIntSize(key.size()) + key.size();
    total += Writer::LenencIntSize(value.size()) + value.size();
  }
  out->WriteLenencInt(total);
  for (const auto& [key, value] : attrs) {
    out->WriteLenencString(key);
    out->WriteLenencString(value);
  }
}

// string<NUL> if bytes remain, else empty (trailing optional field).
bool ReadOptionalNulString(Reader* in, absl::string_view* out) {
  *out = {};
  return in->empty() || in->ReadNulString(out);
}

bool ReadStatementId(Reader* in, Command command, uint32_t* id) {
  return ReadCommand(in, command) && in->ReadInt4(id);
}

}  // namespace

bool IsSslRequest(absl::Span<const uint8_t> payload) {
  Reader in(payload);
  uint32_t flags = 0;
  return payload.size() == kSslRequestSize && in.ReadInt4(&flags) &&
         (flags & capability::kSsl) != 0;
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/,
                    client::HandshakeResponse41* out) {
  Reader in(payload);
  if (!in.ReadInt4(&out->capabilities)) return DecodeStatus::kMalformed;
  const uint32_t flags = out->capabilities;
  if (!(flags & capability::kProtocol41)) return DecodeStatus::kUnsupported;
  if ((flags & capability::kSsl) && payload.size() == kSslRequestSize) {
    return DecodeStatus::kUnsupported;
  }
  if (!in.ReadInt4(&out->max_packet_size) || !in.ReadInt1(&out->charset) ||
      !in.Skip(kHandshakeFillerBytes) || !in.ReadNulString(&out->username)) {
    return DecodeStatus::kMalformed;
  }
  bool ok;
  if (flags & capability::kPluginAuthLenencClientData) {
    ok = in.ReadLenencString(&out->auth_response);
  } else if (flags & capability::kSecureConnection) {
    uint8_t len;
    ok = in.ReadInt1(&len) && in.ReadFixedString(len, &out->auth_response);
  } else {
    ok = in.ReadNulString(&out->auth_response);
  }
  if (!ok) return DecodeStatus::kMalformed;
  out->database = {};
  out->auth_plugin_name = {};
  out->connect_attrs.clear();
  out->zstd_level = 0;
  if ((flags & capability::kConnectWithDb) && !ReadOptionalNulString(&in, &out->database)) {
    return DecodeStatus::kMalformed;
  }
  if ((flags & capability::kPluginAuth) && !ReadOptionalNulString(&in, &out->auth_plugin_name)) {
    return DecodeStatus::kMalformed;
  }
  if ((flags & capability::kConnectAttrs) && !in.empty() &&
      !ReadConnectAttrs(&in, &out->connect_attrs)) {
    return DecodeStatus::kMalformed;
  }
  if ((flags & capability::kZstdCompression) && !in.empty() && !in.ReadInt1(&out->zstd_level)) {
    return DecodeStatus::kMalformed;
  }
  return in.Finish();
}

void Encode(const client::HandshakeResponse41& msg, uint32_t /*caps*/, Writer* out) {
  const uint32_t flags = msg.capabilities;
  out->WriteInt4(flags);
  out->WriteInt4(msg.max_packet_size);
  out->WriteInt1(msg.charset);
  out->WriteZeros(kHandshakeFillerBytes);
  out->WriteNulString(msg.username);
  if (flags & capability::kPluginAuthLenencClientData) {
    out->WriteLenencString(msg.auth_response);
  } else if (flags & capability::kSecureConnection) {
    absl::string_view response = msg.auth_response.substr(0, 0xFF);
    out->WriteInt1(static_cast<uint8_t>(response.size()));
    out->WriteBytes(response);
  } else {
    out->WriteNulString(msg.auth_response);
  }
  if (flags & capability::kConnectWithDb) out->WriteNulString(msg.database);
  if (flags & capability::kPluginAuth) out->WriteNulString(msg.auth_plugin_name);
  if (flags & capability::kConnectAttrs) WriteConnectAttrs(msg.connect_attrs, out);
  if (flags & capability::kZstdCompression) out->WriteInt1(msg.zstd_level);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/,
                    client::AuthSwitchResponse* out) {
  out->data = AsStringView(payload);
  return DecodeStatus::kOk;
}

void Encode(const client::AuthSwitchResponse& msg, uint32_t /*caps*/, Writer* out) {
  out->WriteBytes(msg.data);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, client::Query* out) {
  Reader in(payload);
  if (!ReadCommand(&in, Command::kQuery)) return DecodeStatus::kMalformed;
  out->query = in.ReadRest();
  return DecodeStatus::kOk;
}

void Encode(const client::Query& msg, uint32_t /*caps*/, Writer* out) {
  WriteCommand(Command::kQuery, out);
  out->WriteBytes(msg.query);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, client::InitDb* out) {
  Reader in(payload);
  if (!ReadCommand(&in, Command::kInitDb)) return DecodeStatus::kMalformed;
  out->schema = in.ReadRest();
  return DecodeStatus::kOk;
}

void Encode(const client::InitDb& msg, uint32_t /*caps*/, Writer* out) {
  WriteCommand(Command::kInitDb, out);
  out->WriteBytes(msg.schema);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, client::FieldList* out) {
  Reader in(payload);
  if (!ReadCommand(&in, Command::kFieldList) || !in.ReadNulString(&out->table)) {
    return DecodeStatus::kMalformed;
  }
  out->wildcard = in.ReadRest();
  return DecodeStatus::kOk;
}

void Encode(const client::FieldList& msg, uint32_t /*caps*/, Writer* out) {
  WriteCommand(Command::kFieldList, out);
  out->WriteNulString(msg.table);
  out->WriteBytes(msg.wildcard);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, client::SetOption* out) {
  Reader in(payload);
  if (!ReadCommand(&in, Command::kSetOption) || !in.ReadInt2(&out->option)) {
    return DecodeStatus::kMalformed;
  }
  return in.Finish();
}

void Encode(const client::SetOption& msg, uint32_t /*caps*/, Writer* out) {
  WriteCommand(Command::kSetOption, out);
  out->WriteInt2(msg.option);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t caps, client::ChangeUser* out) {
  Reader in(payload);
  if (!ReadCommand(&in, Command::kChangeUser) || !in.ReadNulString(&out->username)) {
    return DecodeStatus::kMalformed;
  }
  bool ok;
  if (caps & capability::kSecureConnection) {
    uint8_t len;
    ok = in.ReadInt1(&len) && in.ReadFixedString(len, &out->auth_response);
  } else {
    ok = in.ReadNulString(&out->auth_response);
  }
  if (!ok || !ReadOptionalNulString(&in, &out->database)) return DecodeStatus::kMalformed;
  out->charset = 0;
  out->auth_plugin_name = {};
  out->connect_attrs.clear();
  if (in.empty()) return DecodeStatus::kOk;
  if (!in.ReadInt2(&out->charset)) return DecodeStatus::kMalformed;
  if ((caps & capability::kPluginAuth) && !ReadOptionalNulString(&in, &out->auth_plugin_name)) {
    return DecodeStatus::kMalformed;
  }
  if ((caps & capability::kConnectAttrs) && !in.empty() &&
      !ReadConnectAttrs(&in, &out->connect_attrs)) {
    return DecodeStatus::kMalformed;
  }
  return in.Finish();
}

void Encode(const client::ChangeUser& msg, uint32_t caps, Writer* out) {
  WriteCommand(Command::kChangeUser, out);
  out->WriteNulString(msg.username);
  if (caps & capability::kSecureConnection) {
    absl::string_view response = msg.auth_response.substr(0, 0xFF);
    out->WriteInt1(static_cast<uint8_t>(response.size()));
    out->WriteBytes(response);
  } else {
    out->WriteNulString(msg.auth_response);
  }
  out->WriteNulString(msg.database);
  out->WriteInt2(msg.charset);
  if (caps & capability::kPluginAuth) out->WriteNulString(msg.auth_plugin_name);
  if (caps & capability::kConnectAttrs) WriteConnectAttrs(msg.connect_attrs, out);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/,
                    client::StmtPrepare* out) {
  Reader in(payload);
  if (!ReadCommand(&in, Command::kStmtPrepare)) return DecodeStatus::kMalformed;
  out->query = in.ReadRest();
  return DecodeStatus::kOk;
}

void Encode(const client::StmtPrepare& msg, uint32_t /*caps*/, Writer* out) {
  WriteCommand(Command::kStmtPrepare, out);
  out->WriteBytes(msg.query);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, uint16_t num_params,
                    absl::Span<const ParamType> previous_types, client::StmtExecute* out) {
  Reader in(payload);
  if (!ReadStatementId(&in, Command::kStmtExecute, &out->statement_id) ||
      !in.ReadInt1(&out->flags) || !in.ReadInt4(&out->iteration_count)) {
    return DecodeStatus::kMalformed;
  }
  out->new_params_bound = 0;
  out->param_types.clear();
  out->params.clear();
  if (num_params == 0) {
    // MySQL ignores what follows when the statement has no parameters; so do we.
    return DecodeStatus::kOk;
  }
  absl::string_view null_bitmap;
  if (!in.ReadFixedString((num_params + 7) / 8, &null_bitmap) ||
      !in.ReadInt1(&out->new_params_bound) || out->new_params_bound > 1) {
    return DecodeStatus::kMalformed;
  }
  if (out->new_params_bound) {
    out->param_types.resize(num_params);
    for (ParamType& param : out->param_types) {
      uint8_t type;
      if (!in.ReadInt1(&type) || !IsKnownColumnType(type) || !in.ReadInt1(&param.flags)) {
        return DecodeStatus::kMalformed;
      }
      param.type = static_cast<ColumnType>(type);
    }
  } else {
    if (previous_types.size() != num_params) return DecodeStatus::kMalformed;
    out->param_types.assign(previous_types.begin(), previous_types.end());
  }
  out->params.resize(num_params);
  for (uint16_t i = 0; i < num_params; ++i) {
    const bool is_null = (static_cast<uint8_t>(null_bitmap[i / 8]) >> (i % 8)) & 1;
    const ParamType& type = out->param_types[i];
    if (is_null) continue;  // resize() left a Null there
    if (!DecodeBinaryValue(&in, type.type, type.is_unsigned(), &out->params[i])) {
      return DecodeStatus::kMalformed;
    }
  }
  return in.Finish();
}

void Encode(const client::StmtExecute& msg, uint32_t /*caps*/, Writer* out) {
  SHOAL_CHECK(msg.param_types.size() == msg.params.size()) << "one type per parameter";
  WriteCommand(Command::kStmtExecute, out);
  out->WriteInt4(msg.statement_id);
  out->WriteInt1(msg.flags);
  out->WriteInt4(msg.iteration_count);
  const size_t n = msg.params.size();
  if (n == 0) return;
  const size_t bitmap_at = out->size();
  out->WriteZeros((n + 7) / 8);
  for (size_t i = 0; i < n; ++i) {
    if (IsNull(msg.params[i])) (*out->out())[bitmap_at + i / 8] |= static_cast<char>(1 << (i % 8));
  }
  out->WriteInt1(msg.new_params_bound ? 1 : 0);
  if (msg.new_params_bound) {
    for (const ParamType& type : msg.param_types) {
      out->WriteInt1(static_cast<uint8_t>(type.type));
      out->WriteInt1(type.flags);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (IsNull(msg.params[i])) continue;
    EncodeBinaryValue(msg.params[i], msg.param_types[i].type, kNotFixedDecimals, out);
  }
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/,
                    client::StmtSendLongData* out) {
  Reader in(payload);
  if (!ReadStatementId(&in, Command::kStmtSendLongData, &out->statement_id) ||
      !in.ReadInt2(&out->param_id)) {
    return DecodeStatus::kMalformed;
  }
  out->data = in.ReadRest();
  return DecodeStatus::kOk;
}

void Encode(const client::StmtSendLongData& msg, uint32_t /*caps*/, Writer* out) {
  WriteCommand(Command::kStmtSendLongData, out);
  out->WriteInt4(msg.statement_id);
  out->WriteInt2(msg.param_id);
  out->WriteBytes(msg.data);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, client::StmtClose* out) {
  Reader in(payload);
  if (!ReadStatementId(&in, Command::kStmtClose, &out->statement_id)) {
    return DecodeStatus::kMalformed;
  }
  return in.Finish();
}

void Encode(const client::StmtClose& msg, uint32_t /*caps*/, Writer* out) {
  WriteCommand(Command::kStmtClose, out);
  out->WriteInt4(msg.statement_id);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, client::StmtReset* out) {
  Reader in(payload);
  if (!ReadStatementId(&in, Command::kStmtReset, &out->statement_id)) {
    return DecodeStatus::kMalformed;
  }
  return in.Finish();
}

void Encode(const client::StmtReset& msg, uint32_t /*caps*/, Writer* out) {
  WriteCommand(Command::kStmtReset, out);
  out->WriteInt4(msg.statement_id);
}

DecodeStatus Decode(absl::Span<const uint8_t> payload, uint32_t /*caps*/, client::StmtFetch* out) {
  Reader in(payload);
  if (!ReadStatementId(&in, Command::kStmtFetch, &out->statement_id) ||
      !in.ReadInt4(&out->num_rows)) {
    return DecodeStatus::kMalformed;
  }
  return in.Finish();
}

void Encode(const client::StmtFetch& msg, uint32_t /*caps*/, Writer* out) {
  WriteCommand(Command::kStmtFetch, out);
  out->WriteInt4(msg.statement_id);
  out->WriteInt4(msg.num_rows);
}

}  // namespace shoal::mysql
