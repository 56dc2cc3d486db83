-- UNION [DISTINCT] and UNION ALL (issue 18): over tables, joins and no table; ORDER BY and
-- LIMIT on the whole (by name, alias and position); duplicates removed up to the last UNION
-- DISTINCT; each column typed over every SELECT (integers and decimals, dates and datetimes,
-- numbers and strings); a UNION inside IN (…); 1222 for SELECTs of different widths; strings
-- ordered and compared case-insensitively. Left out:
-- a UNION of strings that differ only in case with no ORDER to decide which one stays (each
-- server keeps the one it met first).
SELECT id, name FROM customer WHERE id < 3 UNION SELECT id, status FROM orders WHERE id < 12 ORDER BY id;
SELECT LOWER(city) AS c FROM customer UNION SELECT status FROM orders ORDER BY c;
SELECT customer_id FROM orders UNION ALL SELECT id FROM customer ORDER BY 1;
SELECT customer_id FROM orders UNION SELECT id FROM customer ORDER BY customer_id DESC;
SELECT 1 AS a, 'x' AS b UNION SELECT 2, 'y' UNION ALL SELECT 1, 'x' ORDER BY a, b;
SELECT 1 UNION SELECT 1 UNION ALL SELECT 1;
SELECT 1 UNION ALL SELECT 1 UNION SELECT 1;
SELECT id FROM customer UNION SELECT id FROM orders ORDER BY id DESC LIMIT 3;
SELECT id FROM customer UNION ALL SELECT id FROM orders ORDER BY id LIMIT 2, 3;
SELECT id, price FROM item WHERE price > 10 UNION SELECT id, qty FROM item WHERE qty > 3 ORDER BY id, price;
SELECT placed FROM orders WHERE id = 10 UNION SELECT added FROM item WHERE id = 1 ORDER BY 1;
SELECT 'a' AS v UNION SELECT 1 UNION SELECT 2.5 ORDER BY v;
SELECT name FROM customer WHERE id IN (SELECT customer_id FROM orders WHERE status = 'paid' UNION SELECT referred_by FROM customer) ORDER BY id;
SELECT c.name FROM customer c JOIN orders o ON o.customer_id = c.id WHERE o.status = 'void' UNION SELECT name FROM customer WHERE id = 5 ORDER BY name;
SELECT COUNT(*) FROM customer UNION ALL SELECT COUNT(*) FROM orders UNION ALL SELECT SUM(qty) FROM order_line;
SELECT id FROM customer UNION SELECT id, name FROM customer;
SELECT 'B' AS s UNION SELECT 'a' UNION SELECT 'C' UNION SELECT 'b ' ORDER BY s, LENGTH(s);
SELECT MIN(s), MAX(s) FROM (SELECT 'B' AS s UNION ALL SELECT 'a' UNION ALL SELECT 'C') t;
