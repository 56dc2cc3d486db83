// Fuzzes message decoding: whatever a client (or, for the test client, a server) sends, Decode
// never crashes, and a message that decodes re-encodes to bytes that decode to the same
// message (doubles compared bit for bit, so NaNs do not count as differences).
//
// Input: int<1> kind | int<1> caps selector | [StmtExecute: int<1> num_params |
// int<1> previous types selector] | payload.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "protocol/codec.h"

namespace {

using namespace shoal::mysql;  // NOLINT: a fuzz target, not a library

constexpr uint32_t kCapsChoices[] = {
    kServerCapabilities,
    kServerCapabilities | capability::kSessionTrack,
    kServerCapabilities & ~capability::kDeprecateEof,
    capability::kProtocol41,
    capability::kProtocol41 | capability::kSecureConnection,
    capability::kProtocol41 | capability::kPluginAuth | capability::kConnectAttrs,
    0,
    0xFFFFFFFF,
};

bool SameValue(const Value& a, const Value& b) {
  const auto* da = std::get_if<double>(&a);
  const auto* db = std::get_if<double>(&b);
  if (da != nullptr && db != nullptr) return std::memcmp(da, db, sizeof(double)) == 0;
  return a == b;
}

bool Same(const client::StmtExecute& a, const client::StmtExecute& b) {
  if (a.statement_id != b.statement_id || a.flags != b.flags ||
      a.iteration_count != b.iteration_count || a.new_params_bound != b.new_params_bound ||
      a.param_types != b.param_types || a.params.size() != b.params.size()) {
    return false;
  }
  for (size_t i = 0; i < a.params.size(); ++i) {
    if (!SameValue(a.params[i], b.params[i])) return false;
  }
  return true;
}

template <typename T>
bool Same(const T& a, const T& b) {
  return a == b;
}

absl::Span<const uint8_t> Bytes(const std::string& s) {
  return absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

template <typename T>
void RoundTrip(absl::Span<const uint8_t> payload, uint32_t caps) {
  T first;
  if (Decode(payload, caps, &first) != DecodeStatus::kOk) return;
  std::string encoded;
  Writer writer(&encoded);
  Encode(first, caps, &writer);
  T second;
  if (Decode(Bytes(encoded), caps, &second) != DecodeStatus::kOk || !Same(first, second)) {
    std::abort();
  }
}

void RoundTripExecute(absl::Span<const uint8_t> payload, uint32_t caps, uint16_t num_params,
                      absl::Span<const ParamType> previous) {
  client::StmtExecute first;
  if (Decode(payload, caps, num_params, previous, &first) != DecodeStatus::kOk) return;
  std::string encoded;
  Writer writer(&encoded);
  Encode(first, caps, &writer);
  client::StmtExecute second;
  if (Decode(Bytes(encoded), caps, num_params, previous, &second) != DecodeStatus::kOk ||
      !Same(first, second)) {
    std::abort();
  }
  // The types of a bound execute serve the next one, as a session would use them.
  if (first.new_params_bound) {
    client::StmtExecute reuse = first;
    reuse.new_params_bound = 0;
    std::string later;
    Writer w(&later);
    Encode(reuse, caps, &w);
    client::StmtExecute third;
    if (Decode(Bytes(later), caps, num_params, first.param_types, &third) != DecodeStatus::kOk ||
        !Same(reuse, third)) {
      std::abort();
    }
  }
}

// Remembered types for a statement without new_params_bound: a rotation of the common ones.
std::vector<ParamType> PreviousTypes(uint16_t num_params, uint8_t selector) {
  static constexpr ColumnType kTypes[] = {
      ColumnType::kLongLong, ColumnType::kVarString, ColumnType::kLong,  ColumnType::kTiny,
      ColumnType::kDouble,   ColumnType::kDateTime,  ColumnType::kTime,  ColumnType::kNewDecimal,
      ColumnType::kFloat,    ColumnType::kNull,      ColumnType::kShort, ColumnType::kBlob,
  };
  std::vector<ParamType> types;
  if (selector & 0x80) return types;  // nothing remembered
  for (uint16_t i = 0; i < num_params; ++i) {
    const size_t k = (selector + i * 5u) % (sizeof(kTypes) / sizeof(kTypes[0]));
    types.push_back(ParamType{kTypes[k], static_cast<uint8_t>(((selector >> i) & 1) ? 0x80 : 0)});
  }
  return types;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint8_t kind = data[0];
  const uint32_t caps = kCapsChoices[data[1] % (sizeof(kCapsChoices) / sizeof(kCapsChoices[0]))];
  absl::Span<const uint8_t> payload(data + 2, size - 2);
  switch (kind % 24) {
    case 0:
      return RoundTrip<client::HandshakeResponse41>(payload, caps), 0;
    case 1:
      return RoundTrip<client::Query>(payload, caps), 0;
    case 2: {
      if (payload.size() < 2) return 0;
      const uint16_t num_params = payload[0] % 24;
      const std::vector<ParamType> previous = PreviousTypes(num_params, payload[1]);
      RoundTripExecute(payload.subspan(2), caps, num_params, previous);
      return 0;
    }
    case 3:
      return RoundTrip<client::StmtSendLongData>(payload, caps), 0;
    case 4:
      return RoundTrip<client::StmtClose>(payload, caps), 0;
    case 5:
      return RoundTrip<client::StmtReset>(payload, caps), 0;
    case 6:
      return RoundTrip<client::StmtFetch>(payload, caps), 0;
    case 7:
      return RoundTrip<client::InitDb>(payload, caps), 0;
    case 8:
      return RoundTrip<client::FieldList>(payload, caps), 0;
    case 9:
      return RoundTrip<client::SetOption>(payload, caps), 0;
    case 10:
      return RoundTrip<client::ChangeUser>(payload, caps), 0;
    case 11:
      return RoundTrip<client::StmtPrepare>(payload, caps), 0;
    case 12:
      return RoundTrip<client::AuthSwitchResponse>(payload, caps), 0;
    case 13:
      return RoundTrip<server::Greeting>(payload, caps), 0;
    case 14:
      return RoundTrip<server::Ok>(payload, caps), 0;
    case 15:
      return RoundTrip<server::Err>(payload, caps), 0;
    case 16:
      return RoundTrip<server::Eof>(payload, caps), 0;
    case 17:
      return RoundTrip<server::AuthSwitchRequest>(payload, caps), 0;
    case 18:
      return RoundTrip<server::AuthMoreData>(payload, caps), 0;
    case 19:
      return RoundTrip<server::PrepareOk>(payload, caps), 0;
    default:
      // Whatever the command byte says, the session's dispatch must cope: peek only.
      Command command;
      uint32_t id;
      (void)PeekCommand(payload, &command);
      (void)PeekStatementId(payload, &id);
      return 0;
  }
}
