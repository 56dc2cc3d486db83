# shellcheck shell=bash
# Sourced by the benchmark scripts: a temp dir `work` removed at exit with every process in
# `pids`, and start_cluster, which starts the embedded cluster in a box (shoal-mgmd from
# SHOAL_BIN_DIR, default build/bin, launching its data nodes and routers) under it and waits
# for router 4's socket. Then: `mgmd_pid`, `socket` (router 4's Unix socket), and node_pid.
# The routers serve their Unix sockets only, unless start_cluster is given a base port: then
# router 4 also listens on 127.0.0.1:BASE and router 5 on 127.0.0.1:BASE+1.
work=$(mktemp -d /tmp/shoal-bench-XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

start_cluster() {  # [base port, default 0: no TCP listeners]
  "${SHOAL_BIN_DIR:-build/bin}/shoal-mgmd" --run-dir "$work/shoal" --port 0 \
    --base-port "${1:-0}" --metrics-base-port 0 >"$work/mgmd.out" 2>&1 &
  mgmd_pid=$!
  pids+=("$mgmd_pid")
  socket="$work/shoal/router-4.sock"
  for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
}

# The process of node `id` ("shoal-datanode" or "shoal-router"), a child of this mgmd (other
# clusters may run on the machine); empty when there is none.
node_pid() {
  pgrep -P "$mgmd_pid" -f -- "$1.*--node-id $2( |$)" || true
}
