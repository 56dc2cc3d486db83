#include "engine/backup/backup_reader.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status_macros.h"
#include "engine/backup/backup_dictionary.h"
#include "engine/backup/backup_files.h"
#include "engine/redo/checkpoint.h"
#include "engine/redo/redo_record.h"
#include "engine/schema/collation.h"
#include "engine/schema/row.h"

namespace shoal::backup {
namespace {

constexpr size_t kLogChunkBytes = 1 << 20;

// A part's rows as the files are read: (table id, partition) → stored key → packed row.
using PartitionKey = std::pair<uint32_t, uint32_t>;
using PartRows = absl::btree_map<PartitionKey, absl::flat_hash_map<std::string, std::string>>;

// Calls `progress` with bytes done over every file of the part: `base` is what the files
// before the current one hold.
struct Progress {
  absl::FunctionRef<void(uint64_t, uint64_t)> report;
  uint64_t total = 0;
  uint64_t base = 0;
};

absl::StatusOr<uint64_t> FileSize(const std::string& path) {
  std::error_code error;
  uint64_t size = std::filesystem::file_size(path, error);
  if (error) return absl::NotFoundError(absl::StrCat("cannot read ", path, ": ", error.message()));
  return size;
}

absl::Status ReadDataFile(const std::string& path, const BackupDictionary& dictionary,
                          PartRows* rows, PartStats* stats, Progress* progress) {
  absl::Status bad_row;
  std::string key;
  std::string scratch;
  absl::Status read = redo::ReadCheckpoint(
      path,
      [&](uint32_t table_id, uint32_t partition, absl::string_view, absl::string_view row) {
        if (!bad_row.ok()) return;
        auto table = dictionary.tables.find(table_id);
        if (table == dictionary.tables.end()) {
          ++stats->skipped;
          return;
        }
        // Data file rows carry no key: it is the row's primary key in its collation form, as
        // the node stored it and as the log's records name it.
        if (!schema::KeyOfRow(table->second, 0, row, &key)) {
          bad_row =
              absl::DataLossError(absl::StrCat(path, ": a row of table ", table->second.database,
                                               ".", table->second.name, " is malformed"));
          return;
        }
        absl::string_view form = schema::KeyForm(table->second, 0, key, &scratch);
        (*rows)[PartitionKey(table_id, partition)].insert_or_assign(std::string(form),
                                                                    std::string(row));
        ++stats->data_rows;
      },
      [&](uint64_t done, uint64_t) { progress->report(progress->base + done, progress->total); });
  SHOAL_RETURN_IF_ERROR(read);
  return bad_row;
}

// Applies one log record over the rows read so far.
void Apply(const redo::Record& record, const BackupDictionary& dictionary, PartRows* rows,
           PartStats* stats) {
  if (record.type == redo::RecordType::kEpochSaved) return;  // a marker: nothing to apply
  if (!dictionary.tables.contains(record.table_id)) {
    ++stats->skipped;
    return;
  }
  ++stats->log_records;
  const PartitionKey partition(record.table_id, record.partition);
  switch (record.type) {
    case redo::RecordType::kWrite:
      (*rows)[partition].insert_or_assign(std::string(record.key), std::string(record.row));
      break;
    case redo::RecordType::kDelete:
      if (auto it = rows->find(partition); it != rows->end()) {
        it->second.erase(std::string(record.key));
      }
      break;
    case redo::RecordType::kTruncate:
      rows->erase(partition);
      break;
    case redo::RecordType::kEpochSaved:
      break;
  }
}

// Reads the log record by record, in chunks (a record may span two), and applies each. The
// whole file must be whole records: unlike a node's redo, whose tail may be torn by a crash,
// a backup's log was complete before its manifest was written.
absl::Status ReadLogFile(const std::string& path, const Manifest& manifest,
                         const BackupDictionary& dictionary, PartRows* rows, PartStats* stats,
                         Progress* progress) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::string buf;
  size_t begin = 0;     // buf[begin, end): read, not parsed yet
  uint64_t offset = 0;  // of buf[begin] in the file
  uint64_t bytes_read = 0;
  uint64_t records = 0;
  bool eof = false;
  while (true) {
    redo::Record record;
    size_t used = 0;
    std::string why;
    redo::ParseResult result =
        redo::ParseRecord(absl::string_view(buf).substr(begin), &record, &used, &why);
    if (result == redo::ParseResult::kOk) {
      Apply(record, dictionary, rows, stats);
      ++records;
      begin += used;
      offset += used;
      continue;
    }
    if (result == redo::ParseResult::kCorrupt) {
      return absl::DataLossError(
          absl::StrCat(path, ": corrupt record at offset ", offset, ": ", why));
    }
    if (eof) {
      if (begin < buf.size()) {
        return absl::DataLossError(absl::StrCat(path, ": the file ends ", buf.size() - begin,
                                                " bytes into a record at offset ", offset));
      }
      break;
    }
    buf.erase(0, begin);
    begin = 0;
    // A record larger than a chunk is read whole (ParseRecord bounds its length).
    size_t want = kLogChunkBytes;
    if (buf.size() >= redo::kRecordHeaderSize) {
      uint32_t length;
      std::memcpy(&length, buf.data(), 4);
      want = std::max(want, redo::kRecordHeaderSize + length - buf.size());
    }
    const size_t had = buf.size();
    buf.resize(had + want);
    in.read(buf.data() + had, static_cast<std::streamsize>(want));
    const size_t got = static_cast<size_t>(in.gcount());
    buf.resize(had + got);
    if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", path));
    eof = got < want;
    bytes_read += got;
    progress->report(progress->base + bytes_read, progress->total);
  }
  // A log cut at a record's border parses whole: the manifest's counts tell.
  if (manifest.log_bytes() != 0 && bytes_read != manifest.log_bytes()) {
    return absl::DataLossError(absl::StrCat(path, " holds ", bytes_read,
                                            " bytes; the manifest says ", manifest.log_bytes()));
  }
  if (manifest.log_records() != 0 && records != manifest.log_records()) {
    return absl::DataLossError(absl::StrCat(
        path, " holds ", records, " records; the manifest says ", manifest.log_records()));
  }
  return absl::OkStatus();
}

std::string DirOf(const std::string& path, uint32_t backup_id) {
  const std::string name = BackupDirName(backup_id);
  std::filesystem::path p(path);
  if (p.filename().empty()) p = p.parent_path();  // "dir/" names dir
  if (p.filename() == name) return p.string();
  return (p / name).string();
}

}  // namespace

