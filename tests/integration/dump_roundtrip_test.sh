#!/usr/bin/env bash
# Issue 23's dump test: a database moves from MariaDB to Shoal and back with Debian's
# mariadb-dump and mariadb CLI, run unmodified, and nothing changes on the way.
#
#   1. A private MariaDB holds `shop`: every column type Shoal has, NULLs, quotes, backslashes,
#      newlines, emoji, binary bytes, secondary, unique and composite indexes, an empty table,
#      DEFAULT / ON UPDATE CURRENT_TIMESTAMP columns, 20,000 rows (several extended INSERTs),
#      and two views (one merged into its readers, one grouped over a join).
#   2. mariadb-dump of it loads into Shoal's cluster in a box (LOCK TABLES, DISABLE KEYS, the
#      /*!…*/ preamble and postamble); every row reads back from Shoal as from MariaDB.
#   3. mariadb-dump of Shoal (default options, --single-transaction, --xml, and
#      --all-databases --ignore-database=mysql) runs without an error; the default dump loads
#      into a second MariaDB database, `shop_back`, which then matches `shop` table by table:
#      SHOW CREATE TABLE, CHECKSUM TABLE and the index list.
#
# No edit on the way: Shoal's SHOW CREATE TABLE/DATABASE name utf8mb4 without its default
# collation, which MySQL 8.0 reads as utf8mb4_0900_ai_ci and MariaDB 10.11, which has no such
# collation, as its own utf8mb4 default (docs/architecture.md, "Dumps").
#
# ctest runs it as dump_roundtrip_test. Needs mariadb-server (scripts/install-deps.sh
# --tests). Stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/cluster_in_a_box.sh
source bench/private_mariadb.sh
trap 'stop_private_mariadb; cleanup' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

start_private_mariadb "$work/mariadb"
start_cluster
[ -S "$socket" ] || fail "router 4 did not start: $(tail -5 "$work/mgmd.out")"
maria=(mariadb -S "$mariadb_socket" -u root --batch --default-character-set=utf8mb4)
shoal=(mariadb -S "$socket" -u root --batch --default-character-set=utf8mb4)

# --- 1. the source database --------------------------------------------------------------
"${maria[@]}" <<'SQL'
CREATE DATABASE shop DEFAULT CHARACTER SET utf8mb4;
USE shop;
CREATE TABLE customer (
  id INT NOT NULL PRIMARY KEY,
  name VARCHAR(40) NOT NULL,
  email VARCHAR(100),
  note TEXT,
  created DATETIME(6),
  born DATE,
  wake TIME(3),
  seen TIMESTAMP NULL DEFAULT NULL,
  balance DECIMAL(12,4) DEFAULT 0,
  score DOUBLE,
  ratio FLOAT,
  tiny TINYINT UNSIGNED,
  small SMALLINT,
  medium MEDIUMINT,
  code CHAR(10),
  UNIQUE KEY email (email),
  KEY name_born (name, born)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
INSERT INTO customer VALUES
  (1, 'ann', 'ann@example.com', 'line one\nline two\ttabbed', '2024-01-02 03:04:05.123456',
   '1990-12-31', '12:34:56.789', '2024-05-06 07:08:09', 12.5, 0.5, 0.25, 255, -32768, 8388607,
   'A1'),
  (2, 'bob', NULL, NULL, NULL, NULL, NULL, NULL, -3.25, -1.25e10, NULL, 0, 0, 0, ''),
  (3, 'O''Brien', 'o\\b"q@x', 'quotes \' " and \\ backslash', '1970-01-01 00:00:01', '2000-02-29',
   '-838:59:59', NULL, 0, 1e-5, -2, 1, 1, -8388608, 'trail  '),
  (4, 'zoë 😀', 'zoe@x', 'emoji 😀 and ünïcödé', '2038-01-19 03:14:07', '9999-12-31',
   '838:59:59', '2038-01-19 03:14:07', 99999999.9999, 1.7976931348623157e308, 3.5, 7, 7, 7,
   'ümlaut');
CREATE TABLE item (
  sku BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  title VARCHAR(200) NOT NULL,
  price DECIMAL(10,2) NOT NULL,
  photo BLOB,
  tag VARBINARY(16),
  flags BINARY(4),
  KEY price (price)
) ENGINE=InnoDB;
INSERT INTO item (title, price, photo, tag, flags) VALUES
  ('zero bytes', 1.00, x'00ff00fe', x'00', x'01020304'),
  ('no photo', 2.50, NULL, NULL, NULL),
  ('not utf-8', 0.01, x'c328e282', 'abc', 'ab');
CREATE TABLE orders (
  customer_id INT NOT NULL,
  line SMALLINT NOT NULL,
  sku BIGINT UNSIGNED NOT NULL,
  qty INT NOT NULL DEFAULT 1,
  PRIMARY KEY (customer_id, line),
  KEY sku (sku)
) ENGINE=InnoDB;
INSERT INTO orders SELECT seq % 500, seq DIV 500, seq % 3 + 1, seq FROM seq_0_to_19999;
CREATE TABLE empty_one (id INT PRIMARY KEY, v VARCHAR(5)) ENGINE=InnoDB;
CREATE TABLE audit (
  id INT PRIMARY KEY,
  created TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),
  touched TIMESTAMP NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP
) ENGINE=InnoDB;
INSERT INTO audit VALUES (1, '2024-01-02 03:04:05', '2024-01-02 03:04:05.500000', NULL),
  (2, '2001-02-03 04:05:06', '2001-02-03 04:05:06.000001', '2002-03-04 05:06:07');
