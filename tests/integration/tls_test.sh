#!/usr/bin/env bash
# TLS to clients beside a private MariaDB from Debian (issue 22). Both serve the certificate
# Shoal's routers made in their ssl_dir at first start. Shown:
#   * the mariadb CLI with --ssl-verify-server-cert against the routers' CA logs in over TLS
#     (TCP and Unix socket) on both; with another CA (made by shoal-router --make-certificates)
#     it is refused (2026) by both;
#   * tests/integration/tls_matrix.py: every REQUIRE clause × plain / verified TLS / TLS with a
#     client certificate gives the same outcome on both, and so do mysql.user's TLS columns,
#     @@have_ssl and @@ssl_ca; require_secure_transport refuses TCP without TLS (3159);
#   * tests/integration/tls_abuse.py: garbage, truncated and abandoned handshakes leave the
#     router serving a client logged in over TLS and new ones.
#   * tests/integration/full_auth.py: caching_sha2_password's full authentication — over TLS,
#     the Unix socket and RSA without TLS (PyMySQL, Go's driver, the mariadb CLI) — for
#     accounts imported with MySQL 8's stored form, and again after a router restart.
#
#   tests/integration/tls_test.sh
#
# ctest runs it as tls_test. Needs mariadb-server and mariadb-client; PyMySQL and Go's client
# from tests/clients/build.sh (SHOAL_CLIENTS_DIR, default build/clients). Stops everything it
# started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
need_pymysql
fail() { echo "FAIL: $*" >&2; exit 1; }

mariadb_uses_shoal_tls=1
metrics_base=$(free_ports 6)
start_box_and_mariadb tls "$metrics_base" "$(free_ports 3)"
[ -s "$shoal_tls/ca.pem" ] || fail "the routers made no CA in $shoal_tls"

# The mariadb CLI, verifying the server: over TCP (router 5 and MariaDB) and router 4's socket.
verified() { mariadb -u root --ssl-verify-server-cert "$@" -N -e "SHOW STATUS LIKE 'Ssl_version'" 2>&1 || true; }
for target in "-h 127.0.0.1 -P $((router_port + 1)) --ssl-ca=$shoal_tls/ca.pem" \
              "-h 127.0.0.1 -P $mariadb_port --ssl-ca=$shoal_tls/ca.pem" \
              "-S $socket --ssl-ca=$shoal_tls/ca.pem"; do
  # shellcheck disable=SC2086 # the target's words are separate arguments
  out=$(verified $target)
  [[ $out == "Ssl_version"$'\t'"TLSv1."* ]] || fail "mariadb $target: $out"
  echo "ok: mariadb --ssl-verify-server-cert $target: ${out#*$'\t'}"
done
"$bin/shoal-router" --make-certificates "$work/other" >/dev/null
[[ $("$bin/shoal-router" --make-certificates "$work/other" 2>&1 || true) == *"not empty"* ]] ||
  fail "--make-certificates over an existing set did not refuse"
for port in $((router_port + 1)) "$mariadb_port"; do
  out=$(verified -h 127.0.0.1 -P "$port" --ssl-ca="$work/other/ca.pem")
  [[ $out == *"ERROR 2026"* ]] || fail "port $port with another CA: $out"
  echo "ok: another CA is refused on port $port: $out"
done

# Broken handshakes beside a client that stays logged in.
"$python" tests/integration/tls_abuse.py 127.0.0.1 "$((router_port + 1))" "$shoal_tls/ca.pem"
"$python" tests/integration/tls_matrix.py "$shoal_tls" "$socket" "$work/shoal/router-5.sock" \
  "$((router_port + 1))" \
  "$mariadb_socket" "$mariadb_port"
# caching_sha2_password's full authentication: accounts known by MySQL's stored form alone.
"$python" tests/integration/full_auth.py "$socket" "$work/shoal/router-5.sock" \
  "$((router_port + 1))" "$shoal_tls/ca.pem" "${SHOAL_CLIENTS_DIR:-build/clients}/mysqlclient-go" \
  "$bin/shoal-mgm -c 127.0.0.1:$mgmd_port" "http://127.0.0.1:$((metrics_base + 5))/metrics"
echo "PASS: tls_test"