absl::StatusOr<std::vector<Part>> FindParts(uint32_t backup_id,
                                            const std::vector<std::string>& paths) {
  std::vector<Part> parts;
  std::vector<std::filesystem::path> seen;
  for (const std::string& path : paths) {
    const std::string dir = DirOf(path, backup_id);
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error)) {
      return absl::NotFoundError(
          absl::StrCat("no ", BackupDirName(backup_id), " directory in ", path));
    }
    std::filesystem::path canonical = std::filesystem::weakly_canonical(dir, error);
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) continue;
    seen.push_back(canonical);
    SHOAL_ASSIGN_OR_RETURN(std::vector<Manifest> manifests, ReadManifests(dir));
    for (Manifest& manifest : manifests) {
      if (manifest.backup_id() != backup_id) continue;
      parts.push_back(Part{dir, std::move(manifest)});
    }
  }
  return parts;
}

absl::StatusOr<std::vector<Part>> ChooseParts(const std::vector<Part>& parts) {
  if (parts.empty()) return absl::NotFoundError("no complete part of the backup was found");
  const Manifest& first = parts.front().manifest;
  std::vector<std::string> nodes;
  for (const Part& part : parts) {
    const Manifest& m = part.manifest;
    nodes.push_back(absl::StrCat(m.node_id()));
    if (m.backup_id() != first.backup_id()) {
      return absl::FailedPreconditionError(
          absl::StrCat("parts of different backups: node ", first.node_id(), "'s of backup ",
                       first.backup_id(), ", node ", m.node_id(), "'s of backup ", m.backup_id()));
    }
    if (m.stop_epoch() != first.stop_epoch()) {
      return absl::FailedPreconditionError(
          absl::StrCat("the parts of backup ", first.backup_id(),
                       " disagree on its stop epoch: node ", first.node_id(), "'s is ",
                       first.stop_epoch(), ", node ", m.node_id(), "'s ", m.stop_epoch()));
    }
    if (m.node_groups() == 0 || m.node_group() >= m.node_groups()) {
      return absl::DataLossError(absl::StrCat("node ", m.node_id(), "'s part of backup ",
                                              m.backup_id(), " is of node group ", m.node_group(),
                                              " of ", m.node_groups()));
    }
    if (m.node_groups() != first.node_groups()) {
      return absl::FailedPreconditionError(absl::StrCat("the parts of backup ", first.backup_id(),
                                                        " disagree on the number of node groups: "
                                                        "node ",
                                                        first.node_id(), "'s says ",
                                                        first.node_groups(), ", node ", m.node_id(),
                                                        "'s ", m.node_groups()));
    }
  }
  std::vector<const Part*> chosen(first.node_groups(), nullptr);
  for (const Part& part : parts) {
    const Part*& slot = chosen[part.manifest.node_group()];
    if (slot == nullptr || part.manifest.node_id() < slot->manifest.node_id()) slot = &part;
  }
  std::vector<Part> out;
  for (size_t group = 0; group < chosen.size(); ++group) {
    if (chosen[group] == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat(
          "backup ", first.backup_id(), " has no part of node group ", group, " (parts found: node",
          nodes.size() == 1 ? " " : "s ", absl::StrJoin(nodes, ", "),
          "); name the backup directory of a data node of that group too"));
    }
    out.push_back(*chosen[group]);
  }
  return out;
}

