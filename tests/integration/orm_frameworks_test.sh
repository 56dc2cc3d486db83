#!/usr/bin/env bash
# Frameworks as applications use them (issue 19): SQLAlchemy 2 and Alembic from PyPI, unmodified
# (tests/clients/python/orm_sqlalchemy.py: create_all, reflection, ORM CRUD with a relationship,
# Alembic autogenerate + upgrade + downgrade), against the cluster in a box and, the same
# script, against a private MariaDB from Debian — so that what the script expects is what a
# MySQL server gives. Needs the clients venv (tests/clients/build.sh). Stops everything it
# started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
python=build/clients/pyvenv/bin/python
start_box_and_mariadb orm

failed=0
for server in shoal mariadb; do
  if [ "$server" = shoal ]; then sock=$socket; else sock=$mariadb_socket; fi
  mariadb -S "$sock" -u root -e "CREATE DATABASE app"
  if out=$("$python" tests/clients/python/orm_sqlalchemy.py \
    "mysql+pymysql://root@/app?unix_socket=$sock" 2>&1); then
    echo "ok: SQLAlchemy and Alembic on $server"
  else
    echo "FAIL: SQLAlchemy and Alembic on $server:" >&2
    echo "$out" >&2
    failed=1
  fi
done
exit "$failed"
