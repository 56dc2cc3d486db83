-- INTERSECT and EXCEPT beside UNION: DISTINCT (the default) and ALL (rows counted: as often
-- as both have them, or as the left one has them more), over tables and constants, with ORDER
-- BY and LIMIT on the whole; INTERSECT binding tighter than UNION and EXCEPT, which go left
-- to right; rows compared under the columns' collation ('ann' and 'ANN' are one row); NULLs
-- equal for these; column names from the first SELECT; in a subquery and a derived table.
SELECT customer_id FROM orders INTERSECT SELECT id FROM customer ORDER BY customer_id;
SELECT customer_id FROM orders INTERSECT ALL SELECT customer_id FROM orders WHERE status = 'paid' ORDER BY customer_id;
SELECT id FROM customer EXCEPT SELECT customer_id FROM orders ORDER BY id;
SELECT customer_id FROM orders EXCEPT ALL SELECT customer_id FROM orders WHERE status = 'paid' ORDER BY customer_id;
SELECT customer_id FROM orders EXCEPT SELECT 1 ORDER BY customer_id;
SELECT 1 AS n UNION SELECT 2 INTERSECT SELECT 2 ORDER BY n;
SELECT 1 AS n UNION SELECT 2 EXCEPT SELECT 1 ORDER BY n;
SELECT 1 AS n EXCEPT SELECT 1 UNION SELECT 1 ORDER BY n;
SELECT 3 AS n INTERSECT SELECT 3 INTERSECT SELECT 4;
SELECT 1 AS n UNION ALL SELECT 1 EXCEPT ALL SELECT 1;
SELECT 1 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 INTERSECT ALL SELECT 2 ORDER BY n;
SELECT name FROM customer INTERSECT SELECT UPPER(name) FROM customer ORDER BY name;
SELECT city FROM customer EXCEPT SELECT NULL ORDER BY city;
SELECT NULL AS x INTERSECT SELECT NULL;
SELECT status AS s FROM orders INTERSECT SELECT status FROM orders WHERE customer_id = 1 ORDER BY s DESC LIMIT 2;
SELECT name FROM customer WHERE id IN (SELECT customer_id FROM orders EXCEPT SELECT 2) ORDER BY id;
SELECT COUNT(*) FROM (SELECT customer_id FROM orders INTERSECT ALL SELECT customer_id FROM orders) d;
SELECT id, name FROM customer INTERSECT SELECT id, name FROM customer WHERE id > 3 ORDER BY id;
SELECT id FROM customer INTERSECT SELECT id, name FROM customer;
