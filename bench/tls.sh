#!/usr/bin/env bash
# What TLS costs a router (issue 22): sysbench over TCP to router 4 of the cluster in a box,
# alternating without TLS and with it (--mysql-ssl=on: TLS 1.3 with the router's certificate)
# in one run, so that the ratio holds on a noisy machine. Prints QPS, p95 latency and the
# router's CPU microseconds per query for each workload, then the same for new connections
# (bench/connect.lua: connect, log in, SELECT 1, disconnect; "QPS" is connections per second
# and the router's CPU is per connection).
#
#   bench/tls.sh [seconds-per-step, default 10] [threads, default 8] \
#                [workloads, default "oltp_point_select oltp_read_only bench/connect.lua"] \
#                [rounds, default 2]
#
# Needs a release build and sysbench; SHOAL_BIN_DIR picks other binaries. sysbench 1.0.20
# reads the client files as client-key.pem, client-cert.pem and cacert.pem in its working
# directory: they are linked there from the routers' ssl_dir. Stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
threads=${2:-8}
workloads=${3:-"oltp_point_select oltp_read_only bench/connect.lua"}
rounds=${4:-2}
source bench/cluster_in_a_box.sh
source tests/testutil/free_ports.sh
port=$(free_ports 2)
start_cluster "$port"
sleep 1 # the data nodes finish starting
router_pid=$(node_pid shoal-router 4)
tls="$work/shoal/tls"
mkdir "$work/sysbench"
ln -s "$tls/client-key.pem" "$work/sysbench/client-key.pem"
ln -s "$tls/client-cert.pem" "$work/sysbench/client-cert.pem"
ln -s "$tls/ca.pem" "$work/sysbench/cacert.pem"

common=(--mysql-host=127.0.0.1 --mysql-port="$port" --mysql-user=root --tables=4 --table-size=10000)
mariadb -S "$socket" -u root -e "CREATE DATABASE sbtest"
sysbench oltp_read_write "${common[@]}" --mysql-storage-engine=ndbcluster --threads=2 prepare \
  >"$work/prepare.out"
ticks_per_second=$(getconf CLK_TCK)
router_ticks() { awk '{print $14 + $15}' "/proc/$router_pid/stat"; }

echo "threads=$threads seconds=$seconds rounds=$rounds ($(nproc) CPUs), TCP to router 4"
echo "| workload          | TLS | round |     QPS | p95 ms | router µs/q | errors |"
echo "|-------------------|-----|-------|---------|--------|-------------|--------|"
for w in $workloads; do
  for round in $(seq "$rounds"); do
    for ssl in off on; do
      r0=$(router_ticks)
      script=$w
      [[ $w != */* ]] || script=$PWD/$w
      out=$(cd "$work/sysbench" && sysbench "$script" "${common[@]}" --mysql-ssl="$ssl" \
        --threads="$threads" --time="$seconds" --report-interval=0 run 2>&1) ||
        { echo "$out" >&2; exit 1; }
      r1=$(router_ticks)
      # A connection per event: count events (connections), not queries.
      if [[ $w == */* ]]; then
        queries=$(awk '/total number of events:/ {print $5; exit}' <<<"$out")
      else
        queries=$(awk '/queries:/ {print $2; exit}' <<<"$out")
      fi
      p95=$(awk '/95th percentile:/ {print $3; exit}' <<<"$out")
      errors=$(awk '/ignored errors:/ {print $3; exit}' <<<"$out")
      awk -v w="$w" -v s="$ssl" -v rd="$round" -v n="$queries" -v sec="$seconds" -v p="$p95" \
        -v e="$errors" -v r="$((r1 - r0))" -v hz="$ticks_per_second" \
        'BEGIN { sub(".*/", "", w); printf "| %-17s | %-3s | %5d | %7.0f | %6.2f | %11.2f | %6d |\n",
                 w, s, rd, n / sec, p, r / hz * 1e6 / n, e }'
    done
  done
done
