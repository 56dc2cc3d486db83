#!/usr/bin/env bash
# The cost of durability (issue 16), measured in one run on the cluster in a box:
#  1. writes to logged tables (redo + epochs) against non-logged ones
#     (COMMENT="NDB_TABLE=NOLOGGING=1"), alternating A B A B: sysbench oltp_update_index and
#     oltp_write_only (tables keep their size: an insert workload would fill data_memory over the
#     rounds), QPS, p95 and the data nodes' CPU µs per query;
#  2. recovery time: `kill -9` of both data nodes with `rows` rows in a logged table, and the
#     time until both serve again (the mgmd restarts them; each restores from its own disk).
#
#   bench/durability.sh [seconds-per-step, default 10] [threads, default 8] [rows, default 1000000]
#   SHOAL_BENCH_RECOVERY_ONLY=1 bench/durability.sh 10 8 1000000   # part 2 alone
#
# Needs a release build; everything runs under a temp dir and is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
threads=${2:-8}
rows=${3:-1000000}
source bench/cluster_in_a_box.sh
start_cluster
sleep 1
datanode_pids() { echo "$(node_pid shoal-datanode 2) $(node_pid shoal-datanode 3)"; }
cpu_ticks() {
  local total=0 pid
  for pid in "$@"; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done
  echo "$total"
}
hz=$(getconf CLK_TCK)

if [ -z "${SHOAL_BENCH_RECOVERY_ONLY:-}" ]; then
mariadb -S "$socket" -u root -e "CREATE DATABASE logged; CREATE DATABASE nolog"
common=(--mysql-socket="$socket" --mysql-user=root --tables=4 --table-size=100000)
sysbench oltp_insert "${common[@]}" --mysql-db=logged --mysql-storage-engine=ndbcluster \
  --threads=4 prepare >"$work/prepare-logged.out"
sysbench oltp_insert "${common[@]}" --mysql-db=nolog \
  --mysql-storage-engine="ndbcluster COMMENT='NDB_TABLE=NOLOGGING=1'" --threads=4 prepare \
  >"$work/prepare-nolog.out"

echo "threads=$threads seconds=$seconds ($(nproc) CPUs), 4 x 100000 rows per database"
echo "| workload          | tables     |     QPS | p95 ms | data nodes µs/q | errors |"
echo "|-------------------|------------|---------|--------|-----------------|--------|"
for round in 1 2; do
  for w in oltp_update_index oltp_write_only; do
    for db in logged nolog; do
      # shellcheck disable=SC2046
      d0=$(cpu_ticks $(datanode_pids))
      out=$(sysbench "$w" "${common[@]}" --mysql-db="$db" --threads="$threads" \
        --time="$seconds" --report-interval=0 --mysql-ignore-errors=all run)
      # shellcheck disable=SC2046
      d1=$(cpu_ticks $(datanode_pids))
      queries=$(awk '/queries:/ {print $2; exit}' <<<"$out")
      p95=$(awk '/95th percentile:/ {print $3; exit}' <<<"$out")
      errors=$(awk '/ignored errors:/ {print $3; exit}' <<<"$out")
      awk -v w="$w" -v db="$db" -v n="$queries" -v s="$seconds" -v p="$p95" -v e="$errors" \
        -v d="$((d1 - d0))" -v hz="$hz" \
        'BEGIN { printf "| %-17s | %-10s | %7.0f | %6.2f | %15.2f | %6d |\n",
                 w, db, n / s, p, d / hz * 1e6 / n, e }'
    done
  done
done

fi

# Recovery: a fresh cluster (data_memory holds the rows), one logged table of `rows` rows,
# then every data node killed at once.
kill "$mgmd_pid"
wait "$mgmd_pid" 2>/dev/null || true
rm -rf "$work/shoal"
start_cluster
sleep 1
mariadb -S "$socket" -u root -e "CREATE DATABASE rec"
sysbench oltp_insert --mysql-socket="$socket" --mysql-user=root --mysql-db=rec --tables=1 \
  --table-size="$rows" --mysql-storage-engine=ndbcluster --threads=4 prepare >"$work/prepare-rec.out"
before=$(mariadb -S "$socket" -u root -N -e "SELECT COUNT(*) FROM rec.sbtest1")
sleep 2.5 # two epochs: every row is in a complete one
du_dir=$(du -sm "$work/shoal/datanode-2" | awk '{print $1}')
start=$(date +%s.%N)
# shellcheck disable=SC2046
kill -9 $(datanode_pids)
sleep 1
until mariadb -S "$socket" -u root -N -e "SELECT COUNT(*) FROM rec.sbtest1" >"$work/count" 2>/dev/null; do
  sleep 0.2
done
end=$(date +%s.%N)
echo
echo "recovery of $before rows (data node 2's directory: ${du_dir} MiB): $(awk -v a="$start" \
  -v b="$end" 'BEGIN { printf "%.1f", b - a }') s from kill -9 to a served SELECT COUNT(*) = $(cat "$work/count")"
grep -h "restored in" "$work/shoal"/mgmd-1/shoal-datanode-*.log 2>/dev/null | tail -2 || true
