#!/usr/bin/env bash
# The management daemon killed with SIGKILL and started again, as a service manager or a user
# would: the cluster in a box keeps serving without it, and the new mgmd takes over the nodes
# its predecessor started instead of starting second processes for them (which fought the
# first ones for their data directories and sockets, and left the routers failing with 4009).
#
#  1. rows written; the mgmd killed; rows written through both routers while it is gone;
#  2. the mgmd started again on the same run directory and port: every node registers with it
#     under the pid it had (nothing started again, no ALERT), and every row is there;
#  3. an adopted router killed: the mgmd, which did not start it, sees it end and starts it
#     again, and it serves;
#  4. the mgmd killed and started on another port (and a second mgmd on the same run directory
#     refused meanwhile): the nodes, which look for the old one, do not register, and are
#     started again for the new one, one at a time; a data node whose peer is replaced has no
#     arbitrator it can reach and stops too (I5), so the data nodes come back by a system
#     restart from disk, and every row written an epoch before is there;
#  5. SHUTDOWN stops them all, and no pid file is left.
#
#   tests/fault/mgmd_restart_test.sh
#
# ctest runs it as mgmd_restart_test. Stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/testutil/free_ports.sh
bin=${SHOAL_BIN_DIR:-build/bin}
work=$(mktemp -d /tmp/shoal-mgmd-restart-XXXXXX)
port=$(free_ports 2)
other_port=$((port + 1))
run="$work/shoal"
mgmd_pid=""

