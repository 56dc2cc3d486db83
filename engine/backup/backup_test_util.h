// Test helpers shared by the backup tests (engine/backup/*_test.cc,
// engine/node/backup_part_test.cc): a temporary directory, and tables of two columns keyed by
// the first, as the parts and dictionaries those tests build hold.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

#include "engine/schema/schema.h"
#include "gtest/gtest.h"

namespace shoal::backup::testing {

// A directory under /tmp, removed with everything in it when the object goes.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "backup_test") {
    std::string templ = "/tmp/" + prefix + ".XXXXXX";
    EXPECT_NE(mkdtemp(templ.data()), nullptr);
    path_ = templ;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A NOT NULL column (a VARCHAR of 20 characters, binary unless the test says otherwise).
inline schema::ColumnDef Column(const std::string& name, schema::ColumnType type) {
  schema::ColumnDef c;
  c.name = name;
  c.type = type;
  c.nullable = false;
  c.length = type == schema::ColumnType::kVarChar ? 20 : 0;
  return c;
}

// db.`name`, id `id`, version 1, in 2 partitions: `first` (its primary key) and `second`.
inline schema::TableDef TwoColumnTable(uint32_t id, const std::string& name,
                                       schema::ColumnDef first, schema::ColumnDef second) {
  schema::TableDef t;
  t.id = id;
  t.version = 1;
  t.database = "db";
  t.name = name;
  t.partitions = 2;
  t.columns = {std::move(first), std::move(second)};
  schema::IndexDef primary;
  primary.name = "PRIMARY";
  primary.columns = {0};
  primary.primary = primary.unique = true;
  t.indexes = {primary};
  return t;
}

}  // namespace shoal::backup::testing
