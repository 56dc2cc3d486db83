#!/usr/bin/env bash
# Shoal and MariaDB side by side in one run: the cluster in a box (bench/cluster_in_a_box.sh)
# and a private MariaDB (bench/private_mariadb.sh, InnoDB with innodb_flush_log_at_trx_commit=2)
# get the same sysbench tables (`oltp_read_write prepare`, ndbcluster on Shoal, InnoDB on
# MariaDB, database sbtest), then every step (a workload at a thread count) runs on Shoal, then
# on MariaDB, and again, `SHOAL_ROUNDS` times (A B A B), so that both meet the same machine.
# Shoal is reached through router 4, MariaDB through mariadbd; over Unix sockets except in the
# steps marked @tcp, which go to 127.0.0.1 (free ports picked at start).
#
# Prints, in Markdown: a header with the versions and the command; one row per run with QPS,
# p95 latency, sysbench's ignored errors (lock wait 1205 and deadlock 1213, ignored and retried
# in the writing workloads; any error fails a read-only run) and CPU microseconds per query —
# of the server (Shoal: router 4 + both data nodes + mgmd, also shown apart; MariaDB: mariadbd),
# from the user + system ticks in /proc/PID/stat before and after the run, and of sysbench
# itself, from /usr/bin/time (getrusage of the sysbench process, so only sysbench and its
# threads, after it exits); then per step and round, Shoal's QPS over MariaDB's and the server
# CPU per query of both. A failed run shows as `failed`, with sysbench's error below the tables,
# and makes the script exit 1 after the other steps ran.
#
#   bench/compare.sh [seconds-per-step, default 10]   # the default steps: ~11 minutes
#   SHOAL_TABLE_SIZE=10000 SHOAL_ROUNDS=1 bench/compare.sh 2        # a quick look
#   SHOAL_COMPARE_STEPS="oltp_point_select:8,32 oltp_read_only:8" bench/compare.sh
#   SHOAL_COMPARE_STEPS="bench/in_list.lua+keys=100:8 bench/multi_insert.lua+rows=10:1" \
#     bench/compare.sh                    # issue 23's many-row statements (bench/RESULTS.md)
#
# Env knobs:
#   SHOAL_BIN_DIR        Shoal's binaries (default build/bin, a release build: scripts/run.sh or
#                        cmake --build --preset release; copy them elsewhere if the build
#                        directory may be rebuilt during the run)
#   SHOAL_TABLES         sysbench tables (default 4)
#   SHOAL_TABLE_SIZE     rows per table (default 100000)
#   SHOAL_ROUNDS         how many times each step runs on each side (default 2)
#   SHOAL_COMPARE_STEPS  the steps, "workload:threads,threads ...", in order; a workload ending
#                        in @tcp connects over TCP; "workload+opt=value+…" adds sysbench options
#                        to that step (--opt=value), e.g. a Lua script's own
#                        (default: the list in `default_steps` below)
#   SHOAL_SYSBENCH_ARGS  more sysbench options for every run of both sides (word-split), e.g.
#                        "--db-ps-mode=disable" or "--rand-type=uniform"
#
# Installs sysbench, mariadb-server, mariadb-client and time with apt-get if they are missing.
# Everything runs under a temp dir; every process it starts (the cluster and mariadbd) is stopped
# at the end, also on Ctrl-C or an error.
set -euo pipefail
command_line="$(for v in SHOAL_BIN_DIR SHOAL_TABLES SHOAL_TABLE_SIZE SHOAL_ROUNDS \
  SHOAL_COMPARE_STEPS SHOAL_SYSBENCH_ARGS; do
  [ -z "${!v+set}" ] || printf '%s=%q ' "$v" "${!v}"
done)$0$(printf ' %q' "$@")"
cd "$(dirname "$0")/.."
seconds=${1:-10}
tables=${SHOAL_TABLES:-4}
table_size=${SHOAL_TABLE_SIZE:-100000}
rounds=${SHOAL_ROUNDS:-2}
bin_dir=${SHOAL_BIN_DIR:-build/bin}
# oltp_insert runs last: it grows the tables, by more rows on the faster side, which would make
# the steps after it unequal.
default_steps="oltp_point_select:1,8,32,128 oltp_point_select@tcp:8 oltp_read_only:8,32 \
  select_random_ranges:8,32 oltp_read_write:8,32 oltp_update_index:8,32 oltp_insert:8,32"
