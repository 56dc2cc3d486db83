// Scans of a range list (wire::kRangeList, NDB's multi-range read): one operation reads many
// ranges of a partition, in the order given, and goes on batch after batch from the range and
// the row it stopped at, whatever the batch size.
#include <algorithm>

#include "engine/node/ldm/ldm_test_fixture.h"
#include "engine/wire/key_ops.h"

namespace shoal::node::ldm_test {
namespace {

class RangeScanTest : public TwoNodeGroupTest {
 protected:
  // Rows with ids 0, 1, 2, … in the partition of `anchor_` (primary A), as many as `count`.
  void InsertRows(int count) {
    anchor_ = KeyOn(kNodeA, 1);
    for (int id = 0; static_cast<int>(ids_.size()) < count; ++id) {
      std::string key = Key(id);
      if (PartitionOfKey(key) != PartitionOfKey(anchor_)) continue;
      Insert(a_, key, id, 1);
      ids_.push_back(id);
    }
    Pump();
    Results(a_);
  }

  // The ids the scan of `ranges` (over the primary key, as ids; -1: open) returns, batch after
  // batch of at most `max_rows`, and how many batches it took. A failed batch gives its error
  // code as the only element.
  std::vector<int> Scan(const std::vector<std::pair<int, int>>& ranges, uint32_t max_rows,
                        bool descending, int* batches) {
    std::string list;
    for (const auto& [lower, upper] : ranges) {
      wire::AppendScanRange(lower < 0 ? "" : Key(lower), upper < 0 ? "" : Key(upper), &list);
    }
    return ScanList(list, max_rows, descending, batches);
  }

  std::vector<int> ScanList(const std::string& list, uint32_t max_rows, bool descending,
                            int* batches) {
    wire::ScanParams params;
    params.max_rows = max_rows;
    params.flags = wire::kRangeList | (descending ? wire::kDescending : 0);
    const std::string encoded_params = wire::EncodeScanParams(params);
    const std::string columns = wire::EncodeColumns(std::vector<uint16_t>{0});
    std::vector<int> ids;
    std::string resume;
    for (*batches = 1;; ++*batches) {
      Send(a_, wire::OpType::kScan, anchor_, 50, 0,
           {list, "", resume, "", columns, encoded_params});
      a_.results.Finish();
      absl::string_view body = wire::FirstFrame(a_.results.finished());
      body.remove_prefix(std::min(body.size(), wire::kFrameHeaderSize));
      wire::Result result;
      if (wire::DecodeResult(&body, &result) != wire::DecodeStatus::kOk) {
        ADD_FAILURE() << "no scan result";
        return ids;
      }
      if (result.code != wire::kResultOk) {
        a_.results.Clear();
        return {result.code};
      }
      EXPECT_EQ(result.section_count, 3);
      absl::string_view rows = result.sections[0];
      static const uint16_t kId[] = {0};
      while (!rows.empty()) {
        schema::Field f;
        size_t consumed = 0;
        EXPECT_TRUE(schema::SplitRow(*table_, kId, rows, &f, &consumed));
        ids.push_back(static_cast<int>(schema::FieldInt(table_->columns[0], f.bytes)));
        rows.remove_prefix(consumed);
      }
      EXPECT_LE(wire::GetU32(result.sections[1].data()), max_rows);
      const bool more = result.flags & wire::kMoreRows;
      resume = std::string(result.sections[2]);
      a_.results.Clear();
      if (!more) return ids;
      if (*batches > 1000) {
        ADD_FAILURE() << "the scan does not end";
        return ids;
      }
    }
  }

  // The ids of the partition in [lower, upper], ascending.
  std::vector<int> Between(int lower, int upper) const {
    std::vector<int> out;
    for (int id : ids_) {
      if (id >= lower && id <= upper) out.push_back(id);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  std::string anchor_;
  std::vector<int> ids_;
};

std::vector<int> Concat(std::initializer_list<std::vector<int>> parts) {
  std::vector<int> out;
  for (const std::vector<int>& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

TEST_F(RangeScanTest, RangesComeInTheOrderGivenAcrossBatches) {
  InsertRows(40);
  const int hi = *std::max_element(ids_.begin(), ids_.end());
  const std::vector<std::pair<int, int>> ranges = {
      {ids_[20], ids_[25]}, {ids_[3], ids_[3]}, {ids_[30], -1}, {-1, ids_[1]}};
  const std::vector<int> want = Concat({Between(ids_[20], ids_[25]), Between(ids_[3], ids_[3]),
                                        Between(ids_[30], hi), Between(0, ids_[1])});
  for (uint32_t max_rows : {1u, 2u, 3u, 7u, 1000u}) {
    int batches = 0;
    const uint64_t ranges_before = a_.ldm->stats().scan_ranges;
    EXPECT_EQ(Scan(ranges, max_rows, false, &batches), want) << "batches of " << max_rows;
    if (max_rows == 1000) {
      EXPECT_EQ(batches, 1) << "one operation for every range";
      EXPECT_EQ(a_.ldm->stats().scan_ranges - ranges_before, 4u);
    }
  }
}

TEST_F(RangeScanTest, DescendingReadsTheLastRangeFirstEachDownwards) {
  InsertRows(30);
  std::vector<int> low = Between(ids_[2], ids_[5]);
  std::vector<int> high = Between(ids_[10], ids_[12]);
  std::reverse(low.begin(), low.end());
  std::reverse(high.begin(), high.end());
  for (uint32_t max_rows : {1u, 4u, 1000u}) {
    int batches = 0;
    EXPECT_EQ(Scan({{ids_[2], ids_[5]}, {ids_[10], ids_[12]}}, max_rows, true, &batches),
              Concat({high, low}));
  }
}

TEST_F(RangeScanTest, EmptyRangesAndMalformedListsAnswerAsAScan) {
  InsertRows(10);
  int batches = 0;
  // A range no row falls in, then one that holds a row.
  EXPECT_EQ(Scan({{-1, -1}}, 1000, false, &batches).size(), 10u) << "one open range: all";
  const int absent = *std::max_element(ids_.begin(), ids_.end()) + 1;
  EXPECT_EQ(Scan({{absent, absent}, {ids_[4], ids_[4]}}, 1, false, &batches),
            std::vector<int>{ids_[4]});
  // Cut short, empty, or with a bound that is no key: refused, and the node goes on.
  std::string list;
  wire::AppendScanRange(Key(1), Key(2), &list);
  for (const std::string& bad :
       {list.substr(0, list.size() - 1), std::string(), std::string("\x01\x00\x7f\x00\x00", 5)}) {
    EXPECT_EQ(ScanList(bad, 1000, false, &batches), std::vector<int>{wire::kErInternal});
  }
  EXPECT_EQ(Value(a_, Key(ids_[4])), ids_[4]);
}

}  // namespace
}  // namespace shoal::node::ldm_test