CREATE VIEW big_orders AS SELECT customer_id, line, qty * 2 AS twice FROM orders
  WHERE qty > 19990;
CREATE VIEW customer_lines (customer, line_count) AS
  SELECT c.name, COUNT(*) FROM customer c JOIN orders o ON o.customer_id = c.id GROUP BY c.name;
SQL

# --- 2. MariaDB -> Shoal ------------------------------------------------------------------
mariadb-dump -S "$mariadb_socket" -u root shop >"$work/from_mariadb.sql"
"${shoal[@]}" -e "CREATE DATABASE shop"
"${shoal[@]}" shop <"$work/from_mariadb.sql" || fail "MariaDB's dump did not load into Shoal"

tables=(customer item orders empty_one audit)
declare -A order_by=([customer]=id [item]=sku [orders]="customer_id, line" [empty_one]=id
  [audit]=id)
for t in "${tables[@]}"; do
  query="SELECT * FROM $t ORDER BY ${order_by[$t]}"
  "${maria[@]}" shop -e "$query" >"$work/$t.maria"
  "${shoal[@]}" shop -e "$query" >"$work/$t.shoal"
  diff "$work/$t.maria" "$work/$t.shoal" >"$work/$t.diff" ||
    fail "$t reads back differently from Shoal: $(head -20 "$work/$t.diff")"
done
rows=$("${shoal[@]}" -N shop -e "SELECT COUNT(*) FROM orders")
[ "$rows" = 20000 ] || fail "orders has $rows rows in Shoal, not 20000"
# The views came as MariaDB writes them (its canonical SELECT, made after the tables they read).
views=(big_orders customer_lines)
for v in "${views[@]}"; do
  "${maria[@]}" shop -e "SELECT * FROM $v ORDER BY 1, 2" >"$work/$v.maria"
  "${shoal[@]}" shop -e "SELECT * FROM $v ORDER BY 1, 2" >"$work/$v.shoal"
  diff "$work/$v.maria" "$work/$v.shoal" >"$work/$v.diff" ||
    fail "view $v reads differently from Shoal: $(head -20 "$work/$v.diff")"
done

# --- The statements dump tools send, and their rules, side by side -----------------------
# Each answer (rows, errors with their codes and texts) as MariaDB gives it, but for where
# MySQL 8.0 differs from MariaDB and Shoal follows MySQL: ALTER TABLE … DISABLE KEYS's note
# is worded otherwise (left out), and information_schema's columns keep their upper-case
# names in a result (headers compared ignoring case). ORDER BY stays off mixed-case names:
# string order is by bytes until collations come (issue 18). Then row constructors (issue 23):
# comparisons with their NULLs, composite-key IN lists (batched key reads) and UPDATE/DELETE
# by them on a table of their own, dropped at the end, and 1241 where a row does not fit.
cat >"$work/statements.sql" <<'SQL'
LOCK TABLES customer READ, item AS i WRITE;
SELECT COUNT(*) FROM customer;
SELECT COUNT(*) FROM orders;
INSERT INTO customer (id, name) VALUES (99, 'x');
UPDATE item SET price = price WHERE sku = 0;
UNLOCK TABLES;
SELECT COUNT(*) FROM orders;
BEGIN;
SAVEPOINT a;
SELECT COUNT(*) FROM item;
SAVEPOINT b;
ROLLBACK TO SAVEPOINT a;
RELEASE SAVEPOINT b;
ROLLBACK WORK TO a;
RELEASE SAVEPOINT a;
ROLLBACK TO a;
COMMIT;
SELECT table_name, table_type FROM information_schema.tables
  WHERE table_schema = 'shop' ORDER BY table_name;
