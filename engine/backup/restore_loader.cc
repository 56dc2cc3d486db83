#include "engine/backup/restore_loader.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <utility>

#include "absl/container/btree_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "common/status_macros.h"
#include "engine/api/sync_client.h"
#include "engine/backup/backup_dictionary.h"
#include "engine/backup/backup_files.h"
#include "engine/backup/backup_reader.h"
#include "engine/backup/row_pipeline.h"
#include "engine/schema/row.h"

namespace shoal::backup {
namespace {

constexpr absl::Duration kProgressEvery = absl::Seconds(1);

// A table rows are loaded into, by the backup's table id.
struct Target {
  api::TablePtr table;          // the target's definition
  uint32_t source_version = 0;  // of the backup's definition it was checked against
  int counter_column = -1;      // AUTO_INCREMENT column or hidden key; -1: none
  uint64_t max_counter = 0;     // the largest value restored
};
using Targets = absl::btree_map<uint32_t, Target>;

int CounterColumn(const schema::TableDef& table) {
  int column = table.auto_increment_column();
  if (column < 0 && table.has_hidden_key()) column = static_cast<int>(table.columns.size()) - 1;
  return column;
}

// The counter value of a packed row as a data node counts it (Partition's TrackAutoIncrement):
// a positive integer, else 0.
class CounterReader {
 public:
  uint64_t Value(const schema::TableDef& table, int column, absl::string_view row) {
    if (columns_.size() != table.columns.size()) {
      columns_.resize(table.columns.size());
      std::iota(columns_.begin(), columns_.end(), uint16_t{0});
      fields_.resize(table.columns.size());
    }
    size_t consumed = 0;
    if (!schema::SplitRow(table, columns_, row, fields_.data(), &consumed)) return 0;
    const schema::Field& field = fields_[column];
    const schema::ColumnDef& def = table.columns[column];
    if (field.null || !schema::IsInteger(def.type)) return 0;
    if (def.is_unsigned) return schema::FieldUint(def, field.bytes);
    int64_t value = schema::FieldInt(def, field.bytes);
    return value > 0 ? static_cast<uint64_t>(value) : 0;
  }

 private:
  std::vector<uint16_t> columns_;
  std::vector<schema::Field> fields_;
};

// One part's progress lines: bytes read in percent, then rows written, each at most once a
// second.
class PartProgress {
 public:
  PartProgress(const NoteFn& note, const Manifest& manifest)
      : note_(note),
        prefix_(absl::StrCat("node ", manifest.node_id(), " (node group ", manifest.node_group(),
                             "): ")) {}

  void Read(uint64_t done, uint64_t total) {
    const int percent = total == 0 ? 100 : static_cast<int>(done * 100 / total);
    const absl::Time now = absl::Now();
    if (percent == last_percent_ || (percent < 100 && now - last_line_ < kProgressEvery)) return;
    last_percent_ = percent;
    last_line_ = now;
    note_(absl::StrFormat("%sread %d%% of %.1f MiB", prefix_, percent,
                          static_cast<double>(total) / (1 << 20)));
  }

  void Written(uint64_t rows) {
    const absl::Time now = absl::Now();
    if (now - last_line_ < kProgressEvery) return;
    last_line_ = now;
    note_(absl::StrCat(prefix_, rows, " rows written"));
  }

  void Done(uint64_t rows, uint64_t retried, const PartStats& stats) {
    note_(absl::StrCat(prefix_, rows, " rows written (", stats.data_rows,
                       " rows from the data files, ", stats.log_records, " log records applied, ",
                       stats.skipped, " of unknown tables skipped",
                       retried == 0 ? "" : absl::StrCat(", ", retried, " writes sent again"), ")"));
  }

