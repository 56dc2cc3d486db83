#!/usr/bin/env bash
# What local checkpoints cost the foreground (docs/architecture.md, "Local checkpoints"): the
# cluster in a box twice, the same load each time — sysbench oltp_point_select (foreground,
# `threads`) beside a light oltp_update_index (1 thread, which writes the redo) — first with
# checkpoints off in effect (checkpoint_after_redo: 1T), then back to back
# (checkpoint_after_redo: 1M, so one starts as soon as the last is done). Prints QPS and p95 of
# both workloads and how many checkpoints ran.
#
#   bench/checkpoint.sh [seconds, default 20] [threads, default 8] [write rate, default 20M]
#   SHOAL_TABLES=4 SHOAL_TABLE_SIZE=100000 bench/checkpoint.sh
#
# Needs a release build; everything runs under a temp dir and is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
threads=${2:-8}
rate=${3:-20M}
tables=${SHOAL_TABLES:-4}
table_size=${SHOAL_TABLE_SIZE:-100000}
source bench/cluster_in_a_box.sh

# The cluster in a box under $work/<mode>, with data node 2's /metrics on a free port.
start_configured_cluster() {  # mode after_redo
  local dir="$work/$1"
  metrics_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  mkdir -p "$dir"
  sed -e "s|/tmp/shoal|$dir|g" -e 's/^\(    port: \)330[67]/\10/' \
    -e "0,/    metrics_port: 0/s//    metrics_port: $metrics_port/" \
    -e "s|^  lock_wait_timeout:.*|&\n  checkpoint_after_redo: $2\n  checkpoint_write_rate: $rate|" \
    conf/cluster-in-a-box.yaml >"$dir/cluster.yaml"
  # Only checkpoint_* may appear twice: drop the file's own lines for them.
  awk '/^  checkpoint_(after_redo|write_rate):/ { if (seen[$1]++) next } 1' "$dir/cluster.yaml" \
    >"$dir/c.yaml" && mv "$dir/c.yaml" "$dir/cluster.yaml"
  "${SHOAL_BIN_DIR:-build/bin}/shoal-mgmd" --config_file "$dir/cluster.yaml" --port 0 --launch \
    >"$dir/mgmd.out" 2>&1 &
  mgmd_pid=$!
  pids+=($mgmd_pid)
  socket="$dir/router-4.sock"
  for _ in $(seq 200); do [ -S "$socket" ] && break; sleep 0.1; done
  sleep 2 # the data nodes finish starting
}

checkpoints() {
  curl -s "http://127.0.0.1:$metrics_port/metrics" |
    awk '$1 == "shoal_datanode_checkpoints_total" {print $2}'
}

run_mode() {  # mode after_redo
  start_configured_cluster "$1" "$2"
  local common=(--mysql-socket="$socket" --mysql-user=root --tables="$tables"
    --table-size="$table_size")
  mariadb -S "$socket" -u root -e "CREATE DATABASE sbtest"
  sysbench oltp_read_write "${common[@]}" --mysql-storage-engine=ndbcluster --threads=2 prepare \
    >"$work/$1/prepare.out"
  local c0 p_out u_out
  c0=$(checkpoints)
  sysbench oltp_update_index "${common[@]}" --threads=1 --time="$seconds" --report-interval=0 \
    run >"$work/$1/update.out" &
  local updater=$!
  p_out=$(sysbench oltp_point_select "${common[@]}" --threads="$threads" --time="$seconds" \
    --report-interval=0 run)
  wait "$updater"
  u_out=$(cat "$work/$1/update.out")
  local c1
  c1=$(checkpoints)
  awk -v m="$1" -v s="$seconds" -v c="$((c1 - c0))" \
    -v pq="$(awk '/queries:/ {print $2; exit}' <<<"$p_out")" \
    -v pp="$(awk '/95th percentile:/ {print $3; exit}' <<<"$p_out")" \
    -v uq="$(awk '/queries:/ {print $2; exit}' <<<"$u_out")" \
    -v up="$(awk '/95th percentile:/ {print $3; exit}' <<<"$u_out")" \
    'BEGIN { printf "| %-11s | %11d | %16.0f | %12.2f | %17.0f | %13.2f |\n",
             m, c, pq / s, pp, uq / s, up }'
  kill "$mgmd_pid" 2>/dev/null || true
  wait "$mgmd_pid" 2>/dev/null || true
  sleep 2
}

echo "tables=$tables table_size=$table_size seconds=$seconds threads=$threads" \
  "write rate=$rate ($(nproc) CPUs)"
echo "| mode        | checkpoints | point_select QPS | p95 ms       | update_index QPS  | p95 ms        |"
echo "|-------------|-------------|------------------|--------------|-------------------|---------------|"
run_mode off 1T
run_mode continuous 1M
