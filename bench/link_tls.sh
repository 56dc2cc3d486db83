#!/usr/bin/env bash
# What TLS between the cluster's processes costs (cluster.tls): the same one-host cluster — two
# data nodes without shared memory sockets, so the router reaches them and they reach each
# other over TCP as between hosts — with `tls: false` and `tls: true`, alternating, each
# prepared afresh. Per run: QPS, p95, and the CPU microseconds per query of the router and of
# the two data nodes (user + system from /proc over the run).
#
#   bench/link_tls.sh [seconds-per-step, default 10] [threads, default 8] \
#                     [workloads, default "oltp_point_select oltp_read_write"] [rounds, default 2]
#
# Needs a release build; SHOAL_BIN_DIR picks other binaries. Everything runs under a temp dir
# and is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
threads=${2:-8}
workloads=${3:-"oltp_point_select oltp_read_write"}
rounds=${4:-2}
bin=${SHOAL_BIN_DIR:-build/bin}
source bench/cluster_in_a_box.sh
source tests/testutil/free_ports.sh

cpu_ticks() {  # the sum over the given pids
  local total=0 pid
  for pid in "$@"; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done
  echo "$total"
}
hz=$(getconf CLK_TCK)

run_cluster() {  # TLS ROUND: starts the cluster, runs the workloads, stops it
  local tls=$1 round=$2 run port
  run=$work/$tls-$round
  port=$(free_ports 1)
  mkdir -p "$run"
  cat >"$run/cluster.yaml" <<YAML
cluster:
  replicas: 2
  data_memory: 256M
  tls: $tls
mgmd:
  host: 127.0.0.1
  port: $port
  data_dir: $run/mgmd
datanodes:
  - id: 2
    host: 127.0.0.1
    data_dir: $run/dn2
  - id: 3
    host: 127.0.0.1
    data_dir: $run/dn3
routers:
  - id: 4
    host: 127.0.0.1
    socket: $run/r4.sock
users:
  - name: root
YAML
  "$bin/shoal-mgmd" --config-file "$run/cluster.yaml" --launch >"$run/mgmd.out" 2>&1 &
  mgmd_pid=$!
  pids+=("$mgmd_pid")
  for _ in $(seq 200); do [ -S "$run/r4.sock" ] && break; sleep 0.1; done
  sleep 2  # the data nodes finish starting
  local router datanodes common
  router=$(node_pid shoal-router 4)
  datanodes="$(node_pid shoal-datanode 2) $(node_pid shoal-datanode 3)"
  common=(--mysql-socket="$run/r4.sock" --mysql-user=root --tables=4 --table-size=10000)
  mariadb -S "$run/r4.sock" -u root -e "CREATE DATABASE sbtest"
  sysbench oltp_read_write "${common[@]}" --mysql-storage-engine=ndbcluster --threads=2 prepare \
    >"$run/prepare.out"
  for w in $workloads; do
    local r0 d0 r1 d1 out
    r0=$(cpu_ticks "$router")
    # shellcheck disable=SC2086 # one pid a word
    d0=$(cpu_ticks $datanodes)
    out=$(sysbench "$w" "${common[@]}" --threads="$threads" --time="$seconds" \
      --report-interval=0 run)
    r1=$(cpu_ticks "$router")
    # shellcheck disable=SC2086
    d1=$(cpu_ticks $datanodes)
    awk -v tls="$tls" -v round="$round" -v w="$w" -v s="$seconds" -v hz="$hz" \
      -v r="$((r1 - r0))" -v d="$((d1 - d0))" \
      -v n="$(awk '/queries:/ {print $2; exit}' <<<"$out")" \
      -v p="$(awk '/95th percentile:/ {print $3; exit}' <<<"$out")" \
      -v e="$(awk '/ignored errors:/ {print $3; exit}' <<<"$out")" \
      'BEGIN { printf "| %-5s | %d | %-17s | %8.0f | %6.2f | %8.2f | %8.2f | %s |\n",
               tls, round, w, n / s, p, r / hz * 1e6 / n, d / hz * 1e6 / n, e }'
  done
  kill "$mgmd_pid"
  wait "$mgmd_pid" 2>/dev/null || true
}

echo "4 × 10,000 rows, $threads threads, $seconds s per step ($(nproc) CPUs)"
echo "| tls   | round | workload          |      QPS | p95 ms | router µs/q | data nodes µs/q | errors |"
echo "|-------|-------|-------------------|----------|--------|----------|----------|--------|"
for round in $(seq "$rounds"); do
  for tls in false true; do run_cluster "$tls" "$round"; done
done