 private:
  const NoteFn& note_;
  const std::string prefix_;
  int last_percent_ = -1;
  absl::Time last_line_ = absl::InfinitePast();
};

// The target's table for each of the backup's (ALTER copies aside), checked to store rows as
// the backup's do: the rows are loaded as they are.
absl::StatusOr<Targets> FindTargets(const BackupDictionary& backup, api::SyncClient* client) {
  SHOAL_ASSIGN_OR_RETURN(std::shared_ptr<const api::Dictionary> target,
                         FetchTargetDictionary(client));
  Targets targets;
  for (const auto& [id, source] : backup.tables) {
    if (IsAlterCopy(backup, source)) continue;
    api::TablePtr table = target->Find(source.database, source.name);
    if (table == nullptr) {
      return absl::NotFoundError(absl::StrCat("table ", source.database, ".", source.name,
                                              " is not on the target; restore the metadata too "
                                              "(without --no-metadata) or create it first"));
    }
    if (!schema::StoredAlike(source, *table)) {
      return absl::FailedPreconditionError(
          absl::StrCat("table ", source.database, ".", source.name,
                       " on the target does not store rows as the backup's does (its columns "
                       "or primary key differ); its rows cannot be loaded into it"));
    }
    targets[id] = Target{table, source.version, CounterColumn(source), 0};
  }
  return targets;
}

absl::Status LoadPart(const Part& part, Targets* targets, RowPipeline* pipeline,
                      CounterReader* counters, const NoteFn& note, RestoreSummary* summary) {
  PartProgress progress(note, part.manifest);
  const uint64_t written_before = pipeline->written();
  const uint64_t retried_before = pipeline->retried();
  absl::StatusOr<PartStats> stats = ReadPart(
      part,
      [&](const schema::TableDef& source, absl::string_view row) -> absl::Status {
        auto it = targets->find(source.id);
        if (it == targets->end()) {
          ++summary->skipped;
          return absl::OkStatus();
        }
        Target& target = it->second;
        if (source.version != target.source_version) {
          return absl::DataLossError(
              absl::StrCat("the parts disagree on the definition of table ", source.database, ".",
                           source.name, " (node ", part.manifest.node_id(), "'s is version ",
                           source.version, ", the first part's ", target.source_version, ")"));
        }
        if (target.counter_column >= 0) {
          target.max_counter =
              std::max(target.max_counter, counters->Value(source, target.counter_column, row));
        }
        SHOAL_RETURN_IF_ERROR(pipeline->Write(target.table, row));
        progress.Written(pipeline->written() - written_before);
        return absl::OkStatus();
      },
      [&](uint64_t done, uint64_t total) { progress.Read(done, total); });
  // Whatever happened, no write may be left in flight.
  absl::Status drained = pipeline->Drain();
  if (!stats.ok()) return stats.status();
  SHOAL_RETURN_IF_ERROR(drained);
  const uint64_t rows = pipeline->written() - written_before;
  progress.Done(rows, pipeline->retried() - retried_before, *stats);
  summary->rows += rows;
  summary->log_records += stats->log_records;
  summary->skipped += stats->skipped;
  return absl::OkStatus();
}

// Moves each table's counter past the largest value restored. The master hands out
// max(counter, at_least) and sets the counter one past what it handed out (a count of 0 counts
// as 1), so asking for one value at least `max` leaves the next insert at exactly max + 1
// (at_least = max + 1 would leave it at max + 2). When the counter was past `max` already it
// stays where it was, one value skipped. Routers that reserved a batch of values before this
// (none has, for a table this restore created) hand those out first.
absl::Status MoveCounters(const Targets& targets, api::SyncClient* client) {
  for (const auto& [id, target] : targets) {
    if (target.max_counter == 0) continue;
    wire::DictReq request;
    wire::ReserveAutoIncrement* reserve = request.mutable_reserve_auto_increment();
    reserve->set_table_id(target.table->id);
    reserve->set_count(1);
    reserve->set_at_least(target.max_counter);
    SHOAL_RETURN_IF_ERROR(
        AskMaster(client, std::move(request),
                  absl::StrCat("moving the auto-increment counter of ", target.table->database, ".",
                               target.table->name, " past ", target.max_counter))
            .status());
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<Part>> PartsToRestore(const RestoreOptions& options) {
  SHOAL_ASSIGN_OR_RETURN(std::vector<Part> found,
                         FindParts(options.backup_id, options.backup_paths));
  if (found.empty()) {
    return absl::NotFoundError(absl::StrCat(
        "no complete part of backup ", options.backup_id, " in ",
        absl::StrJoin(options.backup_paths, ", "), " (a part is complete once its manifest, ",
        BackupDirName(options.backup_id), ".<node>.ctl, is written)"));
  }
  SHOAL_ASSIGN_OR_RETURN(std::vector<Part> parts, ChooseParts(found));
  for (const Part& part : parts) SHOAL_RETURN_IF_ERROR(CheckPartFiles(part));
  return parts;
}

absl::StatusOr<RestoreSummary> RunRestore(const RestoreOptions& options,
                                          const std::vector<Part>& parts, api::Cluster* cluster,
                                          const NoteFn& note) {
  const absl::Time start = absl::Now();
  if (options.parallelism < 1) {
    return absl::InvalidArgumentError("the parallelism must be at least 1");
  }
  if (parts.empty()) return absl::InvalidArgumentError("no part to restore");
  RestoreSummary summary;
  summary.backup_id = parts.front().manifest.backup_id();
  summary.stop_epoch = parts.front().manifest.stop_epoch();
  for (const Part& part : parts) summary.nodes.push_back(part.manifest.node_id());
  note(absl::StrCat("backup ", summary.backup_id, ": stop epoch ", summary.stop_epoch, ", ",
                    parts.size(), " node group(s); reading the parts of node(s) ",
                    absl::StrJoin(summary.nodes, ", ")));
  SHOAL_ASSIGN_OR_RETURN(const BackupDictionary dictionary,
                         ParseBackupDictionary(parts.front().manifest));
  api::SyncClient client(cluster);
  if (options.metadata) {
    SHOAL_ASSIGN_OR_RETURN(MetadataStats stats, CreateMetadata(dictionary, &client, note));
    summary.tables = stats.tables;
  }
  if (options.accounts) SHOAL_RETURN_IF_ERROR(RestoreAccounts(dictionary, &client, note));
  if (options.data) {
    SHOAL_ASSIGN_OR_RETURN(Targets targets, FindTargets(dictionary, &client));
    if (!options.metadata) summary.tables = targets.size();
    RowPipeline pipeline(&client.client(), options.parallelism);
    CounterReader counters;
    for (const Part& part : parts) {
      SHOAL_RETURN_IF_ERROR(LoadPart(part, &targets, &pipeline, &counters, note, &summary));
    }
    SHOAL_RETURN_IF_ERROR(MoveCounters(targets, &client));
  }
  summary.took = absl::Now() - start;
  return summary;
}

std::string SummaryLine(const RestoreSummary& summary) {
  return absl::StrFormat(
      "restored backup %u (stop epoch %u, node%s %s): %u tables, %u rows, %u log records "
      "applied%s, %.2f seconds",
      summary.backup_id, summary.stop_epoch, summary.nodes.size() == 1 ? "" : "s",
      absl::StrJoin(summary.nodes, ", "), summary.tables, summary.rows, summary.log_records,
      summary.skipped == 0
          ? ""
          : absl::StrCat(", ", summary.skipped, " skipped (of tables not restored)"),
      absl::ToDoubleSeconds(summary.took));
}

}  // namespace shoal::backup
