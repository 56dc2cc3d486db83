-- Parenthesized queries: each part of a UNION, INTERSECT or EXCEPT with its own ORDER BY and
-- LIMIT, and the whole union's after the last `)`; a parenthesized query as the statement, with
-- ORDER BY and LIMIT outside it; as a subquery (IN, EXISTS, scalar, quantified), a derived
-- table and INSERT … SELECT's query; a parenthesized UNION as one part of another. Every result
-- that has more than one row is ordered by the outermost query. Left out: LIMIT inside an IN
-- subquery (1235 in MySQL 8.0 and MariaDB; Shoal runs it), an unknown column in a part (MySQL's
-- 1054 names 'field list' or 'order clause', MariaDB 'SELECT' or 'ORDER BY').
(SELECT id FROM item ORDER BY id LIMIT 1) UNION (SELECT id FROM item ORDER BY id DESC LIMIT 1) ORDER BY id;
(SELECT id FROM item ORDER BY id LIMIT 2) UNION ALL (SELECT id FROM item ORDER BY id DESC LIMIT 2) ORDER BY id DESC LIMIT 3;
(SELECT id, name FROM customer ORDER BY name DESC LIMIT 2) UNION SELECT id, status FROM orders WHERE id = 10 ORDER BY 1;
SELECT id FROM customer WHERE id < 3 UNION (SELECT customer_id FROM orders ORDER BY placed DESC LIMIT 2) ORDER BY id;
SELECT id FROM customer UNION (SELECT id FROM orders ORDER BY id LIMIT 3) ORDER BY id DESC LIMIT 4;
(SELECT name FROM item WHERE qty > 0 ORDER BY qty LIMIT 2) UNION ALL (SELECT name FROM item WHERE qty IS NULL) UNION ALL (SELECT name FROM customer ORDER BY id LIMIT 1) ORDER BY name;
(SELECT 1 AS a) UNION (SELECT 2) UNION (SELECT 1) ORDER BY a;
(SELECT customer_id FROM orders ORDER BY id LIMIT 4) INTERSECT (SELECT id FROM customer ORDER BY id LIMIT 2) ORDER BY 1;
(SELECT id FROM customer ORDER BY id LIMIT 4) EXCEPT (SELECT customer_id FROM orders WHERE status = 'paid') ORDER BY 1;
(SELECT id FROM customer) UNION (SELECT id FROM orders) ORDER BY id LIMIT 2, 3;
((SELECT id FROM customer ORDER BY id LIMIT 2) UNION (SELECT id FROM orders ORDER BY id LIMIT 1)) ORDER BY id DESC;
(SELECT id FROM customer WHERE id < 3 UNION SELECT id FROM orders WHERE id < 12) UNION (SELECT 99) ORDER BY id;
SELECT 5 UNION (SELECT id FROM customer WHERE id > 3 UNION ALL SELECT id FROM customer WHERE id > 3) ORDER BY 1;
(SELECT id FROM customer ORDER BY id DESC LIMIT 3);
(SELECT id, name FROM customer ORDER BY id LIMIT 3) ORDER BY name DESC;
(SELECT id FROM customer ORDER BY id DESC LIMIT 3) LIMIT 1;
(SELECT id FROM customer ORDER BY id) LIMIT 2;
(SELECT id FROM customer WHERE id > 2) ORDER BY id DESC LIMIT 2;
((SELECT name FROM customer WHERE id = 2));
(SELECT 1 + 1);
SELECT name FROM customer WHERE id IN ((SELECT customer_id FROM orders WHERE id = 12) UNION (SELECT 5)) ORDER BY id;
SELECT name FROM customer WHERE id IN ((SELECT customer_id FROM orders WHERE status = 'void')) ORDER BY id;
SELECT name FROM customer c WHERE EXISTS ((SELECT 1 FROM orders o WHERE o.customer_id = c.id)) ORDER BY id;
SELECT ((SELECT MAX(id) FROM orders)) AS m, ((SELECT MIN(id) FROM orders) + 1) AS n;
SELECT name FROM customer WHERE id = ANY ((SELECT 2) UNION (SELECT 3)) ORDER BY id;
SELECT x.id FROM ((SELECT id FROM customer ORDER BY id LIMIT 2) UNION (SELECT id FROM orders ORDER BY id DESC LIMIT 1)) AS x ORDER BY x.id;
SELECT COUNT(*), SUM(id) FROM ((SELECT id FROM customer) UNION ALL (SELECT id FROM orders)) AS u;
SELECT c.name, x.n FROM customer c JOIN ((SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id ORDER BY n DESC LIMIT 1)) AS x ON x.customer_id = c.id;
CREATE TABLE paren_copy (id INT PRIMARY KEY);
INSERT INTO paren_copy (SELECT id FROM customer ORDER BY id LIMIT 2) UNION (SELECT id FROM orders ORDER BY id LIMIT 1);
INSERT INTO paren_copy (id) (SELECT 100);
SELECT id FROM paren_copy ORDER BY id;
DROP TABLE paren_copy;
(SELECT id FROM customer) UNION (SELECT id, name FROM customer);
