-- Dates and times read as text where no column type is at hand (CONCAT, LENGTH, string
-- functions, IFNULL/COALESCE/CASE over a string, variables) as their type says: a DATE as its
-- date alone, a DATETIME(n) or TIME(n) with n fraction digits; and as numbers in a numeric
-- context (YYYYMMDD, YYYYMMDDhhmmss, hhmmss), compared with numbers as dates. Hex and bit
-- literals are numbers beside numbers; bit operators take negatives as two's complement.
-- Left out: DATETIME(n) + 0 (exact in MySQL, a double's precision here), AVG of a date
-- (MariaDB's DECIMAL, MySQL 8.0's DOUBLE), DOUBLE overflow (MariaDB's message lacks the
-- parentheses MySQL 8.0 prints).
CREATE TABLE moment (id INT PRIMARY KEY, d DATE, dt DATETIME, dt3 DATETIME(3), tm TIME, tm2 TIME(2), ts TIMESTAMP(6) NULL);
INSERT INTO moment VALUES (1, '2024-05-06', '2024-05-06 07:08:09', '2024-01-01 10:00:00.123', '10:11:12', '01:02:03.40', '2024-02-03 04:05:06.000007'), (2, '2024-05-07', '2024-05-06 07:08:09', '2024-01-01 10:00:00', '-10:00:00', '00:00:00', NULL);
SELECT CONCAT(d), CAST(d AS CHAR), LENGTH(d), CONCAT(DATE '2024-01-01'), LENGTH(CURDATE()) FROM moment ORDER BY id;
SELECT CONCAT(dt), CONCAT(dt3), LENGTH(dt3), CONCAT(tm), CONCAT(tm2), CONCAT(ts) FROM moment ORDER BY id;
SELECT GROUP_CONCAT(d ORDER BY d), REPLACE(MAX(d), '-', '/'), UPPER(MIN(d)) FROM moment;
SELECT IFNULL(d, '2000-01-01'), COALESCE(d, 'x'), CASE WHEN id = 1 THEN d ELSE 'x' END FROM moment ORDER BY id;
SELECT CONCAT(DATE(dt)), CONCAT(LAST_DAY(d)), CONCAT(DATE_ADD(d, INTERVAL 1 DAY)), CONCAT(MAKEDATE(2024, 32)), CONCAT(FROM_DAYS(739000)) FROM moment WHERE id = 1;
SELECT CONCAT(DATE_ADD(dt3, INTERVAL 1 SECOND)), CONCAT(CAST(d AS DATETIME)), CONCAT(CAST(dt AS DATE)), CONCAT(CAST(dt3 AS DATETIME(2))), CONCAT(CAST('12:00' AS TIME)) FROM moment WHERE id = 1;
SELECT CONCAT(STR_TO_DATE('2024-01-02', '%Y-%m-%d')), CONCAT(TIMESTAMP '2024-01-01 10:00:00'), CONCAT(TIME '10:00:00.5') FROM moment WHERE id = 1;
SET @v = (SELECT d FROM moment WHERE id = 1);
SELECT @v, LENGTH(@v);
SELECT d INTO @w FROM moment WHERE id = 1;
SELECT @w, LENGTH(@w);
SELECT d + 0, dt + 0, tm + 0, d + 1, SUM(d) FROM moment GROUP BY d, dt, tm ORDER BY d;
SELECT id FROM moment WHERE d = 20240506;
SELECT DATE '2024-01-10' = 20240110, d < 20240507 FROM moment ORDER BY id;
SELECT CAST(dt AS SIGNED), CAST(d AS SIGNED), CAST(dt3 AS DECIMAL(20,3)) FROM moment ORDER BY id;
SELECT d, dt FROM moment WHERE dt = 20240506070809 ORDER BY id;
SELECT MAX(d) + 0, MIN(dt) + 1 FROM moment;
SELECT 0x41 + 0, b'1000001' + 0, 0x10 = 16, 5 & 0x04, 0xFF | 0, CAST(0x41 AS UNSIGNED), 0x41, CONCAT(0x41, 'b');
SELECT -1 >> 1, 5 & -1, -1 | 0, -2 ^ 1, ~-1, -8 << 1, ~0, 3 | 1.6;
DROP TABLE moment;
