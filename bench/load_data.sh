#!/usr/bin/env bash
# LOAD DATA LOCAL INFILE of sysbench-like rows (id INT PRIMARY KEY, k INT, c CHAR(120),
# pad CHAR(60)) into Shoal's cluster in a box (bench/cluster_in_a_box.sh: two data nodes, two
# replicas) and into a private MariaDB (bench/private_mariadb.sh, InnoDB) in the same run,
# alternating Shoal, MariaDB, Shoal, MariaDB… (`SHOAL_ROUNDS` times each), each into an empty
# table, with the `mariadb` client over the Unix socket.
#
# Prints, in Markdown, one row per load: seconds (the client's wall time), rows/s, and CPU
# microseconds per row of the server — Shoal's router 4 apart and router + both data nodes,
# MariaDB's mariadbd — from /proc/PID/stat before and after; then Shoal's rows/s over
# MariaDB's. Each Shoal load is checked: COUNT(*) and SUM(k) as generated. Every commit is on
# both replicas when acknowledged (I7), so a checked load is on both.
#
#   bench/load_data.sh [rows, default 1000000]
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

load() {  # side socket engine → "seconds rows/s cpu-us-per-row [router-us-per-row]"
  local side=$1 sock=$2 engine=$3
  mariadb -S "$sock" -u root sbtest -e "DROP TABLE IF EXISTS sbtest1; CREATE TABLE sbtest1 $table ENGINE=$engine"
  local server_pids=("$mariadb_pid")
  [ "$side" = mariadb ] || server_pids=("$router" "${datanodes[@]}")
  local r0 s0 t0 t1
  r0=$(ticks "$router")
  s0=$(ticks "${server_pids[@]}")
  t0=$(date +%s.%N)
  mariadb -S "$sock" -u root --local-infile=1 sbtest \
    -e "LOAD DATA LOCAL INFILE '$file' INTO TABLE sbtest1" >/dev/null
  t1=$(date +%s.%N)
  local secs server router_us
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  server=$(per_row_us $(($(ticks "${server_pids[@]}") - s0)))
  router_us=$(per_row_us $(($(ticks "$router") - r0)))
  if [ "$side" = shoal ]; then
    local got
    got=$(mariadb -S "$sock" -u root -N sbtest -e "SELECT COUNT(*), SUM(k) FROM sbtest1")
    [ "$got" = "$expected" ] || { echo "Shoal's table holds $got, not $expected" >&2; exit 1; }
  else
    router_us="-"
  fi
  echo "$secs $(awk -v s="$secs" -v n="$rows" 'BEGIN { printf "%.0f", n / s }') $server $router_us"
}

echo "## LOAD DATA LOCAL INFILE, $rows rows"
echo
echo "\`$command_line\` — $(nproc) CPUs, $(mariadb --version | sed 's/,.*//'), Shoal $("$SHOAL_BIN_DIR"/shoal-router --version 2>/dev/null || echo build)"
echo
echo "| round | server | seconds | rows/s | server CPU µs/row | router CPU µs/row |"
echo "| --- | --- | --- | --- | --- | --- |"
declare -a shoal_rates maria_rates
for round in $(seq "$rounds"); do
  say "round $round: Shoal"
  read -r secs rate cpu rcpu <<<"$(load shoal "$socket" ndbcluster)"
  echo "| $round | Shoal (router + 2 data nodes) | $secs | $rate | $cpu | $rcpu |"
  shoal_rates+=("$rate")
  say "round $round: MariaDB"
  read -r secs rate cpu rcpu <<<"$(load mariadb "$mariadb_socket" InnoDB)"
  echo "| $round | MariaDB (InnoDB) | $secs | $rate | $cpu | $rcpu |"
  maria_rates+=("$rate")
done
echo
for i in "${!shoal_rates[@]}"; do
  echo "Round $((i + 1)): Shoal / MariaDB rows/s = $(awk -v a="${shoal_rates[$i]}" -v b="${maria_rates[$i]}" 'BEGIN { printf "%.2f", a / b }')"
done
