#!/usr/bin/env bash
# Front-end benchmark (issue 3): sysbench runs `SELECT 1` through prepared statements
# (bench/select1.lua) at 1..64 threads against a Shoal router and against a private MariaDB, in
# the same run, over Unix sockets. Prints QPS and the server's CPU microseconds per statement
# (user + system time of the router process, or of mariadbd, from /proc, over the run).
#
#   bench/frontend.sh [seconds-per-step, default 10] [thread counts, default "1 2 4 8 16 32 64"]
#
# Needs a release build (scripts/run.sh or cmake --build --preset release) and installs
# mariadb-server for the comparison if it is missing. Everything runs under a temp dir and is
# stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
threads=${2:-"1 2 4 8 16 32 64"}
source bench/cluster_in_a_box.sh

if ! command -v mariadbd >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mariadb-server >/dev/null
fi

# Shoal: the cluster in a box, routers on sockets only.
start_cluster
router_pid=$(node_pid shoal-router 4)

# MariaDB: a private server on its own socket.
mkdir -p "$work/mariadb"
mariadb-install-db --no-defaults --datadir="$work/mariadb" --auth-root-authentication-method=normal \
  >/dev/null 2>&1
mariadbd --no-defaults --datadir="$work/mariadb" --socket="$work/mariadb.sock" --skip-networking \
  --user=root --max-connections=500 >"$work/mariadbd.out" 2>&1 &
mariadb_pid=$!
pids+=($mariadb_pid)
for _ in $(seq 100); do [ -S "$work/mariadb.sock" ] && break; sleep 0.1; done
mariadb -S "$work/mariadb.sock" -u root -e "CREATE DATABASE sbtest"  # sysbench's default db

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
ticks_per_second=$(getconf CLK_TCK)

run() {  # server-name pid socket threads
  local before after queries
  before=$(cpu_ticks "$2")
  queries=$(sysbench bench/select1.lua --mysql-socket="$3" --mysql-user=root --threads="$4" \
    --time="$seconds" --report-interval=0 run | awk '/queries:/ {print $2; exit}')
  after=$(cpu_ticks "$2")
  awk -v n="$queries" -v t="$seconds" -v d="$((after - before))" -v hz="$ticks_per_second" \
    -v s="$1" -v th="$4" \
    'BEGIN { printf "| %-8s | %7d | %10.0f | %8.2f |\n", s, th, n / t, d / hz * 1e6 / n }'
}

echo "| server   | threads |        QPS | server CPU µs/stmt |"
echo "|----------|---------|------------|--------------------|"
for t in $threads; do
  run shoal "$router_pid" "$work/shoal/router-4.sock" "$t"
  run mariadb "$mariadb_pid" "$work/mariadb.sock" "$t"
done
