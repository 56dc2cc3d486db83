-- DEFAULT CURRENT_TIMESTAMP and ON UPDATE CURRENT_TIMESTAMP columns as frameworks create them,
-- on tables of their own (dropped at the end). The two servers' clocks differ, so times are
-- checked through what does not: set, moved past a fixed old value, equal within a statement
-- (one time per statement), truncated to the column's digits; and which UPDATEs move them:
-- only one that changes some other column and does not assign the column itself, with the
-- rows matched and changed. Single-row and multi-row INSERT, DEFAULT, INSERT … SELECT,
-- REPLACE, ON DUPLICATE KEY UPDATE, UPDATE by key (an update program on the data node), by
-- scan, with SET col = DEFAULT, and multi-table UPDATE. Left out: SHOW CREATE TABLE, SHOW
-- COLUMNS and information_schema (MariaDB spells current_timestamp() where MySQL 8.0 says
-- CURRENT_TIMESTAMP), and a precision other than the column's (MySQL 8.0 refuses it with 1067,
-- MariaDB truncates).
CREATE TABLE stamp (id INT PRIMARY KEY, v INT, note VARCHAR(10), created TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, updated DATETIME NOT NULL DEFAULT NOW() ON UPDATE NOW(), micro DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), touched TIMESTAMP NULL ON UPDATE LOCALTIMESTAMP);
INSERT INTO stamp (id, v) VALUES (1, 10);
INSERT INTO stamp (id, v, created, updated, micro) VALUES (2, 20, DEFAULT, DEFAULT, DEFAULT), (3, 30, DEFAULT, DEFAULT, DEFAULT);
INSERT INTO stamp VALUES (4, 40, 'x', '2001-02-03 04:05:06', '2001-02-03 04:05:06', '2001-02-03 04:05:06.5', NULL);
SELECT id, created IS NOT NULL, created = updated, TIMESTAMPDIFF(SECOND, created, NOW()) BETWEEN 0 AND 60 AS recent, TIMESTAMPDIFF(SECOND, updated, micro) AS same_second, DATE_FORMAT(updated, '%f') AS no_fraction, touched FROM stamp ORDER BY id;
SELECT COUNT(DISTINCT created), COUNT(DISTINCT micro) FROM stamp WHERE id IN (2, 3);
SELECT micro FROM stamp WHERE id = 4;
-- Assigning the columns themselves: nothing moves them.
UPDATE stamp SET created = '2001-01-01 00:00:00', updated = '2001-01-01 00:00:00', micro = '2001-01-01 00:00:00', touched = '2001-01-01 00:00:00';
SELECT id, created, updated, micro, touched FROM stamp ORDER BY id;
-- By key, changing nothing, then something.
UPDATE stamp SET v = v WHERE id = 1;
UPDATE stamp SET v = 10 WHERE id = 1;
UPDATE stamp SET v = 10, note = NULL WHERE id IN (1, 2);
SELECT id, updated, micro, touched FROM stamp WHERE id = 1;
SELECT id, updated > '2020-01-01', micro > '2020-01-01', touched > '2020-01-01' FROM stamp WHERE id = 2;
UPDATE stamp SET v = 11 WHERE id = 1;
SELECT id, v, updated > '2020-01-01' AS moved, micro > '2020-01-01', touched > '2020-01-01', updated = touched, TIMESTAMPDIFF(SECOND, updated, micro), created FROM stamp ORDER BY id;
-- By scan, twice: the second changes nothing.
UPDATE stamp SET note = 'n' WHERE v >= 30;
UPDATE stamp SET note = 'n' WHERE v >= 30;
SELECT id, note, updated > '2020-01-01' AS moved, touched > '2020-01-01' FROM stamp ORDER BY id;
-- The column assigned with another: it keeps what it was given, the others move.
UPDATE stamp SET v = v + 1, updated = '2002-02-02 00:00:00' WHERE id = 2;
SELECT id, v, updated, micro > '2020-01-01', touched > '2020-01-01' FROM stamp WHERE id = 2;
UPDATE stamp SET updated = '2003-03-03 00:00:00', micro = '2003-03-03 00:00:00', touched = NULL WHERE id = 3;
UPDATE stamp SET updated = DEFAULT WHERE id = 3;
SELECT id, updated > '2020-01-01', micro > '2020-01-01', touched > '2020-01-01' FROM stamp WHERE id = 3;
-- ON DUPLICATE KEY UPDATE: the update part follows the same rule.
UPDATE stamp SET updated = '2001-01-01 00:00:00', micro = NULL, touched = NULL;
INSERT INTO stamp (id, v) VALUES (1, 11) ON DUPLICATE KEY UPDATE v = VALUES(v);
SELECT id, v, updated, micro, touched FROM stamp WHERE id = 1;
INSERT INTO stamp (id, v) VALUES (1, 12), (5, 50) ON DUPLICATE KEY UPDATE v = VALUES(v);
SELECT id, v, updated > '2020-01-01', micro > '2020-01-01', touched > '2020-01-01', created > '2020-01-01' FROM stamp WHERE id IN (1, 5) ORDER BY id;
-- REPLACE writes a new row: its defaults are the statement's time. (Over an existing row
-- Shoal counts one affected row, as NDB, where MariaDB and InnoDB count two:
-- sql_tables_test checks that case.)
REPLACE INTO stamp (id, v) VALUES (6, 99);
SELECT id, v, note, created > '2020-01-01', created = updated, touched FROM stamp WHERE id = 6;
-- Multi-table UPDATE: a row the join leaves as it was keeps its time.
CREATE TABLE bump (id INT PRIMARY KEY, delta INT);
INSERT INTO bump VALUES (1, 0), (2, 5), (3, 0);
UPDATE stamp SET updated = '2001-01-01 00:00:00', touched = NULL;
UPDATE stamp s JOIN bump b ON b.id = s.id SET s.v = s.v + b.delta;
SELECT id, v, updated > '2020-01-01' AS moved, touched IS NOT NULL FROM stamp ORDER BY id;
-- INSERT … SELECT: every row the statement's one time.
INSERT INTO stamp (id, v) SELECT id + 10, delta FROM bump;
SELECT COUNT(*), COUNT(DISTINCT created), COUNT(DISTINCT updated), MIN(created = updated), MIN(touched IS NULL) FROM stamp WHERE id > 10;
CREATE TABLE bad (c INT ON UPDATE CURRENT_TIMESTAMP);
DROP TABLE stamp, bump;
