#!/usr/bin/env bash
# LOAD DATA LOCAL INFILE against a private MariaDB from Debian, in one run (issue 23, item 3).
# The cluster in a box and a private mariadbd get the same tables and the same files
# (tests/integration/load_data/: tabs, CSV with OPTIONALLY ENCLOSED BY '"' and CRLF lines,
# escapes, NULLs, IGNORE 1 LINES, @variables with SET, short and long rows, bad numbers,
# duplicates with IGNORE and REPLACE (on a unique key too), STARTING BY, multi-byte
# terminators, ESCAPED BY '', AUTO_INCREMENT, rows of a child table without their parent) through the real `mariadb` client with --local-infile=1; the info line
# (Records/Deleted/Skipped/Warnings), SHOW WARNINGS and the table's rows must be the same.
# Messages are compared after MariaDB's `db`.`t`.`c` and 'PRIMARY' are written MySQL's way
# ('c', 't.PRIMARY'), which Shoal follows.
#
# Then, on Shoal alone: PyMySQL with local_infile=True; `mariadb-import --local`; refusals —
# a client with --local-infile=0 and SET GLOBAL local_infile=0 get 3948, server-side INFILE
# 1290, and the same connection goes on working; a 100,000-row file, checked by count and
# checksum against MariaDB's load of it; the /metrics counters.
#
#   tests/integration/load_data_test.sh
#
# ctest runs it as load_data_test. Needs mariadb-server and mariadb-client; PyMySQL from
# tests/clients/build.sh (SHOAL_CLIENTS_DIR, default build/clients). Stops everything it
# started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
clients=${SHOAL_CLIENTS_DIR:-build/clients}
data=tests/integration/load_data

failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

# 1. Both servers; /metrics on base + node id: router 4 at base + 4.
metrics_base=$(free_ports 6)
start_box_and_mariadb load "$metrics_base"

shoal() { mariadb -S "$socket" -u root --local-infile=1 "$@"; }
maria() { mariadb -S "$mariadb_socket" -u root --local-infile=1 "$@"; }
both() { shoal -e "$1" && maria -e "$1"; }
both "CREATE DATABASE ld"

# MariaDB's spelling of column and key names, written MySQL's way; SHOW WARNINGS's own
# warning count (Shoal's EOF carries the list it shows, MariaDB's none) is left out.
normalize() {
  sed -e "s/\`[^\`]*\`\.\`[^\`]*\`\.\`\([^\`]*\)\`/'\1'/g" \
    -e "s/for key '\([A-Za-z_]*\)'/for key '\$TABLE.\1'/" -e "s/\$TABLE/$1/" \
    -e "s/ rows* in set, [0-9]* warnings*/&/" -e "s/\( rows* in set\), [0-9]* warnings*/\1/"
}

