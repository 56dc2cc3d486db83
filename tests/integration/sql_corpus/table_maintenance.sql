-- ANALYZE, CHECK and REPAIR TABLE: a row per table, as both servers give them (OPTIMIZE's
-- answer is the storage engine's own: "status OK" for NDB, a note before it for InnoDB, so it
-- is tested in router/sql/exec beside the others). A table that is not there: its error and
-- "Operation failed". FLUSH TABLES closes what is cached: nothing, here. Tables tm_….
CREATE TABLE tm_a (id INT PRIMARY KEY, v VARCHAR(10));
CREATE TABLE tm_b (id INT PRIMARY KEY);
INSERT INTO tm_a VALUES (1, 'x'), (2, 'y');
ANALYZE TABLE tm_a;
ANALYZE NO_WRITE_TO_BINLOG TABLE tm_a, tm_b;
ANALYZE TABLE tm_nope, tm_a;
CHECK TABLE tm_a;
CHECK TABLE tm_a, tm_b FOR UPGRADE;
CHECK TABLE tm_a QUICK;
CHECK TABLE tm_a FAST MEDIUM EXTENDED CHANGED;
CHECK TABLE tm_nope;
REPAIR TABLE tm_a;
REPAIR LOCAL TABLE tm_a, tm_b QUICK EXTENDED USE_FRM;
REPAIR TABLE tm_nope;
FLUSH TABLES;
FLUSH TABLES tm_a, tm_b;
SELECT id, v FROM tm_a ORDER BY id;
DROP TABLE tm_a, tm_b;
