#include "tests/fault/checker.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/api/client.h"
#include "engine/api/sync_client.h"
#include "engine/schema/row.h"

namespace shoal::testing {
namespace {

constexpr size_t kExamplesPerKind = 10;
constexpr size_t kReadBatch = 512;

// A row as read back.
struct Found {
  int64_t writer = 0;
  int64_t seq = 0;
  int64_t value = 0;
  int64_t partner = 0;
  bool operator==(const Found&) const = default;
};

bool Decode(const schema::TableDef& table, absl::string_view row, int64_t* id, Found* out) {
  schema::Field f[5];
  size_t consumed = 0;
  if (!schema::SplitRow(table, kAckedColumns, row, f, &consumed)) return false;
  for (const schema::Field& field : f) {
    if (field.null) return false;
  }
  *id = schema::FieldInt(table.columns[kIdCol], f[kIdCol].bytes);
  out->writer = schema::FieldInt(table.columns[kWriterCol], f[kWriterCol].bytes);
  out->seq = schema::FieldInt(table.columns[kSeqCol], f[kSeqCol].bytes);
  out->value = schema::FieldInt(table.columns[kValueCol], f[kValueCol].bytes);
  out->partner = schema::FieldInt(table.columns[kPartnerCol], f[kPartnerCol].bytes);
  return true;
}

// Key reads through one client, in batches; temporary errors are retried until the deadline.
class Reader {
 public:
  Reader(int mgmd_port, api::Cluster* cluster, api::SyncClient* client, api::TablePtr table)
      : mgmd_port_(mgmd_port), cluster_(cluster), client_(client), table_(std::move(table)) {}

  // Fills `found` with the rows of `keys` that exist.
  absl::Status ReadAll(std::vector<int64_t> keys, absl::Time deadline,
                       absl::flat_hash_map<int64_t, Found>* found) {
    while (!keys.empty()) {
      std::vector<int64_t> again;
      std::string last_error;
      for (size_t from = 0; from < keys.size(); from += kReadBatch) {
        absl::Span<const int64_t> batch =
            absl::MakeConstSpan(keys).subspan(from, std::min(kReadBatch, keys.size() - from));
        if (absl::Status s = ReadBatch(batch, deadline, found, &again, &last_error); !s.ok()) {
          return s;
        }
      }
      if (again.empty()) break;
      if (absl::Now() > deadline) {
        return absl::DeadlineExceededError(
            absl::StrCat(again.size(), " keys still unreadable; last error: ", last_error));
      }
      absl::SleepFor(absl::Milliseconds(100));
      FollowView();
      keys = std::move(again);
    }
    return absl::OkStatus();
  }

  void FollowView() {
    absl::StatusOr<control::ClusterView> view =
        api::Cluster::FetchView("127.0.0.1", mgmd_port_, absl::Seconds(1));
    if (view.ok()) cluster_->SetView(*view);
  }

 private:
  struct Result : api::Completion {
    void Done(const api::Outcome& outcome) override {
      done = true;
      code = outcome.code;
      row = std::string(outcome.row);
      message = std::string(outcome.message);
    }
    bool done = false;
    uint16_t code = 0;
    std::string row;
    std::string message;
  };

  // On an error the client may still hold operations that point at the batch's results: it
  // must not be polled again.
  absl::Status ReadBatch(absl::Span<const int64_t> keys, absl::Time deadline,
                         absl::flat_hash_map<int64_t, Found>* found, std::vector<int64_t>* again,
                         std::string* last_error) {
    std::vector<Result> results(keys.size());
    api::Client& client = client_->client();
    for (size_t i = 0; i < keys.size(); ++i) {
      client.Read(*table_, AckedKey(*table_, keys[i]), kAckedColumns, &results[i]);
    }
    client.Send();
    auto all_done = [&] {
      return std::all_of(results.begin(), results.end(), [](const Result& r) { return r.done; });
    };
    while (!all_done()) {
      if (absl::Now() > deadline) {
        return absl::DeadlineExceededError("key reads unanswered (no error, no result)");
      }
      client.Poll(absl::Milliseconds(100));
    }
    for (size_t i = 0; i < keys.size(); ++i) {
      const Result& r = results[i];
      if (r.code == wire::kResultOk) {
        int64_t id = 0;
        Found row;
        if (!Decode(*table_, r.row, &id, &row) || id != keys[i]) {
          return absl::DataLossError(absl::StrCat("key ", keys[i], ": malformed row"));
        }
        (*found)[id] = row;
      } else if (r.code == wire::kResultNotFound) {
        found->erase(keys[i]);
      } else if (IsTemporary(r.code)) {
        again->push_back(keys[i]);
        *last_error = absl::StrCat(r.code, " ", r.message);
      } else {
        return absl::InternalError(
            absl::StrCat("reading key ", keys[i], ": error ", r.code, " ", r.message));
      }
    }
    return absl::OkStatus();
  }

