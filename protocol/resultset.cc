// Result-set and PREPARE_OK encoding (see resultset.h).
#include "protocol/resultset.h"

#include <algorithm>
#include <string>

#include "common/logging.h"
#include "common/utf8.h"
#include "protocol/binary_value.h"
#include "protocol/codec.h"
#include "protocol/packet.h"
#include "protocol/text_format.h"

namespace shoal::mysql {
namespace {

constexpr uint8_t kColumnFixedLength = 0x0c;
// A column's name is cut to this many bytes, at a character boundary, as MariaDB names a select
// item (its text, a string literal's value, or an alias): a 16 MiB literal selected bare makes
// a column name some drivers cannot read (mysql-connector-python's pure reader fails on it).
constexpr size_t kMaxColumnNameBytes = 255;
constexpr size_t kBinaryRowBitmapOffset = 2;

bool DeprecateEof(uint32_t caps) { return (caps & capability::kDeprecateEof) != 0; }

void AppendEof(uint16_t status_flags, uint16_t warnings, uint32_t caps, uint8_t* seq,
               std::string* out) {
  EncodePacket(server::Eof{warnings, status_flags}, caps, seq, out);
}

bool ReadOwnedLenenc(Reader* in, std::string* out) {
  absl::string_view s;
  if (!in->ReadLenencString(&s)) return false;
  out->assign(s.data(), s.size());
  return true;
}

}  // namespace

void EncodeColumnDefinition(const ColumnDefinition& column, Writer* out) {
  out->WriteLenencString("def");
  out->WriteLenencString(column.schema);
  out->WriteLenencString(column.table);
  out->WriteLenencString(column.org_table);
  out->WriteLenencString(Utf8Prefix(column.name, kMaxColumnNameBytes));
  out->WriteLenencString(column.org_name);
  out->WriteLenencInt(kColumnFixedLength);
  out->WriteInt2(column.charset);
  out->WriteInt4(column.length);
  out->WriteInt1(static_cast<uint8_t>(column.type));
  out->WriteInt2(column.flags);
  out->WriteInt1(column.decimals);
  out->WriteInt2(0);
}

DecodeStatus DecodeColumnDefinition(absl::Span<const uint8_t> payload, ColumnDefinition* out) {
  Reader in(payload);
  absl::string_view catalog;
  uint64_t fixed_length;
  uint8_t type;
  uint16_t filler;
  if (!in.ReadLenencString(&catalog) || !ReadOwnedLenenc(&in, &out->schema) ||
      !ReadOwnedLenenc(&in, &out->table) || !ReadOwnedLenenc(&in, &out->org_table) ||
      !ReadOwnedLenenc(&in, &out->name) || !ReadOwnedLenenc(&in, &out->org_name) ||
      !in.ReadLenencInt(&fixed_length) || fixed_length != kColumnFixedLength ||
      !in.ReadInt2(&out->charset) || !in.ReadInt4(&out->length) || !in.ReadInt1(&type) ||
      !IsKnownColumnType(type) || !in.ReadInt2(&out->flags) || !in.ReadInt1(&out->decimals) ||
      !in.ReadInt2(&filler)) {
    return DecodeStatus::kMalformed;
  }
  out->type = static_cast<ColumnType>(type);
  return DecodeStatus::kOk;  // COM_FIELD_LIST replies may carry a default value after this
}

namespace {

// BIT(M) values are numbers inside; on the wire, in both protocols, their (M + 7) / 8 bytes,
// most significant first. False for any other column or value.
bool BitBytes(const Value& v, const ColumnDefinition& column, std::string* out) {
  if (column.type != ColumnType::kBit) return false;
  uint64_t bits;
  if (const auto* u = std::get_if<uint64_t>(&v)) {
    bits = *u;
  } else if (const auto* i = std::get_if<int64_t>(&v)) {
    bits = static_cast<uint64_t>(*i);
  } else {
    return false;
  }
  const size_t bytes = std::clamp<size_t>((column.length + 7) / 8, 1, 8);
  out->clear();
  for (size_t b = bytes; b-- > 0;) out->push_back(static_cast<char>(bits >> (8 * b)));
  return true;
}

}  // namespace

void EncodeTextRow(absl::Span<const Value> row, absl::Span<const ColumnDefinition> columns,
                   Writer* out) {
  SHOAL_CHECK(row.size() == columns.size()) << "row width " << row.size();
  std::string text;
  for (size_t i = 0; i < row.size(); ++i) {
    const Value& v = row[i];
    if (IsNull(v)) {
      out->WriteInt1(kLenencNull);
    } else if (const auto* s = std::get_if<std::string>(&v)) {
      out->WriteLenencString(*s);
    } else if (BitBytes(v, columns[i], &text)) {
      out->WriteLenencString(text);
    } else {
      text.clear();
      AppendTextValue(v, columns[i].type, columns[i].decimals, &text);
      out->WriteLenencString(text);
    }
  }
}

void EncodeBinaryRow(absl::Span<const Value> row, absl::Span<const ColumnDefinition> columns,
                     Writer* out) {
  SHOAL_CHECK(row.size() == columns.size()) << "row width " << row.size();
  out->WriteInt1(0x00);
  const size_t bitmap_at = out->size();
  out->WriteZeros((row.size() + kBinaryRowBitmapOffset + 7) / 8);
  for (size_t i = 0; i < row.size(); ++i) {
    if (IsNull(row[i]) || columns[i].type == ColumnType::kNull) {
      const size_t bit = i + kBinaryRowBitmapOffset;
      (*out->out())[bitmap_at + bit / 8] |= static_cast<char>(1 << (bit % 8));
      continue;
    }
    if (std::string bits; BitBytes(row[i], columns[i], &bits)) {
      out->WriteLenencString(bits);
      continue;
    }
    EncodeBinaryValue(row[i], columns[i].type, columns[i].decimals, out);
  }
}

DecodeStatus DecodeTextRow(absl::Span<const uint8_t> payload,
                           absl::Span<const ColumnDefinition> columns, std::vector<Value>* out) {
  Reader in(payload);
  out->assign(columns.size(), Null{});
  for (Value& v : *out) {
    uint8_t first;
    if (!in.PeekInt1(&first)) return DecodeStatus::kMalformed;
    if (first == kLenencNull) {
      in.Skip(1);
      continue;
    }
    absl::string_view s;
    if (!in.ReadLenencString(&s)) return DecodeStatus::kMalformed;
    v = std::string(s);
  }
  return in.empty() ? DecodeStatus::kOk : DecodeStatus::kMalformed;
}

DecodeStatus DecodeBinaryRow(absl::Span<const uint8_t> payload,
                             absl::Span<const ColumnDefinition> columns, std::vector<Value>* out) {
  Reader in(payload);
  uint8_t header;
  absl::string_view bitmap;
  if (!in.ReadInt1(&header) || header != 0x00 ||
      !in.ReadFixedString((columns.size() + kBinaryRowBitmapOffset + 7) / 8, &bitmap)) {
    return DecodeStatus::kMalformed;
  }
  out->assign(columns.size(), Null{});
  for (size_t i = 0; i < columns.size(); ++i) {
    const size_t bit = i + kBinaryRowBitmapOffset;
    if ((static_cast<uint8_t>(bitmap[bit / 8]) >> (bit % 8)) & 1) continue;
    const bool is_unsigned = (columns[i].flags & column_flag::kUnsigned) != 0;
    if (!DecodeBinaryValue(&in, columns[i].type, is_unsigned, &(*out)[i])) {
      return DecodeStatus::kMalformed;
    }
  }
  return in.empty() ? DecodeStatus::kOk : DecodeStatus::kMalformed;
}

void AppendResultSetHeader(absl::Span<const ColumnDefinition> columns, uint32_t caps,
                           uint16_t status_flags, uint8_t* seq, std::string* out) {
  size_t start = StartPacket(out);
  Writer writer(out);
  writer.WriteLenencInt(columns.size());
  FinishPacket(start, seq, out);
  for (const ColumnDefinition& column : columns) {
    start = StartPacket(out);
    EncodeColumnDefinition(column, &writer);
    FinishPacket(start, seq, out);
  }
  if (!DeprecateEof(caps)) AppendEof(status_flags, 0, caps, seq, out);
}

void AppendRow(absl::Span<const Value> row, absl::Span<const ColumnDefinition> columns,
               RowFormat format, uint8_t* seq, std::string* out) {
  const size_t start = StartPacket(out);
  Writer writer(out);
  if (format == RowFormat::kText) {
    EncodeTextRow(row, columns, &writer);
  } else {
    EncodeBinaryRow(row, columns, &writer);
  }
  FinishPacket(start, seq, out);
}

void AppendResultSetEnd(uint16_t status_flags, uint16_t warnings, uint32_t caps, uint8_t* seq,
                        std::string* out) {
  if (DeprecateEof(caps)) {
    server::Ok ok;
    ok.header = server::OkHeader::kEndOfRows;
    ok.status_flags = status_flags;
    ok.warnings = warnings;
    EncodePacket(ok, caps, seq, out);
  } else {
    AppendEof(status_flags, warnings, caps, seq, out);
  }
}

void AppendResultSet(const ResultSet& result, RowFormat format, uint32_t caps,
                     uint16_t status_flags, uint16_t warnings, uint8_t* seq, std::string* out) {
  AppendResultSetHeader(result.columns, caps, status_flags, seq, out);
  for (const std::vector<Value>& row : result.rows) {
    AppendRow(row, result.columns, format, seq, out);
  }
  AppendResultSetEnd(status_flags, warnings, caps, seq, out);
}

ColumnDefinition PrepareParamDefinition() {
  ColumnDefinition param;
  param.name = "?";
  param.type = ColumnType::kNull;
  param.charset = charset::kBinary;
  param.flags = column_flag::kBinary;
  param.length = 0;
  return param;
}

void AppendPrepareOk(uint32_t statement_id, uint16_t num_params,
                     absl::Span<const ColumnDefinition> columns, uint16_t warnings, uint32_t caps,
                     uint16_t status_flags, uint8_t* seq, std::string* out) {
  server::PrepareOk ok;
  ok.statement_id = statement_id;
  ok.num_columns = static_cast<uint16_t>(columns.size());
  ok.num_params = num_params;
  ok.warnings = warnings;
  EncodePacket(ok, caps, seq, out);
  if (num_params > 0) {
    const ColumnDefinition param = PrepareParamDefinition();
    for (uint16_t i = 0; i < num_params; ++i) {
      const size_t start = StartPacket(out);
      Writer writer(out);
      EncodeColumnDefinition(param, &writer);
      FinishPacket(start, seq, out);
    }
    if (!DeprecateEof(caps)) AppendEof(status_flags, 0, caps, seq, out);
  }
  if (!columns.empty()) {
    for (const ColumnDefinition& column : columns) {
      const size_t start = StartPacket(out);
      Writer writer(out);
      EncodeColumnDefinition(column, &writer);
      FinishPacket(start, seq, out);
    }
    if (!DeprecateEof(caps)) AppendEof(status_flags, 0, caps, seq, out);
  }
}

}  // namespace shoal::mysql
