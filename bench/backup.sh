#!/usr/bin/env bash
# What an online backup costs and how fast a restore loads (docs/architecture.md, "Online
# backup and restore"): the cluster in a box with sysbench's tables, then
#   1. oltp_read_write for `seconds` alone, then again with START BACKUP run back to back from
#      shoal-mgm beside it: QPS and p95 both ways, how many backups completed and their time;
#   2. the last backup restored with shoal-restore into a second cluster in a box: rows/s, and
#      the tables compared (row count and a checksum of every row) with the source's.
#
#   bench/backup.sh [seconds, default 20] [threads, default 8]
#   SHOAL_TABLES=4 SHOAL_TABLE_SIZE=100000 SHOAL_BIN_DIR=… bench/backup.sh
#
# Needs a release build and sysbench; everything runs under a temp dir and is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
threads=${2:-8}
tables=${SHOAL_TABLES:-4}
table_size=${SHOAL_TABLE_SIZE:-100000}
bin=${SHOAL_BIN_DIR:-build/bin}
source bench/cluster_in_a_box.sh

# The mgmd's console port, from the cluster log line that says where it listens.
mgmd_port_of() {  # run dir
  local port=""
  for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$1/mgmd-1/cluster.log" 2>/dev/null |
      tail -1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  echo "$port"
}

start_cluster
sleep 2  # the data nodes finish starting
source_port=$(mgmd_port_of "$work/shoal")
common=(--mysql-socket="$socket" --mysql-user=root --tables="$tables" --table-size="$table_size")
mariadb -S "$socket" -u root -e "CREATE DATABASE sbtest"
sysbench oltp_read_write "${common[@]}" --threads=2 prepare >"$work/prepare.out"

run_load() {  # label
  sysbench oltp_read_write "${common[@]}" --threads="$threads" --time="$seconds" \
    --report-interval=0 run >"$work/$1.out"
  printf '%-22s %10s QPS   p95 %s ms\n' "$1" \
    "$(awk '/queries:/ && /per sec/ {gsub(/[(]/, "", $3); print $3}' "$work/$1.out")" \
    "$(awk '/95th percentile:/ {print $3}' "$work/$1.out")"
}

echo "Shoal $("$bin/shoal-mgmd" --version | awk '{print $2}'), $tables x $table_size rows," \
  "oltp_read_write at $threads threads, $seconds s per run, $(nproc) CPUs"
run_load "alone"
backups=0
backup_seconds=0
(
  end=$((SECONDS + seconds))
  while [ $SECONDS -lt "$end" ]; do
    start=$(date +%s.%N)
    "$bin/shoal-mgm" -c "127.0.0.1:$source_port" -e "START BACKUP" >"$work/backup.last" 2>&1 ||
      { echo "START BACKUP failed: $(cat "$work/backup.last")" >&2; exit 1; }
    echo "$(date +%s.%N) $start" >>"$work/backups.times"
    cp "$work/backup.last" "$work/backup.done"
  done
) &
backup_loop=$!
run_load "with backups"
wait "$backup_loop"
read -r backups backup_seconds < <(awk '{n++; s += $1 - $2} END {printf "%d %.2f\n", n, s / n}' \
  "$work/backups.times")
echo "backups completed during the run: $backups, $backup_seconds s each on average; the last:"
sed 's/^/    /' "$work/backup.done"
# One more once the writes have stopped, to compare the restored tables with the source's.
"$bin/shoal-mgm" -c "127.0.0.1:$source_port" -e "START BACKUP" >"$work/backup.final" 2>&1 ||
  { echo "START BACKUP failed: $(cat "$work/backup.final")" >&2; exit 1; }
backup_id=$(sed -n 's/^Backup \([0-9]*\) started from node 1 completed$/\1/p' "$work/backup.final")

# ---- restore into a second cluster in a box -----------------------------------------------
"$bin/shoal-mgmd" --run-dir "$work/target" --port 0 --base-port 0 --metrics-base-port 0 \
  >"$work/target.out" 2>&1 &
pids+=($!)
target_socket="$work/target/router-4.sock"
for _ in $(seq 100); do [ -S "$target_socket" ] && break; sleep 0.1; done
sleep 2
target_port=$(mgmd_port_of "$work/target")
start=$(date +%s.%N)
"$bin/shoal-restore" --connect-string="127.0.0.1:$target_port" --backup-id="$backup_id" \
  --backup-path="$work/shoal/datanode-2/backups" --backup-path="$work/shoal/datanode-3/backups" \
  >"$work/restore.out" 2>"$work/restore.err" || { tail -5 "$work/restore.err"; exit 1; }
took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.2f", e - s}')
rows=$((tables * table_size))
echo "restore: $(cat "$work/restore.out")"
echo "restore: ${took} s for the process, $(awk -v r="$rows" -v t="$took" 'BEGIN {printf "%.0f", r / t}') rows/s"

# The tables as restored against the source (the last backup was taken after the last write).
for ((t = 1; t <= tables; t++)); do
  q="SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', id, k, c, pad))) FROM sbtest.sbtest$t"
  a=$(mariadb -S "$socket" -u root -N -B -e "$q")
  b=$(mariadb -S "$target_socket" -u root -N -B -e "$q")
  [ "$a" = "$b" ] || { echo "sbtest$t differs: source $a, restored $b" >&2; exit 1; }
done
echo "restore: every table's row count and row checksum match the source's"
