-- sql_safe_updates: UPDATE and DELETE without LIMIT must reach their rows through a key (the
-- primary key or an index), else 1175; MySQL 8.0's text ends in ". " (its reason for no key,
-- empty here), MariaDB's in "column": the test drops that end.
CREATE TABLE su (id INT PRIMARY KEY, k INT, v INT, KEY by_k (k));
INSERT INTO su VALUES (1, 10, 0), (2, 20, 0), (3, 30, 0);
SET sql_safe_updates = 1;
UPDATE su SET v = 1;
UPDATE su SET v = 1 WHERE v = 0;
UPDATE su SET v = 1 WHERE id + 0 = 1;
DELETE FROM su;
DELETE FROM su WHERE v = 0;
UPDATE su SET v = 1 WHERE id = 1;
UPDATE su SET v = 2 WHERE k >= 20;
UPDATE su SET v = v + 1 WHERE v > 1 LIMIT 10;
DELETE FROM su WHERE id IN (9);
DELETE FROM su WHERE v = 7 LIMIT 1;
SELECT * FROM su ORDER BY id;
SET sql_safe_updates = 0;
UPDATE su SET v = 0;
DROP TABLE su;
