#include "tests/fault/writers_fixture.h"

#include <iostream>
#include <map>

#include "absl/strings/str_join.h"
#include "engine/api/sync_client.h"
#include "tests/fault/checker.h"

namespace shoal::testing {

void WritersTest::StartWriters() {
  int mgmd_port = cluster_->mgmd_port();
  absl::StatusOr<control::ClusterView> view =
      api::Cluster::FetchView("127.0.0.1", mgmd_port, absl::Seconds(5));
  ASSERT_TRUE(view.ok()) << view.status();
  api::Cluster setup_cluster(api::Cluster::Options{});
  setup_cluster.SetView(*view);
  api::SyncClient setup(&setup_cluster);
  absl::Status created = CreateAckedTable(&setup);
  ASSERT_TRUE(created.ok()) << created;
  absl::StatusOr<api::TablePtr> table = setup.Table(kFaultDatabase, kAckedTable);
  ASSERT_TRUE(table.ok()) << table.status();
  clock_ = std::make_unique<ResumeClock>((*table)->partitions);

  for (int id = 0; id < kWriters; ++id) {
    absl::StatusOr<std::unique_ptr<Writer>> writer = Writer::Create(id, mgmd_port, clock_.get());
    ASSERT_TRUE(writer.ok()) << writer.status();
    writers_.push_back(std::move(*writer));
  }
  StartLoads(writers_);
}

std::vector<const Writer*> WritersTest::Writers() const {
  std::vector<const Writer*> out;
  for (const auto& w : writers_) out.push_back(w.get());
  return out;
}

void WritersTest::ExpectEveryCommitKept(const std::string& extra) {
  std::map<uint16_t, int64_t> temporary;
  int64_t temporary_total = 0;
  int64_t failure_count = 0;
  std::vector<std::string> failures;
  for (const auto& w : writers_) {
    for (const auto& [code, n] : w->temporary_errors()) {
      temporary[code] += n;
      temporary_total += n;
    }
    failure_count += w->failure_count();
    failures.insert(failures.end(), w->failures().begin(), w->failures().end());
  }
  absl::StatusOr<CheckReport> check =
      CheckWrites(cluster_->mgmd_port(), Writers(), absl::Seconds(30));
  ASSERT_TRUE(check.ok()) << check.status();

  std::cout << "summary: " << Acknowledged() << " commits acknowledged, " << temporary_total
            << " temporary errors (" << absl::StrJoin(temporary, ", ", absl::PairFormatter(": "))
            << "), " << failure_count << " other errors or rows found gone while writing; "
            << check->keys << " keys read back, " << check->rows << " rows, " << check->scanned
            << " scanned, " << check->problems() << " problems" << extra << std::endl;
  RecordProperty("acknowledged", static_cast<int>(Acknowledged()));
  RecordProperty("temporary_errors", static_cast<int>(temporary_total));

  EXPECT_GT(Acknowledged(), 0);
  EXPECT_EQ(failure_count, 0) << "errors that are not temporary, or rows found gone while "
                                 "writing; the first few of each writer:\n"
                              << absl::StrJoin(failures, "\n");
  EXPECT_EQ(check->problems(), 0) << check->Describe();
}

}  // namespace shoal::testing
