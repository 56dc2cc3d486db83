#!/usr/bin/env bash
# TLS on the links between the cluster's own processes (cluster.tls): router <-> data node
# native TCP, data node <-> data node, every process <-> the mgmd. A one-host cluster (2 data
# nodes without `socket:`, so routers and peers use TCP; 1 router) started by
# `shoal-mgmd --launch`. Shown, with real processes and clients:
#   1. on the wire, against a control: the same cluster with `tls: false` and `tls: true`,
#      loopback captured with tcpdump from before the start while the mariadb CLI (over the
#      router's Unix socket, so not on lo) inserts and selects rows holding a marker and a
#      data node killed with -9 is restarted (its data copied from the other). With false the
#      marker is in the capture and no link starts with a TLS handshake; with true the marker
#      is not, and every link to the mgmd and the data nodes starts with a TLS ClientHello;
#   2. sysbench oltp_read_write through the router: no errors; peer links opened over tcp+tls;
#   3. shoal-mgm without the certificates is refused, naming --tls-dir; with them it works;
#   4. a data node killed with -9 is restarted by the mgmd and comes back started over TLS;
#      rows written before and while it was down are all there, also with the other data
#      node killed afterwards (so read from the restarted one alone);
#   5. intruders: garbage on the data nodes' and the mgmd's ports, and a TLS client without a
#      certificate, are dropped; a set from another CA is refused (certificate verify failed)
#      by the mgmd and the data nodes; the cluster serves on, no process restarted;
#   6. --make-cluster-certificates for two hosts (10.1.2.3, 10.1.2.4): a set per host, the key
#      mode 600, signed by the CA, the host's IP in subjectAltName; refused over an existing
#      dir; a mgmd for those hosts without sets refuses to start, naming it.
#
#   tests/integration/cluster_tls_test.sh
#
# ctest runs it as cluster_tls_test. Needs root for check 1 (tcpdump on lo; without, it says it
# skipped that check), tcpdump, sysbench,
# mariadb-client, openssl, curl and ss. Daemons from SHOAL_BIN_DIR (default build/bin). Stops
# everything it started; the work dir (/tmp/shoal-cluster-tls-…) is removed, or kept and
# named when the test failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/testutil/free_ports.sh
bin=${SHOAL_BIN_DIR:-build/bin}
fail() { echo "FAIL: $*" >&2; exit 1; }

for tool in tcpdump sysbench mariadb openssl curl ss python3; do
  command -v "$tool" >/dev/null || fail "needs $tool"
done
capture_wire=true
if [ "$(id -u)" -ne 0 ]; then
  capture_wire=false
  echo "SKIPPED: check 1 (the capture of lo with tcpdump) needs root; the others run" >&2
fi
for daemon in shoal-mgmd shoal-mgm shoal-datanode shoal-router; do
  [ -x "$bin/$daemon" ] || fail "no $bin/$daemon (SHOAL_BIN_DIR)"
done
start_time=$SECONDS
work=$(mktemp -d /tmp/shoal-cluster-tls-XXXXXX)

# Every mgmd is started with setsid: it leads a session holding the nodes it launches.
mgmd_pids=()
tcpdump_pids=()
writer_pid=""
stop_mgmd() {  # PID: SIGTERM stops the cluster; whatever is left of its session is killed.
  local pid=$1 left p
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  left=$(pgrep -s "$pid" || true)
  for p in $left; do
    if [[ $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) == "$bin/shoal-"* ]]; then
      kill -KILL "$p" 2>/dev/null || true
    fi
  done
  local kept=()
  for p in "${mgmd_pids[@]}"; do [ "$p" = "$pid" ] || kept+=("$p"); done
  mgmd_pids=("${kept[@]}")
}
cleanup() {
  local status=$?
  [ -z "$writer_pid" ] || kill "$writer_pid" 2>/dev/null || true
  for pid in "${tcpdump_pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
  for pid in "${mgmd_pids[@]}"; do stop_mgmd "$pid"; done
  # Anything still naming the work dir (the nodes carry --tls-dir=<work>/…) is ours.
  local left
  left=$(pgrep -f "$work" || true)
  # shellcheck disable=SC2086 # one pid a word
  [ -z "$left" ] || kill -KILL $left 2>/dev/null || true
  wait 2>/dev/null || true
  [ "$status" -eq 0 ] || { echo "work dir kept: $work" >&2; return; }
  rm -rf "$work"
}
trap cleanup EXIT

