// Ordered indexes compare entries by a 64-bit prefix of their first column before reading the
// rows (index.h, IndexEntry). The prefix must order exactly as the column does wherever two
// prefixes differ: edge values of every prefix kind — signed and unsigned extremes, NULL, zero
// bytes, strings equal in their first 8 bytes — go through inserts, key-changing updates and
// deletes, and every index scans back in SQL order.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "engine/schema/row.h"
#include "engine/storage/partition.h"
#include "gtest/gtest.h"

namespace shoal::storage {
namespace {

using schema::ColumnType;

// t(id INT PRIMARY KEY, b BIGINT NULL, ub BIGINT UNSIGNED NULL, s VARBINARY(64) NULL,
//   d DOUBLE NULL), one index on each of b, ub, s and d.
schema::TableDef MakeTable() {
  schema::TableDef t;
  t.id = 1;
  t.version = 1;
  t.database = "db";
  t.name = "t";
  auto column = [](const char* name, ColumnType type, bool is_unsigned) {
    schema::ColumnDef c;
    c.name = name;
    c.type = type;
    c.is_unsigned = is_unsigned;
    c.nullable = true;
    c.length = 64;
    return c;
  };
  t.columns = {column("id", ColumnType::kInt, false), column("b", ColumnType::kBigInt, false),
               column("ub", ColumnType::kBigInt, true), column("s", ColumnType::kVarBinary, false),
               column("d", ColumnType::kDouble, false)};
  t.columns[0].nullable = false;
  t.indexes = {{"PRIMARY", {0}, true, true},
               {"b", {1}, false, false},
               {"ub", {2}, false, false},
               {"s", {3}, false, false},
               {"d", {4}, false, false}};
  t.partitions = 1;
  return t;
}

struct Row {
  int id;
  std::optional<int64_t> b;
  std::optional<uint64_t> ub;
  std::optional<std::string> s;
  std::optional<double> d;
};

const std::vector<std::optional<int64_t>> kSigned = {std::nullopt,
                                                     std::numeric_limits<int64_t>::min(),
                                                     std::numeric_limits<int64_t>::min() + 1,
                                                     -256,
                                                     -1,
                                                     0,
                                                     1,
                                                     255,
                                                     std::numeric_limits<int64_t>::max()};
const std::vector<std::optional<uint64_t>> kUnsigned = {std::nullopt,
                                                        0,
                                                        1,
                                                        (uint64_t{1} << 63) - 1,
                                                        uint64_t{1} << 63,
                                                        std::numeric_limits<uint64_t>::max()};
const std::vector<std::optional<std::string>> kBytes = {std::nullopt,
                                                        std::string(),
                                                        std::string(1, '\0'),
                                                        std::string(2, '\0'),
                                                        "a",
                                                        std::string("a\0", 2),
                                                        "abcdefgh",
                                                        std::string("abcdefgh\0", 9),
                                                        "abcdefghi",
                                                        "abcdefgi",
                                                        "abcdefh",
                                                        "\x7f",
                                                        "\x80",
                                                        "\xff\xff\xff\xff\xff\xff\xff\xff\xff"};
const std::vector<std::optional<double>> kDoubles = {std::nullopt, -1e300, -0.5, -0.0,
                                                     0.0,          1e-300, 2.5,  1e300};

class IndexPrefixTest : public ::testing::Test {
 protected:
  std::string Pack(const Row& r) {
    schema::RowWriter w;
    w.BeginRow(5);
    w.Int(t_.columns[0], r.id);
    r.b ? w.Int(t_.columns[1], *r.b) : w.Null();
    r.ub ? w.Int(t_.columns[2], static_cast<int64_t>(*r.ub)) : w.Null();
    r.s ? w.Bytes(*r.s) : w.Null();
    r.d ? w.Double(*r.d) : w.Null();
    return std::string(w.view());
  }
  std::string Key(int id) {
    schema::RowWriter w;
    w.BeginKey();
    w.Int(t_.columns[0], id);
    return std::string(w.view());
  }
  Row Random(int id) {
    return Row{id, kSigned[rng_() % kSigned.size()], kUnsigned[rng_() % kUnsigned.size()],
               kBytes[rng_() % kBytes.size()], kDoubles[rng_() % kDoubles.size()]};
  }

  // The ids in index `index`'s scan order.
  std::vector<int> Scan(int index) {
    ScanSpec spec;
    spec.index = index;
    static const std::vector<uint16_t> kId = {0};
    spec.columns = kId;
    schema::RowWriter w;
    ScanBatch batch = p_.Scan(spec, &w);
    EXPECT_EQ(batch.result.code, OpCode::kOk);
    EXPECT_TRUE(batch.done);
    std::vector<int> ids;
    absl::string_view bytes = w.view();
    schema::Field f;
    while (!bytes.empty()) {
      size_t used = 0;
      if (!schema::SplitRow(t_, kId, bytes, &f, &used)) break;
      ids.push_back(static_cast<int>(schema::FieldInt(t_.columns[0], f.bytes)));
      bytes.remove_prefix(used);
    }
    return ids;
  }

  // SQL's order: NULL first, then the value (bytes unsigned, shorter first; -0.0 = 0.0), then
  // the primary key.
  template <typename Get>
  std::vector<int> Expected(Get get) {
    std::vector<Row> rows;
    for (const auto& [id, row] : model_) rows.push_back(row);
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& x, const Row& y) {
      auto a = get(x), b = get(y);
      if (a.has_value() != b.has_value()) return !a.has_value();
      if (a.has_value() && *a != *b) return *a < *b;
      return x.id < y.id;
    });
    std::vector<int> ids;
    for (const Row& r : rows) ids.push_back(r.id);
    return ids;
  }

  void CheckEveryIndex() {
    EXPECT_EQ(Scan(1), Expected([](const Row& r) { return r.b; }));
    EXPECT_EQ(Scan(2), Expected([](const Row& r) { return r.ub; }));
    EXPECT_EQ(Scan(3), Expected([](const Row& r) {
                // std::string compares as unsigned bytes through char_traits, shorter first.
                return r.s;
              }));
    EXPECT_EQ(Scan(4), Expected([](const Row& r) { return r.d; }));
  }

  schema::TableDef t_ = MakeTable();
  MemoryBudget budget_{64 << 20};
  Partition p_{&t_, &budget_};
  std::mt19937 rng_{20261126};
  std::map<int, Row> model_;
};

TEST_F(IndexPrefixTest, EdgeValuesScanInSqlOrderThroughWritesAndDeletes) {
  for (int id = 0; id < 400; ++id) {
    Row r = Random(id);
    ASSERT_EQ(p_.Insert(kAutocommit, Pack(r)).code, OpCode::kOk);
    model_[id] = r;
  }
  CheckEveryIndex();
  // Rewrites move rows to other keys (the old entries must be found to be erased).
  for (int id = 0; id < 400; id += 3) {
    Row r = Random(id);
    ASSERT_EQ(p_.Write(kAutocommit, Pack(r)).code, OpCode::kOk);
    model_[id] = r;
  }
  CheckEveryIndex();
  for (int id = 0; id < 400; id += 2) {
    ASSERT_EQ(p_.Delete(kAutocommit, Key(id)).code, OpCode::kOk);
    model_.erase(id);
  }
  CheckEveryIndex();
  EXPECT_EQ(p_.row_count(), model_.size());
}

}  // namespace
}  // namespace shoal::storage
