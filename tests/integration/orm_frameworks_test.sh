#!/usr/bin/env bash
# Frameworks as applications use them (issue 19): SQLAlchemy 2 and Alembic, and Django 4.2, from
# PyPI, unmodified (tests/clients/python/orm_sqlalchemy.py: create_all, reflection, ORM CRUD
# with a relationship over a FOREIGN KEY, Alembic autogenerate + upgrade + downgrade;
# orm_django.py: migrate of auth, contenttypes, sessions, admin and an app of its own, CRUD,
# joins, aggregates, nested atomic() blocks, foreign keys), against the cluster in a box and,
# the same scripts, against a private MariaDB from Debian — so that what the scripts expect is
# what a MySQL server gives, and Django's summaries must match. Needs the clients venv (tests/clients/build.sh). Stops everything it
# started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
python=build/clients/pyvenv/bin/python
start_box_and_mariadb orm

failed=0
declare -A django_summary
for server in shoal mariadb; do
  if [ "$server" = shoal ]; then sock=$socket; else sock=$mariadb_socket; fi
  mariadb -S "$sock" -u root -e "CREATE DATABASE app; CREATE DATABASE django_app"
  if out=$("$python" tests/clients/python/orm_sqlalchemy.py \
    "mysql+pymysql://root@/app?unix_socket=$sock" 2>&1); then
    echo "ok: SQLAlchemy and Alembic on $server"
  else
    echo "FAIL: SQLAlchemy and Alembic on $server:" >&2
    echo "$out" >&2
    failed=1
  fi
  if out=$("$python" tests/clients/python/orm_django.py "$sock" django_app 2>&1); then
    echo "ok: Django on $server"
    django_summary[$server]=$out
  else
    echo "FAIL: Django on $server:" >&2
    echo "$out" >&2
    failed=1
  fi
done
# The same summary from both: what the ORM read back does not depend on the server.
if [ "$failed" -eq 0 ] && [ "${django_summary[shoal]}" != "${django_summary[mariadb]}" ]; then
  echo "FAIL: Django's summary differs (- MariaDB, + Shoal):" >&2
  diff <(echo "${django_summary[mariadb]}") <(echo "${django_summary[shoal]}") >&2 || true
  failed=1
fi
exit "$failed"