# case NAME "CREATE TABLE body" "LOAD DATA options after INTO TABLE" FILE [SQL before]
#   [statements the loading session runs first] [statements it runs last]
case_no=0
compare_case() {
  local name=$1 columns=$2 options=$3 file=$4 before=${5:-} first=${6:-} last=${7:-}
  case_no=$((case_no + 1))
  local table="t$case_no"
  both "CREATE TABLE ld.$table $columns"
  [ -z "$before" ] || both "${before//\$T/ld.$table}"
  local load="LOAD DATA LOCAL INFILE '$PWD/$data/$file' $options"
  load=${load//\$T/$table}
  local script="$first$load; SHOW WARNINGS; SELECT * FROM $table ORDER BY 1${last//\$T/$table}"
  shoal -vv ld -e "$script" 2>&1 | normalize "$table" >"$work/$table.shoal" || true
  maria -vv ld -e "$script" 2>&1 | normalize "$table" >"$work/$table.maria" || true
  if diff -u "$work/$table.maria" "$work/$table.shoal" >"$work/$table.diff"; then
    echo "ok: $name ($(grep -m1 Records "$work/$table.shoal"))"
  else
    fail "$name differs from MariaDB (- MariaDB, + Shoal):"
    cat "$work/$table.diff" >&2
  fi
}

# 2. The same files into both.
compare_case "tabs, header skipped, short/long rows, bad numbers, NULL, duplicate" \
  "(id INT PRIMARY KEY, name VARCHAR(10), n INT)" \
  "INTO TABLE \$T IGNORE 1 LINES" tabs.tsv
compare_case "CSV: OPTIONALLY ENCLOSED BY, doubled quotes, NULL words, CRLF lines" \
  "(id INT PRIMARY KEY, name VARCHAR(20), n INT)" \
  "INTO TABLE \$T FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\r\\n' IGNORE 1 ROWS" \
  quoted.csv
compare_case "escape sequences" "(id INT PRIMARY KEY, s VARCHAR(20), n INT)" \
  "INTO TABLE \$T" escapes.tsv
compare_case "@variables and SET" "(id INT PRIMARY KEY, s VARCHAR(20), n INT, m INT)" \
  "INTO TABLE \$T (id, @a, @b) SET s = CONCAT('<', @a, '>'), n = @b * 2, m = 7" vars.tsv
compare_case "duplicates skipped (LOCAL implies IGNORE)" \
  "(id INT PRIMARY KEY, s VARCHAR(20), n INT)" "IGNORE INTO TABLE \$T" dups.tsv \
  "INSERT INTO \$T VALUES (2, 'kept', 0)"
compare_case "duplicates replaced" "(id INT PRIMARY KEY, s VARCHAR(20), n INT)" \
  "REPLACE INTO TABLE \$T" dups.tsv "INSERT INTO \$T VALUES (2, 'old', 0), (3, 'old', 0)"
compare_case "duplicates replaced on a unique key" \
  "(id INT PRIMARY KEY, s VARCHAR(20), n INT, UNIQUE KEY (s))" "REPLACE INTO TABLE \$T" dups.tsv \
  "INSERT INTO \$T VALUES (7, 'second', 0), (3, 'old', 0), (8, 'FIRST', 1), (9, 'third', 9)"
compare_case "STARTING BY and multi-byte terminators" "(id INT PRIMARY KEY, s VARCHAR(20))" \
  "INTO TABLE \$T FIELDS TERMINATED BY '||' LINES STARTING BY 'xxx' TERMINATED BY '<EOL>\\n'" \
  multi.txt
compare_case "ESCAPED BY ''" "(id INT PRIMARY KEY, s VARCHAR(20), n INT)" \
  "INTO TABLE \$T FIELDS ESCAPED BY ''" noescape.tsv
compare_case "TIMESTAMP read in the session's time zone, stored in UTC" \
  "(id INT PRIMARY KEY, at TIMESTAMP NULL, dt DATETIME NULL)" "INTO TABLE \$T" times.tsv "" \
  "SET time_zone = '+02:00'; " "; SET time_zone = '+00:00'; SELECT * FROM \$T ORDER BY 1"
compare_case "AUTO_INCREMENT from a column list" \
  "(id INT AUTO_INCREMENT PRIMARY KEY, s VARCHAR(20), n INT)" "INTO TABLE \$T (s, n)" auto.tsv
both "CREATE TABLE ld.parent (id INT PRIMARY KEY)"
both "INSERT INTO ld.parent VALUES (10), (20)"
compare_case "a foreign key: rows without their parent skipped with 1452" \
  "(id INT PRIMARY KEY, s VARCHAR(20), p INT, FOREIGN KEY (p) REFERENCES parent (id))" \
  "INTO TABLE \$T" children.tsv

# 3. PyMySQL, with local_infile=True.
python=$clients/pyvenv/bin/python
if [ -x "$python" ]; then
  shoal -e "CREATE TABLE ld.py (id INT PRIMARY KEY, s VARCHAR(20), n INT)"
  out=$("$python" - "$socket" "$PWD/$data/dups.tsv" <<'PY'
import sys, pymysql
conn = pymysql.connect(unix_socket=sys.argv[1], user="root", database="ld", local_infile=True)
cur = conn.cursor()
cur.execute("LOAD DATA LOCAL INFILE %s INTO TABLE py", (sys.argv[2],))
cur.execute("SELECT COUNT(*), SUM(n) FROM py")
print(cur.fetchone())
PY
)
  [ "$out" = "(3, Decimal('6'))" ] && echo "ok: PyMySQL $out" || fail "PyMySQL: $out"
else
  fail "no PyMySQL at $python (tests/clients/build.sh builds it)"
fi

# 4. mariadb-import --local: the file's name is the table's.
shoal -e "CREATE TABLE ld.dups (id INT PRIMARY KEY, s VARCHAR(20), n INT)"
if out=$(mariadb-import -S "$socket" -u root --local ld "$PWD/$data/dups.tsv" 2>&1); then
  echo "ok: mariadb-import: $out"
else
  fail "mariadb-import: $out"
fi
[ "$(shoal -N -e 'SELECT COUNT(*) FROM ld.dups')" = 3 ] || fail "mariadb-import loaded no rows"

# 5. Refusals, each followed by a statement on the same connection.
refused=$(mariadb -S "$socket" -u root --local-infile=0 ld -e \
  "LOAD DATA LOCAL INFILE '$PWD/$data/dups.tsv' INTO TABLE py; SELECT 'still here'" 2>&1 || true)
case "$refused" in
  *3948*) echo "ok: client without local-infile: 3948" ;;
  *) fail "client with --local-infile=0: $refused" ;;