# The one-host cluster NAME with cluster.tls TLS, in $work/NAME. Sets run, the ports
# (mgmd_port; dn_port[2], dn_port[3] native TCP; metrics[2], metrics[3]), socket, tls_dir (the
# set the mgmd makes; empty without TLS) and mgmd_pid.
declare -A dn_port metrics
start_cluster() {
  local name=$1 tls=$2 base
  run=$work/$name
  mkdir -p "$run"
  base=$(free_ports 6)
  mgmd_port=$base
  metrics[2]=$((base + 1)) metrics[3]=$((base + 2))
  dn_port[2]=$((base + 3)) dn_port[3]=$((base + 4))
  socket=$run/r4.sock
  tls_dir=""
  [ "$tls" = false ] || tls_dir=$run/mgmd/cluster-tls
  cat >"$run/cluster.yaml" <<EOF
cluster:
  replicas: 2
  data_memory: 64M
  tls: $tls
mgmd:
  host: 127.0.0.1
  port: $mgmd_port
  data_dir: $run/mgmd
datanodes:
  - id: 2
    host: 127.0.0.1
    data_dir: $run/dn2
    metrics_port: ${metrics[2]}
    port: ${dn_port[2]}
  - id: 3
    host: 127.0.0.1
    data_dir: $run/dn3
    metrics_port: ${metrics[3]}
    port: ${dn_port[3]}
routers:
  - id: 4
    host: 127.0.0.1
    port: $((base + 5))
    socket: $socket
users:
  - name: root
EOF
}
launch_cluster() {
  setsid "$bin/shoal-mgmd" --config-file "$run/cluster.yaml" --launch </dev/null \
    >"$run/mgmd.out" 2>&1 &
  mgmd_pid=$!
  mgmd_pids+=("$mgmd_pid")
  local id
  for id in 2 3 4; do
    wait_started "$id" ||
      fail "the cluster in $run did not start: $(show_cluster 2>&1 | grep id= || true)"
  done
  for _ in $(seq 100); do
    mariadb -S "$socket" -u root -e "SELECT 1" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "router 4 does not serve on $socket (see $run/mgmd/shoal-router-4.log)"
}
show_cluster() {
  "$bin/shoal-mgm" -c "127.0.0.1:$mgmd_port" --tls-dir="$tls_dir" --timeout=5s -e SHOW
}
# The pid of node ID when SHOW has it started (and, given, not OLD_PID); empty otherwise.
started_pid() {
  show_cluster 2>/dev/null |
    sed -n "s/^id=$1 .*[(,] *started, pid \([0-9]*\).*/\1/p" | grep -vx "${2:-none}" || true
}
wait_started() {  # ID [OLD_PID], for 30 s
  for _ in $(seq 300); do
    [ -z "$(started_pid "$@")" ] || return 0
    sleep 0.1
  done
  return 1
}
sql() { mariadb -S "$socket" -u root -N -B -e "$*"; }
# Rows ctls.NAME id FROM..TO holding TEXT, in one INSERT.
insert_rows() {
  sql "INSERT INTO ctls.$1 VALUES $(seq "$2" "$3" | awk -v m="$4" \
    '{ printf "%s(%d,'"'"'%s-%d'"'"')", (NR > 1 ? "," : ""), $1, m, $1 }')"
}
kill9_and_wait() {  # ID: kill -9 data node ID, wait for the mgmd to restart it started
  local old
  old=$(started_pid "$1")
  [ -n "$old" ] || fail "data node $1 is not started"
  kill -KILL "$old"
  wait_started "$1" "$old" ||
    fail "data node $1 (pid $old, killed -9) did not come back started: $(show_cluster 2>&1 |
      grep "id=$1" || true); $(tail -5 "$run/mgmd/shoal-datanode-$1.log")"
  restarted_pid=$(started_pid "$1")
}

