-- REPLACE where a row collides on a UNIQUE secondary key: every stored row the new one collides
-- with — on its primary key or on any unique key — is deleted and the row inserted; affected
-- rows are one per row inserted plus one per row deleted, and a multi-row statement's
-- Duplicates counts the rows deleted. Rows of one statement replace each other; NULLs collide
-- with nothing; keys under the default _ci collation collide in any case; a composite unique
-- key; REPLACE … SELECT; inside a transaction that rolls back, and rolled back to a savepoint;
-- the children of a row it deletes (RESTRICT refuses, CASCADE deletes them). Beside it,
-- INSERT … ON DUPLICATE KEY UPDATE and INSERT IGNORE meeting a unique secondary key. Left out:
-- the text of a 1062 (MariaDB names the key 'k', MySQL 8.0 'ru_r1.k'; sql_tables_test.cc
-- checks Shoal's): INSERT IGNORE's count stands for it. Tables of their own, named ru_….
CREATE TABLE ru_r1 (id INT PRIMARY KEY AUTO_INCREMENT, k VARCHAR(10), v INT, UNIQUE KEY (k)) DEFAULT CHARSET = utf8mb4;
INSERT INTO ru_r1 (k, v) VALUES ('a', 1), ('b', 2);
REPLACE INTO ru_r1 (k, v) VALUES ('b', 99);
SELECT ROW_COUNT();
SELECT * FROM ru_r1 ORDER BY id;
REPLACE INTO ru_r1 VALUES (1, 'a', 10);
SELECT ROW_COUNT();
REPLACE INTO ru_r1 VALUES (1, 'b', 11);
SELECT ROW_COUNT();
SELECT * FROM ru_r1 ORDER BY id;
REPLACE INTO ru_r1 VALUES (5, 'e', 5);
SELECT ROW_COUNT();
REPLACE INTO ru_r1 VALUES (6, 'e', 6), (7, 'f', 7), (8, 'f', 8), (7, 'g', 9);
SELECT ROW_COUNT();
SELECT * FROM ru_r1 ORDER BY id;
REPLACE INTO ru_r1 VALUES (9, NULL, 1), (10, NULL, 2), (11, 'G', 12);
SELECT * FROM ru_r1 ORDER BY id;
REPLACE INTO ru_r1 (id, k, v) VALUES (12, 'h', 1), (12, 'i', 2), (13, 'i', 3);
SELECT ROW_COUNT();
SELECT * FROM ru_r1 ORDER BY id;
CREATE TABLE ru_two (id INT PRIMARY KEY, a INT, b VARCHAR(5), c INT, UNIQUE KEY ru_a (a), UNIQUE KEY ru_b (b)) DEFAULT CHARSET = utf8mb4;
INSERT INTO ru_two VALUES (1, 1, 'x', 0), (2, 2, 'y', 0), (3, 3, 'z', 0), (4, 4, 'w', 0);
REPLACE INTO ru_two VALUES (1, 2, 'z', 9);
SELECT ROW_COUNT();
SELECT * FROM ru_two ORDER BY id;
REPLACE INTO ru_two VALUES (5, 4, 'W', 5);
SELECT ROW_COUNT();
REPLACE INTO ru_two SELECT id + 10, a, b, c + 1 FROM ru_two WHERE id = 1;
SELECT ROW_COUNT();
SELECT * FROM ru_two ORDER BY id;
REPLACE INTO ru_two (id, a, b, c) SELECT 20 + id, a, CONCAT(b, 'q'), 7 FROM ru_two;
SELECT * FROM ru_two ORDER BY id;
BEGIN;
REPLACE INTO ru_two VALUES (30, 2, 'wq', 30);
SELECT * FROM ru_two ORDER BY id;
ROLLBACK;
SELECT * FROM ru_two ORDER BY id;
CREATE TABLE ru_comp (id INT PRIMARY KEY, x VARCHAR(5), n INT, UNIQUE KEY ru_xn (x, n)) DEFAULT CHARSET = utf8mb4;
INSERT INTO ru_comp VALUES (1, 'x', 1), (2, 'x', 2), (3, 'y', 1), (4, NULL, 1);
REPLACE INTO ru_comp VALUES (5, 'x', 2), (6, NULL, 1), (7, 'y', 2);
SELECT ROW_COUNT();
SELECT * FROM ru_comp ORDER BY id;
INSERT INTO ru_r1 (id, k, v) VALUES (40, 'a', 0) ON DUPLICATE KEY UPDATE v = v + 1000;
SELECT ROW_COUNT();
INSERT INTO ru_r1 (id, k, v) VALUES (41, 'G', 0), (42, 'zz', 42) ON DUPLICATE KEY UPDATE v = VALUES(v) + 1;
SELECT ROW_COUNT();
SELECT * FROM ru_r1 ORDER BY id;
INSERT IGNORE INTO ru_r1 (id, k, v) VALUES (50, 'a', 0), (51, 'new', 51), (52, 'NEW', 52);
SELECT ROW_COUNT();
SELECT * FROM ru_r1 ORDER BY id;
INSERT IGNORE INTO ru_comp VALUES (8, 'x', 2);
SELECT ROW_COUNT();
BEGIN;
SAVEPOINT ru_s;
REPLACE INTO ru_comp VALUES (9, 'x', 1), (5, 'y', 2);
SELECT * FROM ru_comp ORDER BY id;
ROLLBACK TO SAVEPOINT ru_s;
SELECT * FROM ru_comp ORDER BY id;
COMMIT;
CREATE TABLE ru_parent (id INT PRIMARY KEY, k VARCHAR(5), UNIQUE KEY ru_pk (k)) DEFAULT CHARSET = utf8mb4;
CREATE TABLE ru_child (id INT PRIMARY KEY, p INT, CONSTRAINT ru_child_p FOREIGN KEY (p) REFERENCES ru_parent (id));
CREATE TABLE ru_cascade (id INT PRIMARY KEY, p INT, CONSTRAINT ru_cascade_p FOREIGN KEY (p) REFERENCES ru_parent (id) ON DELETE CASCADE);
INSERT INTO ru_parent VALUES (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO ru_child VALUES (10, 1);
INSERT INTO ru_cascade VALUES (20, 2), (21, 3);
REPLACE INTO ru_parent VALUES (4, 'a');
SELECT ROW_COUNT();
REPLACE INTO ru_parent VALUES (5, 'b'), (6, 'd');
SELECT ROW_COUNT();
SELECT * FROM ru_parent ORDER BY id;
SELECT * FROM ru_cascade ORDER BY id;
DROP TABLE ru_child, ru_cascade, ru_parent;
DROP TABLE ru_r1, ru_two, ru_comp;