SELECT column_name, ordinal_position, column_default, is_nullable, data_type,
       character_maximum_length, numeric_precision, numeric_scale, datetime_precision,
       column_key, extra
  FROM information_schema.columns WHERE table_schema = 'shop' AND table_name = 'customer'
  ORDER BY ordinal_position;
SELECT table_name, index_name, seq_in_index, column_name, non_unique, nullable
  FROM information_schema.statistics WHERE table_schema = 'shop'
  ORDER BY table_name, column_name, index_name;
SELECT table_name, constraint_name, constraint_type FROM information_schema.table_constraints
  WHERE table_schema = 'shop' ORDER BY table_name, constraint_type, constraint_name;
SELECT COUNT(*) FROM information_schema.triggers WHERE trigger_schema = 'shop';
SELECT COUNT(*) FROM information_schema.routines WHERE routine_schema = 'shop';
SELECT COUNT(*) FROM information_schema.views WHERE table_schema = 'shop';
SELECT COUNT(*) FROM information_schema.files WHERE file_type = 'DATAFILE'
  AND tablespace_name IN (SELECT tablespace_name FROM information_schema.partitions
                          WHERE table_schema IN ('shop'));
SELECT table_name FROM information_schema.tables WHERE table_schema = 'shop'
  AND table_name IN (SELECT table_name FROM information_schema.columns
                     WHERE table_schema = 'shop' AND column_name = 'sku')
  ORDER BY 1;
SELECT name FROM customer WHERE id IN (SELECT 1);
SELECT (SELECT 1), EXISTS (SELECT 1 FROM dual WHERE 1 = 0), 2 IN (SELECT 1), 2 NOT IN (SELECT 1);
SELECT (SELECT 1, 2);
SELECT * FROM information_schema.no_such_view;
SHOW TRIGGERS;
SHOW EVENTS;
SHOW PROCEDURE STATUS WHERE Db = 'shop';
SHOW FUNCTION STATUS WHERE Db = 'shop';
SELECT (1,2) = (1,2), (1,NULL) = (1,2), (1,NULL) = (2,2), (1,2) IN ((3,4),(1,2)), (1,2) < (1,3);
SELECT (1,NULL) <=> (1,NULL), (1,NULL) <=> (1,2), (1,NULL) <> (2,2), (2,1) > (1,9),
       (NULL,1) < (2,1), (1,NULL) < (2,1), (1,2) <= (1,2), ROW(1,'a') = ROW(1,'A');
SELECT (1,2) IN ((1,NULL),(3,4)), (1,2) IN ((2,NULL),(3,4)), (1,2) NOT IN ((1,NULL)),
       (NULL,2) IN ((1,3)), (1,2) NOT IN ((3,4),(5,6)), ((1,2),3) = ((1,2),3);
SELECT * FROM orders WHERE (customer_id, line) IN ((1,0),(1,0),(2,3),(NULL,1),(3,NULL),(499,39),
  (7,99)) ORDER BY customer_id, line;
SELECT * FROM orders WHERE (line, customer_id) IN ((3,2),(0,1),(3,2)) ORDER BY customer_id, line;
SELECT * FROM orders WHERE (customer_id, line) = (42, 7);
SELECT qty FROM orders WHERE ROW(customer_id, line) = (42, NULL);
SELECT COUNT(*) FROM orders WHERE (customer_id, line) NOT IN ((1,0),(2,3));
SELECT * FROM orders WHERE (customer_id, line) IN ((1,0),(2,3),(4,5)) AND qty > 1000 ORDER BY qty;
SELECT * FROM orders WHERE (customer_id, sku) IN ((5,3),(6,1)) ORDER BY line, customer_id LIMIT 6;
SELECT * FROM orders WHERE (sku, qty) = (2, 1);
SELECT COUNT(*) FROM orders WHERE (customer_id, line) < (1, 5);
SELECT COUNT(*) FROM orders WHERE (customer_id, line) >= (498, 38);
SELECT line, (customer_id, line) = (1, 0) AS hit, (customer_id, line) <=> (1, NULL) AS nse
  FROM orders WHERE customer_id = 1 AND line < 3 ORDER BY line;
CREATE TABLE row_keys (a INT NOT NULL, b SMALLINT NOT NULL, v INT, PRIMARY KEY (a, b))
  ENGINE=InnoDB;