# What a capture of the cluster's links holds: for each TCP connection to PORTS whose SYN was
# captured, whether the client's first bytes are a TLS handshake record (0x16 0x03). Prints
# "connections N tls N plain N bytes N" (bytes: TCP payload on these ports).
pcap_links() {
  python3 - "$@" <<'PY'
import struct, sys
path, ports = sys.argv[1], {int(p) for p in sys.argv[2:]}
data = open(path, "rb").read()
endian = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
linktype = struct.unpack(endian + "I", data[20:24])[0]
link_header = {1: 14, 113: 16, 276: 20, 0: 4}[linktype]
pos, syn, first, total = 24, set(), {}, 0
while pos + 16 <= len(data):
    incl = struct.unpack(endian + "I", data[pos + 8:pos + 12])[0]
    packet = data[pos + 16:pos + 16 + incl]
    pos += 16 + incl
    ip = packet[link_header:]
    if len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != 6:
        continue
    ihl = (ip[0] & 15) * 4
    ip_len = struct.unpack("!H", ip[2:4])[0]
    tcp = ip[ihl:ip_len]
    sport, dport = struct.unpack("!HH", tcp[:4])
    flags = tcp[13]
    payload = tcp[(tcp[12] >> 4) * 4:]
    if dport not in ports and sport not in ports:
        continue
    total += len(payload)
    if dport in ports:
        conn = (sport, dport)
        if flags & 0x02 and not flags & 0x10:
            syn.add(conn)
        elif payload and conn in syn and conn not in first:
            first[conn] = payload[:2] == b"\x16\x03"
tls = sum(first.values())
print(f"connections {len(first)} tls {tls} plain {len(first) - tls} bytes {total}")
PY
}

# ---- 1. On the wire: tls false (the control), then tls true.
wire_runs=""
! $capture_wire || wire_runs="false true"
for tls in $wire_runs; do
  start_cluster "wire-$tls" "$tls"
  capture=$run/lo.pcap
  tcpdump -i lo -U -n -w "$capture" \
    "tcp and (port $mgmd_port or port ${dn_port[2]} or port ${dn_port[3]})" \
    2>"$run/tcpdump.err" &
  tcpdump_pid=$!
  tcpdump_pids+=("$tcpdump_pid")
  for _ in $(seq 100); do grep -q "listening on" "$run/tcpdump.err" && break; sleep 0.1; done
  grep -q "listening on" "$run/tcpdump.err" ||
    fail "tcpdump did not start: $(cat "$run/tcpdump.err")"
  launch_cluster
  marker="ctls-marker-$tls-$RANDOM$RANDOM"
  sql "CREATE DATABASE ctls; CREATE TABLE ctls.marked (id INT PRIMARY KEY, v VARCHAR(100))"
  insert_rows marked 1 200 "$marker"
  [ "$(sql "SELECT COUNT(*) FROM ctls.marked WHERE v LIKE '$marker-%'")" = 200 ] ||
    fail "tls $tls: the 200 marked rows do not read back"
  kill9_and_wait 3   # its copy of the rows comes from data node 2 over their link
  [ "$(sql "SELECT v FROM ctls.marked ORDER BY id" | grep -c "^$marker-")" = 200 ] ||
    fail "tls $tls: the marked rows after the restart"
  kill -INT "$tcpdump_pid"
  wait "$tcpdump_pid" 2>/dev/null || true
  tcpdump_pids=()
  stop_mgmd "$mgmd_pid"
  links=$(pcap_links "$capture" "$mgmd_port" "${dn_port[2]}" "${dn_port[3]}") ||
    fail "cannot read the capture $capture"
  seen=$(grep -a -c "$marker" "$capture" || true)
  read -r _ connections _ tls_connections _ plain_connections _ bytes <<<"$links"
  echo "tls $tls: capture of lo ($(stat -c %s "$capture") bytes): marker in $seen place(s); $links"
  [ "$connections" -ge 4 ] ||
    fail "tls $tls: only $connections connections to the cluster's ports captured ($links)"
  if [ "$tls" = false ]; then
    [ "$seen" -gt 0 ] || fail "control: with tls false the marker is not in the capture"
    [ "$tls_connections" -eq 0 ] || fail "tls false, yet links start with TLS: $links"
    echo "ok: tls false (control): the marker crosses lo in clear text, no link uses TLS"
  else
    [ "$seen" -eq 0 ] || fail "tls true: the marker $marker is in the capture ($seen times)"
    [ "$plain_connections" -eq 0 ] || fail "tls true: links not starting with TLS: $links"
    [ "$bytes" -gt 100000 ] || fail "tls true: little traffic captured ($links)"
    echo "ok: tls true: the marker is not on lo; all $connections links captured start with" \
      "a TLS handshake ($bytes bytes)"
  fi
