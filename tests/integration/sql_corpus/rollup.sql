-- GROUP BY … WITH ROLLUP: a super-aggregate row after each group of every shorter prefix of the
-- items, down to the grand total; rolled-up items read as NULL wherever the select list,
-- HAVING and ORDER BY show them (a plain column or an expression of the items). Left out:
-- ORDER BY with ROLLUP (MySQL 8.0 allows it; MariaDB answers 1221) and GROUPING() (MySQL 8.0
-- only), both in SqlTablesTest; WITH CUBE (MariaDB 1235, MySQL 8.0 a syntax error, as Shoal).
SELECT category, COUNT(*), SUM(qty) FROM item GROUP BY category WITH ROLLUP;
SELECT c.city, o.status, COUNT(*) AS n FROM customer c JOIN orders o ON o.customer_id = c.id GROUP BY c.city, o.status WITH ROLLUP;
SELECT YEAR(added) AS y, MONTH(added) AS m, SUM(price) FROM item GROUP BY y, m WITH ROLLUP;
SELECT YEAR(added), COUNT(*) FROM item GROUP BY YEAR(added) WITH ROLLUP;
SELECT category, COUNT(*) AS n FROM item GROUP BY 1 WITH ROLLUP HAVING n > 1;
SELECT category, COUNT(*) FROM item WHERE id > 100 GROUP BY category WITH ROLLUP;
SELECT COALESCE(category, 'all') AS cat, COUNT(*) FROM item GROUP BY category WITH ROLLUP;
SELECT category, GROUP_CONCAT(name ORDER BY name) FROM item GROUP BY category WITH ROLLUP;
SELECT category, qty, COUNT(*) FROM item GROUP BY category, qty WITH ROLLUP;
SELECT CONCAT(category, '!') AS x, COUNT(*) FROM item GROUP BY category WITH ROLLUP;
SELECT DISTINCT category, COUNT(*) FROM item GROUP BY category WITH ROLLUP;
SELECT category, COUNT(*) FROM item GROUP BY category WITH ROLLUP LIMIT 2;
SELECT category, SUM(qty) AS total FROM item GROUP BY category WITH ROLLUP HAVING total > 5 OR category IS NULL;
SELECT category, MIN(name), MAX(price), AVG(qty) FROM item GROUP BY category WITH ROLLUP;
SELECT o.status, COUNT(DISTINCT o.customer_id) FROM orders o GROUP BY o.status WITH ROLLUP;
SELECT category, name, qty FROM item GROUP BY category, name, qty WITH ROLLUP;
SELECT qty > 2 AS big, COUNT(*) FROM item GROUP BY qty > 2 WITH ROLLUP;
SELECT category FROM item GROUP BY category WITH ROLLUP;