INSERT INTO row_keys VALUES (1,1,10),(1,2,20),(2,1,30),(2,2,40),(3,1,50),(3,2,NULL);
UPDATE row_keys SET v = v + 1 WHERE (a, b) IN ((1,2),(2,1),(1,2),(9,9),(NULL,1));
SELECT * FROM row_keys ORDER BY a, b;
DELETE FROM row_keys WHERE (b, a) IN ((1,2),(2,NULL));
UPDATE row_keys SET v = 0 WHERE (a, b) = (3, 1);
DELETE FROM row_keys WHERE ROW(a, b) = (1, 1);
SELECT * FROM row_keys ORDER BY a, b;
DELETE FROM row_keys WHERE (a, b) IN ((1,2)) AND v > 100;
UPDATE row_keys SET v = 7 WHERE (a, v) IN ((1,21),(3,NULL));
DELETE FROM row_keys WHERE (a, b) IN ((3,2),(2,2)) AND v IS NULL;
SELECT * FROM row_keys ORDER BY a, b;
SELECT (1,2);
SELECT * FROM orders WHERE (customer_id, line) = (1, 2, 3);
SELECT (1,2) IN ((1,2),(1,2,3));
DELETE FROM row_keys WHERE (a, b) IN ((1,2,3));
UPDATE row_keys SET v = 0 WHERE ((a, b), 1) = ((1, 2), (1, 1));
SELECT * FROM row_keys ORDER BY a, b;
DROP TABLE row_keys;
SQL
"${maria[@]}" --force shop <"$work/statements.sql" >"$work/statements.maria" 2>&1 || true
"${shoal[@]}" --force shop <"$work/statements.sql" >"$work/statements.shoal" 2>&1 || true
lower_headers() { awk '/^[A-Za-z_]+(\t[A-Za-z_]+)*$/ { $0 = tolower($0) } { print }' "$1"; }
diff <(lower_headers "$work/statements.maria") <(lower_headers "$work/statements.shoal") \
  >"$work/statements.diff" ||
  fail "Shoal answers differently from MariaDB: $(cat "$work/statements.diff")"
grep -q "ERROR 1100" "$work/statements.shoal" || fail "no 1100 under LOCK TABLES"

# Where MariaDB differs from MySQL 8.0: a row beside a single value is its 4078 ("Illegal
# parameter data types row and int"), MySQL's 1241 — which Shoal gives, naming the columns
# the left operand has.
out=$("${shoal[@]}" --force shop 2>&1 <<'SQL' || true
SELECT (1,2) + 1;
SELECT 1 IN ((1,2));
SELECT * FROM orders WHERE (customer_id, line) IN ((1,0),(2));
DELETE FROM orders WHERE (customer_id, line) = 1;
UPDATE orders SET qty = 0 WHERE customer_id = (1, 2);
SQL
)
expected="ERROR 1241 (21000) at line 1: Operand should contain 1 column(s)
ERROR 1241 (21000) at line 2: Operand should contain 1 column(s)
ERROR 1241 (21000) at line 3: Operand should contain 2 column(s)
ERROR 1241 (21000) at line 4: Operand should contain 2 column(s)
ERROR 1241 (21000) at line 5: Operand should contain 1 column(s)"
[ "$(grep '^ERROR' <<<"$out")" = "$expected" ] || fail "a row beside a single value: $out"

