-- HAVING without GROUP BY or aggregates filters the rows, seeing the select list's aliases.
-- Left out: an unknown column (MySQL 8.0 names 'having clause', MariaDB 'HAVING').
SELECT id AS x FROM item HAVING x > 3;
SELECT id, name FROM item HAVING name LIKE 'h%';
SELECT id, qty * 2 AS double_qty FROM item HAVING double_qty >= 8 ORDER BY id;
SELECT c.name, o.id AS oid FROM customer c JOIN orders o ON o.customer_id = c.id HAVING oid > 12 ORDER BY oid;
SELECT id FROM item HAVING id > 1 ORDER BY id DESC LIMIT 2;
SELECT DISTINCT category AS cat FROM item HAVING cat IS NOT NULL ORDER BY cat;
