#!/usr/bin/env bash
# Accounts and privileges beside a private MariaDB from Debian (issue 22): the matrix of
# tests/integration/privileges_matrix.py — accounts, grants at every level, what each
# statement needs, passwords, locks, renames, views — run on both, root on router 4 and every
# other account through router 5 over TCP, so that a grant made through one router is
# enforced on the other at once. Then, on Shoal alone: a router restarted keeps the accounts
# (they live in the cluster), the configuration's passwordless root is refused from an
# address that is not this host's, an expired password with the mariadb CLI, and a REVOKE
# that waits for a stopped router before it is acknowledged.
#
#   tests/integration/privileges_test.sh
#
# ctest runs it as privileges_test. Needs mariadb-server and mariadb-client; PyMySQL from
# tests/clients/build.sh (SHOAL_CLIENTS_DIR, default build/clients). Stops everything it
# started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
need_pymysql

start_box_and_mariadb privileges 0 "$(free_ports 3)"
"$python" tests/integration/privileges_matrix.py "$socket" "$((router_port + 1))" \
  "$mariadb_socket" "$mariadb_port"
"$python" tests/integration/login_flood.py "$((router_port + 1))" 10000

# An expired password with the mariadb CLI: refused without --connect-expired-password (1862),
# and with it a session that may only set a new one (1820), which then logs in.
shoal_as() { mariadb -h 127.0.0.1 -P "$((router_port + 1))" --protocol=TCP "$@" 2>&1 || true; }
mariadb -S "$socket" -u root -e "CREATE USER 'gus'@'%' IDENTIFIED BY 'g' PASSWORD EXPIRE"
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $(shoal_as -u gus -pg -e "SELECT 1") == *"ERROR 1862"* ]] || fail "expired password not refused"
[[ $(shoal_as --connect-expired-password -u gus -pg -e "SELECT 1") == *"ERROR 1820"* ]] ||
  fail "expired password's session ran a statement"
shoal_as --connect-expired-password -u gus -pg -e "SET PASSWORD = 'h'"
[[ $(shoal_as -u gus -ph -e "SELECT 'in'") == *in* ]] || fail "the new password does not log in"
mariadb -S "$socket" -u root -e "DROP USER 'gus'@'%'"

# A REVOKE is acknowledged only once every router says it saw it: with router 5 stopped it
# waits (up to 2 s), and once router 5 goes on, its next statement is refused.
router5=$(pgrep -P "$mgmd_pid" -f -- "shoal-router.*--node-id 5( |$)")
mariadb -S "$socket" -u root -e "CREATE USER 'rita'@'%'; CREATE DATABASE seen;
  CREATE TABLE seen.t (id INT PRIMARY KEY); GRANT SELECT ON seen.* TO 'rita'@'%'"
[[ $(shoal_as -u rita -e "SELECT COUNT(*) FROM seen.t") == *0* ]] || fail "the grant is not in force"
kill -STOP "$router5"
mariadb -S "$socket" -u root -e "REVOKE SELECT ON seen.* FROM 'rita'@'%'" &
revoke=$!
sleep 1
kill -0 "$revoke" 2>/dev/null || { kill -CONT "$router5"; fail "REVOKE returned while router 5 was stopped"; }
kill -CONT "$router5"
wait "$revoke"
[[ $(shoal_as -u rita -e "SELECT COUNT(*) FROM seen.t") == *"ERROR 1142"* ]] ||
  fail "router 5 let a revoked privilege through"
mariadb -S "$socket" -u root -e "DROP USER 'rita'@'%'; DROP DATABASE seen"
echo "PASS: privileges_test"
