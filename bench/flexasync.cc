// flexasync: a native-API benchmark in the spirit of NDB's flexAsynch. Each thread keeps
// `--parallelism` batches of `--batch` operations in flight against a live cluster and runs
// the phases insert, read, update, delete over its own range of keys, then prints per phase
// the operations per second and the CPU microseconds per operation of the client process and
// of the data nodes (from /proc, over the phase).
//
//   flexasync --mgmd 127.0.0.1:1186 --threads 1 --parallelism 64 --batch 16
//             --records 200000 --record-size 100 --transport shm
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "common/host_port.h"
#include "engine/api/client.h"
#include "engine/api/sync_client.h"
#include "engine/schema/program.h"
#include "engine/schema/row.h"

ABSL_FLAG(std::string, mgmd, "127.0.0.1:1186", "The management daemon, host:port.");
ABSL_FLAG(int, threads, 1, "Client threads, each with its own native client.");
ABSL_FLAG(int, parallelism, 64, "Batches in flight per thread.");
ABSL_FLAG(int, batch, 16, "Operations per batch.");
ABSL_FLAG(int64_t, records, 200000, "Records per thread.");
ABSL_FLAG(int, record_size, 100, "Bytes per record: an 8-byte key and the rest payload.");
ABSL_FLAG(std::string, transport, "shm", "shm (shared memory where possible) or tcp.");
ABSL_FLAG(std::string, phases, "insert,read,update,delete", "Phases to run, in order.");
ABSL_FLAG(int, loops, 1, "How many times to run the read and update phases.");
ABSL_FLAG(absl::Duration, spin, absl::ZeroDuration(),
          "How long the client busy-polls for results before it sleeps (e.g. 50us).");
ABSL_FLAG(std::string, table, "flexasync", "Table (in database `bench`), dropped first.");

