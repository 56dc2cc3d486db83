#!/usr/bin/env bash
# A dump and a restore of the same rows on Shoal and on MariaDB, side by side in one run
# (issue 23): the cluster in a box and a private MariaDB (bench/private_mariadb.sh) get the
# same sysbench table (oltp_read_write prepare, 1 table of SHOAL_ROWS rows); then, alternating
# Shoal and MariaDB for SHOAL_ROUNDS rounds, Debian's mariadb-dump writes the database to a
# file, the database is dropped, and the mariadb CLI loads the file back (one copy of the rows
# at a time: the cluster in a box has 512 MiB of data memory per node).
#
# Prints, in Markdown: per run, seconds, rows per second and the server's CPU microseconds
# per row (Shoal: router 4 + both data nodes, also the router alone; MariaDB: mariadbd), from
# the user + system ticks in /proc/PID/stat before and after; then Shoal's rows/s over
# MariaDB's per step and round. Every restore is checked: every row of it, read back in key
# order, against the digest of the table as prepared.
#
#   bench/dump_restore.sh                 # 1,000,000 rows, 2 rounds: ~3 minutes
#   SHOAL_ROWS=100000 SHOAL_ROUNDS=1 bench/dump_restore.sh
#
# SHOAL_BIN_DIR: Shoal's binaries (default build/bin, a release build). Needs sysbench,
# mariadb-server and mariadb-client (scripts/install-deps.sh --tests). Stops everything it
# started, also on Ctrl-C or an error.
set -euo pipefail
command_line="$(for v in SHOAL_BIN_DIR SHOAL_ROWS SHOAL_ROUNDS; do
  [ -z "${!v+set}" ] || printf '%s=%q ' "$v" "${!v}"
done)$0"
cd "$(dirname "$0")/.."
rows=${SHOAL_ROWS:-1000000}
rounds=${SHOAL_ROUNDS:-2}
say() { echo "[$(date +%T)] $*" >&2; }
die() { echo "dump_restore.sh: $*" >&2; exit 1; }

source bench/cluster_in_a_box.sh
source bench/private_mariadb.sh
stop_everything() {
  stop_private_mariadb
  cleanup
}
trap stop_everything EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "starting the cluster in a box and a private MariaDB"
start_cluster
[ -S "$socket" ] || { cat "$work/mgmd.out" >&2; die "router 4 did not start"; }
sleep 1
router_pid=$(node_pid shoal-router 4)
datanode_pids=("$(node_pid shoal-datanode 2)" "$(node_pid shoal-datanode 3)")
start_private_mariadb "$work/mariadb"

sock_of() { if [ "$1" = shoal ]; then echo "$socket"; else echo "$mariadb_socket"; fi; }
client() { mariadb -S "$(sock_of "$1")" -u root --batch -N "${@:2}"; }
for server in shoal mariadb; do
  engine=ndbcluster
  [ "$server" = shoal ] || engine=innodb
  say "$server: preparing 1 table of $rows rows"
  client "$server" -e "CREATE DATABASE sbtest"
  sysbench oltp_read_write --mysql-socket="$(sock_of "$server")" --mysql-user=root --tables=1 \
    --table-size="$rows" --mysql-storage-engine="$engine" prepare >"$work/prepare-$server.out" ||
    die "$server: sysbench prepare failed: $(tail -5 "$work/prepare-$server.out")"
done

hz=$(getconf CLK_TCK)
cpu_ticks() {
  local total=0 pid
  for pid in "$@"; do total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat"))); done
  echo "$total"
}
# The table's every row and column, in key order, as one digest.
checksum() {  # server database
  client "$1" "$2" -e "SELECT * FROM sbtest1 ORDER BY id" | md5sum
}

: >"$work/results"
measure() {  # server step round command...
  local server=$1 step=$2 round=$3 s0 r0 s1 r1 t0 t1
  shift 3
  if [ "$server" = shoal ]; then
    s0=$(cpu_ticks "$router_pid" "${datanode_pids[@]}") r0=$(cpu_ticks "$router_pid")
  else
    s0=$(cpu_ticks "$mariadb_pid") r0=0
  fi
  t0=$(date +%s.%N)
  "$@"
  t1=$(date +%s.%N)
  if [ "$server" = shoal ]; then
    s1=$(cpu_ticks "$router_pid" "${datanode_pids[@]}") r1=$(cpu_ticks "$router_pid")
  else
    s1=$(cpu_ticks "$mariadb_pid") r1=0
  fi
  awk -v st="$step" -v sv="$server" -v rd="$round" -v t="$(echo "$t1 - $t0" | bc)" \
    -v n="$rows" -v s="$((s1 - s0))" -v r="$((r1 - r0))" -v hz="$hz" -v shoal="$server" \
    'BEGIN { router = shoal == "shoal" ? sprintf("%.2f", r / hz * 1e6 / n) : "";
             printf "%s\t%s\t%s\t%.2f\t%.0f\t%.2f\t%s\n", st, rd, sv, t, n / t,
                    s / hz * 1e6 / n, router }' >>"$work/results"
}

dump() { mariadb-dump -S "$(sock_of "$1")" -u root sbtest >"$work/dump-$1.sql"; }
restore() { client "$1" sbtest <"$work/dump-$1.sql"; }
declare -A digest
# (sysbench's strings are random: each server is checked against its own table.)
for server in shoal mariadb; do digest[$server]=$(checksum "$server" sbtest); done
for round in $(seq "$rounds"); do
  for server in shoal mariadb; do
    say "round $round, $server: dump"
    measure "$server" dump "$round" dump "$server"
    client "$server" -e "DROP DATABASE sbtest; CREATE DATABASE sbtest"
    say "round $round, $server: restore"
    measure "$server" restore "$round" restore "$server"
    [ "$(checksum "$server" sbtest)" = "${digest[$server]}" ] ||
      die "$server: the restored table differs from the one dumped"
  done
done

echo "# Dump and restore, Shoal beside MariaDB"
echo
echo "mariadb-dump $(mariadb-dump --version | awk '{ print $3, $5 }'), $(mariadbd --version |
  awk '{ print $3 }'), Shoal $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) CPUs,"\
  "$(date -u '+%Y-%m-%d %H:%M') UTC; 1 table of $rows sysbench rows"
echo
echo "    $command_line"
echo
echo "| step | round | server | seconds | rows/s | server CPU µs/row | router µs/row |"
echo "|---|--:|---|--:|--:|--:|--:|"
awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }' \
  "$work/results"
echo
echo "| step | round | Shoal rows/s / MariaDB rows/s |"
echo "|---|--:|--:|"
awk -F'\t' '$3 == "shoal" { s[$1 FS $2] = $5 } $3 == "mariadb" { m[$1 FS $2] = $5 }
  END { for (k in s) if (k in m) { split(k, p, FS); printf "| %s | %s | %.2f |\n", p[1], p[2], s[k] / m[k] } }' \
  "$work/results" | sort
