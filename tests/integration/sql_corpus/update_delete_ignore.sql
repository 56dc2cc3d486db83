-- UPDATE IGNORE and DELETE IGNORE (issue 19): a row whose change would duplicate a primary or
-- unique key (1062) or break a foreign key (1452 for a child's new reference, 1451 for a
-- parent's children) is skipped, the others are written, in order (primary key order without
-- ORDER BY): of rows moving onto each other's keys, each collides with the next, not yet
-- moved. Affected rows count the rows changed. MariaDB warns of none of the skipped rows,
-- MySQL 8.0 of each: the warnings are left out here (sql_corpus_test.sh) and checked in
-- sql_tables_test. Tables of their own, named ui_….
CREATE TABLE ui_t (id INT PRIMARY KEY, u INT, v VARCHAR(10), UNIQUE KEY k_u (u));
INSERT INTO ui_t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c'), (4, 40, 'd');
UPDATE IGNORE ui_t SET u = 20 WHERE id IN (1, 3);
SELECT * FROM ui_t ORDER BY id;
UPDATE IGNORE ui_t SET id = id + 1;
SELECT * FROM ui_t ORDER BY id;
UPDATE IGNORE ui_t SET id = id - 1 ORDER BY id;
SELECT * FROM ui_t ORDER BY id;
UPDATE IGNORE ui_t SET u = u + 10 ORDER BY id DESC;
SELECT * FROM ui_t ORDER BY id;
UPDATE IGNORE ui_t SET u = u - 10 WHERE id > 0;
SELECT * FROM ui_t ORDER BY id;
UPDATE IGNORE ui_t SET v = 'z' WHERE id = 2;
UPDATE IGNORE ui_t SET u = 50 WHERE id = 2;
UPDATE IGNORE ui_t SET u = 50, v = 'w' WHERE id = 2 OR id = 3 LIMIT 1;
SELECT * FROM ui_t ORDER BY id;
UPDATE IGNORE ui_t SET id = 9, u = 90 WHERE id = 4;
UPDATE IGNORE ui_t SET id = 4, u = 90 WHERE id = 9;
SELECT * FROM ui_t ORDER BY id;
BEGIN;
UPDATE IGNORE ui_t SET u = 70 WHERE id >= 2;
SELECT * FROM ui_t ORDER BY id;
ROLLBACK;
SELECT * FROM ui_t ORDER BY id;
DELETE IGNORE FROM ui_t WHERE id = 4;
SELECT * FROM ui_t ORDER BY id;
CREATE TABLE ui_parent (id INT PRIMARY KEY, name VARCHAR(10));
CREATE TABLE ui_child (id INT PRIMARY KEY, parent_id INT,
  CONSTRAINT ui_child_parent FOREIGN KEY (parent_id) REFERENCES ui_parent (id));
INSERT INTO ui_parent VALUES (1, 'p1'), (2, 'p2'), (3, 'p3');
INSERT INTO ui_child VALUES (10, 1), (11, 2), (12, NULL);
DELETE IGNORE FROM ui_parent;
SELECT * FROM ui_parent ORDER BY id;
DELETE FROM ui_child WHERE id = 10;
UPDATE IGNORE ui_parent SET id = id + 10;
SELECT * FROM ui_parent ORDER BY id;
UPDATE IGNORE ui_child SET parent_id = parent_id + 10;
SELECT * FROM ui_child ORDER BY id;
UPDATE IGNORE ui_child SET parent_id = 5 WHERE id = 12;
SELECT * FROM ui_child ORDER BY id;
DELETE IGNORE FROM ui_parent WHERE id < 100 ORDER BY id DESC LIMIT 1;
SELECT * FROM ui_parent ORDER BY id;
DELETE IGNORE FROM ui_child;
DELETE IGNORE FROM ui_parent;
SELECT COUNT(*) FROM ui_parent;
DROP TABLE ui_child;
DROP TABLE ui_parent;
DROP TABLE ui_t;
