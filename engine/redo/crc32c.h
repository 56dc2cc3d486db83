// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of every redo record,
// checkpoint block and the node state file. With SSE 4.2's CRC32 instruction where the CPU has
// it, else table-driven (slicing-by-8); our own code: this abseil (20220623) has no absl/crc and
// we take no new dependency for 60 lines.
//
// Stateless and thread-safe (the tables are constant).
#pragma once

#include <cstdint>

#include "absl/strings/string_view.h"

namespace shoal::redo {

// The CRC-32C of `data`, continuing from `crc` (the result of a previous call over the bytes
// before, or 0 to start): Crc32c(a + b) == Crc32c(b, Crc32c(a)).
uint32_t Crc32c(absl::string_view data, uint32_t crc = 0);

// The same, table-driven: what Crc32c() runs where the CPU has no CRC32 instruction (tests
// compare the two).
uint32_t Crc32cTables(absl::string_view data, uint32_t crc = 0);

}  // namespace shoal::redo
