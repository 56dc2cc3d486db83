-- Correlated subqueries over a derived table or a common table (issue 18): the outer FROM is
-- computed first, and the subquery's table joins its rows as a semi-, anti- or scalar join
-- step, as it does a base table's. Common tables read once and twice, joined to themselves and
-- to tables, in subqueries and nested in one another.
SELECT d.id FROM (SELECT id FROM customer ORDER BY id LIMIT 3) d WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = d.id) ORDER BY d.id;
SELECT d.id FROM (SELECT id FROM customer ORDER BY id LIMIT 4) d WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = d.id) ORDER BY d.id;
SELECT d.name, (SELECT COUNT(*) FROM orders o WHERE o.customer_id = d.id) AS n FROM (SELECT id, name FROM customer WHERE city IS NOT NULL) d ORDER BY d.id;
SELECT d.id FROM (SELECT id, customer_id FROM orders WHERE status <> 'cancelled') d WHERE d.id IN (SELECT l.order_id FROM order_line l WHERE l.order_id = d.id AND l.qty > 1) ORDER BY d.id;
SELECT d.c, d.total FROM (SELECT customer_id AS c, COUNT(*) AS total FROM orders GROUP BY customer_id) d WHERE EXISTS (SELECT 1 FROM customer x WHERE x.id = d.c AND x.city IS NOT NULL) ORDER BY d.c;
WITH busy AS (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) SELECT c.name, b.n FROM customer c JOIN busy b ON b.customer_id = c.id ORDER BY c.id;
WITH busy AS (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) SELECT a.customer_id, b.customer_id FROM busy a JOIN busy b ON a.n = b.n AND a.customer_id < b.customer_id ORDER BY a.customer_id, b.customer_id;
WITH busy AS (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) SELECT (SELECT MAX(n) FROM busy), (SELECT COUNT(*) FROM busy);
WITH cheap AS (SELECT id, name FROM item WHERE price < 10), named AS (SELECT name FROM cheap) SELECT COUNT(*), (SELECT COUNT(*) FROM named) FROM cheap;
WITH cheap AS (SELECT id FROM item WHERE price < 10) SELECT i.name FROM item i WHERE i.id IN (SELECT id FROM cheap) AND i.id NOT IN (SELECT id FROM cheap WHERE id > 3) ORDER BY i.id;
WITH c AS (SELECT id FROM customer) SELECT c.id, (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) FROM c ORDER BY c.id;
