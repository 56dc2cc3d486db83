-- Keys under the default _ci collation (engine/schema/collation.h): primary and unique keys
-- whose text differs only in case are one key — found by any spelling,
-- refused a second time (INSERT IGNORE's count here: the 1062 texts of MariaDB and MySQL 8.0
-- differ), replaced by REPLACE, updated by ON DUPLICATE KEY UPDATE, also between rows of one
-- statement; IN lists and joins reach each row once; ranges and ORDER BY over a key follow the
-- collation; a _bin column keeps byte keys. Left out: trailing spaces (MySQL 8.0's
-- utf8mb4_0900_ai_ci and Shoal are NO PAD: 'a' and 'a ' are two keys; MariaDB's
-- utf8mb4_general_ci is PAD SPACE: one), accents (accents.sql) and punctuation against letters in ORDER BY ('_' sorts before 'a' in
-- MySQL 8.0 and Shoal, after 'Z' in MariaDB). Tables ck_….
CREATE TABLE ck_user (name VARCHAR(30) NOT NULL PRIMARY KEY, email VARCHAR(40), n INT, UNIQUE KEY ck_email (email), KEY ck_n (n)) DEFAULT CHARSET = utf8mb4;
INSERT INTO ck_user VALUES ('Ada Lovelace', 'ada@example.org', 1), ('Alan Turing', 'alan@example.org', 2), ('bob', 'Bob@Example.org', 3), ('Zed', NULL, 4), ('carol', NULL, 5);
SELECT * FROM ck_user WHERE name = 'ada lovelace';
SELECT * FROM ck_user WHERE name = 'ADA LOVELACE';
SELECT name FROM ck_user WHERE name IN ('bob', 'BOB', 'Bob');
SELECT name FROM ck_user WHERE name IN ('ada lovelace', 'ALAN TURING', 'nobody') ORDER BY name;
SELECT name, n FROM ck_user WHERE email = 'bob@example.org';
SELECT name, n FROM ck_user WHERE email IN ('ADA@EXAMPLE.ORG', 'Alan@Example.Org', 'ada@example.org') ORDER BY n;
INSERT IGNORE INTO ck_user VALUES ('ADA LOVELACE', 'x@example.org', 6);
INSERT IGNORE INTO ck_user VALUES ('dora', 'ADA@EXAMPLE.ORG', 7);
INSERT IGNORE INTO ck_user VALUES ('BoB', 'b2@example.org', 8);
SELECT COUNT(*) FROM ck_user;
REPLACE INTO ck_user VALUES ('BOB', 'bob@example.org', 9);
SELECT name, email, n FROM ck_user WHERE name = 'bob';
INSERT INTO ck_user VALUES ('alan turing', 'alan2@example.org', 10) ON DUPLICATE KEY UPDATE n = n + 100;
SELECT name, email, n FROM ck_user WHERE name LIKE 'alan%';
INSERT INTO ck_user (name, email, n) VALUES ('dave', 'Dave@x', 11), ('DAVE', 'd2@x', 12) ON DUPLICATE KEY UPDATE n = VALUES(n);
SELECT name, email, n FROM ck_user WHERE name = 'Dave';
INSERT INTO ck_user (name, email, n) VALUES ('erin', 'E@x', 13), ('frank', 'e@X', 14) ON DUPLICATE KEY UPDATE n = VALUES(n);
SELECT name, email, n FROM ck_user WHERE email = 'e@x';
UPDATE ck_user SET n = 0 WHERE name = 'DAVE';
SELECT ROW_COUNT();
DELETE FROM ck_user WHERE name = 'ZED';
SELECT ROW_COUNT();
SELECT name FROM ck_user ORDER BY name;
SELECT name FROM ck_user ORDER BY name DESC LIMIT 3;
SELECT name FROM ck_user WHERE name BETWEEN 'a' AND 'b' ORDER BY name;
SELECT name FROM ck_user WHERE name > 'B' AND name < 'E' ORDER BY name;
SELECT email FROM ck_user WHERE email >= 'B' AND email < 'e' ORDER BY email;
UPDATE ck_user SET name = 'ADA LOVELACE' WHERE name = 'ada lovelace';
SELECT name FROM ck_user WHERE name = 'Ada Lovelace';
SELECT COUNT(*), COUNT(DISTINCT name) FROM ck_user;
BEGIN;
SAVEPOINT s1;
UPDATE ck_user SET name = 'CAROL' WHERE name = 'carol';
UPDATE ck_user SET name = 'Carol', n = 50 WHERE name = 'carol';
SELECT name, n FROM ck_user WHERE name = 'carol';
ROLLBACK TO SAVEPOINT s1;
SELECT name, n FROM ck_user WHERE name = 'carol';
UPDATE ck_user SET name = 'CAROL' WHERE name = 'carol';
COMMIT;
SELECT name, n FROM ck_user WHERE name = 'carol';
CREATE TABLE ck_order (id INT PRIMARY KEY, who VARCHAR(30), KEY ck_who (who));
INSERT INTO ck_order VALUES (1, 'ADA LOVELACE'), (2, 'ada lovelace'), (3, 'Bob'), (4, 'nobody'), (5, 'CAROL');
SELECT o.id, u.name FROM ck_order o JOIN ck_user u ON u.name = o.who ORDER BY o.id;
SELECT u.name, COUNT(*) FROM ck_user u JOIN ck_order o ON o.who = u.name GROUP BY u.name ORDER BY u.name;
SELECT u.name, o.id FROM ck_user u LEFT JOIN ck_order o ON o.who = u.name ORDER BY u.name, o.id;
SELECT name FROM ck_user WHERE name IN (SELECT who FROM ck_order) ORDER BY name;
SELECT id FROM ck_order WHERE who = 'ada LOVELACE' ORDER BY id;
SELECT id FROM ck_order WHERE who IN ('bob', 'carol') ORDER BY id;
CREATE TABLE ck_code (code VARCHAR(10) COLLATE utf8mb4_bin PRIMARY KEY, n INT);
INSERT INTO ck_code VALUES ('abc', 1), ('ABC', 2);
SELECT code, n FROM ck_code WHERE code = 'ABC';
SELECT COUNT(*) FROM ck_code;
CREATE TABLE ck_pair (a VARCHAR(10), b INT, c VARCHAR(10), PRIMARY KEY (a, b));
INSERT INTO ck_pair VALUES ('x', 1, 'one'), ('Y', 2, 'two');
INSERT IGNORE INTO ck_pair VALUES ('X', 1, 'again');
SELECT * FROM ck_pair WHERE (a, b) IN (('X', 1), ('y', 2), ('x', 1)) ORDER BY b;
SELECT * FROM ck_pair WHERE a = 'X' AND b = 1;
UPDATE ck_pair SET c = 'changed' WHERE a = 'y' AND b = 2;
SELECT * FROM ck_pair ORDER BY a, b;
DROP TABLE ck_order, ck_user, ck_code, ck_pair;
