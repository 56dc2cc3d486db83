-- READ ONLY transactions refuse writes with 1792, as MySQL's: START TRANSACTION READ ONLY,
-- and SET SESSION TRANSACTION READ ONLY for autocommit statements and transactions that do
-- not say READ WRITE, autocommit off included. Reads go on; the error leaves the transaction
-- open. MariaDB's message lacks MySQL 8.0's final period: the test compares the code.
CREATE TABLE ro (id INT PRIMARY KEY, v INT);
INSERT INTO ro VALUES (1, 10);
START TRANSACTION READ ONLY;
SELECT v FROM ro WHERE id = 1;
INSERT INTO ro VALUES (2, 20);
UPDATE ro SET v = 11 WHERE id = 1;
DELETE FROM ro WHERE id = 1;
REPLACE INTO ro VALUES (1, 12);
SELECT v FROM ro WHERE id = 1;
COMMIT;
START TRANSACTION READ WRITE;
UPDATE ro SET v = 13 WHERE id = 1;
COMMIT;
SET SESSION TRANSACTION READ ONLY;
INSERT INTO ro VALUES (3, 30);
START TRANSACTION;
UPDATE ro SET v = 14 WHERE id = 1;
ROLLBACK;
START TRANSACTION READ WRITE;
UPDATE ro SET v = 15 WHERE id = 1;
COMMIT;
SET autocommit = 0;
SELECT v FROM ro WHERE id = 1;
UPDATE ro SET v = 16 WHERE id = 1;
ROLLBACK;
SET autocommit = 1;
SET SESSION TRANSACTION READ WRITE;
INSERT INTO ro VALUES (4, 40);
SELECT * FROM ro ORDER BY id;
DROP TABLE ro;
