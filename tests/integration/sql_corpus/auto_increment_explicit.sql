-- AUTO_INCREMENT with explicit values: a value stored above the counter moves it on, so the next
-- generated value comes after it (INSERT, multi-row INSERT, INSERT … SELECT, REPLACE, INSERT …
-- ON DUPLICATE KEY UPDATE); NULL and 0 ask for a generated value; LAST_INSERT_ID() is the first
-- value generated; AUTO_INCREMENT = n at CREATE and ALTER TABLE; the counter as
-- information_schema.TABLES.AUTO_INCREMENT shows it. Left out, where the servers differ: SHOW
-- CREATE TABLE (MariaDB spells int(11) and ENGINE=InnoDB; Shoal's AUTO_INCREMENT=n is checked
-- in sql_show_test), 1062's key name (MySQL 8.0 names the table), the counter just after a
-- multi-row statement or INSERT … SELECT that generated values (MariaDB's
-- innodb_autoinc_lock_mode = 1 reserves a statement's values in advance and may leave a gap;
-- MySQL 8.0's mode 2 and Shoal do not): an explicit value moves the counter past any such gap
-- before the next one is compared; UPDATE of the column (MySQL 8.0 moves the counter, MariaDB
-- does not).
CREATE TABLE ai_r2 (id INT PRIMARY KEY AUTO_INCREMENT, v INT);
INSERT INTO ai_r2 (id, v) VALUES (3, 0);
SELECT LAST_INSERT_ID();
INSERT INTO ai_r2 (v) VALUES (1);
SELECT LAST_INSERT_ID();
INSERT INTO ai_r2 (v) VALUES (2);
INSERT INTO ai_r2 (v) VALUES (3);
SELECT * FROM ai_r2 ORDER BY id;
SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'ai_r2';
-- Below the counter: no change.
INSERT INTO ai_r2 (id, v) VALUES (1, 4);
INSERT INTO ai_r2 (v) VALUES (6);
SELECT LAST_INSERT_ID();
-- NULL and 0 generate.
INSERT INTO ai_r2 (id, v) VALUES (NULL, 7);
INSERT INTO ai_r2 (id, v) VALUES (0, 8);
SELECT LAST_INSERT_ID();
SELECT * FROM ai_r2 ORDER BY id;
-- Far above: the counter jumps.
INSERT INTO ai_r2 (id, v) VALUES (1000, 9);
INSERT INTO ai_r2 (v) VALUES (10);
SELECT id, v FROM ai_r2 WHERE id >= 1000 ORDER BY id;
SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'ai_r2';

-- Multi-row statements mixing explicit values, NULL and 0.
CREATE TABLE ai_multi (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(10));
INSERT INTO ai_multi (id, v) VALUES (NULL, 'a'), (10, 'b'), (NULL, 'c'), (0, 'd'), (5, 'e');
SELECT LAST_INSERT_ID();
SELECT * FROM ai_multi ORDER BY id;
INSERT INTO ai_multi (id, v) VALUES (100, 'f'), (NULL, 'g');
SELECT * FROM ai_multi WHERE id >= 100 ORDER BY id;
INSERT INTO ai_multi (id, v) VALUES (200, 'h'), (300, 'i'), (250, 'j');
SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'ai_multi';
INSERT INTO ai_multi (v) VALUES ('k');
SELECT LAST_INSERT_ID();
-- A failed statement stores nothing, yet the counter it moved may stay moved (in both servers):
-- a later explicit value passes it before a generated one is compared.
INSERT INTO ai_multi (id, v) VALUES (400, 'l'), (450, 'far too long');
INSERT INTO ai_multi (id, v) VALUES (500, 'm');
INSERT INTO ai_multi (v) VALUES ('n');
SELECT * FROM ai_multi WHERE id >= 300 ORDER BY id;

-- INSERT … SELECT with explicit values, then a generated one after them.
CREATE TABLE ai_copy (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(10));
INSERT INTO ai_copy (id, v) SELECT id + 10, v FROM ai_multi WHERE id < 100;
SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'ai_copy';
INSERT INTO ai_copy (v) VALUES ('next');
SELECT * FROM ai_copy ORDER BY id;

-- REPLACE: a new row and a replaced one move the counter alike.
CREATE TABLE ai_rep (id INT PRIMARY KEY AUTO_INCREMENT, v INT);
REPLACE INTO ai_rep (id, v) VALUES (7, 1);
REPLACE INTO ai_rep (v) VALUES (2);
REPLACE INTO ai_rep (id, v) VALUES (8, 3);
REPLACE INTO ai_rep (id, v) VALUES (20, 4);
INSERT INTO ai_rep (v) VALUES (5);
SELECT LAST_INSERT_ID();
SELECT * FROM ai_rep ORDER BY id;

-- INSERT … ON DUPLICATE KEY UPDATE: a row it inserts with its value moves the counter.
INSERT INTO ai_rep (id, v) VALUES (30, 6) ON DUPLICATE KEY UPDATE v = v + 100;
INSERT INTO ai_rep (id, v) VALUES (30, 7) ON DUPLICATE KEY UPDATE v = v + 100;
INSERT INTO ai_rep (v) VALUES (8);
SELECT * FROM ai_rep WHERE id >= 20 ORDER BY id;

-- AUTO_INCREMENT = n at CREATE TABLE and ALTER TABLE; the counter never goes below the rows.
CREATE TABLE ai_start (id BIGINT UNSIGNED PRIMARY KEY AUTO_INCREMENT, v INT) AUTO_INCREMENT = 1000;
SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'ai_start';
INSERT INTO ai_start (v) VALUES (1);
SELECT LAST_INSERT_ID();
INSERT INTO ai_start (id, v) VALUES (1500, 2);
INSERT INTO ai_start (v) VALUES (3);
ALTER TABLE ai_start AUTO_INCREMENT = 5000;
SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'ai_start';
INSERT INTO ai_start (v) VALUES (4);
SELECT * FROM ai_start ORDER BY id;
CREATE TABLE ai_none (id INT PRIMARY KEY, v INT);
SELECT TABLE_NAME, AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME IN ('ai_none', 'ai_start') ORDER BY TABLE_NAME;

DROP TABLE ai_r2, ai_multi, ai_copy, ai_rep, ai_start, ai_none;