done

# ---- The cluster for the other checks: tls true again (the capture's cluster was stopped).
start_cluster main true
launch_cluster
for f in ca.pem node-cert.pem node-key.pem; do
  [ -s "$tls_dir/$f" ] || fail "the mgmd made no $f in $tls_dir"
done
grep -q "TLS between the cluster's processes" "$run/mgmd/shoal-datanode-2.log" ||
  fail "data node 2's log does not say it uses TLS"
sql "CREATE DATABASE ctls; CREATE DATABASE sbtest"

# ---- 2. sysbench through the router; the data nodes' links to each other over tcp.
sb=(--mysql-socket="$socket" --mysql-user=root --tables=2 --table-size=2000 --rand-type=uniform)
sysbench oltp_read_write "${sb[@]}" --mysql-storage-engine=ndbcluster --threads=2 prepare \
  >"$run/sysbench-prepare.out" 2>&1 ||
  { tail -20 "$run/sysbench-prepare.out" >&2; fail "sysbench prepare"; }
status=0
sysbench oltp_read_write "${sb[@]}" --threads=4 --time=5 --report-interval=0 run \
  >"$run/sysbench.out" 2>&1 || status=$?
[ "$status" -eq 0 ] || { tail -20 "$run/sysbench.out" >&2; fail "sysbench exited with $status"; }
transactions=$(sed -n 's/^ *transactions: *\([0-9]*\).*/\1/p' "$run/sysbench.out")
errors=$(sed -n 's/^ *ignored errors: *\([0-9]*\).*/\1/p' "$run/sysbench.out")
reconnects=$(sed -n 's/^ *reconnects: *\([0-9]*\).*/\1/p' "$run/sysbench.out")
[ "${transactions:-0}" -gt 0 ] || fail "sysbench ran no transactions"
[ "${errors:-x}/${reconnects:-x}" = 0/0 ] ||
  fail "sysbench: ${errors:-?} errors, ${reconnects:-?} reconnects"
tcp_links=0
for id in 2 3; do
  out=$(curl -sf "http://127.0.0.1:${metrics[$id]}/metrics") || fail "no /metrics on data node $id"
  metric='shoal_datanode_peer_links_opened_total{transport="tcp+tls"}'
  n=$(awk -v m="$metric" '$1 == m { print $2 }' <<<"$out")
  [[ $n =~ ^[0-9]+$ ]] || fail "data node $id has no $metric: $(grep peer_links <<<"$out" || true)"
  tcp_links=$((tcp_links + n))
done
[ "$tcp_links" -ge 1 ] || fail "the data nodes opened no peer link over tcp+tls"
echo "ok: sysbench oltp_read_write, 4 threads, 5 s: $transactions transactions, 0 errors;" \
  "peer links opened over tcp+tls: $tcp_links"

# ---- 3. The console: refused without the certificates, served with them.
status=0
out=$("$bin/shoal-mgm" -c "127.0.0.1:$mgmd_port" --tls-dir= --timeout=5s -e SHOW 2>&1) || status=$?
[ "$status" -ne 0 ] || fail "shoal-mgm without certificates exited 0: $out"
[[ $out == *"refused the console"*"links use TLS"*"--tls-dir"* ]] ||
  fail "shoal-mgm without certificates: unclear refusal: $out"
