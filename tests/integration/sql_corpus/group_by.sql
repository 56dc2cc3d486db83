-- GROUP BY a select-list alias or position (MySQL looks up table columns first, then aliases),
-- and the error for grouping on an aggregate. Left out: a position past the list (1054 names
-- 'group statement' in MySQL 8.0, 'GROUP BY' in MariaDB) and an alias that is also a column
-- (both group on the column; Shoal does not yet warn 1052 that it is ambiguous).
SELECT CASE WHEN qty > 0 THEN 'in stock' ELSE 'out' END AS s, COUNT(*) FROM item GROUP BY s ORDER BY s;
SELECT category AS c, COUNT(*) AS n FROM item GROUP BY c ORDER BY n, c;
SELECT UPPER(category), SUM(qty) FROM item GROUP BY 1 ORDER BY 1;
SELECT category, COUNT(*) AS n FROM item GROUP BY 1 HAVING n > 1 ORDER BY 1;
SELECT COUNT(*) AS c FROM item GROUP BY c;
