// The MySQL error numbers the native engine answers with (in results and DictConf), named
// once for the data node and the client. Each comes with MySQL's text where it is raised; the
// router adds the SQLSTATE (protocol/sql_error.h) when it hands one to a MySQL client.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace shoal::wire {

inline constexpr uint16_t kErDupEntry = 1062;         // Duplicate entry '%s' for key '%s'
inline constexpr uint16_t kErRecordFileFull = 1114;   // The table '%s' is full
inline constexpr uint16_t kErLockWaitTimeout = 1205;  // Lock wait timeout exceeded; ...
inline constexpr uint16_t kErNotSupportedYet = 1235;  // This version of ... doesn't yet support
inline constexpr uint16_t kErTemporary = 1297;        // Got temporary error %d '%s' from %s
inline constexpr uint16_t kErTableDefChanged = 1412;  // Table definition has changed, ...
inline constexpr uint16_t kErDataOutOfRange = 1690;   // %s value is out of range in '%s'
inline constexpr uint16_t kErInternal = 1815;         // Internal error: %s
inline constexpr uint16_t kErLockNoWait = 3572;       // Statement aborted because lock(s) ...
inline constexpr char kLockNoWaitText[] =
    "Statement aborted because lock(s) could not be acquired immediately and NOWAIT is set.";

// NDB's temporary error numbers, which 1297's text carries: the statement or transaction may
// be retried as a whole. Shoal raises them where NDB would:
inline constexpr int kNdbRedoOverloaded = 410;   // the redo log cannot be written (a full disk)
inline constexpr int kNdbTimedOut = 4008;        // no answer in time
inline constexpr int kNdbClusterFailure = 4009;  // no data node serves it (partition, master)
inline constexpr int kNdbNodeFailure = 4010;     // a data node the transaction used was lost
inline constexpr int kNdbNotPrimary = 4011;      // the sender's view is behind the node's
inline constexpr int kNdbRolledBack = 4012;      // rolled back behind its client's back
inline constexpr int kNdbNotHeld = 4013;         // prepared where it no longer holds anything

// 1297's text as mysqld with NDB words it: "Got temporary error 4010 '<what>' from NDBCLUSTER".
inline std::string TemporaryError(int ndb_code, absl::string_view what) {
  return absl::StrCat("Got temporary error ", ndb_code, " '", what, "' from NDBCLUSTER");
}

}  // namespace shoal::wire
