-- GROUP_CONCAT (issue 18) with DISTINCT, several arguments, ORDER BY (ASC, DESC, several keys,
-- an expression), SEPARATOR, NULLs skipped, over a join and an empty group; COUNT(DISTINCT a,
-- b) over several values. Left out: a result longer than group_concat_max_len (MariaDB's
-- warning text names the row differently).
SELECT GROUP_CONCAT(name ORDER BY id) FROM customer;
SELECT GROUP_CONCAT(name ORDER BY id DESC SEPARATOR ' | ') FROM customer;
SELECT LOWER(city) AS c, GROUP_CONCAT(name ORDER BY name) AS names FROM customer GROUP BY c ORDER BY c;
SELECT GROUP_CONCAT(DISTINCT status ORDER BY status) FROM orders;
SELECT GROUP_CONCAT(id, ':', status ORDER BY status, id DESC SEPARATOR ';') FROM orders;
SELECT customer_id, GROUP_CONCAT(id ORDER BY placed DESC) AS ids, COUNT(*) FROM orders GROUP BY customer_id ORDER BY customer_id;
SELECT GROUP_CONCAT(city) IS NULL, GROUP_CONCAT(city ORDER BY city) FROM customer WHERE id IN (1, 4);
SELECT GROUP_CONCAT(name) FROM customer WHERE id > 100;
SELECT c.name, GROUP_CONCAT(o.id ORDER BY o.id SEPARATOR '') AS orders FROM customer c JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY c.name;
SELECT GROUP_CONCAT(qty * 2 ORDER BY qty * 2 DESC) FROM order_line WHERE order_id < 12;
SELECT COUNT(DISTINCT customer_id, status), COUNT(DISTINCT status), COUNT(DISTINCT customer_id) FROM orders;
SELECT status, COUNT(DISTINCT customer_id, placed) FROM orders GROUP BY status ORDER BY status;
