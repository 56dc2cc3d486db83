#!/usr/bin/env bash
# sysbench OLTP through data node failures: what a sysbench user sees when data nodes die. The
# embedded cluster in a box runs `workload` through router 4's Unix socket with a report every
# second; a third of the way in, data node 3 is killed with SIGKILL (the mgmd starts it again
# and it copies back under load), two thirds of the way in, data node 2. Temporary errors
# (1297) and lock conflicts are retried as sysbench users of NDB do (--mysql-ignore-errors).
# Prints sysbench's per-second report and summary, the cluster log's alerts, and each table's
# row count afterwards (oltp_read_write deletes and inserts back the same rows, so the counts
# must not change). Exits non-zero when sysbench failed or a count changed: ctest runs it as
# sysbench_failover_test (tests/fault/CMakeLists.txt).
#
#   bench/sysbench_failover.sh [seconds, default 30] [threads, default 8] \
#                              [workload, default oltp_read_write]
#
# Needs a release build (scripts/run.sh or cmake --build --preset release); SHOAL_BIN_DIR
# picks other binaries. Everything runs under a temp dir and is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
threads=${2:-8}
workload=${3:-oltp_read_write}
tables=${SHOAL_TABLES:-4}
table_size=${SHOAL_TABLE_SIZE:-10000}
source bench/cluster_in_a_box.sh
start_cluster
sleep 1 # the data nodes finish starting

common=(--mysql-socket="$socket" --mysql-user=root --tables="$tables" --table-size="$table_size")
mariadb -S "$socket" -u root -e "CREATE DATABASE sbtest"
sysbench "$workload" "${common[@]}" --mysql-storage-engine=ndbcluster --threads=2 prepare \
  >"$work/prepare.out"

sysbench "$workload" "${common[@]}" --threads="$threads" --time="$seconds" --report-interval=1 \
  --mysql-ignore-errors=1297,1205,1213,1412 run >"$work/run.out" 2>&1 &
sysbench_pid=$!
for node in 3 2; do
  sleep $((seconds / 3))
  pid=$(node_pid shoal-datanode "$node")
  echo "$(date +%T.%3N) kill -9 data node $node (pid ${pid:-none})"
  [ -n "$pid" ] && kill -9 "$pid"
done
status=0
wait "$sysbench_pid" || status=$?
echo "sysbench exited with $status"
grep -E '^\[|transactions:|queries:|ignored errors:|FATAL' "$work/run.out"
echo "cluster log:"
grep -E 'ALERT|started process|Data node started' "$work/shoal/mgmd-1/cluster.log" |
  sed 's/^/  /' || true
for t in $(seq "$tables"); do
  rows=$(mariadb -S "$socket" -u root -N -e "SELECT COUNT(*) FROM sbtest.sbtest$t" || echo "?")
  echo "sbtest$t: $rows rows"
  if [ "$workload" = oltp_read_write ] && [ "$rows" != "$table_size" ]; then
    echo "sbtest$t should still have $table_size rows" >&2
    status=1
  fi
done
exit "$status"
