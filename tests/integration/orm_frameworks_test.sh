#!/usr/bin/env bash
# Frameworks as applications use them (issue 19): SQLAlchemy 2 and Alembic, and Django 4.2, from
# PyPI, and GORM from the Go module proxy, unmodified (tests/clients/python/orm_sqlalchemy.py:
# create_all, reflection, ORM CRUD with a relationship over a FOREIGN KEY, Alembic autogenerate
# + upgrade + downgrade; orm_django.py: migrate of auth, contenttypes, sessions, admin and an
# app of its own, CRUD, joins, aggregates, nested atomic() blocks, foreign keys;
# tests/clients/go/orm_gorm.go, `mysqlclient-go gorm`: AutoMigrate of an empty database, again
# with no DDL, then of changed models (columns and indexes added, a column widened, new tables),
# CRUD with associations, Preload and Joins, soft and hard deletes, transactions and savepoints,
# upserts, Raw, and the Migrator's own renames and drops), against the cluster in a box and,
# the same programs, against a private MariaDB from Debian — so that what they expect is what a
# MySQL server gives; Django's and GORM's summaries must match between the two. Needs the
# clients (tests/clients/build.sh). Stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
python=build/clients/pyvenv/bin/python
goclient=build/clients/mysqlclient-go
start_box_and_mariadb orm

failed=0
declare -A django_summary gorm_summary
for server in shoal mariadb; do
  if [ "$server" = shoal ]; then sock=$socket; else sock=$mariadb_socket; fi
  mariadb -S "$sock" -u root \
    -e "CREATE DATABASE app; CREATE DATABASE django_app; CREATE DATABASE gorm_app"
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
  # The summary is stdout alone; stderr has the failing check and its SQL.
  if out=$("$goclient" gorm -dsn "root@unix($sock)/gorm_app" 2>"$work/gorm-$server.err"); then
    echo "ok: GORM on $server"
    gorm_summary[$server]=$out
  else
    echo "FAIL: GORM on $server (the summary's last lines, then the failure):" >&2
    tail -n 5 <<<"$out" >&2
    cat "$work/gorm-$server.err" >&2
    failed=1
  fi
done
# The same summary from both: what the ORM read back does not depend on the server.
same_summary() { # ORM SHOAL_SUMMARY MARIADB_SUMMARY (either empty when that run failed)
  if [ -z "$2" ] || [ -z "$3" ] || [ "$2" = "$3" ]; then return 0; fi
  echo "FAIL: $1's summary differs (- MariaDB, + Shoal):" >&2
  diff <(echo "$3") <(echo "$2") >&2 || true
  return 1
}
same_summary Django "${django_summary[shoal]:-}" "${django_summary[mariadb]:-}" || failed=1
same_summary GORM "${gorm_summary[shoal]:-}" "${gorm_summary[mariadb]:-}" || failed=1
exit "$failed"