steps_text=${SHOAL_COMPARE_STEPS:-$default_steps}
read -r -a steps <<<"${steps_text//$'\n'/ }"
read -r -a extra_args <<<"${SHOAL_SYSBENCH_ARGS:-}"

die() { echo "compare.sh: $*" >&2; exit 1; }
say() { echo "[$(date +%T)] $*" >&2; }

for binary in shoal-mgmd shoal-datanode shoal-router; do
  [ -x "$bin_dir/$binary" ] || die "no $bin_dir/$binary: build Shoal first (cmake --build \
--preset release, or scripts/run.sh), or point SHOAL_BIN_DIR at its binaries"
done

# What the run needs from Debian, installed like scripts/install-deps.sh does.
missing=()
command -v sysbench >/dev/null || missing+=(sysbench)
command -v mariadbd >/dev/null || missing+=(mariadb-server)
command -v mariadb >/dev/null || missing+=(mariadb-client)
[ -x /usr/bin/time ] || missing+=(time)
command -v ss >/dev/null || missing+=(iproute2)
command -v pgrep >/dev/null || missing+=(procps)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # A system MariaDB the package may have started would only share the CPUs.
  if [[ " ${missing[*]} " == *" mariadb-server "* ]]; then
    service mariadb stop >/dev/null 2>&1 || true
  fi
fi

source bench/cluster_in_a_box.sh
source bench/private_mariadb.sh
# Their EXIT trap is cluster_in_a_box.sh's cleanup (every process in `pids`, then the temp
# dir); mariadbd stops first, while its data dir is still there.
stop_everything() {
  stop_private_mariadb
  cleanup
}
trap stop_everything EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A port P on 127.0.0.1 with P..P+count-1 unused by any TCP socket (below the ephemeral range),
# and not in the ports given after count.
free_port() {  # count [taken ports...]
  local count=$1 port i used _
  shift
  used=" $(ss -Htan | awk '{ sub(/.*:/, "", $4); printf "%s ", $4 }') $* "
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 12000))
    for ((i = 0; i < count; i++)); do
      [[ $used == *" $((port + i)) "* ]] && continue 2
    done
    echo "$port"
    return 0
  done
  die "no free port on 127.0.0.1"
}

# Shoal: the cluster in a box; router 4 also on 127.0.0.1:shoal_port (router 5 on the next).
shoal_port=$(free_port 2)
say "starting the cluster in a box from $bin_dir (router 4 on 127.0.0.1:$shoal_port)"
start_cluster "$shoal_port"
[ -S "$socket" ] || { cat "$work/mgmd.out" >&2; die "router 4 did not start"; }
for _ in $(seq 100); do
  mariadb -h 127.0.0.1 -P "$shoal_port" -u root -e "SELECT 1" >/dev/null 2>&1 && break
  sleep 0.1
done
sleep 1 # the data nodes finish starting
router_pid=$(node_pid shoal-router 4)
datanode_pids=("$(node_pid shoal-datanode 2)" "$(node_pid shoal-datanode 3)")
if [ -z "$router_pid" ] || [ -z "${datanode_pids[0]}" ] || [ -z "${datanode_pids[1]}" ]; then
  die "the cluster's processes are not all there: $(pgrep -a -P "$mgmd_pid" || true)"
fi

# MariaDB: private, on its socket and on 127.0.0.1:mariadb_port.
mariadb_port=$(free_port 1 "$shoal_port" "$((shoal_port + 1))")
say "starting a private MariaDB (127.0.0.1:$mariadb_port)"
start_private_mariadb "$work/mariadb" "$mariadb_port"