# A composite-key IN list is one batched key read per distinct row; DELETE by it takes the
# direct path (key operations without a read, no WHERE check).
plan=$("${shoal[@]}" -N shop -e "EXPLAIN SELECT * FROM orders
  WHERE (line, customer_id) IN ((0,1),(3,2),(0,1),(5,NULL))" | cut -f5,10,12)
[ "$plan" = $'range\t2\tbatched key lookups on PRIMARY (2 keys); Using where' ] ||
  fail "row IN plan: $plan"
plan=$("${shoal[@]}" -N shop -e "EXPLAIN DELETE FROM orders
  WHERE (customer_id, line) IN ((1,0),(2,3))" | cut -f12)
[ "$plan" = "batched key lookups on PRIMARY (2 keys)" ] || fail "row IN DELETE plan: $plan"

# A rollback to a savepoint puts back the rows written since (the router's undo); where a
# write since cannot say what it replaced (a REPLACE over a row), it is refused and leaves the
# transaction whole, for the client to roll back.
out=$("${shoal[@]}" --force shop 2>&1 <<'SQL' || true
BEGIN; SAVEPOINT s; INSERT INTO empty_one VALUES (1, 'a');
ROLLBACK TO s;
SELECT COUNT(*) FROM empty_one; INSERT INTO empty_one VALUES (1, 'a'); SAVEPOINT t;
REPLACE INTO empty_one VALUES (1, 'b');
ROLLBACK TO t;
SELECT COUNT(*) FROM empty_one; ROLLBACK; SELECT COUNT(*) FROM empty_one;
SQL
)
expected="ERROR 1235 (42000) at line 5: This version of MySQL doesn't yet support 'ROLLBACK TO \
SAVEPOINT after a write it cannot undo (REPLACE, LOAD DATA, a cascade)'"
[[ "$out" == *"$expected"* ]] || fail "ROLLBACK TO after a REPLACE: $out"
counts=$(grep -A1 '^COUNT' <<<"$out" | grep -E '^[0-9]+$' | tr '\n' ' ')
[ "$counts" = "0 1 0 " ] || fail "the savepoint's rollback or the whole transaction's: $out"

# SHOW TABLE STATUS (what --xml reads), Shoal's own answer: one row per table of the database.
status=$("${shoal[@]}" shop -e "SHOW TABLE STATUS LIKE 'o%'")
[ "$(head -1 <<<"$status" | cut -f1-3)" = $'Name\tEngine\tVersion' ] &&
  [ "$(tail -n +2 <<<"$status" | cut -f1-2)" = $'orders\tndbcluster' ] ||
  fail "SHOW TABLE STATUS: $status"

# --- 3. Shoal -> MariaDB ------------------------------------------------------------------
dump_shoal() { mariadb-dump -S "$socket" -u root --net-buffer-length=65536 "$@"; }
dump_shoal shop >"$work/from_shoal.sql" || fail "mariadb-dump of Shoal failed"
inserts=$(grep -c '^INSERT INTO `orders`' "$work/from_shoal.sql")
[ "$inserts" -gt 1 ] || fail "expected several extended INSERTs for orders, got $inserts"
dump_shoal --single-transaction shop >/dev/null || fail "--single-transaction dump failed"
dump_shoal --xml shop >"$work/shop.xml" || fail "--xml dump failed"
grep -q '<field name="name">O&apos;Brien</field>\|<field name="name">O'"'"'Brien</field>' \
  "$work/shop.xml" || fail "--xml dump lacks a row"
dump_shoal --all-databases --ignore-database=mysql --routines --events >"$work/all.sql" ||
  fail "--all-databases dump failed"
grep -q 'CREATE DATABASE /\*!32312 IF NOT EXISTS\*/ `shop`' "$work/all.sql" ||
  fail "--all-databases dump lacks shop"
# A --databases dump creates its database: into MariaDB under the name it has.
dump_shoal --databases shop | sed 's/`shop`/`shop_db`/g' >"$work/databases.sql"
"${maria[@]}" <"$work/databases.sql" || fail "a --databases dump of Shoal did not load into MariaDB"
[ "$("${maria[@]}" -N -e "SELECT COUNT(*) FROM shop_db.orders")" = 20000 ] ||
  fail "the --databases dump did not bring orders' rows"

"${maria[@]}" -e "CREATE DATABASE shop_back DEFAULT CHARACTER SET utf8mb4"
grep -q _0900_ "$work/from_shoal.sql" && fail "Shoal's dump names a collation MariaDB lacks"
"${maria[@]}" shop_back <"$work/from_shoal.sql" || fail "Shoal's dump did not load into MariaDB"

for t in "${tables[@]}"; do
  for db in shop shop_back; do
    "${maria[@]}" -N "$db" -e "SHOW CREATE TABLE $t" |
      sed 's/ AUTO_INCREMENT=[0-9]*//' >"$work/$t.$db.create"
    "${maria[@]}" -N -e "SELECT index_name, seq_in_index, column_name, non_unique
      FROM information_schema.statistics WHERE table_schema = '$db' AND table_name = '$t'
      ORDER BY index_name, seq_in_index" >"$work/$t.$db.indexes"
  done
  diff "$work/$t.shop.create" "$work/$t.shop_back.create" ||
    fail "$t's definition changed on the way"
  diff "$work/$t.shop.indexes" "$work/$t.shop_back.indexes" || fail "$t's indexes changed"
  a=$("${maria[@]}" -N -e "CHECKSUM TABLE shop.$t" | cut -f2)
  b=$("${maria[@]}" -N -e "CHECKSUM TABLE shop_back.$t" | cut -f2)
  [ "$a" = "$b" ] || fail "$t's checksum changed on the way: $a, then $b"
  echo "$t: definition, indexes and checksum $a identical after MariaDB -> Shoal -> MariaDB"
done
for v in "${views[@]}"; do
  "${maria[@]}" shop_back -e "SELECT * FROM $v ORDER BY 1, 2" >"$work/$v.back"
  diff "$work/$v.maria" "$work/$v.back" || fail "view $v changed on the way"
  echo "view $v: the same rows after MariaDB -> Shoal -> MariaDB"
done
echo PASS
