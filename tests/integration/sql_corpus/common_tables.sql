-- Common table expressions (WITH, issue 18): one and several, a later one reading an earlier
-- one, one read twice (a self join) and from a subquery, column lists, a CTE hiding a table
-- of its name, WITH in a subquery and a derived table, a CTE over a join, a GROUP BY, a
-- window and a UNION, the statement's own ORDER BY and LIMIT, INSERT … WITH … SELECT, and
-- 1060 for a column named twice. Left out: WITH RECURSIVE (recursive_tables.sql), the errors whose
-- codes or texts differ (a name twice: 1066; a column list of another length: MySQL 1353,
-- MariaDB 4002), a derived table's column list (`AS d (a, b)`: MySQL 8.0 only), and a
-- correlated subquery over a derived table (1235 in Shoal, CTE or not).
-- MariaDB types a table's columns as nullable in a statement with windows, which widens short
-- columns in the client's table: they are aliased to names of four characters or more.
WITH big AS (SELECT id, name, qty FROM item WHERE qty > 1) SELECT * FROM big ORDER BY id;
WITH big AS (SELECT id, qty FROM item WHERE qty > 1), bigger AS (SELECT id FROM big WHERE qty > 5) SELECT id FROM bigger ORDER BY id;
WITH per_customer (cid, n) AS (SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id) SELECT c.name, p.n FROM customer c JOIN per_customer p ON p.cid = c.id ORDER BY c.id;
WITH o AS (SELECT id, customer_id, placed FROM orders) SELECT a.id, b.id FROM o a JOIN o b ON a.customer_id = b.customer_id AND a.id < b.id ORDER BY a.id, b.id;
WITH o AS (SELECT customer_id FROM orders WHERE status = 'paid') SELECT name FROM customer WHERE id IN (SELECT customer_id FROM o) ORDER BY name;
WITH o AS (SELECT customer_id FROM orders) SELECT name, (SELECT COUNT(*) FROM o) AS n FROM customer ORDER BY id;
WITH item AS (SELECT 1 AS id, 'shadow' AS name) SELECT id, name FROM item;
SELECT name FROM customer WHERE id IN (WITH o AS (SELECT customer_id FROM orders) SELECT customer_id FROM o) ORDER BY id;
SELECT t.n FROM (WITH o AS (SELECT COUNT(*) AS n FROM orders) SELECT n FROM o) t;
WITH ln AS (SELECT ol.order_id, i.name, ol.qty FROM order_line ol JOIN item i ON i.id = ol.item_id) SELECT order_id, name, qty FROM ln ORDER BY order_id, name;
WITH totals AS (SELECT order_id, SUM(qty) AS total FROM order_line GROUP BY order_id) SELECT order_id, total FROM totals WHERE total > 2 ORDER BY total DESC, order_id LIMIT 3;
WITH ranked AS (SELECT id AS ident, qty, ROW_NUMBER() OVER (ORDER BY qty DESC, id) AS pos FROM item) SELECT ident, pos FROM ranked WHERE pos <= 2 ORDER BY pos;
WITH names AS (SELECT name FROM customer UNION SELECT name FROM item) SELECT COUNT(*) FROM names;
WITH a AS (SELECT id FROM customer), b AS (SELECT id FROM orders) SELECT id FROM a UNION ALL SELECT id FROM b ORDER BY id LIMIT 5;
WITH x AS (SELECT id, name FROM customer) SELECT x.name FROM x WHERE x.id = 2;
CREATE TABLE cte_copy (id INT PRIMARY KEY, name VARCHAR(20));
INSERT INTO cte_copy WITH c AS (SELECT id, name FROM customer WHERE id <= 3) SELECT id, name FROM c;
SELECT id, name FROM cte_copy ORDER BY id;
WITH c (a, a) AS (SELECT id, name FROM customer) SELECT a FROM c;
