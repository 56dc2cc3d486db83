// Reads back what Writers (workload.h) wrote and checks it against their records: every
// acknowledged commit is present, no row exists that no write could have made, no pair of
// rows written by one transaction is partial, and a full scan sees exactly the rows that the
// key reads found.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "tests/fault/workload.h"

namespace shoal::testing {

struct CheckReport {
  int64_t keys = 0;     // keys read
  int64_t rows = 0;     // of them, rows that exist
  int64_t scanned = 0;  // rows the full scan returned
  // Problems by kind ("lost", "stale", "phantom", "partial", "garbled", "scan"): how many, and
  // the first few, described.
  std::map<std::string, int64_t> counts;
  std::map<std::string, std::vector<std::string>> examples;

  void Add(const std::string& kind, std::string description);
  int64_t problems() const;
  // One line per kind with its examples; "no problems" when there are none.
  std::string Describe() const;
};

// Reads every key the writers wrote (retrying temporary errors until `timeout`, following the
// mgmd's view meanwhile) and scans the table. An error only when the rows could not be read;
// what they hold is judged in the report. REQUIRES: the writers have stopped.
absl::StatusOr<CheckReport> CheckWrites(int mgmd_port, const std::vector<const Writer*>& writers,
                                        absl::Duration timeout);

}  // namespace shoal::testing
