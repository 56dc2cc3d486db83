#!/usr/bin/env bash
# A busy neighbour, as tests/fault/neighbour_stall_test.sh starts it in a session of its own
# (`setsid`): a private MariaDB from Debian (bench/private_mariadb.sh) serving sysbench's
# oltp_read_only at 32 threads, the load that made the kernel's group scheduler starve a whole
# Shoal session for seconds (issue 14). Writes DIR/ready once its tables are prepared, starts
# the load when DIR/go appears; stops everything it started when the load ends or it is
# terminated.
#
#   tests/fault/busy_neighbour.sh DIR SECONDS [THREADS, default 32]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1
seconds=$2
threads=${3:-32}
source bench/private_mariadb.sh
trap stop_private_mariadb EXIT
trap 'exit 143' TERM
start_private_mariadb "$dir"
common=(--mysql-socket="$mariadb_socket" --mysql-user=root --tables=4 --table-size=25000)
mariadb -S "$mariadb_socket" -u root -e "CREATE DATABASE IF NOT EXISTS sbtest"
sysbench oltp_read_only "${common[@]}" --threads=4 prepare >"$dir/prepare.out" 2>&1
touch "$dir/ready"
while [ ! -e "$dir/go" ]; do sleep 0.1; done
sysbench oltp_read_only "${common[@]}" --threads="$threads" --time="$seconds" \
  --report-interval=10 run >"$dir/run.out" 2>&1
