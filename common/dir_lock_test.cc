#include "common/dir_lock.h"

#include <unistd.h>

#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace shoal {
namespace {

std::string TempDir() {
  char pattern[] = "/tmp/shoal-dirlock-XXXXXX";
  const char* dir = mkdtemp(pattern);
  EXPECT_NE(dir, nullptr);
  return dir == nullptr ? std::string() : std::string(dir);
}

TEST(DirLockTest, ASecondHolderIsRefusedAndNamesTheFirst) {
  const std::string dir = TempDir();
  absl::StatusOr<DirLock> first = DirLock::Acquire(dir, "data directory");
  ASSERT_TRUE(first.ok()) << first.status();
  // flock belongs to an open file description: a second open, even in this process, conflicts
  // as another process's would.
  absl::StatusOr<DirLock> second = DirLock::Acquire(dir, "data directory");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(second.status().message().find(absl::StrCat("in use by process ", getpid())),
            std::string::npos)
      << second.status();
  EXPECT_NE(second.status().message().find(dir), std::string::npos);
}

TEST(DirLockTest, TheLockEndsWithItsHolder) {
  const std::string dir = TempDir();
  {
    absl::StatusOr<DirLock> first = DirLock::Acquire(dir, "data directory");
    ASSERT_TRUE(first.ok()) << first.status();
    DirLock moved = std::move(*first);
  }
  EXPECT_TRUE(DirLock::Acquire(dir, "data directory").ok());
}

TEST(DirLockTest, AMissingDirectoryIsAnError) {
  absl::StatusOr<DirLock> lock = DirLock::Acquire("/nonexistent/shoal/dir", "data directory");
  ASSERT_FALSE(lock.ok());
  EXPECT_EQ(lock.status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace shoal