namespace {

using shoal::api::Client;
using shoal::api::Completion;
using shoal::api::Outcome;
using shoal::schema::RowWriter;
using shoal::schema::TableDef;

enum class Phase { kInsert, kRead, kUpdate, kDelete };

// CPU time of a process, from /proc/<pid>/stat (utime + stime, in clock ticks).
double ProcessCpuSeconds(int pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::vector<std::string> fields = absl::StrSplit(text.substr(close + 2), ' ');
  if (fields.size() < 13) return 0;
  double utime = 0, stime = 0;
  (void)absl::SimpleAtod(fields[11], &utime);
  (void)absl::SimpleAtod(fields[12], &stime);
  return (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double SelfCpuSeconds() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

struct Counts {
  std::atomic<int64_t> ok{0};
  std::atomic<int64_t> errors{0};
};

// One thread's worth of the benchmark.
class Worker : public Completion {
 public:
  Worker(shoal::api::Cluster* cluster, const TableDef* table, int64_t first, int64_t count,
         int record_size, Counts* counts)
      : client_(cluster), table_(table), first_(first), count_(count), counts_(counts) {
    payload_.assign(static_cast<size_t>(std::max(0, record_size - 8)), 'x');
  }

  void Run(Phase phase) {
    const int window = absl::GetFlag(FLAGS_parallelism) * absl::GetFlag(FLAGS_batch);
    const int batch = absl::GetFlag(FLAGS_batch);
    int64_t next = 0;
    uint64_t round = 0;
    const uint16_t all_columns[] = {0, 1};
    std::string key, row, program;
    while (next < count_ || client_.in_flight() > 0) {
      // Define whole batches while the window has room, then send them all at once (I1).
      while (next < count_ && client_.in_flight() + batch <= window) {
        for (int i = 0; i < batch && next < count_; ++i, ++next) {
          uint64_t id = static_cast<uint64_t>(first_ + next);
          writer_.Clear();
          writer_.BeginKey();
          writer_.Int(table_->columns[0], static_cast<int64_t>(id));
          key = std::string(writer_.view());
          switch (phase) {
            case Phase::kInsert:
              writer_.Clear();
              writer_.BeginRow(2);
              writer_.Int(table_->columns[0], static_cast<int64_t>(id));
              writer_.Bytes(payload_);
              client_.Insert(*table_, writer_.view(), this);
              break;
            case Phase::kRead:
              client_.Read(*table_, key, all_columns, this);
              break;
            case Phase::kUpdate:
              payload_[0] = static_cast<char>('a' + round % 26);
              program = shoal::schema::UpdateBuilder().SetBytes(1, payload_).Finish();
              client_.Update(*table_, key, program, this);
              break;
            case Phase::kDelete:
              client_.Delete(*table_, key, this);
              break;
          }
        }
      }
      client_.Send();
      client_.Poll(absl::Milliseconds(10));
      ++round;
    }
  }

  void Done(const Outcome& outcome) override {
    if (outcome.ok()) {
      counts_->ok.fetch_add(1, std::memory_order_relaxed);
    } else {
      if (counts_->errors.fetch_add(1, std::memory_order_relaxed) < 5) {
        absl::string_view message = outcome.not_found() ? "row not found" : outcome.message;
        std::fprintf(stderr, "error %u: %.*s\n", outcome.code, static_cast<int>(message.size()),
                     message.data());
      }
    }
  }

 private:
  Client client_;
  const TableDef* table_;
  int64_t first_, count_;
  Counts* counts_;
  std::string payload_;
  RowWriter writer_;
};

const char* PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kInsert:
      return "insert";
    case Phase::kRead:
      return "read";
    case Phase::kUpdate:
      return "update";
    case Phase::kDelete:
      return "delete";
  }
  return "?";
}

absl::StatusOr<shoal::api::TablePtr> CreateTable(shoal::api::SyncClient* sync, int record_size) {
  shoal::wire::DictReq db;
  db.mutable_create_database()->set_name("bench");
  db.mutable_create_database()->set_if_not_exists(true);
  absl::StatusOr<shoal::wire::DictConf> conf = sync->Dictionary(db);
  if (!conf.ok()) return conf.status();
  shoal::wire::DictReq drop;
  drop.mutable_drop_table()->set_database("bench");
  drop.mutable_drop_table()->set_name(absl::GetFlag(FLAGS_table));
  drop.mutable_drop_table()->set_if_exists(true);
  conf = sync->Dictionary(drop);
  if (!conf.ok()) return conf.status();

  TableDef table;
  table.database = "bench";
  table.name = absl::GetFlag(FLAGS_table);
  shoal::schema::ColumnDef id;
  id.name = "id";
  id.type = shoal::schema::ColumnType::kBigInt;
  id.is_unsigned = true;
  id.nullable = false;
  shoal::schema::ColumnDef payload;
  payload.name = "payload";
  payload.type = shoal::schema::ColumnType::kVarBinary;
  payload.length = static_cast<uint32_t>(std::max(1, record_size - 8));
  payload.nullable = false;
  table.columns = {id, payload};
  shoal::schema::IndexDef primary;
  primary.name = "PRIMARY";
  primary.columns = {0};
  primary.unique = primary.primary = true;
  table.indexes = {primary};
  shoal::wire::DictReq create;
  shoal::schema::AppendTableDef(table, create.mutable_create_table()->mutable_table());
  conf = sync->Dictionary(create);
  if (!conf.ok()) return conf.status();
  if (conf->error_code() != 0) {
    return absl::InternalError(
        absl::StrCat("CREATE TABLE: ", conf->error_code(), " ", conf->error_message()));
  }
  return sync->Table("bench", table.name);
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage("flexasync: native-API throughput benchmark (see bench/RESULTS.md)");
  absl::ParseCommandLine(argc, argv);
  absl::StatusOr<shoal::HostPort> mgmd = shoal::ParseHostPort(absl::GetFlag(FLAGS_mgmd), 1186);
  if (!mgmd.ok()) {
    std::fprintf(stderr, "--mgmd: %s\n", std::string(mgmd.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<shoal::control::ClusterView> view =
      shoal::api::Cluster::FetchView(mgmd->host, mgmd->port, absl::Seconds(5));
  if (!view.ok()) {
    std::fprintf(stderr, "%s\n", std::string(view.status().message()).c_str());
    return 1;
  }
  shoal::api::Cluster::Options options;
  options.use_shared_memory = absl::GetFlag(FLAGS_transport) == "shm";
  options.spin = absl::GetFlag(FLAGS_spin);
  shoal::api::Cluster cluster(options);
  cluster.SetView(*view);
  std::vector<int> datanode_pids;
  for (const auto& node : view->nodes()) {
    if (node.type() == shoal::control::DATANODE && node.state() == shoal::control::STARTED) {
      datanode_pids.push_back(node.pid());
    }
  }

  const int record_size = absl::GetFlag(FLAGS_record_size);
  shoal::api::SyncClient sync(&cluster);
  absl::StatusOr<shoal::api::TablePtr> table = CreateTable(&sync, record_size);
  if (!table.ok()) {
    std::fprintf(stderr, "%s\n", std::string(table.status().message()).c_str());
    return 1;
  }

  const int threads = absl::GetFlag(FLAGS_threads);
  const int64_t records = absl::GetFlag(FLAGS_records);
  std::vector<Phase> phases;
  for (absl::string_view name : absl::StrSplit(absl::GetFlag(FLAGS_phases), ',')) {
    if (name == "insert") phases.push_back(Phase::kInsert);
    if (name == "read" || name == "update") {
      for (int i = 0; i < absl::GetFlag(FLAGS_loops); ++i) {
        phases.push_back(name == "read" ? Phase::kRead : Phase::kUpdate);
      }
    }
    if (name == "delete") phases.push_back(Phase::kDelete);
  }
  std::printf(
      "flexasync: %d thread(s) x %d batches x %d ops in flight, %lld records of %d "
      "bytes per thread, over %s\n",
      threads, absl::GetFlag(FLAGS_parallelism), absl::GetFlag(FLAGS_batch),
      static_cast<long long>(records), record_size, absl::GetFlag(FLAGS_transport).c_str());
  std::printf("%-8s %12s %10s %16s %18s\n", "phase", "ops/s", "errors", "client us/op",
              "datanodes us/op");
  Counts counts;
  std::vector<std::unique_ptr<Worker>> workers;
  for (int t = 0; t < threads; ++t) {
    workers.push_back(std::make_unique<Worker>(&cluster, table->get(), t * records, records,
                                               record_size, &counts));
  }
  int exit_code = 0;
  for (Phase phase : phases) {
    counts.ok = 0;
    counts.errors = 0;
    double client_cpu = SelfCpuSeconds();
    std::vector<double> node_cpu_before;
    for (int pid : datanode_pids) node_cpu_before.push_back(ProcessCpuSeconds(pid));
    absl::Time start = absl::Now();
    std::vector<std::thread> running;
    for (auto& worker : workers) running.emplace_back([&worker, phase] { worker->Run(phase); });
    for (std::thread& t : running) t.join();
    double seconds = absl::ToDoubleSeconds(absl::Now() - start);
    client_cpu = SelfCpuSeconds() - client_cpu;
    double node_cpu = 0;
    bool node_gone = false;  // a data node that died (or restarted) mid-phase: no figure
    for (size_t i = 0; i < datanode_pids.size(); ++i) {
      double after = ProcessCpuSeconds(datanode_pids[i]);
      node_gone |= after < node_cpu_before[i] || after == 0;
      node_cpu += after - node_cpu_before[i];
    }
    double ops = static_cast<double>(threads * records);
    std::string node_column =
        node_gone ? std::string("-") : absl::StrFormat("%.3f", node_cpu * 1e6 / ops);
    std::printf("%-8s %12.0f %10lld %16.3f %18s\n", PhaseName(phase), ops / seconds,
                static_cast<long long>(counts.errors.load()), client_cpu * 1e6 / ops,
                node_column.c_str());
    std::fflush(stdout);
    if (counts.errors.load() > 0) exit_code = 1;
  }
  return exit_code;
}
