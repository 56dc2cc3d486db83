// WritersTest: a fault test whose load is native-API Writers (workload.h) on one table, and
// whose verdict is the checker's (checker.h): every acknowledged commit read back, no row that
// no write could have made, no transaction partial, and no error but temporary ones on the way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tests/fault/fault_fixture.h"
#include "tests/fault/workload.h"

namespace shoal::testing {

class WritersTest : public FaultTest {
 protected:
  static constexpr int kWriters = 4;

  // Creates the table and kWriters writers, and starts them (each on a thread of its own, the
  // view followed for all of them by one more). Use with ASSERT_NO_FATAL_FAILURE.
  void StartWriters();

  int64_t Acknowledged() const override { return AcknowledgedBy(writers_); }
  std::vector<const Writer*> Writers() const;

  // After StopThreads(): reads everything back and expects it all right (failing the test
  // otherwise). Prints one summary line, `extra` appended, and records the counts as test
  // properties.
  void ExpectEveryCommitKept(const std::string& extra = "");

  std::unique_ptr<ResumeClock> clock_;
  std::vector<std::unique_ptr<Writer>> writers_;
};

}  // namespace shoal::testing
