-- Syntax applications and tools send that Shoal once refused (a differential probe against
-- MariaDB): EXTRACT(unit FROM expr) with simple and compound units, POSITION(substr IN str);
-- comparisons quantified over a subquery (op ANY | SOME | ALL (SELECT …)) with SQL's NULLs
-- (ALL over no rows is true, a NULL in the set leaves an undecided comparison NULL); COLLATE
-- on values in WHERE, the select list and ORDER BY, and its errors (1273, 1253); CREATE TABLE
-- … LIKE (columns, indexes, the AUTO_INCREMENT column, no rows; 1050, 1146). Tables sx_….
-- Left out where MariaDB and MySQL 8.0 differ: EXTRACT of a TIME past 24 hours or negative
-- (MariaDB takes the hours modulo 24, MySQL all of them) and of a number for a date unit
-- (MariaDB reads 20240229 as a time, MySQL as a date), the utf8mb4_0900 collations (MariaDB
-- 10.11 has none), COLLATE on a number (MySQL 8.0 takes any collation there), and
-- SQL_CALC_FOUND_ROWS and FOUND_ROWS(), which MySQL 8.0 answers with a deprecation warning
-- (1287) MariaDB does not give (router/sql/exec/executor_test.cc covers them).
-- The corpus's MariaDB makes latin1 tables and the client talks utf8mb3: the utf8mb4 collations
-- need utf8mb4 values on both sides.
SET NAMES utf8mb4;
CREATE TABLE sx_event (id INT PRIMARY KEY, at DATETIME(6), day DATE, label VARCHAR(20) COLLATE utf8mb4_bin, note VARCHAR(20)) DEFAULT CHARSET=utf8mb4;
INSERT INTO sx_event VALUES (1, '2024-03-15 10:20:30.000123', '2024-03-15', 'abc', 'Alpha'), (2, '2023-12-31 23:59:59', '2023-12-31', 'ABC', 'beta'), (3, '2024-01-01 00:00:00', '2024-01-01', 'Abd', 'alpha'), (4, NULL, NULL, NULL, NULL), (5, '2020-02-29 12:00:00.5', '2020-02-29', 'b', 'Gamma');
CREATE TABLE sx_num (id INT PRIMARY KEY, v INT);
INSERT INTO sx_num VALUES (1, 10), (2, 20), (3, 30);
CREATE TABLE sx_nullable (id INT PRIMARY KEY, v INT);
INSERT INTO sx_nullable VALUES (1, 10), (2, NULL), (3, 30);
CREATE TABLE sx_empty (id INT PRIMARY KEY, v INT);

-- EXTRACT
SELECT id, EXTRACT(YEAR FROM at) AS y, EXTRACT(QUARTER FROM at) AS q, EXTRACT(MONTH FROM at) AS m, EXTRACT(WEEK FROM at) AS w, EXTRACT(DAY FROM at) AS d FROM sx_event ORDER BY id;
SELECT id, EXTRACT(HOUR FROM at) AS h, EXTRACT(MINUTE FROM at) AS mi, EXTRACT(SECOND FROM at) AS s, EXTRACT(MICROSECOND FROM at) AS us FROM sx_event ORDER BY id;
SELECT id, EXTRACT(YEAR_MONTH FROM at) AS ym, EXTRACT(DAY_HOUR FROM at) AS dh, EXTRACT(DAY_MINUTE FROM at) AS dm, EXTRACT(DAY_SECOND FROM at) AS ds FROM sx_event ORDER BY id;
SELECT id, EXTRACT(HOUR_MINUTE FROM at) AS hm, EXTRACT(HOUR_SECOND FROM at) AS hs, EXTRACT(MINUTE_SECOND FROM at) AS ms FROM sx_event ORDER BY id;
SELECT id, EXTRACT(DAY_MICROSECOND FROM at) AS dus, EXTRACT(HOUR_MICROSECOND FROM at) AS hus, EXTRACT(MINUTE_MICROSECOND FROM at) AS mus, EXTRACT(SECOND_MICROSECOND FROM at) AS sus FROM sx_event ORDER BY id;
SELECT id, EXTRACT(YEAR FROM day) AS y, EXTRACT(DAY_HOUR FROM day) AS dh, EXTRACT(WEEK FROM day) AS w FROM sx_event ORDER BY id;
SELECT EXTRACT(YEAR FROM '2024-07-04'), EXTRACT(MONTH FROM '2024-07-04 08:09:10'), EXTRACT(HOUR FROM '08:09:10'), EXTRACT(MINUTE_SECOND FROM '08:09:10');
SELECT EXTRACT(WEEK FROM '2024-01-07'), EXTRACT(WEEK FROM '2021-01-03'), EXTRACT(WEEK FROM '2021-12-31');
SELECT EXTRACT(YEAR FROM NULL), EXTRACT(DAY FROM '20240229'), EXTRACT(SECOND FROM '10:20:30.999');
SELECT id FROM sx_event WHERE EXTRACT(YEAR FROM at) = 2024 ORDER BY id;
SELECT EXTRACT(YEAR FROM at) AS y, COUNT(*) AS n FROM sx_event GROUP BY EXTRACT(YEAR FROM at) ORDER BY y;
SELECT EXTRACT(FORTNIGHT FROM at) FROM sx_event;

