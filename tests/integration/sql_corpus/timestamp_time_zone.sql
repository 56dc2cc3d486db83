-- TIMESTAMP is stored in UTC and read and written in the session's time_zone (fixed offsets;
-- DATETIME beside it never moves): rows written in two zones, read in a third; comparisons
-- and ranges in the reader's zone; UPDATE by key and by scan, ON DUPLICATE KEY UPDATE,
-- INSERT … SELECT, DEFAULT CURRENT_TIMESTAMP and SET col = DEFAULT, UNIX_TIMESTAMP, and the
-- range's ends checked in UTC. Left out: refused values (MariaDB names the column
-- `db`.`table`.`col`, MySQL 8.0 'col') and named zones (neither server here has the
-- time zone tables). Tables tz_….
SET time_zone = '+00:00';
CREATE TABLE tz_event (id INT PRIMARY KEY, at TIMESTAMP(3) NULL, dt DATETIME NULL, KEY tz_at (at));
INSERT INTO tz_event VALUES (1, '2024-03-01 12:00:00.250', '2024-03-01 12:00:00');
SET time_zone = '+02:00';
INSERT INTO tz_event VALUES (2, '2024-03-01 12:00:00', '2024-03-01 12:00:00'), (3, '2024-03-01 00:30:00', '2024-03-01 00:30:00');
SELECT id, at, dt FROM tz_event ORDER BY id;
SELECT @@time_zone, id, at FROM tz_event WHERE id = 1;
SET time_zone = '-05:30';
SELECT id, at, dt FROM tz_event ORDER BY id;
SELECT id FROM tz_event WHERE at = '2024-03-01 06:30:00.250';
SELECT id FROM tz_event WHERE at > '2024-03-01 00:00:00' ORDER BY id;
SELECT id FROM tz_event WHERE at BETWEEN '2024-02-29 12:00:00' AND '2024-03-01 01:00:00' ORDER BY id;
SELECT id, at FROM tz_event ORDER BY at;
SELECT MIN(at), MAX(at), COUNT(DISTINCT at) FROM tz_event;
SELECT id, UNIX_TIMESTAMP(at), DATE(at), HOUR(at) FROM tz_event ORDER BY id;
UPDATE tz_event SET at = '2024-03-02 00:00:00' WHERE id = 1;
UPDATE tz_event SET at = at + INTERVAL 1 HOUR WHERE dt < '2024-03-01 06:00:00';
SET time_zone = '+00:00';
SELECT id, at, dt FROM tz_event ORDER BY id;
SET time_zone = '+09:00';
INSERT INTO tz_event VALUES (2, '2000-01-01 00:00:00', NULL) ON DUPLICATE KEY UPDATE at = at - INTERVAL 30 MINUTE;
INSERT INTO tz_event (id, at, dt) SELECT id + 10, at, at FROM tz_event WHERE id <= 2;
SELECT id, at, dt FROM tz_event ORDER BY id;
SET time_zone = '+00:00';
SELECT id, at, dt FROM tz_event ORDER BY id;
SET time_zone = '+02:00';
INSERT INTO tz_event VALUES (20, '1970-01-01 02:00:01', NULL), (21, '2038-01-19 05:14:07', NULL);
SET time_zone = '+00:00';
SELECT id, at FROM tz_event WHERE id >= 20 ORDER BY id;
CREATE TABLE tz_now (id INT PRIMARY KEY, at TIMESTAMP NULL DEFAULT CURRENT_TIMESTAMP, dt DATETIME NULL DEFAULT CURRENT_TIMESTAMP, v INT);
SET time_zone = '+03:00';
INSERT INTO tz_now (id) VALUES (1);
SELECT TIMESTAMPDIFF(SECOND, dt, at) FROM tz_now;
UPDATE tz_now SET at = NULL, dt = NULL WHERE id = 1;
UPDATE tz_now SET at = DEFAULT, dt = DEFAULT, v = 1 WHERE id = 1;
SELECT TIMESTAMPDIFF(SECOND, dt, at), at <= NOW(), at > NOW() - INTERVAL 1 HOUR FROM tz_now;
SET time_zone = '+00:00';
SELECT TIMESTAMPDIFF(SECOND, dt, at) FROM tz_now;
DROP TABLE tz_event, tz_now;
SET time_zone = '+00:00';
