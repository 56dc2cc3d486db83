// The MySQL error numbers the native engine answers with (in results and DictConf), named
// once for the data node and the client. Each comes with MySQL's text where it is raised; the
// router adds the SQLSTATE (protocol/sql_error.h) when it hands one to a MySQL client.
#pragma once

#include <cstdint>

namespace shoal::wire {

inline constexpr uint16_t kErDupEntry = 1062;         // Duplicate entry '%s' for key '%s'
inline constexpr uint16_t kErRecordFileFull = 1114;   // The table '%s' is full
inline constexpr uint16_t kErLockWaitTimeout = 1205;  // Lock wait timeout exceeded; ...
inline constexpr uint16_t kErNotSupportedYet = 1235;  // This version of ... doesn't yet support
inline constexpr uint16_t kErTemporary = 1297;        // Got temporary error %d '%s' from %s
inline constexpr uint16_t kErTableDefChanged = 1412;  // Table definition has changed, ...
inline constexpr uint16_t kErDataOutOfRange = 1690;   // %s value is out of range in '%s'
inline constexpr uint16_t kErInternal = 1815;         // Internal error: %s

}  // namespace shoal::wire
