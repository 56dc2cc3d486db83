-- Joins (issue 18): inner, comma, CROSS, LEFT, RIGHT, self joins, USING, three and four
-- tables, under WHERE, GROUP BY, HAVING, DISTINCT, ORDER BY and LIMIT; keys that are strings
-- (compared case-insensitively) and keys of another type than their column; derived tables
-- joined to tables and derived tables of joins, UNIONs and derived tables; the resolver's
-- 1066. Every result that has more than one row is ordered: without ORDER BY, a join's row
-- order is the server's own. Left out: the other resolver errors, whose texts MariaDB words
-- its own way ('in SELECT', 'in ON', 'corpus.z'; sql_tables_test checks MySQL's), and UPPER
-- over a joined column, which MariaDB types nullable where MySQL 8.0 does not.
SELECT c.name, o.id, o.status FROM customer c JOIN orders o ON o.customer_id = c.id ORDER BY o.id;
SELECT c.name, o.id FROM customer c, orders o WHERE o.customer_id = c.id AND c.city = 'paris' ORDER BY o.id;
SELECT c.name, o.id FROM orders o INNER JOIN customer c ON c.id = o.customer_id WHERE o.id = 12;
SELECT c.name, o.id FROM customer c LEFT JOIN orders o ON o.customer_id = c.id ORDER BY c.id, o.id;
SELECT c.name FROM customer c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL ORDER BY c.id;
SELECT c.name, o.id FROM customer c LEFT OUTER JOIN orders o ON o.customer_id = c.id AND o.status = 'paid' ORDER BY c.id, o.id;
SELECT c.name, o.id FROM customer c RIGHT JOIN orders o ON o.customer_id = c.id ORDER BY o.id;
SELECT c.name, o.id FROM customer c RIGHT OUTER JOIN orders o ON o.customer_id = c.id WHERE c.id IS NULL ORDER BY o.id;
SELECT c.name, r.name AS referrer FROM customer c LEFT JOIN customer r ON r.id = c.referred_by ORDER BY c.id;
SELECT a.name, b.name FROM customer a JOIN customer b ON a.city = b.city AND a.id < b.id ORDER BY a.id, b.id;
SELECT o.id, i.name, ol.qty FROM orders o JOIN order_line ol ON ol.order_id = o.id JOIN item i ON i.id = ol.item_id ORDER BY o.id, ol.line;
SELECT o.id, ol.line, i.name FROM orders o JOIN order_line ol ON ol.order_id = o.id LEFT JOIN item i ON i.id = ol.item_id WHERE o.id >= 16 ORDER BY ol.line;
SELECT c.name, o.id, ol.line FROM customer c LEFT JOIN orders o ON o.customer_id = c.id LEFT JOIN order_line ol ON ol.order_id = o.id ORDER BY c.id, o.id, ol.line;
SELECT c.name, COUNT(o.id) AS n FROM customer c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY n DESC, c.name;
SELECT c.name, SUM(ol.qty * i.price) AS total FROM customer c JOIN orders o ON o.customer_id = c.id JOIN order_line ol ON ol.order_id = o.id JOIN item i ON i.id = ol.item_id GROUP BY c.name HAVING total > 10 ORDER BY total DESC;
SELECT COUNT(*), SUM(ol.qty) FROM orders o JOIN order_line ol ON ol.order_id = o.id WHERE o.status = 'paid';
SELECT o.id, c.name FROM orders o JOIN customer c ON c.id = o.customer_id ORDER BY o.placed DESC LIMIT 2;
SELECT o.id, c.name FROM orders o JOIN customer c ON c.id = o.customer_id ORDER BY o.id LIMIT 1, 2;
SELECT c.name FROM customer c JOIN orders o ON o.customer_id = c.id ORDER BY o.placed DESC, o.id;
SELECT DISTINCT c.city FROM customer c JOIN orders o ON o.customer_id = c.id WHERE c.id < 3 ORDER BY c.city;
SELECT COUNT(DISTINCT c.city), COUNT(*) FROM customer c JOIN orders o ON o.customer_id = c.id;
SELECT LOWER(c.city) AS city, COUNT(*) FROM customer c JOIN orders o ON o.customer_id = c.id GROUP BY LOWER(c.city) ORDER BY city;
SELECT COUNT(*) FROM customer CROSS JOIN item;
SELECT COUNT(*) FROM customer, item, orders WHERE item.qty > 2;
SELECT c.*, o.id FROM customer c JOIN orders o ON o.customer_id = c.id WHERE o.status = 'paid' ORDER BY o.id;
SELECT c.id, o.* FROM customer c LEFT JOIN orders o ON o.customer_id = c.id WHERE c.id > 3 ORDER BY c.id;
SELECT * FROM customer c JOIN orders o ON o.customer_id = c.id WHERE c.id = 2;
SELECT * FROM customer c JOIN customer d USING (city) ORDER BY c.id, d.id;
SELECT city, c.name, d.name FROM customer c JOIN customer d USING (city) WHERE c.id <> d.id ORDER BY c.id, d.id;
SELECT c.name, o.id FROM customer c STRAIGHT_JOIN orders o ON o.customer_id = c.id WHERE c.id = 1 ORDER BY o.id;
SELECT i.name, o.id FROM item i JOIN orders o ON o.id = i.code WHERE i.id IN (1, 2, 3, 5) ORDER BY i.id;
SELECT c.name, o.id FROM customer c JOIN orders o ON o.customer_id = c.id + 0 WHERE c.id < 3 ORDER BY o.id;
SELECT c.name AS who, CASE WHEN o.status = 'paid' THEN o.id END AS paid FROM customer c JOIN orders o ON o.customer_id = c.id ORDER BY o.id;
SELECT c.name, o.id FROM customer c JOIN orders o ON o.customer_id = c.id AND c.id = 3;
SELECT c.name FROM customer c JOIN orders o ON 1 = 0;
SELECT t.TABLE_NAME, c.COLUMN_NAME FROM information_schema.TABLES t JOIN information_schema.COLUMNS c ON c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME WHERE t.TABLE_SCHEMA = 'corpus' AND t.TABLE_NAME = 'orders' ORDER BY c.ORDINAL_POSITION;
SELECT 1 FROM customer c JOIN orders c ON 1 = 1;
SELECT c.name, d.n FROM customer c JOIN (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) d ON d.customer_id = c.id ORDER BY c.id;
SELECT c.name, d.n FROM customer c LEFT JOIN (SELECT customer_id, COUNT(*) AS n FROM orders WHERE status = 'paid' GROUP BY customer_id) AS d ON d.customer_id = c.id ORDER BY c.id;
SELECT d.status, COUNT(*) FROM (SELECT o.status FROM orders o JOIN customer c ON c.id = o.customer_id) d GROUP BY d.status ORDER BY 1;
SELECT * FROM (SELECT id FROM customer UNION SELECT customer_id FROM orders) u WHERE id > 2 ORDER BY id;
SELECT x.a + y.b AS s FROM (SELECT 1 AS a UNION ALL SELECT 2) x CROSS JOIN (SELECT 10 AS b) y ORDER BY s;
SELECT t.total FROM (SELECT SUM(qty) AS total FROM (SELECT qty FROM order_line WHERE qty < 100) q) t;