cleanup() {
  local status=$?
  if [ -n "$mgmd_pid" ]; then
    kill -TERM "$mgmd_pid" 2>/dev/null || true
    for _ in $(seq 150); do kill -0 "$mgmd_pid" 2>/dev/null || break; sleep 0.1; done
  fi
  # Nodes left by a killed mgmd have no parent here: found by the mgmd address they were given.
  pkill -KILL -f -- "--connect-string 127.0.0.1:($port|$other_port) " 2>/dev/null || true
  kill -KILL "$mgmd_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ "$status" -ne 0 ]; then
    echo "work dir kept: $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
start_mgmd() {
  setsid "$bin/shoal-mgmd" --run-dir "$run" --port "$1" --base-port 0 --metrics-base-port 0 </dev/null \
    >>"$work/mgmd.out" 2>&1 &
  mgmd_pid=$!
  mgmd_port=$1
}
mgm() { "$bin/shoal-mgm" -c "127.0.0.1:$mgmd_port" --timeout=5s -e "$1"; }
# "id pid" of every started node but the mgmd.
node_pids() {
  { mgm SHOW 2>/dev/null || true; } | sed -n 's/^id=\([0-9]*\) .*started, pid \([0-9]*\).*/\1 \2/p' |
    { grep -v '^1 ' || true; }
}
wait_all_started() {
  for _ in $(seq 600); do
    [ "$(node_pids | wc -l)" -eq 4 ] && return 0
    sleep 0.1
  done
  mgm SHOW >&2 || true
  fail "the four nodes did not all start ($1)"
}
sql() { mariadb -S "$run/router-$1.sock" -u root -N -e "$2"; }
# A temporary error (1297: a node restarting hands its partitions back) is retried, as an
# application retries it; any other error fails the test.
insert() {
  local out
  for _ in $(seq 50); do
    out=$(sql "$1" "INSERT INTO r.t (via, phase) VALUES ($1, '$2')" 2>&1) && return 0
    grep -q "ERROR 1297" <<<"$out" || fail "insert through router $1: $out"
    sleep 0.1
  done
  fail "insert through router $1 kept failing: $out"
}
expect_rows() {
  local rows
  rows=$(sql 4 "SELECT COUNT(*) FROM r.t")
  [ "$rows" = "$1" ] || fail "$2: $rows rows, not $1"
  echo "$2: all $1 rows"
}
alerts_since() { tail -n +"$1" "$run/mgmd-1/cluster.log" | grep ALERT || true; }

# 1. Rows, then the mgmd killed and more rows without it.
start_mgmd "$port"
wait_all_started "first start"
sql 4 "CREATE DATABASE r; CREATE TABLE r.t (id INT AUTO_INCREMENT PRIMARY KEY, via INT, phase VARCHAR(20))"
for _ in $(seq 10); do insert 4 before; done
before=$(node_pids)
kill -KILL "$mgmd_pid"
wait "$mgmd_pid" 2>/dev/null || true
for _ in $(seq 10); do
  insert 4 mgmd-down
  insert 5 mgmd-down
done
expect_rows 30 "without the mgmd"

# 2. Started again: it adopts the four processes.
log_mark=$(($(wc -l <"$run/mgmd-1/cluster.log") + 1))
start_mgmd "$port"
wait_all_started "restarted mgmd"
after=$(node_pids | sort)
[ "$after" = "$(sort <<<"$before")" ] || fail "the nodes are not the processes they were:
before
$before
after
$after"
adopted=$(tail -n +"$log_mark" "$run/mgmd-1/cluster.log" | grep -c "still runs: not started again" || true)
[ "$adopted" = 4 ] || fail "$adopted nodes adopted, not 4"
[ -z "$(alerts_since "$log_mark")" ] || fail "alerts after the restart: $(alerts_since "$log_mark")"
echo "restarted mgmd: the same four processes registered, none started again"
expect_rows 30 "after the mgmd's restart"
insert 4 adopted
insert 5 adopted

# 3. An adopted router killed: started again by the mgmd that adopted it.
victim=$(awk '$1 == 5 { print $2 }' <<<"$after")
kill -KILL "$victim"
for _ in $(seq 600); do
  now=$(node_pids | awk '$1 == 5 { print $2 }' || true)
  [ -n "$now" ] && [ "$now" != "$victim" ] && break
  sleep 0.1
done
[ -n "$now" ] && [ "$now" != "$victim" ] || fail "router 5 (process $victim) was not started again"
mgm SHOW | grep -q "^id=5 .*started, pid $now, restarts 1" || fail "router 5: $(mgm SHOW | grep '^id=5')"
echo "adopted router 5 killed: started again as process $now"
for _ in $(seq 5); do insert 5 router-restarted; done
expect_rows 37 "after router 5's restart"

# 4. The mgmd on another port: the adopted nodes cannot find it and are started again, one
# at a time. A second mgmd on the same files meanwhile is refused.
sleep 3 # an epoch or more: every row so far is on disk
before_move=$(node_pids | awk '{ print $2 }' | sort)
kill -KILL "$mgmd_pid"
wait "$mgmd_pid" 2>/dev/null || true
start_mgmd "$other_port"
sleep 1
if "$bin/shoal-mgmd" --run-dir "$run" --port "$port" --base-port 0 --metrics-base-port 0 \
  >"$work/second.out" 2>&1; then
  fail "a second mgmd started on the same run directory"
fi
grep -q "data directory .* is in use by process [0-9]" "$work/second.out" ||
  fail "the second mgmd did not say why it stopped: $(cat "$work/second.out")"
# Every node a new process (none the same as before), all four started.
for _ in $(seq 1200); do
  now=$(node_pids | awk '{ print $2 }' | sort || true)
  [ "$(wc -l <<<"$now")" -eq 4 ] && [ -z "$(comm -12 <(echo "$before_move") <(echo "$now"))" ] && break
  sleep 0.1
done
[ "$(node_pids | wc -l)" -eq 4 ] || fail "not every node started for the mgmd on another port"
[ -z "$(comm -12 <(echo "$before_move") <(node_pids | awk '{ print $2 }' | sort))" ] ||
  fail "nodes still the processes that looked for the old mgmd: $(node_pids)"
for _ in $(seq 300); do sql 4 "SELECT 1" >/dev/null 2>&1 && sql 5 "SELECT 1" >/dev/null 2>&1 && break; sleep 0.1; done
expect_rows 37 "nodes started again for the mgmd on another port"
insert 4 new-port
insert 5 new-port
expect_rows 39 "writes through both routers after it"

# 5. SHUTDOWN: everything stops, and no pid file is left.
mgm SHUTDOWN >/dev/null
for _ in $(seq 300); do kill -0 "$mgmd_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$mgmd_pid" 2>/dev/null && fail "the mgmd did not exit after SHUTDOWN"
mgmd_pid=""
left=$(pgrep -f -- "--connect-string 127.0.0.1:($port|$other_port) " || true)
[ -z "$left" ] || fail "processes left after SHUTDOWN: $left"
pid_files=$(ls "$run/mgmd-1/"*.pid 2>/dev/null || true)
[ -z "$pid_files" ] || fail "pid files left: $pid_files"
echo "PASS: the mgmd killed and started again took its nodes over; nothing lost"
