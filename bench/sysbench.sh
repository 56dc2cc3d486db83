#!/usr/bin/env bash
# sysbench OLTP against the cluster in a box (issue 5): prepare `--tables` × `--table-size`
# rows with --mysql-storage-engine=ndbcluster through router 4's Unix socket, then run each
# workload at each thread count. Prints QPS, p95 latency, and the CPU microseconds per query
# of the router process and of the two data node processes together (user + system time from
# /proc over the run).
#
#   bench/sysbench.sh [seconds-per-step, default 10] [thread counts, default "8 32"] \
#                     [workloads, default "oltp_point_select oltp_read_write"]
#   SHOAL_TABLES=4 SHOAL_TABLE_SIZE=100000 bench/sysbench.sh
#   SHOAL_SYSBENCH_ARGS=--db-ps-mode=disable bench/sysbench.sh   (text statements, no PS)
#
# Needs a release build (scripts/run.sh or cmake --build --preset release); SHOAL_BIN_DIR
# picks other binaries (e.g. an older router, to measure a change). Everything runs under a
# temp dir and is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
threads=${2:-"8 32"}
workloads=${3:-"oltp_point_select oltp_read_write"}
tables=${SHOAL_TABLES:-4}
table_size=${SHOAL_TABLE_SIZE:-100000}
source bench/cluster_in_a_box.sh
start_cluster
sleep 1 # the data nodes finish starting
router_pid=$(node_pid shoal-router 4)
datanode_pids="$(node_pid shoal-datanode 2) $(node_pid shoal-datanode 3)"

common=(--mysql-socket="$socket" --mysql-user=root --tables="$tables" --table-size="$table_size")
mariadb -S "$socket" -u root -e "CREATE DATABASE sbtest"
sysbench oltp_read_write "${common[@]}" --mysql-storage-engine=ndbcluster --threads=2 prepare \
  >"$work/prepare.out"

cpu_ticks() {  # the sum over the given pids
  local total=0 pid
  for pid in "$@"; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done
  echo "$total"
}
ticks_per_second=$(getconf CLK_TCK)

echo "tables=$tables table_size=$table_size seconds=$seconds ($(nproc) CPUs)"
echo "| workload          | threads |     QPS | p95 ms | router µs/q | data nodes µs/q | errors |"
echo "|-------------------|---------|---------|--------|-------------|-----------------|--------|"
for w in $workloads; do
  for t in $threads; do
    r0=$(cpu_ticks "$router_pid")
    # shellcheck disable=SC2086
    d0=$(cpu_ticks $datanode_pids)
    # shellcheck disable=SC2086
    out=$(sysbench "$w" "${common[@]}" ${SHOAL_SYSBENCH_ARGS:-} --threads="$t" --time="$seconds" \
      --report-interval=0 run)
    r1=$(cpu_ticks "$router_pid")
    # shellcheck disable=SC2086
    d1=$(cpu_ticks $datanode_pids)
    queries=$(awk '/queries:/ {print $2; exit}' <<<"$out")
    p95=$(awk '/95th percentile:/ {print $3; exit}' <<<"$out")
    errors=$(awk '/ignored errors:/ {print $3; exit}' <<<"$out")
    awk -v w="$w" -v th="$t" -v n="$queries" -v s="$seconds" -v p="$p95" -v e="$errors" \
      -v r="$((r1 - r0))" -v d="$((d1 - d0))" -v hz="$ticks_per_second" \
      'BEGIN { printf "| %-17s | %7d | %7.0f | %6.2f | %11.2f | %15.2f | %6d |\n",
               w, th, n / s, p, r / hz * 1e6 / n, d / hz * 1e6 / n, e }'
  done
done