  int mgmd_port_;
  api::Cluster* cluster_;
  api::SyncClient* client_;
  api::TablePtr table_;
};

std::string SeqText(const Writer& writer, int64_t value) {
  int64_t seq = SeqOf(value);
  return absl::StrCat("seq ", seq, ", ",
                      seq < writer.writes() ? FateName(writer.FateOf(seq)) : "never written");
}

std::string HistoryText(const History& history) {
  std::string text = history.acked.has_value()
                         ? absl::StrCat("last acknowledged: seq ", SeqOf(*history.acked))
                         : "never acknowledged";
  if (!history.in_doubt.empty()) {
    absl::StrAppend(&text, "; in doubt after it: ",
                    absl::StrJoin(history.in_doubt, ",", [](std::string* out, int64_t v) {
                      absl::StrAppend(out, SeqOf(v));
                    }));
  }
  return text;
}

// Checks what `key` holds against what its writer knows.
void CheckKey(const Writer& writer, int64_t key, const History& history, int64_t partner,
              const Found* found, CheckReport* report) {
  std::string who = absl::StrCat("key ", key, " (writer ", writer.id(), ")");
  if (found == nullptr) {
    if (history.acked.has_value()) {
      report->Add("lost", absl::StrCat(who, ": missing; ", HistoryText(history)));
    }
    return;
  }
  if (found->writer != writer.id() || found->value != ValueOf(writer.id(), found->seq) ||
      found->partner != partner || found->seq < 0) {
    report->Add("garbled", absl::StrCat(who, ": holds writer ", found->writer, " seq ", found->seq,
                                        " value ", found->value, " partner ", found->partner));
    return;
  }
  bool expected = (history.acked.has_value() && *history.acked == found->value) ||
                  absl::c_linear_search(history.in_doubt, found->value);
  if (expected) return;
  if (!history.maybe_written()) {
    report->Add("phantom", absl::StrCat(who, ": holds ", SeqText(writer, found->value),
                                        ", but no write to it was acknowledged or in doubt"));
  } else {
    report->Add("stale", absl::StrCat(who, ": holds ", SeqText(writer, found->value), "; ",
                                      HistoryText(history)));
  }
}

}  // namespace

void CheckReport::Add(const std::string& kind, std::string description) {
  ++counts[kind];
  std::vector<std::string>& list = examples[kind];
  if (list.size() < kExamplesPerKind) list.push_back(std::move(description));
}

int64_t CheckReport::problems() const {
  int64_t n = 0;
  for (const auto& [kind, count] : counts) n += count;
  return n;
}

std::string CheckReport::Describe() const {
  if (counts.empty()) return "no problems";
  std::string out;
  for (const auto& [kind, count] : counts) {
    absl::StrAppend(&out, kind, ": ", count, " (e.g. ", absl::StrJoin(examples.at(kind), " | "),
                    ")\n");
  }
  return out;
}

absl::StatusOr<CheckReport> CheckWrites(int mgmd_port, const std::vector<const Writer*>& writers,
                                        absl::Duration timeout) {
  absl::Time deadline = absl::Now() + timeout;
  absl::StatusOr<control::ClusterView> view =
      api::Cluster::FetchView("127.0.0.1", mgmd_port, absl::Seconds(5));
  if (!view.ok()) return view.status();
  api::Cluster cluster(api::Cluster::Options{});
  cluster.SetView(*view);
  api::SyncClient client(&cluster);
  absl::StatusOr<api::TablePtr> table = client.Table(kFaultDatabase, kAckedTable);
  if (!table.ok()) return table.status();
  Reader reader(mgmd_port, &cluster, &client, *table);

  std::vector<int64_t> keys;
  for (const Writer* w : writers) {
    for (const auto& [key, history] : w->singles()) keys.push_back(key);
    for (const Pair& pair : w->pairs()) {
      keys.push_back(pair.a);
      keys.push_back(pair.b);
    }
  }
  absl::flat_hash_map<int64_t, Found> found;
  if (absl::Status s = reader.ReadAll(keys, deadline, &found); !s.ok()) return s;

  CheckReport report;
  report.keys = static_cast<int64_t>(keys.size());
  report.rows = static_cast<int64_t>(found.size());
  auto find = [&](int64_t key) -> const Found* {
    auto it = found.find(key);
    return it == found.end() ? nullptr : &it->second;
  };
  for (const Writer* w : writers) {
    for (const auto& [key, history] : w->singles()) {
      CheckKey(*w, key, history, kNoPartner, find(key), &report);
    }
    for (const Pair& pair : w->pairs()) {
      const Found* a = find(pair.a);
      const Found* b = find(pair.b);
      CheckKey(*w, pair.a, pair.history, pair.b, a, &report);
      CheckKey(*w, pair.b, pair.history, pair.a, b, &report);
      if ((a == nullptr) != (b == nullptr) || (a != nullptr && a->value != b->value)) {
        auto text = [&](const Found* f) {
          return f == nullptr ? std::string("missing") : SeqText(*w, f->value);
        };
        report.Add("partial", absl::StrCat("pair ", pair.a, "/", pair.b, " (writer ", w->id(),
                                           "): ", text(a), " / ", text(b)));
      }
    }
  }

  // A full scan must see exactly the rows the key reads found, and nothing else.
  absl::StatusOr<std::vector<std::string>> rows;
  while (true) {
    api::ScanRequest scan;
    scan.table = table->get();
    scan.columns.assign(std::begin(kAckedColumns), std::end(kAckedColumns));
    rows = client.Scan(std::move(scan));
    if (rows.ok() || absl::Now() > deadline) break;
    absl::SleepFor(absl::Milliseconds(100));
    reader.FollowView();
  }
  if (!rows.ok()) return rows.status();
  report.scanned = static_cast<int64_t>(rows->size());
  for (const std::string& bytes : *rows) {
    int64_t id = 0;
    Found row;
    if (!Decode(**table, bytes, &id, &row)) return absl::DataLossError("scan: malformed row");
    const Found* by_key = find(id);
    if (by_key == nullptr || !(*by_key == row)) {
      report.Add(
          "scan",
          absl::StrCat("key ", id, " (writer ", row.writer, " seq ", row.seq, "): in the scan but ",
                       by_key == nullptr ? "not found by its key" : "different when read by key"));
    }
  }
  if (report.scanned != report.rows) {
    report.Add("scan", absl::StrCat("the scan returned ", report.scanned, " rows, key reads found ",
                                    report.rows));
  }
  return report;
}

}  // namespace shoal::testing
