-- ONLY_FULL_GROUP_BY, set here since MariaDB's default sql_mode lacks it (MySQL 8.0's has it):
-- grouped queries whose every column is grouped on or aggregated run; a column that varies in
-- a group is 1055 (with GROUP BY) or 1140 (an aggregate without). The two servers word those
-- apart (MySQL 8.0: "Expression #2 of SELECT list is not in GROUP BY clause…", unit-tested in
-- row_pipeline_test and sql_tables_test), so the test compares their codes. Left out: what
-- MySQL 8.0 takes as functionally dependent (a primary key's columns, a WHERE equality) and
-- MariaDB refuses, ORDER BY (MariaDB does not check it), and HAVING on a column neither
-- selected nor grouped (MariaDB's 1054).
SET sql_mode = 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION';
SELECT category, name FROM item GROUP BY category;
SELECT * FROM item GROUP BY category;
SELECT category, qty + COUNT(*) FROM item GROUP BY category;
SELECT UPPER(name), COUNT(*) FROM item GROUP BY UPPER(category);
SELECT category, COUNT(*) FROM item;
SELECT MAX(qty), name FROM item;
SELECT c.city, o.status FROM customer c JOIN orders o ON o.customer_id = c.id GROUP BY c.city;
SELECT qty + 1 AS q, COUNT(*) FROM item GROUP BY qty + 1 ORDER BY q;
SELECT category AS c, COUNT(*) AS n FROM item GROUP BY c HAVING n > 1 ORDER BY c;
SELECT category, SUM(qty) FROM item GROUP BY 1 ORDER BY 2;
SELECT UPPER(category), MAX(qty) FROM item GROUP BY UPPER(category) ORDER BY 1;
SELECT category, MAX(qty) FROM item GROUP BY category ORDER BY MAX(qty);
SELECT category, SUM(SUM(qty)) OVER () AS total FROM item GROUP BY category ORDER BY category;
SELECT category, COUNT(*) FROM item GROUP BY category HAVING category IS NOT NULL ORDER BY 1;
SELECT c.name, COUNT(o.id) AS n FROM customer c JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY n DESC, c.name;
SELECT COUNT(*), SUM(qty), MIN(name) FROM item WHERE id > 1;
SELECT category, COUNT(*) FROM item GROUP BY category WITH ROLLUP;
SELECT d.status, d.n FROM (SELECT status, COUNT(*) AS n FROM orders GROUP BY status) d ORDER BY d.status;
-- Off, as it was: the group's row answers (here the only row).
SET sql_mode = 'STRICT_TRANS_TABLES';
SELECT category, name, COUNT(*) FROM item WHERE id = 3 GROUP BY category;
SELECT name, COUNT(*) FROM item WHERE id = 1;
