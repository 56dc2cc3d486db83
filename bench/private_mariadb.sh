# shellcheck shell=bash
# Sourced by tests and benchmarks that run a MariaDB from Debian beside Shoal: a private server
# with its own data directory, Unix socket and no TCP port, so it never meets a system MariaDB
# or Shoal's routers. InnoDB flushes its log once a second (innodb_flush_log_at_trx_commit=2)
# so that both sides are memory-speed.
#
#   start_private_mariadb DIR [PORT]
#                               creates DIR/data on first use, starts mariadbd, waits until it
#                               answers; sets mariadb_pid and mariadb_socket (DIR/mariadb.sock).
#                               With PORT (the caller picks a free one), it also listens on
#                               127.0.0.1:PORT, for clients that must come over TCP
#                               (options in the array private_mariadb_options, if set, are
#                               added to mariadbd's, e.g. --ssl-cert=…)
#   stop_private_mariadb        shuts it down (SIGTERM, then SIGKILL after 30 s)
#
# Needs mariadb-server (scripts/install-deps.sh --tests installs it).

start_private_mariadb() {
  local dir=$1
  mkdir -p "$dir"
  mariadb_socket="$dir/mariadb.sock"
  if [ ! -d "$dir/data/mysql" ]; then
    mariadb-install-db --no-defaults --datadir="$dir/data" --user="$(id -un)" \
      --auth-root-authentication-method=normal >"$dir/install.log" 2>&1 || {
      cat "$dir/install.log" >&2
      return 1
    }
  fi
  local network=(--skip-networking)
  [ -z "${2:-}" ] || network=(--bind-address=127.0.0.1 --port="$2")
  mariadbd --no-defaults --datadir="$dir/data" --socket="$mariadb_socket" "${network[@]}" \
    --user="$(id -un)" --pid-file="$dir/mariadb.pid" --log-error="$dir/error.log" \
    --innodb-flush-log-at-trx-commit=2 --innodb-buffer-pool-size=512M \
    --max-connections=1000 ${private_mariadb_options[@]+"${private_mariadb_options[@]}"} \
    </dev/null >/dev/null 2>&1 &
  mariadb_pid=$!
  local _
  for _ in $(seq 300); do
    if mariadb -S "$mariadb_socket" -u root -e "SELECT 1" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$mariadb_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "private MariaDB in $dir did not start:" >&2
  tail -20 "$dir/error.log" >&2 || true
  return 1
}

stop_private_mariadb() {
  [ -n "${mariadb_pid:-}" ] || return 0
  kill "$mariadb_pid" 2>/dev/null || true
  local _
  for _ in $(seq 300); do
    kill -0 "$mariadb_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "$mariadb_pid" 2>/dev/null || true
  wait "$mariadb_pid" 2>/dev/null || true
  mariadb_pid=""
}