echo "ok: shoal-mgm --tls-dir= is refused (exit $status): $out"
out=$(show_cluster 2>&1) || fail "shoal-mgm --tls-dir $tls_dir: $out"
[ "$(grep -c 'started, pid' <<<"$out")" -eq 4 ] || fail "SHOW with the certificates: $out"
echo "ok: shoal-mgm --tls-dir <the set> shows the mgmd, 2 data nodes and the router started"

# ---- 4. A data node killed with -9 comes back over TLS; the rows before and during are there.
sql "CREATE TABLE ctls.rows (id INT PRIMARY KEY, v VARCHAR(40))"
insert_rows rows 1 500 before
# A writer: batches of 10 rows while the node is down and back; each batch is retried until it
# commits (a transaction cut by the node's failure may be refused and is sent again).
: >"$run/writer.batches"
(
  batch=0
  while [ ! -e "$run/writer.stop" ] && [ "$batch" -lt 1000 ]; do
    first=$((1001 + batch * 10))
    for attempt in $(seq 50); do
      if insert_rows rows "$first" $((first + 9)) during 2>>"$run/writer.err"; then break; fi
      echo "batch $batch attempt $attempt failed" >>"$run/writer.err"
      sleep 0.1
    done
    batch=$((batch + 1))
    echo "$batch" >"$run/writer.batches"
  done
) &
writer_pid=$!
sleep 0.5
tls_lines=$(grep -c "TLS between the cluster's processes" "$run/mgmd/shoal-datanode-2.log")
batches_at_kill=$(cat "$run/writer.batches")
kill9_and_wait 2
batches_at_start=$(cat "$run/writer.batches")
sleep 0.5
touch "$run/writer.stop"
wait "$writer_pid" || fail "the writer failed: $(tail -5 "$run/writer.err")"
writer_pid=""
batches=$(cat "$run/writer.batches")
retries=$(grep -c "attempt" "$run/writer.err" || true)
[ "$(grep -c "TLS between the cluster's processes" "$run/mgmd/shoal-datanode-2.log")" \
  -gt "$tls_lines" ] ||
  fail "the restarted data node 2 does not log TLS: $(tail -5 "$run/mgmd/shoal-datanode-2.log")"
[ "${batches_at_start:-0}" -gt "${batches_at_kill:-0}" ] ||
  fail "no batch committed while data node 2 was down (writer: $(tail -3 "$run/writer.err"))"
expected=$((500 + batches * 10))
count() {
  sql "SELECT COUNT(*), COUNT(DISTINCT id), SUM(v LIKE 'before-%'), SUM(v LIKE 'during-%')
       FROM ctls.rows"
}
want="$expected"$'\t'"$expected"$'\t'500$'\t'$((batches * 10))
[ "$(count)" = "$want" ] || fail "after data node 2's restart: rows $(count), want $want"
echo "ok: data node 2 killed -9 came back started (pid $restarted_pid) over TLS; all" \
  "$expected rows are there: 500 before, $((batches * 10)) during ($(((batches_at_start -
  batches_at_kill) * 10)) while node 2 was down and restarting; $retries batch retries)"
# Data node 3 killed too: the rows are now read from the restarted node 2 alone (or, once node
# 3 is back, from the copy node 3 took of node 2's).
old3=$(started_pid 3)
kill -KILL "$old3"
got=""
for _ in $(seq 100); do
  got=$(count 2>/dev/null) && [ "$got" = "$want" ] && break
  sleep 0.1
done
node3_back=$(started_pid 3 "$old3")
[ "$got" = "$want" ] || fail "with data node 3 killed, node 2 reads rows $got, want $want"
wait_started 3 "$old3" || fail "data node 3 did not come back after kill -9"
echo "ok: with data node 3 killed as well, all $expected rows read back" \
  "($([ -z "$node3_back" ] && echo "from node 2 alone" || echo "node 3 already back")); node 3" \
  "is back started"