-- POSITION
SELECT POSITION('b' IN 'abc'), POSITION('z' IN 'abc'), POSITION('' IN 'abc'), POSITION(NULL IN 'abc');
SELECT id, POSITION('l' IN note) AS p FROM sx_event ORDER BY id;
SELECT id FROM sx_event WHERE POSITION('ph' IN note) > 0 ORDER BY id;
SELECT POSITION('B' IN 'abc') IN (2, 3) AS found;

-- ANY / SOME / ALL
SELECT id FROM sx_num WHERE v > ANY (SELECT v FROM sx_num WHERE id > 1) ORDER BY id;
SELECT id FROM sx_num WHERE v >= SOME (SELECT v FROM sx_num WHERE id > 1) ORDER BY id;
SELECT id FROM sx_num WHERE v < ALL (SELECT v FROM sx_num WHERE id > 1) ORDER BY id;
SELECT id FROM sx_num WHERE v <= ALL (SELECT v FROM sx_num) ORDER BY id;
SELECT id FROM sx_num WHERE v = ANY (SELECT v FROM sx_nullable) ORDER BY id;
SELECT id FROM sx_num WHERE v <> ALL (SELECT v FROM sx_nullable WHERE v IS NOT NULL) ORDER BY id;
SELECT id FROM sx_num WHERE v <> ANY (SELECT v FROM sx_num WHERE id = 2) ORDER BY id;
SELECT id FROM sx_num WHERE v = ALL (SELECT v FROM sx_num WHERE id = 2) ORDER BY id;
SELECT id, v > ALL (SELECT v FROM sx_nullable) AS gt_all, v > ANY (SELECT v FROM sx_nullable) AS gt_any, v < ANY (SELECT v FROM sx_nullable) AS lt_any FROM sx_num ORDER BY id;
SELECT id, v <> ALL (SELECT v FROM sx_nullable) AS ne_all, v = ANY (SELECT v FROM sx_nullable) AS eq_any FROM sx_num ORDER BY id;
SELECT id, v > ALL (SELECT v FROM sx_empty) AS gt_all, v > ANY (SELECT v FROM sx_empty) AS gt_any FROM sx_nullable ORDER BY id;
SELECT NULL > ALL (SELECT v FROM sx_empty) AS n_all, NULL > ANY (SELECT v FROM sx_empty) AS n_any, NULL > ALL (SELECT v FROM sx_num) AS n_all_rows;
SELECT 5 < ALL (SELECT v FROM sx_num) AS lt_all, 15 < ALL (SELECT v FROM sx_num) AS lt_all2, 35 > SOME (SELECT v FROM sx_num) AS gt_some;
SELECT name FROM customer WHERE id > ALL (SELECT customer_id FROM orders WHERE status = 'paid' AND customer_id < 5) ORDER BY id;
SELECT name FROM item WHERE price >= ALL (SELECT price FROM item WHERE price IS NOT NULL);
SELECT name FROM item WHERE name < ANY (SELECT name FROM item WHERE category = 'part') ORDER BY name;
SELECT id FROM sx_num WHERE v > ANY (SELECT id, v FROM sx_num);
SELECT id FROM sx_num WHERE v > ALL (1, 2);

