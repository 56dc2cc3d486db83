// Values in the binary protocol (COM_STMT_EXECUTE parameters and binary result rows), by type:
//
//   TINY int<1> | SHORT, YEAR int<2> | LONG, INT24 int<4> | LONGLONG int<8>
//   FLOAT 4-byte IEEE | DOUBLE 8-byte IEEE
//   DATE, DATETIME, TIMESTAMP: int<1> len (0|4|7|11) | year int<2> month day | hour min sec
//                               | microsecond int<4>
//   TIME: int<1> len (0|8|12) | is_negative int<1> | days int<4> | hour min sec
//         | microsecond int<4>
//   NULL: no bytes
//   DECIMAL, NEWDECIMAL, strings, blobs, ENUM, SET, BIT, JSON, GEOMETRY: string<lenenc>
#pragma once

#include <cstdint>

#include "protocol/constants.h"
#include "protocol/value.h"
#include "protocol/wire.h"

namespace shoal::mysql {

// True for the type bytes a client may send (the ColumnType enumerators).
bool IsKnownColumnType(uint8_t type);

// Reads one value of `type`: integers become int64_t (or uint64_t when `is_unsigned`), FLOAT
// and DOUBLE double, temporal types DateTime / Time, DECIMAL Decimal, the rest std::string.
// False when the bytes are truncated or malformed (the reader is then left anywhere).
bool DecodeBinaryValue(Reader* in, ColumnType type, bool is_unsigned, Value* out);

// Writes `v` (not Null) as a value of `type`, converting where the alternative does not match
// the type (an integer in a string column is written as its text, and so on). Temporal values
// use the shortest length that holds all their fields.
void EncodeBinaryValue(const Value& v, ColumnType type, uint8_t decimals, Writer* out);

}  // namespace shoal::mysql