# ---- 5. Intruders.
pids_before=$(show_cluster | grep -o 'pid [0-9]*' | sort)
served() {
  [ "$(sql "SELECT COUNT(*) FROM ctls.rows")" = "$expected" ] ||
    fail "the cluster stopped serving after $1"
}
# (a) garbage: the data nodes' native ports drop it without a word; the mgmd answers a
# refusal in clear and closes.
garbage() {  # PORT: prints what came back and whether the connection was closed
  python3 - "$1" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(b"\x00\x01GET / HTTP/1.0\r\n\r\n" + bytes(range(256)) * 16)
got = b""
try:
    while True:
        chunk = s.recv(4096)
        if not chunk:
            print(f"closed after {len(got)} bytes: {got[-120:]!r}")
            break
        got += chunk
except ConnectionResetError:
    print(f"reset after {len(got)} bytes")
except socket.timeout:
    print(f"still open after 10 s ({len(got)} bytes)")
PY
}
for id in 2 3; do
  [[ $(ss -ltnpH "sport = :${dn_port[$id]}") == *shoal-datanode* ]] ||
    fail "no shoal-datanode listens on ${dn_port[$id]}"
  out=$(garbage "${dn_port[$id]}")
  [[ $out == "closed after 0 bytes"* || $out == "reset after 0 bytes" ]] ||
    fail "garbage to data node $id's port ${dn_port[$id]}: $out"
  served "garbage to data node $id"
  echo "ok: garbage to data node $id's native port ${dn_port[$id]}: $out; the cluster serves"
done
out=$(garbage "$mgmd_port")
[[ $out == "closed after"*"links use TLS"* || $out == "reset after"* ]] ||
  fail "garbage to the mgmd's port: $out"
served "garbage to the mgmd"
echo "ok: garbage to the mgmd's port: ${out%%:*}; the cluster serves"
# The clear-text refusal is in the cluster log; a probe that connects and says nothing (a load
# balancer's or Kubernetes' TCP check) is not.
grep -q "refused a connection: .*clear text" "$run/mgmd/cluster.log" ||
  fail "the cluster log does not note the clear-text refusal"
refusals=$(grep -c "refused a connection" "$run/mgmd/cluster.log" || true)
for _ in 1 2 3; do
  exec 3<>"/dev/tcp/127.0.0.1/$mgmd_port"
  exec 3<&- 3>&-
done
sleep 0.5
[ "$(grep -c "refused a connection" "$run/mgmd/cluster.log" || true)" = "$refusals" ] ||
  fail "a probe that connected and closed is a refusal in the cluster log"
echo "ok: the cluster log notes the clear-text refusal, not three silent probes"
# A TLS client without a certificate: the data node requires one.
# (TLS 1.3: the server judges the client's certificate after the client's Finished, so
# s_client reads on, -ign_eof, until the node's alert and close.)
tls_client() {  # PORT [s_client options]: the lines of s_client's output that tell
  local port=$1
  shift
  timeout 20 openssl s_client -connect "127.0.0.1:$port" -ign_eof "$@" </dev/null 2>&1 |
    grep -iE "alert|error|verify return code|^New," || true
}
out=$(tls_client "${dn_port[2]}" -CAfile "$tls_dir/ca.pem")
[[ $out == *"alert certificate required"* ]] ||
  fail "TLS without a client certificate to data node 2: $out"
served "a TLS client without a certificate"
echo "ok: a TLS client without a certificate is refused by data node 2 (alert certificate required)"
# (b) a set from another CA.
"$bin/shoal-mgmd" --config-file "$run/cluster.yaml" --make-cluster-certificates "$work/other" \
  >"$work/other.out" 2>&1 || fail "--make-cluster-certificates: $(cat "$work/other.out")"
other=$work/other/127.0.0.1
status=0
out=$("$bin/shoal-mgm" -c "127.0.0.1:$mgmd_port" --tls-dir "$other" --timeout=5s -e SHOW 2>&1) ||
  status=$?
[ "$status" -ne 0 ] || fail "shoal-mgm with another CA's set exited 0: $out"
[[ $out == *"certificate verify failed"* ]] || fail "shoal-mgm with another CA's set: $out"
served "a console with another CA's set"
echo "ok: shoal-mgm with another CA's set fails (exit $status): $out"
out=$(tls_client "${dn_port[3]}" -CAfile "$tls_dir/ca.pem" -cert "$other/node-cert.pem" \
  -key "$other/node-key.pem")
