# shellcheck shell=bash
# Sourced by the benchmarks that move sysbench-shaped rows (id INT PRIMARY KEY, k INT,
# c CHAR(120), pad CHAR(60)) through Shoal's cluster in a box and a private MariaDB in one run
# (bench/load_data.sh, bench/alter_table.sh). Expects `rows` set and the current directory at
# the repository's top. Starts both (stopped on exit) and sets: `file` (the rows as a TSV file,
# the same every run), `expected` (COUNT and SUM(k) of them, tab-separated), `router` and
# `datanodes` (Shoal's pids), `mariadb_pid`, `socket`, `mariadb_socket`, `table` (the columns
# for CREATE TABLE), and a database sbtest on both. ticks PIDS… sums their user + system clock
# ticks; per_row_us TICKS turns ticks into CPU microseconds per row.
source bench/cluster_in_a_box.sh
source bench/private_mariadb.sh
trap 'stop_private_mariadb; cleanup' EXIT
say() { echo "[$(date +%T)] $*" >&2; }

ticks() {
  local total=0 pid
  for pid in "$@"; do
    local stat
    stat=$(cut -d')' -f2 "/proc/$pid/stat")
    total=$((total + $(awk '{print $12 + $13}' <<<"$stat")))
  done
  echo "$total"
}
hz=$(getconf CLK_TCK)
per_row_us() { awk -v t="$1" -v hz="$hz" -v n="$rows" 'BEGIN { printf "%.2f", t / hz * 1e6 / n }'; }

say "generating $rows rows"
file="$work/sbtest.tsv"
python3 - "$file" "$rows" <<'PY'
import random, sys
random.seed(42)
digits = "0123456789"
def block(n):  # sysbench's c/pad: groups of 11 digits joined by '-'
    return "-".join("".join(random.choices(digits, k=11)) for _ in range(n))
with open(sys.argv[1], "w") as f:
    for i in range(1, int(sys.argv[2]) + 1):
        f.write(f"{i}\t{random.randint(1, 1000000)}\t{block(10)}\t{block(5)}\n")
PY
expected=$(awk -F'\t' '{ s += $2 } END { printf "%d\t%d", NR, s }' "$file")

say "starting Shoal and MariaDB"
start_cluster
for _ in $(seq 300); do mariadb -S "$socket" -u root -e "SELECT 1" >/dev/null 2>&1 && break; sleep 0.1; done
start_private_mariadb "$work/mariadb"
pids+=("$mariadb_pid")
router=$(node_pid shoal-router 4)
datanodes=("$(node_pid shoal-datanode 2)" "$(node_pid shoal-datanode 3)")
table="(id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '',
  pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id))"
mariadb -S "$socket" -u root -e "CREATE DATABASE sbtest"
mariadb -S "$mariadb_socket" -u root -e "CREATE DATABASE sbtest"
