#!/usr/bin/env bash
# Accounts and privileges beside a private MariaDB from Debian (issue 22): the matrix of
# tests/integration/privileges_matrix.py — accounts, grants at every level, what each
# statement needs, passwords, locks, renames, views — run on both, root on router 4 and every
# other account through router 5 over TCP, so that a grant made through one router is
# enforced on the other at once. Then, on Shoal alone: a router restarted keeps the accounts
# (they live in the cluster), and the configuration's passwordless root is refused from an
# address that is not this host's.
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
echo "PASS: privileges_test"
