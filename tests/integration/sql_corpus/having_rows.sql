-- HAVING without GROUP BY or aggregates filters the rows, seeing the select list's aliases.
-- An alias outranks a column of its name unless GROUP BY names the column. Left out: an
-- unknown column (MySQL 8.0 names 'having clause', MariaDB 'HAVING'), and a name both an alias
-- and a GROUP BY column (the column wins in all three, but Shoal does not warn 1052).
SELECT id AS x FROM item HAVING x > 3 ORDER BY x;
SELECT id, name FROM item HAVING name LIKE 'h%' ORDER BY id;
SELECT id, qty * 2 AS double_qty FROM item HAVING double_qty >= 8 ORDER BY id;
SELECT c.name, o.id AS oid FROM customer c JOIN orders o ON o.customer_id = c.id HAVING oid > 12 ORDER BY oid;
SELECT id FROM item HAVING id > 1 ORDER BY id DESC LIMIT 2;
SELECT DISTINCT category AS cat FROM item HAVING cat IS NOT NULL ORDER BY cat;
SELECT category, SUM(qty) AS qty FROM item GROUP BY category HAVING qty > 5 ORDER BY category;
SELECT name, CASE WHEN category = 'tool' THEN 'T' ELSE 'O' END AS category FROM item HAVING category IN ('T') ORDER BY name;
