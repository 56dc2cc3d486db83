#!/usr/bin/env bash
# Frameworks as applications use them (issue 19), unmodified, against the cluster in a box and,
# the same programs, against a private MariaDB from Debian — so that what they expect is what a
# MySQL server gives:
# * SQLAlchemy 2 and Alembic from PyPI (tests/clients/python/orm_sqlalchemy.py: create_all,
#   reflection, ORM CRUD with a relationship over a FOREIGN KEY, Alembic autogenerate + upgrade
#   + downgrade);
# * Django 4.2 from PyPI (orm_django.py: migrate of auth, contenttypes, sessions, admin and an
#   app of its own, CRUD, joins, aggregates, nested atomic() blocks, foreign keys);
# * GORM from the Go module proxy (tests/clients/go/orm_gorm.go, `mysqlclient-go gorm`:
#   AutoMigrate of an empty database, again with no DDL, then of changed models (columns and
#   indexes added, a column widened, new tables), CRUD with associations, Preload and Joins, soft
#   and hard deletes, transactions and savepoints, upserts, Raw, and the Migrator's own renames
#   and drops);
# * Hibernate ORM 7 from Maven Central over Connector/J, which speaks TCP only
#   (tests/clients/java/…/OrmHibernate.java: hbm2ddl=update on an empty database, then again
#   with a changed model over its rows and once more with nothing to do — tables, ENUM, BIT,
#   LONGTEXT, foreign keys, unique keys, indexes read back through DatabaseMetaData —; JPQL with
#   joins, fetch joins, aggregates, correlated subqueries, functions and pagination, Criteria and
#   native queries, dirty checking, bulk UPDATE/DELETE, SELECT … FOR UPDATE, an optimistic lock
#   conflict, a rollback, 1062/1451/1452, cascades). Hibernate picks its dialect from the
#   server, MySQLDialect for Shoal; MariaDB 10.11 gets MariaDBDialect by name, since through
#   Connector/J it looks like MySQL 5.5.5.
# Django's, GORM's and Hibernate's summaries must be the same from both servers. Needs the
# clients (tests/clients/build.sh). Stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
python=build/clients/pyvenv/bin/python
goclient=build/clients/mysqlclient-go
java_classpath="build/clients/java/classes:build/clients/java/lib/*"
[ -d build/clients/java/lib ] || { echo "build/clients/java is missing: run tests/clients/build.sh" >&2; exit 1; }
start_box_and_mariadb orm 0 "$(free_ports 3)"

failed=0
declare -A summary # [framework/server]
for server in shoal mariadb; do
  if [ "$server" = shoal ]; then
    sock=$socket
    port=$router_port
    dialect=()
  else
    sock=$mariadb_socket
    port=$mariadb_port
    dialect=(--dialect=org.hibernate.dialect.MariaDBDialect)
  fi
  mariadb -S "$sock" -u root -e "CREATE DATABASE app; CREATE DATABASE django_app;
    CREATE DATABASE gorm_app; CREATE DATABASE hibernate_app CHARACTER SET utf8mb4"
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
    summary[Django/$server]=$out
  else
    echo "FAIL: Django on $server:" >&2
    echo "$out" >&2
    failed=1
  fi
  # The summary is stdout alone; stderr has the failing check and its SQL.
  if out=$("$goclient" gorm -dsn "root@unix($sock)/gorm_app" 2>"$work/gorm-$server.err"); then
    echo "ok: GORM on $server"
    summary[GORM/$server]=$out
  else
    echo "FAIL: GORM on $server (the summary's last lines, then the failure):" >&2
    tail -n 5 <<<"$out" >&2
    cat "$work/gorm-$server.err" >&2
    failed=1
  fi
  # Hibernate's warnings go to stderr, kept apart from the summary and shown on failure.
  if out=$(java -cp "$java_classpath" dev.shoal.OrmHibernate \
    "jdbc:mysql://127.0.0.1:$port/hibernate_app" root "${dialect[@]}" \
    2>"$work/hibernate-$server.err"); then
    echo "ok: Hibernate on $server"
    summary[Hibernate/$server]=$out
  else
    echo "FAIL: Hibernate on $server:" >&2
    cat "$work/hibernate-$server.err" >&2
    failed=1
  fi
done
# The same summary from both: what the ORM read back does not depend on the server.
for framework in Django GORM Hibernate; do
  on_shoal=${summary[$framework/shoal]-}
  on_mariadb=${summary[$framework/mariadb]-}
  [ -n "$on_shoal" ] && [ -n "$on_mariadb" ] || continue # a FAIL above says why
  if [ "$on_shoal" != "$on_mariadb" ]; then
    echo "FAIL: $framework's summary differs (- MariaDB, + Shoal):" >&2
    diff <(echo "$on_mariadb") <(echo "$on_shoal") >&2 || true
    failed=1
  fi
done
exit "$failed"
