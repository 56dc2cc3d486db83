// Micro-benchmark: primary-key reads, and inserts and updates, on one partition.
//   partition_bench [rows]   (default 1,000,000 rows of about 100 bytes)
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/storage/partition.h"
#include "engine/storage/storage_test_util.h"

using namespace shoal;           // NOLINT
using namespace shoal::storage;  // NOLINT

int main(int argc, char** argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 1000000;
  schema::TableDef t = testing::MakeTable();
  MemoryBudget budget(uint64_t{8} << 30);
  Partition p(&t, &budget);
  const std::string c(80, 'c');

  absl::Time start = absl::Now();
  for (int i = 0; i < rows; ++i) {
    p.Insert(kAutocommit, testing::PackRow(t, {i, i % 1000, c, i}));
  }
  double insert_ns = absl::ToDoubleNanoseconds(absl::Now() - start) / rows;

  std::vector<std::string> keys;
  std::mt19937 rng(1);
  const int reads = 2000000;
  for (int i = 0; i < 4096; ++i) keys.push_back(testing::IntKey(t, 0, rng() % rows));
  std::vector<uint16_t> columns = {0, 1, 2, 3};
  schema::RowWriter out;
  uint64_t found = 0;
  start = absl::Now();
  for (int i = 0; i < reads; ++i) {
    out.Clear();
    found +=
        p.Read(kAutocommit, keys[i & 4095], columns, LockMode::kNone, &out).code == OpCode::kOk;
  }
  double read_hot_ns = absl::ToDoubleNanoseconds(absl::Now() - start) / reads;

  std::vector<std::string> random_keys;
  for (int i = 0; i < reads; ++i) random_keys.push_back(testing::IntKey(t, 0, rng() % rows));
  start = absl::Now();
  for (int i = 0; i < reads; ++i) {
    out.Clear();
    found +=
        p.Read(kAutocommit, random_keys[i], columns, LockMode::kNone, &out).code == OpCode::kOk;
  }
  double read_ns = absl::ToDoubleNanoseconds(absl::Now() - start) / reads;

  std::string program = schema::UpdateBuilder().AddInt(1, 1).Finish();
  const int updates = 500000;
  start = absl::Now();
  for (int i = 0; i < updates; ++i) p.Update(kAutocommit, random_keys[i], program);
  double update_ns = absl::ToDoubleNanoseconds(absl::Now() - start) / updates;

  std::printf("rows %d, %.0f MiB reserved\n", rows, p.memory_bytes() / 1048576.0);
  std::printf("insert (autocommit)          %7.1f ns/op\n", insert_ns);
  std::printf("read by pk, 4096 hot keys    %7.1f ns/op\n", read_hot_ns);
  std::printf("read by pk, uniform random   %7.1f ns/op\n", read_ns);
  std::printf("update k = k + 1 (index k_1) %7.1f ns/op\n", update_ns);
  return found == 2u * reads ? 0 : 1;
}