common=(--mysql-user=root --tables="$tables" --table-size="$table_size")
for server in shoal mariadb; do
  if [ "$server" = shoal ]; then
    sock=$socket engine=ndbcluster
  else
    sock=$mariadb_socket engine=innodb
  fi
  say "$server: preparing $tables tables of $table_size rows ($engine)"
  mariadb -S "$sock" -u root -e "CREATE DATABASE sbtest"
  sysbench oltp_read_write --mysql-socket="$sock" "${common[@]}" \
    --mysql-storage-engine="$engine" --threads=2 prepare >"$work/prepare-$server.out" 2>&1 || {
    tail -20 "$work/prepare-$server.out" >&2
    die "$server: sysbench prepare failed"
  }
done

ticks_per_second=$(getconf CLK_TCK)
cpu_ticks() {  # the user + system ticks of the given pids together; empty if one is gone
  local total=0 pid ticks
  for pid in "$@"; do
    ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || return 0
    total=$((total + ticks))
  done
  echo "$total"
}
per_query() {  # ticks-before ticks-after queries: CPU µs per query, or "?"
  if [ -z "$1" ] || [ -z "$2" ] || [ "${3:-0}" = 0 ]; then echo "?"; return; fi
  awk -v d="$(($2 - $1))" -v hz="$ticks_per_second" -v n="$3" \
    'BEGIN { printf "%.1f", d / hz * 1e6 / n }'
}

# One run of a step on one side; appends a tab-separated line to $work/results:
# workload threads via round server qps p95 errors server_us router_us datanodes_us mgmd_us
# sysbench_us (the last three empty for MariaDB; qps "failed" when sysbench failed).
failures=0
run() {  # server workload[+opt=value…][@tcp] threads round
  local server=$1 workload=${2%@tcp} threads=$3 round=$4 via=unix ignore=none
  local target out status queries qps p95 errors sb_cpu step_args=() opt
  [[ $2 == *@tcp ]] && via=tcp
  local name=$workload
  if [[ $workload == *+* ]]; then
    IFS=+ read -r -a step_args <<<"${workload#*+}"
    for opt in "${!step_args[@]}"; do step_args[opt]="--${step_args[opt]}"; done
    workload=${workload%%+*}
  fi
  case $workload in
    oltp_read_write | oltp_write_only | oltp_update_index | oltp_update_non_index | \
      oltp_insert | oltp_delete | bulk_insert | */multi_insert.lua) ignore=1205,1213 ;;
  esac
  case $server-$via in
    shoal-unix) target=(--mysql-socket="$socket") ;;
    shoal-tcp) target=(--mysql-host=127.0.0.1 --mysql-port="$shoal_port") ;;
    mariadb-unix) target=(--mysql-socket="$mariadb_socket") ;;
    mariadb-tcp) target=(--mysql-host=127.0.0.1 --mysql-port="$mariadb_port") ;;
  esac
  say "$name $threads threads over $via, round $round: $server"
  local r0="" d0="" m0="" s0="" r1="" d1="" m1="" s1=""
  if [ "$server" = shoal ]; then
    r0=$(cpu_ticks "$router_pid") d0=$(cpu_ticks "${datanode_pids[@]}") m0=$(cpu_ticks "$mgmd_pid")
  else
    s0=$(cpu_ticks "$mariadb_pid")
  fi
  out="$work/run-$server-${name//\//_}-$threads-$via-$round.out"
  status=0
  /usr/bin/time -o "$work/time" -f '%U %S' sysbench "$workload" "${target[@]}" "${common[@]}" \
    --threads="$threads" --time="$seconds" --report-interval=0 --db-ps-mode=auto \
    --mysql-ignore-errors="$ignore" "${step_args[@]}" "${extra_args[@]}" run >"$out" 2>&1 ||
    status=$?
  if [ "$server" = shoal ]; then
    r1=$(cpu_ticks "$router_pid") d1=$(cpu_ticks "${datanode_pids[@]}") m1=$(cpu_ticks "$mgmd_pid")
  else
    s1=$(cpu_ticks "$mariadb_pid")
  fi
  queries=$(awk '/^ *queries:/ { print $2; exit }' "$out")
  qps=$(awk '/^ *queries:/ { gsub(/\(/, "", $3); printf "%.0f", $3; exit }' "$out")
  p95=$(awk '/95th percentile:/ { print $3; exit }' "$out")
  errors=$(awk '/ignored errors:/ { print $3; exit }' "$out")
  sb_cpu=$(tail -1 "$work/time" | awk -v n="${queries:-0}" \
    'NF == 2 && n > 0 { printf "%.1f", ($1 + $2) * 1e6 / n }')
  if [ "$status" != 0 ] || [ -z "$queries" ] || [ "$queries" = 0 ]; then
    failures=$((failures + 1))
    {
      echo "$server, $name at $threads threads over $via, round $round: sysbench exited" \
        "with $status:"
      grep -E 'FATAL|ALERT|rror' "$out" | cut -c1-300 | sort | uniq -c | sort -rn | head -5 ||
        tail -3 "$out" | cut -c1-300
    } >>"$work/failures"
    qps=failed p95="" errors="" sb_cpu=""
  fi
  local line=("$name" "$threads" "$via" "$round" "$server" "$qps" "$p95" "$errors")
  if [ "$server" = shoal ]; then
    local all0="" all1=""
    [ -z "$r0" ] || [ -z "$d0" ] || [ -z "$m0" ] || all0=$((r0 + d0 + m0))
    [ -z "$r1" ] || [ -z "$d1" ] || [ -z "$m1" ] || all1=$((r1 + d1 + m1))
    line+=("$(per_query "$all0" "$all1" "$queries")" "$(per_query "$r0" "$r1" "$queries")"
      "$(per_query "$d0" "$d1" "$queries")" "$(per_query "$m0" "$m1" "$queries")")
  else
    line+=("$(per_query "$s0" "$s1" "$queries")" "" "" "")
  fi
  line+=("$sb_cpu")
  (IFS=$'\t'; echo "${line[*]}") >>"$work/results"
}