-- COLLATE
SELECT id FROM sx_event WHERE label = 'ABC' ORDER BY id;
SELECT id FROM sx_event WHERE label = 'ABC' COLLATE utf8mb4_general_ci ORDER BY id;
SELECT id FROM sx_event WHERE label COLLATE utf8mb4_general_ci = 'abc' ORDER BY id;
SELECT id FROM sx_event WHERE note = 'alpha' ORDER BY id;
SELECT id FROM sx_event WHERE note = 'alpha' COLLATE utf8mb4_bin ORDER BY id;
SELECT id FROM sx_event WHERE note COLLATE utf8mb4_bin LIKE 'a%' ORDER BY id;
SELECT id FROM sx_event WHERE note LIKE 'A%' COLLATE utf8mb4_bin ORDER BY id;
SELECT id FROM sx_event WHERE note COLLATE utf8mb4_bin IN ('alpha', 'beta') ORDER BY id;
SELECT id, note FROM sx_event WHERE note IS NOT NULL ORDER BY note COLLATE utf8mb4_bin, id;
SELECT id, label FROM sx_event WHERE label IS NOT NULL ORDER BY label COLLATE utf8mb4_general_ci, id;
SELECT id, label FROM sx_event WHERE label IS NOT NULL ORDER BY label, id;
SELECT 'a' = 'A' COLLATE utf8mb4_bin AS bin_eq, 'a' COLLATE utf8mb4_general_ci = 'A' AS ci_eq, _utf8mb4'a' COLLATE 'utf8mb4_bin' < 'B' AS bin_lt;
SELECT LOWER(note) COLLATE utf8mb4_bin AS n FROM sx_event WHERE id = 1;
SELECT COUNT(DISTINCT note COLLATE utf8mb4_bin) AS bin_kinds, COUNT(DISTINCT note) AS ci_kinds FROM sx_event;
SELECT note COLLATE utf8mb4_bin AS n, COUNT(*) AS c FROM sx_event WHERE note IS NOT NULL GROUP BY note COLLATE utf8mb4_bin ORDER BY n;
SELECT id FROM sx_event WHERE note = 'alpha' COLLATE nosuch_ci;
SELECT id FROM sx_event WHERE note = 'alpha' COLLATE latin1_bin;
SELECT 'x' COLLATE latin1_swedish_ci;

-- CREATE TABLE … LIKE
CREATE TABLE sx_gadget (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(20) NOT NULL, price DECIMAL(6,2), code VARCHAR(8) COLLATE utf8mb4_bin, UNIQUE KEY uc (code), KEY ip (price, name));
INSERT INTO sx_gadget (id, name, price, code) VALUES (1, 'pen', 3.5, 'a'), (2, 'ink', 12, 'A');
CREATE TABLE sx_gadget2 LIKE sx_gadget;
SELECT COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, IS_NULLABLE, NUMERIC_SCALE, EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'sx_gadget2' ORDER BY ORDINAL_POSITION;
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'sx_gadget2' ORDER BY INDEX_NAME, SEQ_IN_INDEX;
SELECT COUNT(*) FROM sx_gadget2;
INSERT INTO sx_gadget2 (name, price, code) VALUES ('cap', 1, 'a');
INSERT INTO sx_gadget2 (name, price, code) VALUES ('lid', 2, 'A');
SELECT id, name, price, code FROM sx_gadget2 ORDER BY id;
CREATE TABLE sx_gadget2 LIKE sx_gadget;
CREATE TABLE IF NOT EXISTS sx_gadget2 LIKE sx_gadget;
SHOW WARNINGS;
CREATE TABLE sx_gadget3 (LIKE sx_gadget);
SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'sx_gadget3';
CREATE TABLE sx_gadget4 LIKE sx_nosuch;
CREATE TABLE sx_gadget4 LIKE corpus.sx_gadget;
SELECT COUNT(*) FROM sx_gadget4;
DROP TABLE sx_gadget, sx_gadget2, sx_gadget3, sx_gadget4;
DROP TABLE sx_event, sx_num, sx_nullable, sx_empty;
