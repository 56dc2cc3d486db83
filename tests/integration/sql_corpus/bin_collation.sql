-- Columns of a binary collation (COLLATE utf8mb4_bin, VARBINARY) in the expressions over them:
-- = < IN BETWEEN LIKE compare bytes ('abc' is not 'ABC'); ORDER BY sorts by bytes (upper case
-- first); GROUP BY, DISTINCT, window partitions and UNION keep case variants apart; a join or
-- a subquery on a _bin column (or a _ci column against a _bin one: _bin wins, as MySQL
-- aggregates collations) matches bytes; a _ci column beside it still folds. A _bin primary
-- key and a secondary index over a _bin column find by bytes. Left out: trailing spaces
-- (utf8mb4_bin is PAD SPACE in MariaDB and MySQL, 'abc ' = 'abc'; Shoal's binary collations
-- are NO PAD, like its keys over them and MySQL 8.0's utf8mb4_0900_bin), and which spelling a
-- _ci group shows (any of its rows' in both servers). A table's own COLLATE=utf8mb4_bin is
-- its text columns' default, also for the columns ALTER TABLE adds later (ALTER TABLE …
-- COLLATE= changes it for those only). MariaDB types a table's columns as nullable in a
-- statement with windows, which widens short columns in the client's table: they are aliased
-- there. Tables bc_….
CREATE TABLE bc_token (id INT PRIMARY KEY, tok VARCHAR(20) COLLATE utf8mb4_bin, name VARCHAR(20), raw VARBINARY(20), KEY bc_tok (tok));
INSERT INTO bc_token VALUES (1, 'abc', 'x', 'abc'), (2, 'ABC', 'X', 'ABC'), (3, 'Abc', 'y', 'Abc'), (4, 'abd', 'Y', 'abd'), (5, 'b', 'z', 'b'), (6, NULL, NULL, NULL);
SELECT id FROM bc_token WHERE tok = 'abc' ORDER BY id;
SELECT id FROM bc_token WHERE tok = 'ABC' ORDER BY id;
SELECT id FROM bc_token WHERE tok <> 'abc' ORDER BY id;
SELECT id FROM bc_token WHERE tok < 'a' ORDER BY id;
SELECT id FROM bc_token WHERE tok >= 'abc' ORDER BY id;
SELECT id FROM bc_token WHERE tok IN ('abc', 'B', 'b') ORDER BY id;
SELECT id FROM bc_token WHERE tok NOT IN ('abc', 'ABC') ORDER BY id;
SELECT id FROM bc_token WHERE tok BETWEEN 'A' AND 'Z' ORDER BY id;
SELECT id FROM bc_token WHERE tok LIKE 'a%' ORDER BY id;
SELECT id FROM bc_token WHERE tok LIKE 'A%' ORDER BY id;
SELECT id FROM bc_token WHERE tok = 'abc' OR name = 'Z' ORDER BY id;
SELECT id FROM bc_token WHERE name = 'x' ORDER BY id;
SELECT id FROM bc_token WHERE raw = 'abc' ORDER BY id;
SELECT id FROM bc_token WHERE raw LIKE 'a%' ORDER BY id;
SELECT id, tok FROM bc_token ORDER BY tok, id;
SELECT id, tok FROM bc_token ORDER BY tok DESC, id;
SELECT id, raw FROM bc_token ORDER BY raw, id;
SELECT id, name FROM bc_token ORDER BY name, id;
SELECT tok, COUNT(*) FROM bc_token GROUP BY tok ORDER BY tok;
SELECT LOWER(name), COUNT(*) FROM bc_token GROUP BY name ORDER BY COUNT(*), MIN(id);
SELECT raw, COUNT(*) FROM bc_token GROUP BY raw ORDER BY raw;
SELECT DISTINCT tok FROM bc_token ORDER BY tok;
SELECT MIN(tok), MAX(tok), COUNT(DISTINCT tok), MIN(raw), MAX(raw), COUNT(DISTINCT raw) FROM bc_token;
SELECT COUNT(DISTINCT name), COUNT(DISTINCT tok, name) FROM bc_token;
SELECT LOWER(name), MIN(tok), MAX(tok) FROM bc_token GROUP BY name ORDER BY 1;
SELECT DISTINCT raw FROM bc_token ORDER BY raw;
SELECT COUNT(*) FROM (SELECT DISTINCT name FROM bc_token) d;
CREATE TABLE bc_key (k VARCHAR(10) COLLATE utf8mb4_bin PRIMARY KEY, v INT);
INSERT INTO bc_key VALUES ('a', 1), ('A', 2), ('b', 3);
SELECT v FROM bc_key WHERE k = 'A';
SELECT v FROM bc_key WHERE k IN ('a', 'B') ORDER BY v;
SELECT k, v FROM bc_key ORDER BY k;
UPDATE bc_key SET v = v + 10 WHERE k = 'a';
DELETE FROM bc_key WHERE k = 'B';
SELECT k, v FROM bc_key ORDER BY k;
CREATE TABLE bc_table (k VARCHAR(10) PRIMARY KEY, note TEXT, ci VARCHAR(10) COLLATE utf8mb4_general_ci) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
INSERT INTO bc_table VALUES ('a', 'x', 'q'), ('A', 'X', 'Q');
SELECT k FROM bc_table WHERE k = 'A';
SELECT k FROM bc_table WHERE note = 'x';
SELECT COUNT(*) FROM bc_table WHERE ci = 'q';
SELECT k FROM bc_table ORDER BY k;
CREATE TABLE bc_other (id INT PRIMARY KEY, tok VARCHAR(20) COLLATE utf8mb4_bin, name VARCHAR(20), raw VARBINARY(20));
INSERT INTO bc_other VALUES (10, 'abc', 'ABC', 'ABC'), (11, 'ABC', 'abc', 'abc'), (12, 'b', 'B', 'B'), (13, 'Q', 'x', 'x');
SELECT t.id, o.id FROM bc_token t JOIN bc_other o ON t.tok = o.tok ORDER BY t.id, o.id;
SELECT t.id, o.id FROM bc_token t JOIN bc_other o ON t.name = o.tok ORDER BY t.id, o.id;
SELECT t.id, o.id FROM bc_token t JOIN bc_other o ON t.tok = o.name ORDER BY t.id, o.id;
SELECT t.id, o.id FROM bc_token t JOIN bc_other o ON t.name = o.name ORDER BY t.id, o.id;
SELECT t.id, o.id FROM bc_token t JOIN bc_other o ON t.raw = o.raw ORDER BY t.id, o.id;
SELECT t.id, o.id FROM bc_token t LEFT JOIN bc_other o ON t.tok = o.tok ORDER BY t.id, o.id;
SELECT t.id, o.id FROM bc_token t, bc_other o WHERE o.tok = t.tok AND o.id > 10 ORDER BY t.id, o.id;
SELECT o.tok, COUNT(t.id) FROM bc_other o LEFT JOIN bc_token t ON t.tok = o.tok GROUP BY o.tok ORDER BY o.tok;
SELECT id FROM bc_token WHERE tok IN (SELECT tok FROM bc_other) ORDER BY id;
SELECT id FROM bc_token WHERE tok NOT IN (SELECT tok FROM bc_other) ORDER BY id;
SELECT id FROM bc_token WHERE name IN (SELECT tok FROM bc_other) ORDER BY id;
SELECT id FROM bc_token t WHERE EXISTS (SELECT 1 FROM bc_other o WHERE o.tok = t.tok) ORDER BY id;
SELECT id FROM bc_token t WHERE NOT EXISTS (SELECT 1 FROM bc_other o WHERE o.tok = t.tok) ORDER BY id;
SELECT id, (SELECT MIN(o.id) FROM bc_other o WHERE o.tok = t.tok) FROM bc_token t ORDER BY id;
SELECT id AS ident, ROW_NUMBER() OVER (PARTITION BY tok ORDER BY id) FROM bc_token ORDER BY ident;
SELECT id AS ident, COUNT(*) OVER (PARTITION BY name) FROM bc_token ORDER BY ident;
SELECT id AS ident, COUNT(*) OVER (PARTITION BY raw) FROM bc_token ORDER BY ident;
SELECT id AS ident, RANK() OVER (ORDER BY tok) FROM bc_token ORDER BY ident;
SELECT id AS ident, RANK() OVER (ORDER BY LOWER(name)) FROM bc_token ORDER BY ident;
SELECT id AS ident, FIRST_VALUE(id) OVER (ORDER BY tok DESC) FROM bc_token ORDER BY ident;
SELECT id AS ident, MAX(tok) OVER (PARTITION BY LOWER(name)), MIN(raw) OVER () FROM bc_token ORDER BY ident;
SELECT tok FROM bc_token UNION SELECT tok FROM bc_other ORDER BY 1;
SELECT raw FROM bc_token UNION SELECT raw FROM bc_other ORDER BY 1;
SELECT raw FROM bc_token UNION SELECT name FROM bc_other ORDER BY 1;
SELECT tok FROM bc_token UNION SELECT name FROM bc_other ORDER BY 1;
SELECT COUNT(*) FROM (SELECT name FROM bc_token UNION SELECT name FROM bc_other) u;
SELECT COUNT(*) FROM (SELECT tok FROM bc_token UNION ALL SELECT tok FROM bc_other) u;
SELECT tok FROM bc_token WHERE id < 4 UNION SELECT 'abc' UNION SELECT 'aBc' ORDER BY 1;
SELECT x FROM (SELECT tok AS x FROM bc_token UNION SELECT name FROM bc_other) u WHERE x = 'abc';
SELECT COALESCE(tok, name) AS c, COUNT(*) FROM bc_token GROUP BY c ORDER BY c;
SELECT DISTINCT IF(id > 2, tok, raw) AS c FROM bc_token ORDER BY c;
SELECT id FROM bc_token ORDER BY COALESCE(tok, name), id;
CREATE TABLE bc_alter (k VARCHAR(10) PRIMARY KEY) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
ALTER TABLE bc_alter ADD COLUMN v VARCHAR(10);
INSERT INTO bc_alter VALUES ('a', 'x'), ('A', 'X');
SELECT k FROM bc_alter WHERE v = 'x';
SELECT TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'bc_alter';
SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'bc_alter' AND COLLATION_NAME = 'utf8mb4_bin' ORDER BY ORDINAL_POSITION;
ALTER TABLE bc_alter COLLATE=utf8mb4_general_ci;
ALTER TABLE bc_alter ADD COLUMN w VARCHAR(10);
UPDATE bc_alter SET w = v;
SELECT k FROM bc_alter WHERE w = 'x' ORDER BY k;
SELECT k FROM bc_alter WHERE v = 'x' ORDER BY k;