[[ $out == *"alert unknown ca"* ]] || fail "another CA's certificate to data node 3: $out"
served "another CA's certificate to a data node"
echo "ok: a client certificate of another CA is refused by data node 3 (alert unknown ca)"
pids_after=$(show_cluster | grep -o 'pid [0-9]*' | sort)
[ "$pids_before" = "$pids_after" ] ||
  fail "processes changed under the intruders: $pids_before / $pids_after"
[ "$(show_cluster | grep -c 'started, pid')" -eq 4 ] ||
  fail "not every node started after the intruders: $(show_cluster)"
echo "ok: after the intruders every process is the one it was, started, and the cluster serves"
stop_mgmd "$mgmd_pid"

# ---- 6. Certificates for a cluster on two hosts; a mgmd without them refuses to start.
two=$work/two-hosts.yaml
cat >"$two" <<EOF
cluster:
  replicas: 2
  tls: auto
mgmd:
  host: 10.1.2.3
  port: 1186
  data_dir: $work/two/mgmd
datanodes:
  - id: 2
    host: 10.1.2.3
    data_dir: $work/two/dn2
  - id: 3
    host: 10.1.2.4
    data_dir: $work/two/dn3
routers:
  - id: 4
    host: 10.1.2.4
    port: 3306
users:
  - name: root
EOF
sets=$work/sets
"$bin/shoal-mgmd" --config-file "$two" --make-cluster-certificates "$sets" >"$work/sets.out" 2>&1 ||
  fail "--make-cluster-certificates for two hosts: $(cat "$work/sets.out")"
for f in ca.pem ca-key.pem; do [ -s "$sets/$f" ] || fail "no $f in $sets: $(ls -R "$sets")"; done
for host in 10.1.2.3 10.1.2.4; do
  for f in ca.pem node-cert.pem node-key.pem; do
    [ -s "$sets/$host/$f" ] || fail "no $sets/$host/$f"
  done
  [ "$(stat -c %a "$sets/$host/node-key.pem")" = 600 ] ||
    fail "$sets/$host/node-key.pem has mode $(stat -c %a "$sets/$host/node-key.pem")"
  out=$(openssl verify -CAfile "$sets/ca.pem" "$sets/$host/node-cert.pem" 2>&1) ||
    fail "openssl verify $host: $out"
  san=$(openssl x509 -in "$sets/$host/node-cert.pem" -noout -ext subjectAltName 2>&1)
  [[ $san == *"IP Address:$host"* ]] || fail "$host's certificate: $san"
  grep -q "$host" "$work/sets.out" ||
    fail "--make-cluster-certificates does not say where $host's set goes"
done
echo "ok: --make-cluster-certificates made a set for 10.1.2.3 and 10.1.2.4 (key mode 600," \
  "verified by the CA, IP in subjectAltName: $(openssl x509 -in "$sets/10.1.2.3/node-cert.pem" \
  -noout -ext subjectAltName | tail -1 | sed 's/^ *//'))"
status=0
out=$("$bin/shoal-mgmd" --config-file "$two" --make-cluster-certificates "$sets" 2>&1) || status=$?
[ "$status" -ne 0 ] || fail "--make-cluster-certificates over an existing dir exited 0: $out"
echo "ok: --make-cluster-certificates over a dir not empty is refused: $out"
mkdir "$work/empty-tls"
status=0
out=$(timeout 20 "$bin/shoal-mgmd" --config-file "$two" --tls-dir "$work/empty-tls" \
  </dev/null 2>&1) || status=$?
[[ $status != 0 && $status != 124 ]] || fail "a mgmd for two hosts without sets: exit $status: $out"
[[ $out == *make-cluster-certificates* ]] || fail "a mgmd for two hosts without sets: $out"
echo "ok: a mgmd for two hosts without sets refuses to start (exit $status): $(tail -1 <<<"$out")"

echo "PASS: cluster_tls_test ($((SECONDS - start_time)) s)"
