#!/usr/bin/env bash
# AUTO_INCREMENT through data node failures: no value is handed out twice. PyMySQL writers
# insert through both routers of the cluster in a box (tests/fault/auto_increment_writers.py)
# while the dictionary master (the lowest-id started data node, which hands out the counters'
# ranges) is killed with SIGKILL, then the data node that took over from it, then every data
# node at once (a system restart from disk). The routers keep the ranges they hold through all
# of it. Any 1062, any acknowledged insert missing or holding another's row fails the test, as
# does a phase in which a router acknowledged nothing (but the one with no data node up).
#
#   tests/fault/auto_increment_failover_test.sh
#
# ctest runs it as auto_increment_failover_test. Needs PyMySQL from tests/clients/build.sh
# (SHOAL_CLIENTS_DIR, default build/clients). Stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
need_pymysql
start_box auto-increment

mgm() { "$bin/shoal-mgm" -c "127.0.0.1:$mgmd_port" --timeout=5s -e "$1"; }
datanode_pid() { pgrep -P "$mgmd_pid" -f -- "shoal-datanode.*--node-id $1( |$)" || true; }
# Waits until both data nodes are started again (the mgmd restarts what was killed).
wait_started() {
  for _ in $(seq 600); do
    [ "$(mgm SHOW 2>/dev/null | grep -c 'node group 0, started')" = 2 ] && return 0
    sleep 0.1
  done
  echo "FAIL: the data nodes did not start again" >&2
  mgm SHOW >&2 || true
  exit 1
}
# Names the phase the writers are in; one not marked "down" must see inserts through both
# routers.
enter() {
  echo "$(date +%T.%3N) $1"
  echo "$1" >"$work/phase"
  [ "${2:-}" = down ] || echo "$1" >>"$work/phases"
}
kill_datanodes() {
  local node
  for node in "$@"; do kill -9 "$(datanode_pid "$node")"; done
}

mariadb -S "$socket" -u root -e "CREATE DATABASE ai;
  CREATE TABLE ai.t (id BIGINT AUTO_INCREMENT PRIMARY KEY, writer INT NOT NULL, seq INT NOT NULL)"
: >"$work/phases"
"$python" tests/fault/auto_increment_writers.py "$work" "$socket" "$socket5" &
writers=$!
kill_on_exit+=("$writers")

sleep 2
enter "master killed"
kill_datanodes 2
sleep 2
wait_started
enter "master back"
sleep 2
enter "new master killed"
kill_datanodes 3
sleep 2
wait_started
enter "both back"
sleep 2
enter "every data node killed" down
kill_datanodes 2 3
date +%s.%N >"$work/crashed_at"
sleep 2
wait_started
enter "system restarted"
sleep 3
touch "$work/stop"
status=0
wait "$writers" || status=$?
[ "$status" -eq 0 ] || { echo "FAIL: auto_increment_failover_test" >&2; exit 1; }
echo "PASS: auto_increment_failover_test"
