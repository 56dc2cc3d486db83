-- SAVEPOINT, ROLLBACK TO SAVEPOINT and RELEASE SAVEPOINT over writes (Django's nested
-- atomic() blocks): inserts, updates (a key moved too), deletes, INSERT … ON DUPLICATE KEY
-- UPDATE and multi-table UPDATE/DELETE after a savepoint are undone; a row written twice comes
-- back as it was at the savepoint; later savepoints go, the one rolled back to stays; the
-- transaction then commits or rolls back as a whole. Tables of their own, named sp_….
CREATE TABLE sp_acct (id INT PRIMARY KEY, owner VARCHAR(10), bal INT);
CREATE TABLE sp_log (id INT PRIMARY KEY, acct INT, note VARCHAR(20));
INSERT INTO sp_acct VALUES (1, 'ann', 100), (2, 'bob', 50), (3, 'cid', 0);
BEGIN;
UPDATE sp_acct SET bal = bal - 10 WHERE id = 1;
SAVEPOINT a;
INSERT INTO sp_acct VALUES (4, 'dee', 5), (5, 'eve', 6);
UPDATE sp_acct SET bal = bal + 1 WHERE id IN (1, 2);
UPDATE sp_acct SET bal = bal + 1 WHERE id = 2;
DELETE FROM sp_acct WHERE id = 3;
UPDATE sp_acct SET id = 30 WHERE id = 2;
SELECT * FROM sp_acct ORDER BY id;
ROLLBACK TO SAVEPOINT a;
SELECT * FROM sp_acct ORDER BY id;
SAVEPOINT b;
INSERT INTO sp_log VALUES (1, 1, 'one');
SAVEPOINT c;
INSERT INTO sp_log VALUES (2, 1, 'two') ON DUPLICATE KEY UPDATE note = 'dup';
INSERT INTO sp_log VALUES (1, 1, 'again') ON DUPLICATE KEY UPDATE note = 'dup';
SELECT * FROM sp_log ORDER BY id;
ROLLBACK TO c;
SELECT * FROM sp_log ORDER BY id;
UPDATE sp_acct a JOIN sp_log l ON l.acct = a.id SET a.bal = a.bal + 1000;
DELETE l FROM sp_log l JOIN sp_acct a ON a.id = l.acct WHERE a.owner = 'ann';
SELECT * FROM sp_acct ORDER BY id;
SELECT * FROM sp_log ORDER BY id;
ROLLBACK TO SAVEPOINT b;
SELECT * FROM sp_acct ORDER BY id;
SELECT * FROM sp_log ORDER BY id;
ROLLBACK TO SAVEPOINT c;
RELEASE SAVEPOINT b;
ROLLBACK TO SAVEPOINT b;
ROLLBACK TO SAVEPOINT a;
COMMIT;
SELECT * FROM sp_acct ORDER BY id;
SELECT * FROM sp_log ORDER BY id;
-- With autocommit off, a savepoint rolled back to, then the whole transaction rolled back.
SET autocommit = 0;
INSERT INTO sp_log VALUES (7, 2, 'seven');
SAVEPOINT s1;
DELETE FROM sp_acct;
SELECT COUNT(*) FROM sp_acct;
ROLLBACK TO s1;
SELECT COUNT(*) FROM sp_acct;
SELECT * FROM sp_log ORDER BY id;
ROLLBACK;
SET autocommit = 1;
SELECT * FROM sp_log ORDER BY id;
DROP TABLE sp_log, sp_acct;
