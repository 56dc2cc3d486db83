#!/usr/bin/env bash
# ALTER TABLE … ADD COLUMN over sysbench-like rows (id INT PRIMARY KEY, k INT, c CHAR(120),
# pad CHAR(60)) in Shoal's cluster in a box (bench/cluster_in_a_box.sh: two data nodes, two
# replicas; the ALTER is a copy: docs/architecture.md "ALTER TABLE") and in a private MariaDB
# (bench/private_mariadb.sh, InnoDB) in the same run, MariaDB both with ALGORITHM=COPY (a copy,
# like Shoal's) and as it chooses (INSTANT), alternating (`SHOAL_ROUNDS` times each). Each table
# is loaded with LOAD DATA LOCAL first (not timed).
#
# Prints, in Markdown, one row per ALTER: seconds (the client's wall time), rows/s, and CPU
# microseconds per row of the server (Shoal: router 4 + both data nodes, and router 4 apart;
# MariaDB: mariadbd). Each Shoal ALTER is checked: COUNT(*), SUM(k) as loaded and SUM(x) = 7
# per row.
#
#   bench/alter_table.sh [rows, default 1000000]
#
# Env knobs: SHOAL_BIN_DIR (default build/bin, a release build), SHOAL_ROUNDS (default 2).
# Stops everything it started, also on Ctrl-C or an error.
set -euo pipefail
command_line="$(for v in SHOAL_BIN_DIR SHOAL_ROUNDS; do
  [ -z "${!v+set}" ] || printf '%s=%q ' "$v" "${!v}"
done)$0$([ $# -eq 0 ] || printf ' %q' "$@")"
cd "$(dirname "$0")/.."
rows=${1:-1000000}
rounds=${SHOAL_ROUNDS:-2}
source bench/rows_beside_mariadb.sh

alter() {  # side socket engine algorithm → "seconds rows/s cpu-us-per-row router-us-per-row"
  local side=$1 sock=$2 engine=$3 algorithm=$4
  mariadb -S "$sock" -u root sbtest -e "DROP TABLE IF EXISTS sbtest1; CREATE TABLE sbtest1 $table ENGINE=$engine"
  mariadb -S "$sock" -u root --local-infile=1 sbtest \
    -e "LOAD DATA LOCAL INFILE '$file' INTO TABLE sbtest1" >/dev/null
  local server_pids=("$mariadb_pid")
  [ "$side" = mariadb ] || server_pids=("$router" "${datanodes[@]}")
  local r0 s0 t0 t1
  r0=$(ticks "$router")
  s0=$(ticks "${server_pids[@]}")
  t0=$(date +%s.%N)
  mariadb -S "$sock" -u root sbtest \
    -e "ALTER TABLE sbtest1 ADD COLUMN x INT NOT NULL DEFAULT 7${algorithm:+, ALGORITHM=$algorithm}" >/dev/null
  t1=$(date +%s.%N)
  local secs server router_us
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  server=$(per_row_us $(($(ticks "${server_pids[@]}") - s0)))
  router_us=$(per_row_us $(($(ticks "$router") - r0)))
  if [ "$side" = shoal ]; then
    local got want
    got=$(mariadb -S "$sock" -u root -N sbtest -e "SELECT COUNT(*), SUM(k), SUM(x) FROM sbtest1")
    want="$expected	$((rows * 7))"
    [ "$got" = "$want" ] || { echo "Shoal's table holds $got, not $want" >&2; exit 1; }
  else
    router_us="-"
  fi
  echo "$secs $(awk -v s="$secs" -v n="$rows" 'BEGIN { printf "%.0f", n / s }') $server $router_us"
}

echo "## ALTER TABLE … ADD COLUMN, $rows rows"
echo
echo "\`$command_line\` — $(nproc) CPUs, $(mariadb --version | sed 's/,.*//'), Shoal $("$SHOAL_BIN_DIR"/shoal-router --version 2>/dev/null || echo build)"
echo
echo "| round | server | seconds | rows/s | server CPU µs/row | router CPU µs/row |"
echo "| --- | --- | --- | --- | --- | --- |"
for round in $(seq "$rounds"); do
  say "round $round: Shoal"
  read -r secs rate cpu rcpu <<<"$(alter shoal "$socket" ndbcluster "")"
  echo "| $round | Shoal (copy; router + 2 data nodes) | $secs | $rate | $cpu | $rcpu |"
  say "round $round: MariaDB, ALGORITHM=COPY"
  read -r secs rate cpu rcpu <<<"$(alter mariadb "$mariadb_socket" InnoDB COPY)"
  echo "| $round | MariaDB (InnoDB, ALGORITHM=COPY) | $secs | $rate | $cpu | $rcpu |"
  say "round $round: MariaDB, its default"
  read -r secs rate cpu rcpu <<<"$(alter mariadb "$mariadb_socket" InnoDB "")"
  echo "| $round | MariaDB (InnoDB, default: INSTANT) | $secs | $rate | $cpu | $rcpu |"
done
