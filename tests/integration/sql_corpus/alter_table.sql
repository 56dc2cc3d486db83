-- ALTER TABLE and RENAME TABLE (issue 19), on tables of their own (dropped at the end): columns
-- added (FIRST, AFTER, with defaults), dropped, renamed, retyped and moved; keys added, dropped
-- and renamed; primary keys added and dropped; defaults set and dropped; renames; CREATE and
-- DROP INDEX; the errors MySQL and MariaDB share. The rows and the catalog are compared after
-- each step. Left out, where the two servers differ: ALTER TABLE's counts (whether rows are
-- copied depends on the engine: normalize() in the test drops them), 1091's text (MariaDB
-- names COLUMN or INDEX), NULLs into a NOT NULL column (MySQL 1138, MariaDB 1265), and the
-- row an out-of-range value is reported at and the rows a new AUTO_INCREMENT column numbers
-- first (the copy's order, as NDB's). Rows are inserted with their ids: AUTO_INCREMENT values
-- are handed out in batches per router, as NDB does.
CREATE TABLE gadget (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(20) NOT NULL, price INT, KEY ip (price));
INSERT INTO gadget (name, price) VALUES ('pen', 3), ('ink', 12), ('pad', NULL), ('cap', 3);
ALTER TABLE gadget ADD COLUMN qty INT DEFAULT 5 AFTER id;
SELECT * FROM gadget ORDER BY id;
ALTER TABLE gadget ADD COLUMN code CHAR(4) NOT NULL DEFAULT 'x' FIRST, ADD COLUMN note VARCHAR(10);
SELECT * FROM gadget ORDER BY id;
SELECT COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'gadget' ORDER BY ORDINAL_POSITION;
ALTER TABLE gadget RENAME COLUMN name TO title, ALTER COLUMN price SET DEFAULT 7;
ALTER TABLE gadget MODIFY title VARCHAR(40) NOT NULL;
INSERT INTO gadget (id, title) VALUES (5, 'box');
SELECT * FROM gadget ORDER BY id;
ALTER TABLE gadget ALTER COLUMN price DROP DEFAULT;
INSERT INTO gadget (id, title) VALUES (6, 'tag');
SELECT id, title, price FROM gadget ORDER BY id;
ALTER TABLE gadget CHANGE qty quantity BIGINT NOT NULL DEFAULT 1, DROP COLUMN note, DROP COLUMN code;
SELECT * FROM gadget ORDER BY id;
UPDATE gadget SET price = 0 WHERE price IS NULL;
ALTER TABLE gadget MODIFY price SMALLINT NOT NULL;
SELECT * FROM gadget ORDER BY id;
SELECT COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'gadget' ORDER BY ORDINAL_POSITION;
ALTER TABLE gadget MODIFY price INT NOT NULL;
UPDATE gadget SET price = 70000 WHERE id = 1;
SELECT price FROM gadget WHERE id = 1;
ALTER TABLE gadget ADD UNIQUE KEY ut (title);
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'gadget' ORDER BY INDEX_NAME, SEQ_IN_INDEX;
ALTER TABLE gadget RENAME INDEX ip TO by_price, DROP INDEX ut;
CREATE INDEX tq ON gadget (title, quantity);
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'gadget' ORDER BY INDEX_NAME, SEQ_IN_INDEX;
DROP INDEX tq ON gadget;
SELECT title FROM gadget WHERE price = 3 ORDER BY title;
ALTER TABLE gadget RENAME TO widget;
SELECT COUNT(*) FROM widget;
SELECT COUNT(*) FROM gadget;
RENAME TABLE widget TO gadget;
ALTER TABLE gadget DROP PRIMARY KEY;
ALTER TABLE gadget MODIFY id INT NOT NULL, DROP PRIMARY KEY;
INSERT INTO gadget VALUES (2, 9, 'dup', 99);
SELECT * FROM gadget ORDER BY id, title;
DELETE FROM gadget WHERE title = 'dup';
ALTER TABLE gadget ADD PRIMARY KEY (id), MODIFY id INT NOT NULL AUTO_INCREMENT;
SELECT * FROM gadget ORDER BY id;
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'gadget' ORDER BY INDEX_NAME, SEQ_IN_INDEX;
ALTER TABLE gadget ADD COLUMN quantity INT;
ALTER TABLE gadget MODIFY nosuch INT;
ALTER TABLE gadget ADD COLUMN z INT AFTER nosuch;
ALTER TABLE gadget ADD INDEX by_price (title);
ALTER TABLE gadget ADD PRIMARY KEY (title);
ALTER TABLE gadget ADD INDEX (nosuch);
ALTER TABLE nosuch ADD COLUMN a INT;
ALTER TABLE gadget ENGINE = InnoDB;
SELECT * FROM gadget ORDER BY id;
CREATE TABLE tagline (a INT, b VARCHAR(5));
INSERT INTO tagline VALUES (1, 'x'), (2, 'y'), (NULL, 'z');
ALTER TABLE tagline ADD COLUMN c INT DEFAULT 0;
ALTER TABLE tagline ADD COLUMN id INT NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST;
SELECT COUNT(DISTINCT id), MIN(id), MAX(id) FROM tagline;
SELECT a, b, c FROM tagline ORDER BY a;
ALTER TABLE tagline DROP COLUMN id;
SELECT * FROM tagline ORDER BY a;
DROP TABLE gadget, tagline;