esac
# One statement per line: --force goes on at the next line after an error.
refused=$(mariadb -S "$socket" -u root --local-infile=1 --force -N ld 2>&1 <<SQL || true
SET GLOBAL local_infile = 0;
LOAD DATA LOCAL INFILE '$PWD/$data/dups.tsv' INTO TABLE py;
SELECT 'same connection';
LOAD DATA INFILE '/etc/passwd' INTO TABLE py;
SET GLOBAL local_infile = 1;
LOAD DATA LOCAL INFILE '$PWD/$data/dups.tsv' REPLACE INTO TABLE py;
SELECT COUNT(*) FROM py;
SQL
)
for want in 3948 "same connection" 1290 "^3$"; do
  grep -q -- "$want" <<<"$refused" || fail "refusals: no '$want' in: $refused"
done
[ "$failed" -ne 0 ] || echo "ok: refusals (3948 client, 3948 local_infile=0, 1290 server file)"

# 6. 100,000 rows: count and checksum as MariaDB has them.
python3 - "$work/big.tsv" <<'PY'
import sys, random
random.seed(23)
with open(sys.argv[1], "w") as f:
    for i in range(1, 100001):
        f.write(f"{i}\t{random.randint(1, 1000000)}\t{''.join(random.choices('abcdefgh', k=60))}\n")
PY
both "CREATE TABLE ld.big (id INT PRIMARY KEY, k INT NOT NULL, c CHAR(120) NOT NULL)"
shoal ld -e "LOAD DATA LOCAL INFILE '$work/big.tsv' INTO TABLE big"
maria ld -e "LOAD DATA LOCAL INFILE '$work/big.tsv' INTO TABLE big"
checksum() { "$@" -N ld -e "SELECT id, k, c FROM big ORDER BY id" | md5sum | cut -c1-32; }
count="SELECT COUNT(*), SUM(k) FROM big"
s_sum="$(shoal -N ld -e "$count") $(checksum shoal)"
m_sum="$(maria -N ld -e "$count") $(checksum maria)"
[ "$s_sum" = "$m_sum" ] && echo "ok: 100000 rows, $s_sum" || fail "big: Shoal $s_sum, MariaDB $m_sum"

# 7. Progress counters.
rows=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$((metrics_base + 4))/metrics').read().decode())" |
  sed -n 's/^shoal_router_load_data_rows_total \([0-9]*\)$/\1/p')
[ "${rows:-0}" -ge 100000 ] && echo "ok: shoal_router_load_data_rows_total $rows" ||
  fail "shoal_router_load_data_rows_total is '${rows:-}'"

# 8. A client killed mid-load: the batches already sent commit, the rest never comes, the
# router stays up and serves the next load. (1M rows take seconds; the kill comes at 0.5 s.)
awk -F'\t' '{ for (r = 0; r < 10; ++r) printf "%d\t%s\t%s\n", $1 + r * 1000000, $2, $3 }' \
  "$work/big.tsv" >"$work/huge.tsv"
shoal ld -e "CREATE TABLE gone (id INT PRIMARY KEY, k INT NOT NULL, c CHAR(120) NOT NULL)"
shoal ld -e "LOAD DATA LOCAL INFILE '$work/huge.tsv' INTO TABLE gone" >/dev/null 2>&1 &
loader=$!
sleep 0.5
kill -9 "$loader" 2>/dev/null || true
wait "$loader" 2>/dev/null || true
sleep 1  # what was in flight finishes
partial=$(shoal -N ld -e "SELECT COUNT(*) FROM gone" 2>&1)
if [[ "$partial" =~ ^[0-9]+$ ]] && [ "$partial" -lt 1000000 ]; then
  echo "ok: client killed mid-load: $partial of 1000000 rows committed, router still answers"
else
  fail "after the client was killed mid-load: '$partial'"
fi
shoal ld -e "TRUNCATE gone; LOAD DATA LOCAL INFILE '$work/big.tsv' INTO TABLE gone"
[ "$(shoal -N ld -e "SELECT COUNT(*) FROM gone")" = 100000 ] &&
  echo "ok: the next load after a killed one" || fail "the next load after a killed one"

exit "$failed"
