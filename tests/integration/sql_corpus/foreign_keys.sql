-- FOREIGN KEY constraints (InnoDB's semantics), on tables of their own named fk_… (dropped at
-- the end): inserts and updates of children that pass (a NULL in the key passes, MATCH SIMPLE)
-- and that fail with 1452, the whole statement undone; deletes and updates of parents under the
-- default rule (1451), CASCADE (the children shown after), SET NULL; a key of two columns; a key
-- on a UNIQUE column rather than the primary key; a self-referencing table (employee → manager)
-- and a two-level cascade chain, one stopped by a grandchild; REPLACE and INSERT … ON DUPLICATE
-- KEY UPDATE of a parent; INSERT IGNORE; a cascade rolled back; foreign_key_checks = 0 letting
-- an orphan in; ALTER TABLE ADD CONSTRAINT … FOREIGN KEY over a violating row (1452) and over
-- valid ones, with and without an index of its own, and DROP FOREIGN KEY (the index stays);
-- the index the key needs cannot be dropped (1553); information_schema's KEY_COLUMN_USAGE,
-- REFERENTIAL_CONSTRAINTS, TABLE_CONSTRAINTS and STATISTICS. A row naming itself passes.
-- Shoal checks a statement's keys once all its rows are written (the SQL standard's rule),
-- InnoDB row by row: a multi-row INSERT whose row names a parent that a later row of it
-- inserts fails in MariaDB and MySQL, passes in Shoal, so it is left out.
-- Left out, where MySQL 8.0 and MariaDB 10.11 differ:
--   * SHOW CREATE TABLE (MariaDB spells int(11) and ENGINE=InnoDB, Shoal ENGINE=ndbcluster);
--     the child's index is checked through information_schema.STATISTICS instead.
--   * Generated constraint names (InnoDB's t_ibfk_1, NDB's t_fk_1): every key is named.
--   * Explicit RESTRICT and NO ACTION: in 1451/1452's text MySQL 8.0 prints an explicit ON …
--     RESTRICT and leaves NO ACTION out, MariaDB prints an explicit ON … NO ACTION and leaves
--     RESTRICT out; the keys here use the default rule, CASCADE or SET NULL. The default rule
--     is NO ACTION in MySQL 8.0's REFERENTIAL_CONSTRAINTS, RESTRICT in MariaDB's: the query
--     shows the two as one value.
--   * DROP TABLE of a referenced parent (MySQL 3730 "Cannot drop table … referenced by a foreign
--     key constraint …", MariaDB 1451 without details), and DROP TABLE parent, child in one
--     statement (MySQL drops both, MariaDB refuses the parent); children are dropped first.
--   * Bad definitions: a missing parent table (MySQL 1824), missing parent column (3734) or
--     index (1822), incompatible types (3780), SET NULL on a NOT NULL column (1830), a
--     duplicate constraint name (1826): MariaDB says 1005 "errno: 150" or "errno: 121" for all.
--     Only a missing child column (1072) is the same.
--   * Dropping or retyping a key column (MariaDB: 1553, 1829, 1832, 1833; MySQL 8.0 other
--     codes or texts), DROP FOREIGN KEY of no such key (1091's text), TRUNCATE of a parent,
--     and a column's inline REFERENCES (MySQL 8.0 ignores it, MariaDB makes a key).
-- ALTER TABLE ADD … FOREIGN KEY over a violating row names the copy (`#sql-…`) in its 1452;
-- normalize() in the test replaces that name.

-- The default rule (RESTRICT / NO ACTION): a department and its staff.
CREATE TABLE fk_dept (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL);
CREATE TABLE fk_staff (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, dept_id INT, CONSTRAINT fk_staff_dept FOREIGN KEY (dept_id) REFERENCES fk_dept (id));
INSERT INTO fk_dept VALUES (1, 'ops'), (2, 'dev'), (3, 'hr');
INSERT INTO fk_staff VALUES (10, 'ann', 1), (11, 'bob', 1), (12, 'cid', 2), (13, 'dee', NULL);
INSERT INTO fk_staff VALUES (14, 'eve', 9);
INSERT INTO fk_staff VALUES (14, 'eve', 3), (15, 'fay', 9);
SELECT * FROM fk_staff ORDER BY id;
INSERT IGNORE INTO fk_staff VALUES (14, 'eve', 3), (15, 'fay', 9);
SHOW WARNINGS;
SELECT * FROM fk_staff ORDER BY id;
SELECT s.name, d.name AS dept FROM fk_staff s LEFT JOIN fk_dept d ON d.id = s.dept_id ORDER BY s.id;
DELETE FROM fk_dept WHERE id = 1;
DELETE FROM fk_dept WHERE id >= 2;
SELECT * FROM fk_dept ORDER BY id;
UPDATE fk_dept SET id = 5 WHERE id = 2;
UPDATE fk_dept SET name = 'DEV' WHERE id = 2;
INSERT INTO fk_dept VALUES (4, 'lab');
UPDATE fk_dept SET id = 6 WHERE id = 4;
DELETE FROM fk_dept WHERE id = 6;
REPLACE INTO fk_dept VALUES (2, 'Dev');
INSERT INTO fk_dept VALUES (2, 'Dev') ON DUPLICATE KEY UPDATE name = 'Dev';
SELECT * FROM fk_dept ORDER BY id;
UPDATE fk_staff SET dept_id = 9 WHERE id = 10;
UPDATE fk_staff SET dept_id = dept_id + 1 WHERE id IN (10, 14);
SELECT * FROM fk_staff ORDER BY id;
UPDATE fk_staff SET dept_id = 2 WHERE id = 10;
UPDATE fk_staff SET dept_id = NULL WHERE id = 11;
SELECT * FROM fk_staff ORDER BY id;
DELETE FROM fk_staff WHERE dept_id = 3;
DELETE FROM fk_dept WHERE id = 3;
SELECT d.id, COUNT(s.id) FROM fk_dept d LEFT JOIN fk_staff s ON s.dept_id = d.id GROUP BY d.id ORDER BY d.id;
-- The index the key made on the child (named after the constraint), which it needs.
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'fk_staff' ORDER BY INDEX_NAME, SEQ_IN_INDEX;
ALTER TABLE fk_staff DROP INDEX fk_staff_dept;
DROP INDEX fk_staff_dept ON fk_staff;
CREATE TABLE fk_bad (id INT PRIMARY KEY, dept_id INT, CONSTRAINT fk_bad_dept FOREIGN KEY (nosuch) REFERENCES fk_dept (id));

-- foreign_key_checks = 0 lets an orphan in; it stays when checks are back, and only a change of
-- its key is checked again.
SET foreign_key_checks = 0;
SELECT @@foreign_key_checks;
INSERT INTO fk_staff VALUES (20, 'ghost', 99);
UPDATE fk_staff SET dept_id = 98 WHERE id = 20;
SET foreign_key_checks = 1;
SELECT @@foreign_key_checks;
SELECT s.id, s.dept_id, d.id IS NULL AS orphan FROM fk_staff s LEFT JOIN fk_dept d ON d.id = s.dept_id WHERE s.dept_id IS NOT NULL ORDER BY s.id;
UPDATE fk_staff SET name = 'GHOST' WHERE id = 20;
UPDATE fk_staff SET dept_id = 97 WHERE id = 20;
INSERT INTO fk_staff VALUES (21, 'ghast', 99);
SELECT * FROM fk_staff WHERE id >= 20 ORDER BY id;
DELETE FROM fk_staff WHERE id = 20;

-- CASCADE on delete and update: authors and their books.
CREATE TABLE fk_author (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL);
CREATE TABLE fk_book (id INT PRIMARY KEY, author_id INT NOT NULL, title VARCHAR(30), CONSTRAINT fk_book_author FOREIGN KEY (author_id) REFERENCES fk_author (id) ON DELETE CASCADE ON UPDATE CASCADE);
INSERT INTO fk_author VALUES (1, 'austen'), (2, 'borges'), (3, 'calvino'), (4, 'dickens');
INSERT INTO fk_book VALUES (100, 1, 'emma'), (101, 1, 'persuasion'), (102, 2, 'ficciones'), (103, 3, 'invisible cities'), (104, 3, 'if on a winter'), (105, 4, 'bleak house');
INSERT INTO fk_book VALUES (106, 5, 'nobody');
DELETE FROM fk_author WHERE id = 1;
SELECT * FROM fk_book ORDER BY id;
UPDATE fk_author SET id = 20 WHERE id = 2;
SELECT * FROM fk_author ORDER BY id;
SELECT * FROM fk_book ORDER BY id;
START TRANSACTION;
DELETE FROM fk_author WHERE id = 3;
SELECT COUNT(*) FROM fk_book;
ROLLBACK;
SELECT * FROM fk_book ORDER BY id;
INSERT INTO fk_author VALUES (3, 'Calvino') ON DUPLICATE KEY UPDATE name = 'Calvino';
SELECT b.title, a.name FROM fk_book b JOIN fk_author a ON a.id = b.author_id ORDER BY b.id;
-- REPLACE deletes the old row, and so its books.
REPLACE INTO fk_author VALUES (3, 'italo');
SELECT * FROM fk_book ORDER BY id;
INSERT INTO fk_book VALUES (107, 3, 'cosmicomics');
UPDATE fk_book SET author_id = 8 WHERE id = 107;
UPDATE fk_book SET author_id = 4 WHERE id = 107;
DELETE FROM fk_author WHERE id IN (4, 20);
SELECT * FROM fk_author ORDER BY id;
SELECT COUNT(*) FROM fk_book;

-- SET NULL, on a key that references a UNIQUE column rather than the primary key.
CREATE TABLE fk_country (id INT PRIMARY KEY, iso CHAR(2) NOT NULL, name VARCHAR(20), UNIQUE KEY fk_country_iso (iso));
CREATE TABLE fk_city (id INT PRIMARY KEY, name VARCHAR(20), iso CHAR(2), CONSTRAINT fk_city_country FOREIGN KEY (iso) REFERENCES fk_country (iso) ON DELETE SET NULL ON UPDATE SET NULL);
INSERT INTO fk_country VALUES (1, 'fr', 'france'), (2, 'no', 'norway'), (3, 'it', 'italy');
INSERT INTO fk_city VALUES (1, 'paris', 'fr'), (2, 'lyon', 'fr'), (3, 'oslo', 'no'), (4, 'rome', 'it'), (5, 'atlantis', NULL);
INSERT INTO fk_city VALUES (6, 'bern', 'ch');
DELETE FROM fk_country WHERE iso = 'fr';
SELECT * FROM fk_city ORDER BY id;
UPDATE fk_country SET iso = 'nn' WHERE id = 2;
SELECT * FROM fk_city ORDER BY id;
UPDATE fk_country SET name = 'Italia' WHERE iso = 'it';
SELECT * FROM fk_city ORDER BY id;
UPDATE fk_city SET iso = 'nn' WHERE id = 3;
UPDATE fk_city SET iso = 'xx' WHERE id = 4;
SELECT c.name, k.name AS country FROM fk_city c LEFT JOIN fk_country k ON k.iso = c.iso ORDER BY c.id;

-- A key of two columns: NULL in either passes, both must match together, updates cascade.
CREATE TABLE fk_model (maker CHAR(3) NOT NULL, code INT NOT NULL, name VARCHAR(20), PRIMARY KEY (maker, code));
CREATE TABLE fk_part (id INT PRIMARY KEY, maker CHAR(3), code INT, qty INT, CONSTRAINT fk_part_model FOREIGN KEY (maker, code) REFERENCES fk_model (maker, code) ON UPDATE CASCADE);
INSERT INTO fk_model VALUES ('abc', 1, 'alpha'), ('abc', 2, 'beta'), ('xyz', 2, 'gamma');
INSERT INTO fk_part VALUES (1, 'abc', 1, 5), (2, 'abc', 2, 1), (3, 'xyz', 2, 7);
INSERT INTO fk_part VALUES (4, 'xyz', 1, 1);
INSERT INTO fk_part VALUES (4, 'abc', 3, 1);
INSERT INTO fk_part VALUES (4, 'abc', NULL, 1), (5, NULL, 9, 1), (6, NULL, NULL, 1);
SELECT * FROM fk_part ORDER BY id;
UPDATE fk_model SET code = 5 WHERE maker = 'abc' AND code = 1;
SELECT * FROM fk_part ORDER BY id;
UPDATE fk_model SET maker = 'xyy' WHERE maker = 'xyz';
SELECT * FROM fk_part ORDER BY id;
DELETE FROM fk_model WHERE maker = 'abc' AND code = 5;
UPDATE fk_part SET code = 1 WHERE id = 2;
UPDATE fk_part SET maker = 'xyy' WHERE id = 2;
SELECT p.id, m.name FROM fk_part p JOIN fk_model m ON m.maker = p.maker AND m.code = p.code ORDER BY p.id;
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'fk_part' ORDER BY INDEX_NAME, SEQ_IN_INDEX;

-- A self-referencing table: each employee's manager, deleted with the manager.
CREATE TABLE fk_employee (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, manager_id INT, CONSTRAINT fk_employee_manager FOREIGN KEY (manager_id) REFERENCES fk_employee (id) ON DELETE CASCADE);
INSERT INTO fk_employee VALUES (1, 'boss', NULL), (2, 'ann', 1), (3, 'bob', 1), (4, 'cid', 2), (5, 'dee', 4);
INSERT INTO fk_employee VALUES (6, 'eve', 7);
INSERT INTO fk_employee VALUES (6, 'eve', 3), (8, 'gus', 1), (7, 'fay', 8);
INSERT INTO fk_employee VALUES (9, 'solo', 9);
SELECT e.name, m.name AS manager FROM fk_employee e LEFT JOIN fk_employee m ON m.id = e.manager_id ORDER BY e.id;
UPDATE fk_employee SET manager_id = 99 WHERE id = 3;
UPDATE fk_employee SET manager_id = 3 WHERE id = 5;
DELETE FROM fk_employee WHERE id = 2;
SELECT * FROM fk_employee ORDER BY id;
DELETE FROM fk_employee WHERE id = 1;
SELECT * FROM fk_employee ORDER BY id;

-- A two-level chain: deleting a region deletes its stores and their sales; a grandchild with
-- the default rule stops the whole delete.
CREATE TABLE fk_region (id INT PRIMARY KEY, name VARCHAR(20));
CREATE TABLE fk_store (id INT PRIMARY KEY, region_id INT, CONSTRAINT fk_store_region FOREIGN KEY (region_id) REFERENCES fk_region (id) ON DELETE CASCADE ON UPDATE CASCADE);
CREATE TABLE fk_sale (id INT PRIMARY KEY, store_id INT NOT NULL, amount INT, CONSTRAINT fk_sale_store FOREIGN KEY (store_id) REFERENCES fk_store (id) ON DELETE CASCADE);
CREATE TABLE fk_audit (id INT PRIMARY KEY, store_id INT, CONSTRAINT fk_audit_store FOREIGN KEY (store_id) REFERENCES fk_store (id));
INSERT INTO fk_region VALUES (1, 'north'), (2, 'south'), (3, 'east');
INSERT INTO fk_store VALUES (10, 1), (11, 1), (20, 2), (30, 3);
INSERT INTO fk_sale VALUES (1, 10, 5), (2, 10, 7), (3, 11, 1), (4, 20, 9), (5, 30, 2);
INSERT INTO fk_audit VALUES (1, 20);
DELETE FROM fk_region WHERE id = 1;
SELECT * FROM fk_store ORDER BY id;
SELECT * FROM fk_sale ORDER BY id;
DELETE FROM fk_region WHERE id = 2;
DELETE FROM fk_region WHERE id IN (2, 3);
SELECT r.id, COUNT(DISTINCT s.id), COUNT(x.id) FROM fk_region r LEFT JOIN fk_store s ON s.region_id = r.id LEFT JOIN fk_sale x ON x.store_id = s.id GROUP BY r.id ORDER BY r.id;
UPDATE fk_region SET id = 22 WHERE id = 2;
SELECT * FROM fk_store ORDER BY id;
SELECT * FROM fk_sale ORDER BY id;
DELETE FROM fk_audit;
UPDATE fk_store SET id = 21 WHERE id = 20;
DELETE FROM fk_region WHERE id = 22;
SELECT * FROM fk_store ORDER BY id;
SELECT * FROM fk_sale ORDER BY id;

-- ALTER TABLE: a key added over a violating row is refused, then added once the row is gone
-- (the child gets an index named after it); one added where an index already serves; dropped.
CREATE TABLE fk_note (id INT PRIMARY KEY, staff_id INT, body VARCHAR(20));
INSERT INTO fk_note VALUES (1, 10, 'hi'), (2, 77, 'lost'), (3, NULL, 'none');
ALTER TABLE fk_note ADD CONSTRAINT fk_note_staff FOREIGN KEY (staff_id) REFERENCES fk_staff (id) ON DELETE CASCADE;
SELECT * FROM fk_note ORDER BY id;
DELETE FROM fk_note WHERE id = 2;
ALTER TABLE fk_note ADD CONSTRAINT fk_note_staff FOREIGN KEY (staff_id) REFERENCES fk_staff (id) ON DELETE CASCADE;
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'fk_note' ORDER BY INDEX_NAME, SEQ_IN_INDEX;
INSERT INTO fk_note VALUES (4, 77, 'lost');
INSERT INTO fk_note VALUES (4, 12, 'cid');
DELETE FROM fk_staff WHERE id = 10;
SELECT * FROM fk_note ORDER BY id;
ALTER TABLE fk_note DROP FOREIGN KEY fk_note_staff;
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'fk_note' ORDER BY INDEX_NAME, SEQ_IN_INDEX;
INSERT INTO fk_note VALUES (5, 77, 'lost');
DELETE FROM fk_staff WHERE id = 12;
SELECT * FROM fk_note ORDER BY id;
ALTER TABLE fk_note DROP INDEX fk_note_staff;
CREATE TABLE fk_log (id INT PRIMARY KEY, dept_id INT, KEY by_dept (dept_id, id));
INSERT INTO fk_log VALUES (1, 2), (2, NULL);
ALTER TABLE fk_log ADD CONSTRAINT fk_log_dept FOREIGN KEY (dept_id) REFERENCES fk_dept (id);
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'fk_log' ORDER BY INDEX_NAME, SEQ_IN_INDEX;
INSERT INTO fk_log VALUES (3, 9);
DELETE FROM fk_dept WHERE id = 2;

-- The catalog.
SELECT CONSTRAINT_NAME, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, POSITION_IN_UNIQUE_CONSTRAINT, REFERENCED_TABLE_SCHEMA, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME LIKE 'fk\_%' AND REFERENCED_TABLE_NAME IS NOT NULL ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION;
SELECT CONSTRAINT_NAME, UNIQUE_CONSTRAINT_SCHEMA, UNIQUE_CONSTRAINT_NAME, CASE WHEN UPDATE_RULE IN ('RESTRICT', 'NO ACTION') THEN 'RESTRICT|NO ACTION' ELSE UPDATE_RULE END AS UPDATE_RULE, CASE WHEN DELETE_RULE IN ('RESTRICT', 'NO ACTION') THEN 'RESTRICT|NO ACTION' ELSE DELETE_RULE END AS DELETE_RULE, TABLE_NAME, REFERENCED_TABLE_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = 'corpus' AND TABLE_NAME LIKE 'fk\_%' ORDER BY CONSTRAINT_NAME;
SELECT CONSTRAINT_NAME, TABLE_NAME, CONSTRAINT_TYPE FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME LIKE 'fk\_%' AND CONSTRAINT_TYPE = 'FOREIGN KEY' ORDER BY TABLE_NAME, CONSTRAINT_NAME;
ALTER TABLE fk_log DROP FOREIGN KEY fk_log_dept;
SELECT CONSTRAINT_NAME FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'fk_log' ORDER BY CONSTRAINT_NAME;

-- Children first, then their parents.
DROP TABLE fk_note, fk_log;
DROP TABLE fk_staff;
DROP TABLE fk_dept;
DROP TABLE fk_book;
DROP TABLE fk_author;
DROP TABLE fk_city, fk_country;
DROP TABLE fk_part, fk_model;
DROP TABLE fk_employee;
DROP TABLE fk_sale, fk_audit, fk_store, fk_region;
SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME LIKE 'fk\_%';

-- Two keys of one child row naming the same parent, both SET NULL: both columns clear.
CREATE TABLE fk_user (id INT PRIMARY KEY);
CREATE TABLE fk_doc (id INT PRIMARY KEY, created_by INT, updated_by INT, CONSTRAINT fk_doc_created FOREIGN KEY (created_by) REFERENCES fk_user (id) ON DELETE SET NULL, CONSTRAINT fk_doc_updated FOREIGN KEY (updated_by) REFERENCES fk_user (id) ON DELETE SET NULL);
INSERT INTO fk_user VALUES (1), (2);
INSERT INTO fk_doc VALUES (1, 1, 1), (2, 1, 2), (3, 2, 1), (4, 2, 2);
DELETE FROM fk_user WHERE id = 1;
SELECT * FROM fk_doc ORDER BY id;
DROP TABLE fk_doc;
DROP TABLE fk_user;

-- Multi-table DELETE and UPDATE check and cascade like the single-table ones.
CREATE TABLE fk_team (id INT PRIMARY KEY, name VARCHAR(10));
CREATE TABLE fk_player (id INT PRIMARY KEY, team_id INT, CONSTRAINT fk_player_team FOREIGN KEY (team_id) REFERENCES fk_team (id) ON DELETE CASCADE);
CREATE TABLE fk_match (id INT PRIMARY KEY, team_id INT, CONSTRAINT fk_match_team FOREIGN KEY (team_id) REFERENCES fk_team (id));
INSERT INTO fk_team VALUES (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO fk_player VALUES (1, 1), (2, 1), (3, 2), (4, 3);
INSERT INTO fk_match VALUES (1, 2);
DELETE t FROM fk_team t JOIN fk_player p ON p.team_id = t.id WHERE p.id = 1;
SELECT * FROM fk_player ORDER BY id;
DELETE t FROM fk_team t JOIN fk_match m ON m.team_id = t.id;
UPDATE fk_player p JOIN fk_team t ON t.id = p.team_id SET p.team_id = 9 WHERE t.name = 'c';
UPDATE fk_player p JOIN fk_team t ON t.id = p.team_id SET p.team_id = 2 WHERE t.name = 'c';
SELECT * FROM fk_player ORDER BY id;
SELECT * FROM fk_team ORDER BY id;
DROP TABLE fk_match, fk_player, fk_team;
