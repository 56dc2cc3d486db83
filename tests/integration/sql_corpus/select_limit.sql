-- sql_select_limit caps the statement's own SELECT when it has no LIMIT (a UNION's rows put
-- together), not subqueries, derived tables nor INSERT … SELECT.
CREATE TABLE sl (id INT PRIMARY KEY);
CREATE TABLE sl_copy (id INT PRIMARY KEY);
INSERT INTO sl VALUES (1), (2), (3);
SET sql_select_limit = 2;
SELECT id FROM sl ORDER BY id;
SELECT id FROM sl ORDER BY id LIMIT 3;
SELECT id FROM sl ORDER BY id DESC LIMIT 1, 5;
SELECT * FROM (SELECT id FROM sl ORDER BY id) x ORDER BY id DESC;
SELECT COUNT(*) FROM sl WHERE id IN (SELECT id FROM sl);
SELECT (SELECT COUNT(*) FROM sl) AS n, 1 UNION SELECT 3, 4 UNION SELECT 5, 6;
SELECT 1 UNION SELECT 2 UNION SELECT 3 ORDER BY 1 DESC;
SELECT s.id FROM sl s JOIN sl t ON t.id = s.id ORDER BY s.id DESC;
INSERT INTO sl_copy SELECT id FROM sl;
SET sql_select_limit = 0;
SELECT 1;
SELECT id FROM sl;
SET sql_select_limit = DEFAULT;
SELECT @@sql_select_limit;
SELECT COUNT(*) FROM sl_copy;
DROP TABLE sl, sl_copy;
