#!/usr/bin/env bash
# What a FOREIGN KEY costs an INSERT, in Shoal's cluster in a box and in a private MariaDB
# (InnoDB) in one run: the same rows go into a child table with a foreign key to a 1,000-row
# parent and into one without (an index on the same column instead), as single-row INSERTs
# from one mariadb client (autocommit; latency-bound) and as 100-row INSERTs (the parents of a
# statement's rows are looked up in one batch: docs/architecture.md, "Foreign keys").
# Alternating, `SHOAL_ROUNDS` times each.
#
# Prints, in Markdown, one row per load: seconds (the client's wall time), rows/s, and CPU
# microseconds per row of the server (Shoal: router 4 + both data nodes; MariaDB: mariadbd).
# Each load is checked: every row is there.
#
#   bench/foreign_keys.sh [rows, default 20000]
#
# Env knobs: SHOAL_BIN_DIR (default build/bin, a release build), SHOAL_ROUNDS (default 2).
# Stops everything it started, also on Ctrl-C or an error.
set -euo pipefail
command_line="$(for v in SHOAL_BIN_DIR SHOAL_ROUNDS; do
  [ -z "${!v+set}" ] || printf '%s=%q ' "$v" "${!v}"
done)$0$([ $# -eq 0 ] || printf ' %q' "$@")"
cd "$(dirname "$0")/.."
rows=${1:-20000}
rounds=${SHOAL_ROUNDS:-2}
source bench/rows_beside_mariadb.sh

# The statements: rows id 1…n, each naming parent (id % 1000) + 1.
statements() {  # rows-per-statement → file
  local per=$1 out="$work/inserts-$1.sql"
  python3 - "$rows" "$per" >"$out" <<'PY'
import sys
rows, per = int(sys.argv[1]), int(sys.argv[2])
for start in range(1, rows + 1, per):
    values = ",".join(f"({i},{i % 1000 + 1})" for i in range(start, min(start + per, rows + 1)))
    print(f"INSERT INTO child VALUES {values};")
PY
  echo "$out"
}
single=$(statements 1)
batched=$(statements 100)
parents=$(python3 -c 'print(",".join(f"({i})" for i in range(1, 1001)))')

load() {  # side socket engine with-fk file → "seconds rows/s cpu-us-per-row"
  local side=$1 sock=$2 engine=$3 fk=$4 file=$5
  local child="(id INT PRIMARY KEY, pid INT NOT NULL, KEY (pid))"
  [ "$fk" = no ] || child="(id INT PRIMARY KEY, pid INT NOT NULL, FOREIGN KEY (pid) REFERENCES parent (id))"
  mariadb -S "$sock" -u root sbtest -e "DROP TABLE IF EXISTS child; DROP TABLE IF EXISTS parent;
    CREATE TABLE parent (id INT PRIMARY KEY) ENGINE=$engine; INSERT INTO parent VALUES $parents;
    CREATE TABLE child $child ENGINE=$engine"
  local server_pids=("$mariadb_pid")
  [ "$side" = mariadb ] || server_pids=("$router" "${datanodes[@]}")
  local s0 t0 t1
  s0=$(ticks "${server_pids[@]}")
  t0=$(date +%s.%N)
  mariadb -S "$sock" -u root sbtest <"$file"
  t1=$(date +%s.%N)
  local secs got
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  got=$(mariadb -S "$sock" -u root -N sbtest -e "SELECT COUNT(*) FROM child")
  [ "$got" = "$rows" ] || { echo "$side's child table holds $got rows, not $rows" >&2; exit 1; }
  echo "$secs $(awk -v s="$secs" -v n="$rows" 'BEGIN { printf "%.0f", n / s }') $(per_row_us $(($(ticks "${server_pids[@]}") - s0)))"
}

echo "## INSERT into a child table, with and without a FOREIGN KEY, $rows rows"
echo
echo "\`$command_line\` — $(nproc) CPUs, $(mariadb --version | sed 's/,.*//'), Shoal $("$SHOAL_BIN_DIR"/shoal-router --version 2>/dev/null || echo build)"
echo
echo "| round | statement | server | foreign key | seconds | rows/s | server CPU µs/row |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for round in $(seq "$rounds"); do
  for shape in single batched; do
    file=${!shape}
    for fk in no yes; do
      say "round $round: $shape rows, foreign key: $fk"
      read -r secs rate cpu <<<"$(load shoal "$socket" ndbcluster "$fk" "$file")"
      echo "| $round | $shape | Shoal | $fk | $secs | $rate | $cpu |"
      read -r secs rate cpu <<<"$(load mariadb "$mariadb_socket" InnoDB "$fk" "$file")"
      echo "| $round | $shape | MariaDB | $fk | $secs | $rate | $cpu |"
    done
  done
done