: >"$work/results"
for step in "${steps[@]}"; do
  workload=${step%%:*}
  [ "$workload" != "$step" ] || die "step '$step' is not workload:threads,threads..."
  IFS=, read -r -a thread_counts <<<"${step#*:}"
  for threads in "${thread_counts[@]}"; do
    for round in $(seq "$rounds"); do
      run shoal "$workload" "$threads" "$round"
      run mariadb "$workload" "$threads" "$round"
    done
  done
done

shoal_rev="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
git diff --quiet HEAD 2>/dev/null || shoal_rev+=" + uncommitted changes"
echo "# Shoal vs MariaDB, sysbench"
echo
echo "$(sysbench --version), MariaDB $(mariadbd --version | awk '{ print $3 }'), Shoal" \
  "$shoal_rev (binaries from $bin_dir), $(nproc) CPUs, $(date '+%Y-%m-%d %H:%M %Z')"
echo
echo "    $command_line"
echo
echo "$tables tables × $table_size rows, $seconds s per run, $rounds round(s); CPU in µs per" \
  "query (user + system); Shoal's server CPU = router 4 + data nodes 2 and 3 + mgmd."
echo
echo "| workload | threads | via | round | server | QPS | p95 ms | ignored errors | server µs/q | router µs/q | data nodes µs/q | mgmd µs/q | sysbench µs/q |"
echo "|---|--:|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|"
awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
  $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 }' "$work/results"
echo
echo "Shoal over MariaDB, each round's runs side by side:"
echo
echo "| workload | threads | via | round | Shoal QPS / MariaDB QPS | Shoal µs/q | MariaDB µs/q | Shoal µs/q / MariaDB µs/q | Shoal sysbench µs/q | MariaDB sysbench µs/q |"
echo "|---|--:|---|--:|--:|--:|--:|--:|--:|--:|"
awk -F'\t' '
  function ratio(a, b) {
    return (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) ? sprintf("%.2f", a / b) : "-"
  }
  { key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 }
  $5 == "shoal" { qps[key] = $6; cpu[key] = $9; sb[key] = $13; next }
  $5 == "mariadb" {
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4,
      ratio(qps[key], $6), cpu[key], $9, ratio(cpu[key], $9), sb[key], $13
  }' "$work/results"
if [ -s "$work/failures" ]; then
  echo
  echo "Failed runs:"
  echo
  sed 's/^/    /' "$work/failures"
fi
[ "$failures" = 0 ]
