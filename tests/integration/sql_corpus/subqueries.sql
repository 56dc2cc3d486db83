-- Subqueries that read tables (issue 18), uncorrelated: IN, NOT IN (NULLs included), EXISTS,
-- NOT EXISTS, scalar subqueries in WHERE and in the select list, a subquery inside a join's
-- WHERE, subqueries within subqueries, a derived table grouped, and MySQL's errors for a
-- scalar subquery of several rows or columns; UPDATE and DELETE that choose rows by one (the
-- last, in a transaction rolled back).
SELECT name FROM customer WHERE id IN (SELECT customer_id FROM orders WHERE status = 'paid') ORDER BY id;
SELECT name FROM customer WHERE id NOT IN (SELECT customer_id FROM orders WHERE customer_id IS NOT NULL) ORDER BY id;
SELECT name FROM customer WHERE id NOT IN (SELECT customer_id FROM orders) ORDER BY id;
SELECT name FROM customer WHERE EXISTS (SELECT 1 FROM orders WHERE status = 'void') ORDER BY id;
SELECT name FROM customer WHERE NOT EXISTS (SELECT 1 FROM orders WHERE status = 'lost') AND id < 3 ORDER BY id;
SELECT name FROM customer WHERE EXISTS (SELECT * FROM orders WHERE status = 'lost');
SELECT name, (SELECT COUNT(*) FROM orders) AS all_orders FROM customer WHERE id < 3 ORDER BY id;
SELECT id, price FROM item WHERE price > (SELECT AVG(price) FROM item) ORDER BY id;
SELECT (SELECT MAX(placed) FROM orders) AS last, (SELECT MIN(id) FROM customer WHERE city = 'rome') AS rome;
SELECT COUNT(*) FROM orders WHERE customer_id IN (SELECT id FROM customer WHERE city = 'paris');
SELECT c.name, o.id FROM customer c JOIN orders o ON o.customer_id = c.id WHERE o.id IN (SELECT order_id FROM order_line WHERE qty > 10) ORDER BY o.id;
SELECT name FROM item WHERE id IN (SELECT item_id FROM order_line WHERE order_id IN (SELECT id FROM orders WHERE status = 'paid')) ORDER BY id;
SELECT * FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) d WHERE n > 1;
SELECT name FROM customer WHERE id = (SELECT customer_id FROM orders WHERE id = 12);
SELECT name FROM customer WHERE id = (SELECT customer_id FROM orders WHERE id = 99);
SELECT name FROM customer WHERE id = (SELECT customer_id FROM orders);
SELECT name FROM customer WHERE id IN (SELECT id, customer_id FROM orders);
SELECT name FROM customer WHERE id = (SELECT customer_id FROM nowhere);
UPDATE item SET qty = qty + 1 WHERE id IN (SELECT item_id FROM order_line WHERE qty > 10);
SELECT id, qty FROM item ORDER BY id;
DELETE FROM order_line WHERE order_id IN (SELECT id FROM orders WHERE status = 'void');
SELECT order_id, line FROM order_line ORDER BY order_id, line;
BEGIN;
UPDATE orders SET status = 'done' WHERE customer_id = (SELECT id FROM customer WHERE name = 'bob');
SELECT id, status FROM orders WHERE status = 'done';
ROLLBACK;
SELECT COUNT(*) FROM orders WHERE status = 'done';
