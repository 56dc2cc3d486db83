-- Named windows (issue 18): `WINDOW w AS (…)` after HAVING, used as `OVER w` by several
-- functions; `OVER (w ORDER BY …)` and `OVER (w ROWS …)` building on a named window (its
-- partitioning and order inherited, a frame or an order added); a named window built on
-- another; names in any case; windows in a derived table and in a subquery of their own;
-- a window clause before a UNION; a RANGE frame over an inherited descending order. Left
-- out: the errors (MySQL 8.0 answers 3579–3583 and 3591, MariaDB 4004–4008; Shoal gives
-- MySQL's), unused windows that are wrong (MySQL checks them, MariaDB not). MariaDB types a
-- table's columns as nullable in a statement with windows, which widens short columns in the
-- client's table: they are aliased to names of four characters or more.
SELECT id AS ident, ROW_NUMBER() OVER w AS rn, RANK() OVER w AS r, SUM(qty) OVER w AS running FROM item WINDOW w AS (ORDER BY id) ORDER BY id;
SELECT order_id, line, qty AS quantity, LAG(qty) OVER w AS prev, LEAD(qty) OVER w AS next, SUM(qty) OVER w AS running FROM order_line WINDOW w AS (PARTITION BY order_id ORDER BY line) ORDER BY order_id, line;
SELECT id AS ident, category, COUNT(*) OVER p AS n, ROW_NUMBER() OVER (p ORDER BY id) AS pos, SUM(qty) OVER (p ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS pair FROM item WINDOW p AS (PARTITION BY category) ORDER BY id;
SELECT id AS ident, SUM(qty) OVER (o ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS around, FIRST_VALUE(id) OVER (o ROWS 2 PRECEDING) AS back2 FROM item WINDOW o AS (ORDER BY id) ORDER BY id;
SELECT customer_id, id AS ident, ROW_NUMBER() OVER b AS rn, COUNT(*) OVER a AS n FROM orders WINDOW a AS (PARTITION BY customer_id), b AS (a ORDER BY placed, id) ORDER BY customer_id, id;
SELECT id AS ident, ROW_NUMBER() OVER c AS rn FROM orders WINDOW a AS (PARTITION BY status), b AS (a), c AS (b ORDER BY id DESC) ORDER BY id;
SELECT id AS ident, ROW_NUMBER() OVER W1 AS rn FROM customer WINDOW w1 AS (ORDER BY name, id) ORDER BY id;
SELECT id AS ident, qty AS quantity, SUM(qty) OVER (d RANGE BETWEEN 5 PRECEDING AND CURRENT ROW) AS near FROM item WINDOW d AS (ORDER BY qty DESC) ORDER BY id;
SELECT ident, rn FROM (SELECT id AS ident, ROW_NUMBER() OVER w AS rn FROM item WINDOW w AS (ORDER BY qty, id)) t WHERE rn <= 3 ORDER BY rn;
SELECT id AS ident, (SELECT MAX(rn) FROM (SELECT ROW_NUMBER() OVER w AS rn FROM order_line WINDOW w AS (ORDER BY line)) x) AS m FROM customer ORDER BY id LIMIT 3;
SELECT id AS ident, ROW_NUMBER() OVER w AS rn FROM customer WINDOW w AS (ORDER BY id) UNION ALL SELECT id, 0 FROM orders ORDER BY ident, rn LIMIT 6;
SELECT status, COUNT(*) AS n, RANK() OVER w AS r FROM orders GROUP BY status WINDOW w AS (ORDER BY COUNT(*) DESC) ORDER BY r, status;
SELECT id AS ident, ROW_NUMBER() OVER w AS rn FROM item WINDOW w AS (ORDER BY id), unused AS (PARTITION BY category) ORDER BY rn DESC LIMIT 3;
