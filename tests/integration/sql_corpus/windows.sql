-- Window functions (issue 18): ROW_NUMBER, RANK, DENSE_RANK, NTILE, LAG, LEAD, FIRST_VALUE,
-- LAST_VALUE and COUNT/SUM/AVG/MAX OVER a window; PARTITION BY, ORDER BY (running totals over
-- the default frame, peers included) or neither (the whole partition); over a join, over
-- groups (RANK by an aggregate), over the groups or rows HAVING keeps (windows come after
-- HAVING), in a derived table filtered outside, with the statement's own ORDER BY and LIMIT. Left out: windows ordered by strings that differ only in case (the
-- router still orders strings by bytes, MariaDB by collation), LAG/LEAD with a default
-- (MariaDB 10.11 has no third argument), explicit frames (1235). MariaDB types a table's
-- columns as nullable in a statement with windows (MySQL 8.0 does not), which widens short
-- columns in the client's table: they are aliased to names of four characters or more.
SELECT id AS ident, name, ROW_NUMBER() OVER (ORDER BY name) AS rn FROM customer ORDER BY id;
SELECT id AS ident, LOWER(city) AS c, RANK() OVER (ORDER BY LOWER(city)) AS r, DENSE_RANK() OVER (ORDER BY LOWER(city)) AS d FROM customer ORDER BY id;
SELECT customer_id, id AS ident, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY placed) AS n FROM orders ORDER BY customer_id, id;
SELECT id AS ident, qty AS quantity, SUM(qty) OVER (ORDER BY id) AS running, SUM(qty) OVER () AS total, COUNT(*) OVER () AS n FROM item ORDER BY id;
SELECT order_id, line, qty AS quantity, LAG(qty) OVER (PARTITION BY order_id ORDER BY line) AS prev, LEAD(qty) OVER (PARTITION BY order_id ORDER BY line) AS next FROM order_line ORDER BY order_id, line;
SELECT order_id, line, LAG(qty, 2) OVER (ORDER BY order_id, line) AS back2, LEAD(qty, 3) OVER (ORDER BY order_id, line) AS ahead3 FROM order_line ORDER BY order_id, line;
SELECT id AS ident, FIRST_VALUE(name) OVER (ORDER BY id) AS first_name, LAST_VALUE(name) OVER (ORDER BY id) AS so_far FROM customer ORDER BY id;
SELECT id AS ident, NTILE(3) OVER (ORDER BY id) AS third FROM orders ORDER BY id;
SELECT status, COUNT(*) AS n, RANK() OVER (ORDER BY COUNT(*) DESC) AS r FROM orders GROUP BY status ORDER BY r, status;
SELECT id AS ident, AVG(price) OVER (PARTITION BY category) AS avg_price, MAX(qty) OVER (PARTITION BY category) AS max_qty FROM item ORDER BY id;
SELECT c.name, o.id AS ident, ROW_NUMBER() OVER (PARTITION BY c.id ORDER BY o.placed DESC) AS recent FROM customer c JOIN orders o ON o.customer_id = c.id ORDER BY c.id, recent;
SELECT * FROM (SELECT id AS ident, ROW_NUMBER() OVER (ORDER BY id DESC) AS rn FROM orders) t WHERE rn <= 3 ORDER BY rn;
SELECT id AS ident, ROW_NUMBER() OVER (ORDER BY id) AS rn FROM orders ORDER BY rn DESC LIMIT 2;
SELECT order_id, SUM(qty) OVER (PARTITION BY order_id ORDER BY line) AS running FROM order_line WHERE order_id IN (10, 12, 16) ORDER BY order_id, line;
SELECT status, COUNT(*) AS n, RANK() OVER (ORDER BY COUNT(*) DESC) AS r, SUM(COUNT(*)) OVER () AS total FROM orders GROUP BY status HAVING COUNT(*) > 1 ORDER BY r, status;
SELECT customer_id, COUNT(*) AS n, ROW_NUMBER() OVER (ORDER BY customer_id) AS pos FROM orders GROUP BY customer_id HAVING n >= 2 ORDER BY customer_id;
SELECT id AS ident, qty AS quantity, ROW_NUMBER() OVER (ORDER BY qty, id) AS pos FROM item HAVING quantity > 1 ORDER BY id;
