// Result sets and PREPARE_OK responses, encoded as complete packets (with sequence ids) into
// a std::string. The pieces are exposed so a streaming encoder can send the header first and
// rows as they arrive:
//
//   text/binary result set: column count | ColumnDefinition41 × N | [EOF] | row* | end
//     where [EOF] is omitted with CLIENT_DEPRECATE_EOF and `end` is EOF (FE warnings status)
//     or, with CLIENT_DEPRECATE_EOF, an OK packet with header 0xFE.
//   PREPARE_OK: PrepareOk | param definitions | [EOF] | column definitions | [EOF]
//     where each [EOF] is omitted with CLIENT_DEPRECATE_EOF or when its section is empty.
//
// Every Append* function appends whole packets to `out`, starting with sequence id `*seq` and
// leaving `*seq` at the id of the next packet.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "protocol/column.h"
#include "protocol/messages.h"
#include "protocol/value.h"
#include "protocol/wire.h"

namespace shoal::mysql {

enum class RowFormat : uint8_t {
  kText,    // COM_QUERY: every value a string<lenenc>, NULL = 0xFB
  kBinary,  // COM_STMT_EXECUTE: 0x00 | null bitmap (offset 2) | typed values
};

// string<lenenc> "def" | string<lenenc> schema | string<lenenc> table | string<lenenc> org_table
// | string<lenenc> name | string<lenenc> org_name | int<lenenc> 0x0c | int<2> charset
// | int<4> length | int<1> type | int<2> flags | int<1> decimals | int<2> 0x0000
void EncodeColumnDefinition(const ColumnDefinition& column, Writer* out);
// Test-client side. On kOk the strings are copied into `*out`.
DecodeStatus DecodeColumnDefinition(absl::Span<const uint8_t> payload, ColumnDefinition* out);

// One row payload. REQUIRES: row.size() == columns.size().
// Text: (string<lenenc> value | 0xFB)*, values formatted as in text_format.h.
// Binary: int<1> 0x00 | null bitmap ((N+9)/8 bytes, bit i+2 for column i) | values of the
// non-NULL columns by column type (binary_value.h).
void EncodeTextRow(absl::Span<const Value> row, absl::Span<const ColumnDefinition> columns,
                   Writer* out);
void EncodeBinaryRow(absl::Span<const Value> row, absl::Span<const ColumnDefinition> columns,
                     Writer* out);
// Test-client side: decodes a row of `columns`. Text values come back as std::string (NULL as
// Null); binary ones as binary_value.h decodes them.
DecodeStatus DecodeTextRow(absl::Span<const uint8_t> payload,
                           absl::Span<const ColumnDefinition> columns, std::vector<Value>* out);
DecodeStatus DecodeBinaryRow(absl::Span<const uint8_t> payload,
                             absl::Span<const ColumnDefinition> columns, std::vector<Value>* out);

// Column count, the definitions and (without DEPRECATE_EOF) the EOF that ends them.
void AppendResultSetHeader(absl::Span<const ColumnDefinition> columns, uint32_t caps,
                           uint16_t status_flags, uint8_t* seq, std::string* out);
void AppendRow(absl::Span<const Value> row, absl::Span<const ColumnDefinition> columns,
               RowFormat format, uint8_t* seq, std::string* out);
// The EOF or 0xFE-OK after the rows. Set status::kMoreResultsExist in `status_flags` when
// another result follows.
void AppendResultSetEnd(uint16_t status_flags, uint16_t warnings, uint32_t caps, uint8_t* seq,
                        std::string* out);
// All of the above for a whole result set.
void AppendResultSet(const ResultSet& result, RowFormat format, uint32_t caps,
                     uint16_t status_flags, uint16_t warnings, uint8_t* seq, std::string* out);

// What MySQL 8.0 sends for each `?` in PREPARE_OK: name "?", type NULL, charset binary (63),
// flags BINARY, length 0 (CLIENTS.md §6.2).
ColumnDefinition PrepareParamDefinition();

// PREPARE_OK followed by `num_params` PrepareParamDefinition()s and the column definitions.
void AppendPrepareOk(uint32_t statement_id, uint16_t num_params,
                     absl::Span<const ColumnDefinition> columns, uint16_t warnings, uint32_t caps,
                     uint16_t status_flags, uint8_t* seq, std::string* out);

}  // namespace shoal::mysql
