-- Multi-table UPDATE and DELETE (issue 18), on tables of their own (dropped at the end): a
-- joined UPDATE setting values from the other table, one over a LEFT JOIN and a WHERE on both,
-- one where several joined rows name the same target row (updated once), a joined UPDATE of
-- two tables; DELETE t1 FROM …, DELETE t1, t2 FROM …, DELETE FROM t1 USING …, with aliases.
CREATE TABLE acct (id INT PRIMARY KEY, owner INT, balance INT NOT NULL, note VARCHAR(20));
CREATE TABLE person (id INT PRIMARY KEY, name VARCHAR(20), bonus INT);
INSERT INTO acct VALUES (1, 1, 100, NULL), (2, 1, 50, NULL), (3, 2, 10, NULL), (4, 3, 0, NULL), (5, NULL, 7, NULL);
INSERT INTO person VALUES (1, 'ann', 5), (2, 'bob', NULL), (3, 'cid', 20);
UPDATE acct a JOIN person p ON p.id = a.owner SET a.balance = a.balance + p.bonus WHERE p.bonus IS NOT NULL;
SELECT * FROM acct ORDER BY id;
UPDATE acct a LEFT JOIN person p ON p.id = a.owner SET a.note = COALESCE(p.name, 'nobody') WHERE a.balance < 60;
SELECT * FROM acct ORDER BY id;
UPDATE person p JOIN acct a ON a.owner = p.id SET p.bonus = 0 WHERE a.balance > 0;
SELECT * FROM person ORDER BY id;
UPDATE acct a, person p SET a.note = 'two', p.name = UPPER(p.name) WHERE a.owner = p.id AND p.id = 3;
SELECT a.id, a.note, p.name FROM acct a JOIN person p ON p.id = a.owner ORDER BY a.id;
UPDATE acct a JOIN person p ON p.id = a.owner SET a.balance = a.balance WHERE p.id = 1;
DELETE a FROM acct a JOIN person p ON p.id = a.owner WHERE p.name = 'bob';
SELECT id FROM acct ORDER BY id;
DELETE FROM a USING acct AS a LEFT JOIN person p ON p.id = a.owner WHERE p.id IS NULL;
SELECT id FROM acct ORDER BY id;
DELETE acct, person FROM acct JOIN person ON person.id = acct.owner WHERE person.id = 3;
SELECT id FROM acct ORDER BY id;
SELECT id FROM person ORDER BY id;
DELETE nowhere FROM acct a JOIN person p ON p.id = a.owner;
DROP TABLE acct, person;
