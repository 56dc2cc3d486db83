#!/usr/bin/env bash
# The SQL applications write, beside a private MariaDB from Debian in one run (issue 18): every
# file of tests/integration/sql_corpus/ but setup.sql, then 300 statements drawn with a fixed
# seed by sql_corpus_gen.py, is run, statement by statement, with the real mariadb client
# (--force, --table, so errors and warnings print too) on Shoal and on MariaDB, over the same
# tables (setup.sql); the two outputs must be the same, line by line.
# Where MySQL 8.0 and MariaDB differ the corpus leaves the statement out, or a file names the
# difference in a comment and keeps only what they share.
#
#   tests/integration/sql_corpus_test.sh [corpus files…]   (default: all of them)
#
# ctest runs it as sql_corpus_test. Needs mariadb-server and mariadb-client. Stops everything
# it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
corpus=tests/integration/sql_corpus
start_box_and_mariadb corpus

shoal() { mariadb -S "$socket" -u root "$@"; }
maria() { mariadb -S "$mariadb_socket" -u root "$@"; }
for server in shoal maria; do
  "$server" -e "CREATE DATABASE corpus"
  "$server" corpus <"$corpus/setup.sql"
done

# Timings differ by nature; a syntax error names the server (MySQL's text for Shoal). Whether
# an ALTER TABLE copies rows (and so counts them) depends on the engine: the counts of each
# statement -vvv echoes as ALTER TABLE are left out (the flag is set per echo, between its two
# lines of dashes: the ERROR of a failed statement, on stderr, comes out before its echo, which
# waits on stdout). The copy a 1452 of ALTER TABLE … ADD FOREIGN KEY names (MySQL `#sql-1a2b_8`,
# MariaDB `#sql-alter-1a2b-8`) is named after the process and the connection. SHOW WARNINGS's
# own count of warnings (Shoal's EOF carries the number of those it lists, MariaDB's none) is
# left out. MySQL 8.0's 1792 ends with a period, MariaDB's does not; its 1175 ends in ". "
# (the reason why no key served, empty), MariaDB's in "column". ONLY_FULL_GROUP_BY's 1055 and
# 1140 are worded apart (MySQL 8.0: "Expression #2 of SELECT list is not in GROUP BY clause and
# contains nonaggregated column…", MariaDB: "'db.t.c' isn't in GROUP BY"): their codes count.
# UPDATE IGNORE and DELETE IGNORE skip the same rows on both, but MariaDB records no warning for
# a row skipped for a duplicate key or a foreign key (MySQL 8.0 does: sql_tables_test checks
# them): the count of warnings of such a statement is left out.
normalize() {
  sed -E -e 's/ \([0-9.]+ sec\)$//' -e 's/your MariaDB server version/your MySQL server version/' \
    -e 's/`#sql-[^`]*`/`#sql-(copy)`/g' -e 's/(in a READ ONLY transaction)\.$/\1/' \
    -e 's/(without a WHERE that uses a KEY column)\. $/\1/' \
    -e 's/^(ERROR (1055|1140) \(42000\) at line [0-9]+:).*/\1 (a nonaggregated column)/' |
    awk '
    /^-+$/ && length($0) == 14 { dashes++; print; next }
    dashes % 2 == 1 && dashes != statement {
      statement = dashes; alter = (toupper($0) ~ /^ALTER TABLE /)
      ignored = (toupper($0) ~ /^(UPDATE|DELETE) IGNORE /)
    }
    ignored && /^Query OK, / { sub(/, [0-9]+ warnings?$/, "") }
    ignored && /^Rows matched: / { sub(/Warnings: [0-9]+$/, "Warnings: (left out)") }
    alter && /^Query OK, [0-9]+ rows? affected/ { $0 = "Query OK, (rows copied) affected" }
    alter && /^Records: [0-9]+/ { sub(/^Records: [0-9]+/, "Records: (rows copied)"); alter = 0 }
    /^ERROR / { alter = 0 }
    /^SHOW WARNINGS$/ { warnings = 1 }
    /rows? in set/ && warnings { sub(/, [0-9]+ warnings?/, ""); warnings = 0 }
    { print }'
}

failed=0
files=("$@")
if [ "${#files[@]}" -eq 0 ]; then
  # The hand-written files, then statements drawn with a fixed seed (sql_corpus_gen.py).
  tests/integration/sql_corpus_gen.py --seed 18 --count 300 >"$work/generated.sql"
  files=("$corpus"/*.sql "$work/generated.sql")
fi
for file in "${files[@]}"; do
  [ "$(basename "$file")" = setup.sql ] && continue
  name=$(basename "$file" .sql)
  # -vvv: each statement, its result table, and its error or warning count.
  for server in shoal maria; do
    "$server" corpus --force --table --unbuffered -vvv <"$file" 2>&1 | grep -v '^Bye$' |
      normalize >"$work/$name.$server" || true
  done
  if diff -u "$work/$name.maria" "$work/$name.shoal" >"$work/$name.diff"; then
    echo "ok: $name ($(grep -c '^--------------$' "$work/$name.shoal") statement lines)"
  else
    echo "FAIL: $name differs from MariaDB (- MariaDB, + Shoal):" >&2
    cat "$work/$name.diff" >&2
    failed=1
  fi
done
[ "$failed" -eq 0 ] && echo "PASS: the corpus answers as MariaDB does"
exit "$failed"