absl::Status CheckPartFiles(const Part& part) {
  // A manifest names files of its own directory only: never a path to read elsewhere.
  auto plain = [&](const std::string& name) {
    return name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos
               ? absl::DataLossError(absl::StrCat("node ", part.manifest.node_id(),
                                                  "'s manifest names a file outside ", part.dir,
                                                  ": '", name, "'"))
               : absl::OkStatus();
  };
  for (const std::string& name : part.manifest.data_files()) SHOAL_RETURN_IF_ERROR(plain(name));
  if (!part.manifest.log_file().empty()) SHOAL_RETURN_IF_ERROR(plain(part.manifest.log_file()));
  for (const std::string& name : part.manifest.data_files()) {
    SHOAL_RETURN_IF_ERROR(FileSize(part.dir + "/" + name).status());
  }
  if (!part.manifest.log_file().empty()) {
    SHOAL_RETURN_IF_ERROR(FileSize(part.dir + "/" + part.manifest.log_file()).status());
  }
  return absl::OkStatus();
}

absl::StatusOr<PartStats> ReadPart(
    const Part& part,
    absl::FunctionRef<absl::Status(const schema::TableDef& source_table, absl::string_view row)>
        row,
    absl::FunctionRef<void(uint64_t bytes_done, uint64_t bytes_total)> progress) {
  const Manifest& manifest = part.manifest;
  SHOAL_ASSIGN_OR_RETURN(const BackupDictionary dictionary, ParseBackupDictionary(manifest));
  std::vector<std::string> data_files;
  for (const std::string& name : manifest.data_files()) data_files.push_back(part.dir + "/" + name);
  const std::string log_file =
      manifest.log_file().empty() ? "" : part.dir + "/" + manifest.log_file();
  PartStats stats;
  std::vector<uint64_t> sizes;
  for (const std::string& path : data_files) {
    SHOAL_ASSIGN_OR_RETURN(uint64_t size, FileSize(path));
    sizes.push_back(size);
    stats.bytes += size;
  }
  if (!log_file.empty()) {
    SHOAL_ASSIGN_OR_RETURN(uint64_t size, FileSize(log_file));
    stats.bytes += size;
  }
  Progress tracker{progress, stats.bytes, 0};
  progress(0, stats.bytes);
  PartRows rows;
  for (size_t i = 0; i < data_files.size(); ++i) {
    SHOAL_RETURN_IF_ERROR(ReadDataFile(data_files[i], dictionary, &rows, &stats, &tracker));
    tracker.base += sizes[i];
  }
  if (!log_file.empty()) {
    SHOAL_RETURN_IF_ERROR(ReadLogFile(log_file, manifest, dictionary, &rows, &stats, &tracker));
  }
  progress(stats.bytes, stats.bytes);
  for (const auto& [partition, keyed] : rows) {
    const schema::TableDef& table = dictionary.tables.at(partition.first);
    for (const auto& [key, packed] : keyed) {
      SHOAL_RETURN_IF_ERROR(row(table, packed));
      ++stats.rows;
    }
  }
  return stats;
}

}  // namespace shoal::backup
