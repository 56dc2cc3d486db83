# shellcheck shell=bash
# Sourced by the integration tests that run the cluster in a box beside a private MariaDB from
# Debian (bench/private_mariadb.sh). start_box_and_mariadb NAME [METRICS_BASE [TCP_BASE]] makes
# a temp dir `work` (/tmp/shoal-NAME-…), starts shoal-mgmd from SHOAL_BIN_DIR (default
# build/bin) on the embedded configuration (each node's /metrics on METRICS_BASE + its id, when
# given and not 0) and waits for the routers' Unix sockets (`socket`, router 4's, and
# `socket5`), then MariaDB (`mariadb_socket`); start_box does the same without MariaDB. Both listen on Unix sockets only, unless TCP_BASE is given (free_ports 3
# finds one): then router 4 also listens on 127.0.0.1:TCP_BASE (`router_port`; router 5 on the
# next port) and MariaDB on TCP_BASE + 2 (`mariadb_port`), for clients that only speak TCP.
# `mgmd_port` is the port the mgmd listens on (for shoal-mgm).
# need_pymysql sets `python` to the clients' venv (SHOAL_CLIENTS_DIR, default build/clients,
# made by tests/clients/build.sh) and fails the test without it.
# With mariadb_uses_shoal_tls=1, MariaDB serves TLS with the certificate Shoal's routers made
# (`shoal_tls`, their ssl_dir), so clients verify both against one CA.
# On exit every pid in `kill_on_exit`, MariaDB and the cluster are stopped; `work` is removed,
# or kept and named when the test failed.
source bench/private_mariadb.sh
source tests/testutil/free_ports.sh
bin=${SHOAL_BIN_DIR:-build/bin}
mgmd_pid=""
kill_on_exit=()

stop_box_and_mariadb() {
  local status=$?
  for pid in "${kill_on_exit[@]}"; do kill "$pid" 2>/dev/null || true; done
  stop_private_mariadb || true
  if [ -n "$mgmd_pid" ]; then
    kill -TERM "$mgmd_pid" 2>/dev/null || true
    for _ in $(seq 150); do kill -0 "$mgmd_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$mgmd_pid" 2>/dev/null || true
  fi
  wait 2>/dev/null || true
  [ "$status" -eq 0 ] || { echo "work dir kept: $work" >&2; return; }
  rm -rf "$work"
}

need_pymysql() {
  python=${SHOAL_CLIENTS_DIR:-build/clients}/pyvenv/bin/python
  [ -x "$python" ] || { echo "FAIL: no PyMySQL at $python (tests/clients/build.sh builds it)" >&2; exit 1; }
}

start_box() {
  work=$(mktemp -d "/tmp/shoal-$1-XXXXXX")
  trap stop_box_and_mariadb EXIT
  local tcp_base=${3:-}
  router_port=""
  mariadb_port=""
  if [ -n "$tcp_base" ]; then
    router_port=$tcp_base
    mariadb_port=$((tcp_base + 2))
  fi
  "$bin/shoal-mgmd" --run-dir "$work/shoal" --port 0 --base-port "${router_port:-0}" \
    --metrics-base-port "${2:-0}" \
    </dev/null >"$work/mgmd.out" 2>&1 &
  mgmd_pid=$!
  socket="$work/shoal/router-4.sock"
  socket5="$work/shoal/router-5.sock"
  local router
  for router in "$socket" "$socket5"; do
    for _ in $(seq 300); do
      mariadb -S "$router" -u root -e "SELECT 1" >/dev/null 2>&1 && break
      sleep 0.1
    done
    mariadb -S "$router" -u root -e "SELECT 1" >/dev/null || { echo "Shoal did not start" >&2; exit 1; }
  done
  mgmd_port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$work/mgmd.out" | sed -n 1p)
}

start_box_and_mariadb() {
  start_box "$@"
  shoal_tls="$work/shoal/tls"
  if [ -n "${mariadb_uses_shoal_tls:-}" ]; then
    private_mariadb_options=(--ssl-ca="$shoal_tls/ca.pem" --ssl-cert="$shoal_tls/server-cert.pem"
      --ssl-key="$shoal_tls/server-key.pem")
  fi
  start_private_mariadb "$work/mariadb" "$mariadb_port"
}
