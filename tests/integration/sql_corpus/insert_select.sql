-- INSERT … SELECT and REPLACE … SELECT (issue 18), into tables of its own (dropped at the
-- end): from a join, from a UNION, from no table, with a column list and defaults, a table read
-- and written by one statement, IGNORE of duplicates, REPLACE, ON DUPLICATE KEY UPDATE, an
-- empty SELECT, and 1136 for a SELECT of another width. Left out: the text of a 1062 (MariaDB
-- names the key 'PRIMARY', MySQL 8.0 'paid.PRIMARY'), and REPLACE … SELECT over rows that
-- exist, which Shoal counts once as NDB does (a write), MySQL twice (a delete and an insert).
CREATE TABLE paid (id INT PRIMARY KEY, who VARCHAR(20), placed DATE, n INT DEFAULT 7);
INSERT INTO paid (id, who, placed) SELECT o.id, c.name, o.placed FROM orders o JOIN customer c ON c.id = o.customer_id WHERE o.status = 'paid';
SELECT * FROM paid ORDER BY id;
INSERT INTO paid SELECT id + 100, name, NULL, 1 FROM customer WHERE id > 3 UNION ALL SELECT 200, 'none', '2024-05-01', 2;
SELECT * FROM paid ORDER BY id;
INSERT INTO paid (id, who) SELECT 300, CONCAT('x', 'y');
INSERT INTO paid (id, who) SELECT id + 1000, who FROM paid WHERE id < 100;
SELECT COUNT(*), SUM(n), MIN(id), MAX(id) FROM paid;
INSERT IGNORE INTO paid (id, who) SELECT id, 'again' FROM orders WHERE id IN (10, 11);
SELECT id, who FROM paid WHERE id IN (10, 11) ORDER BY id;
REPLACE INTO paid (id, who, n) SELECT id, 'replaced', 9 FROM customer WHERE id = 5 UNION SELECT 400, 'replaced', 9;
SELECT * FROM paid WHERE who = 'replaced' ORDER BY id;
INSERT INTO paid (id, who) SELECT id, name FROM customer WHERE id IN (1, 2) ON DUPLICATE KEY UPDATE n = n + 10;
INSERT INTO paid (id, who) SELECT 10, 'dup' ON DUPLICATE KEY UPDATE n = n + 100, who = 'upserted';
SELECT * FROM paid WHERE id IN (1, 2, 10) ORDER BY id;
INSERT INTO paid SELECT * FROM paid WHERE id < 0;
INSERT INTO paid (id, who) SELECT id FROM customer;
INSERT INTO paid (id, who) SELECT id, name, city FROM customer;
BEGIN;
INSERT INTO paid (id, who) SELECT id + 5000, name FROM customer;
SELECT COUNT(*) FROM paid WHERE id > 5000;
ROLLBACK;
SELECT COUNT(*) FROM paid WHERE id > 5000;
DROP TABLE paid;
