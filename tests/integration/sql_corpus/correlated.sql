-- Correlated subqueries (issue 18), run as semi- and anti-joins: EXISTS, NOT EXISTS, IN and
-- NOT IN whose SELECT names the outer table, alone or beside other conditions and joins, with
-- the inner table's columns named bare or qualified (the inner scope first), NULLs on either
-- side of NOT IN, and correlated by more than one column; correlated scalar subqueries in the
-- select list, in ORDER BY and compared in WHERE (aggregates, one value, 1242 for several).
-- Left out: grouped
-- correlated subqueries (1235 in Shoal until they run as joins too), and an unknown
-- column inside one (MariaDB's 1054 says 'WHERE', MySQL's 'where clause').
SELECT name FROM customer c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id) ORDER BY id;
SELECT name FROM customer c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id) ORDER BY id;
SELECT name FROM customer c WHERE EXISTS (SELECT * FROM orders WHERE customer_id = c.id AND status = 'paid') ORDER BY id;
SELECT name FROM customer WHERE EXISTS (SELECT 1 FROM orders WHERE orders.customer_id = customer.id AND orders.placed > '2024-02-15') ORDER BY id;
SELECT c.name FROM customer c WHERE c.id IN (SELECT o.customer_id FROM orders o WHERE o.status = c.city OR o.customer_id = c.referred_by) ORDER BY c.id;
SELECT id, status FROM orders o WHERE o.id IN (SELECT order_id FROM order_line l WHERE l.qty > 1 AND l.order_id = o.id) ORDER BY id;
SELECT id FROM orders o WHERE o.id NOT IN (SELECT order_id FROM order_line l WHERE l.item_id = o.customer_id) ORDER BY id;
SELECT id FROM orders o WHERE o.customer_id NOT IN (SELECT referred_by FROM customer c WHERE c.id > o.customer_id) ORDER BY id;
SELECT id FROM orders o WHERE o.customer_id NOT IN (SELECT c.id FROM customer c WHERE c.id <> o.id) ORDER BY id;
SELECT i.name FROM item i WHERE NOT EXISTS (SELECT 1 FROM order_line l WHERE l.item_id = i.id) ORDER BY i.id;
SELECT i.name, (SELECT COUNT(*) FROM order_line) AS all_lines FROM item i WHERE EXISTS (SELECT 1 FROM order_line l WHERE l.item_id = i.id AND l.qty >= 2) ORDER BY i.id;
SELECT c.name, o.id FROM customer c JOIN orders o ON o.customer_id = c.id WHERE EXISTS (SELECT 1 FROM order_line l WHERE l.order_id = o.id AND l.qty > 10) ORDER BY o.id;
SELECT c.name FROM customer c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL AND NOT EXISTS (SELECT 1 FROM customer r WHERE r.referred_by = c.id) ORDER BY c.id;
SELECT COUNT(*) FROM customer c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id) AND c.id < 3;
SELECT a.id FROM customer a WHERE EXISTS (SELECT 1 FROM customer b WHERE b.referred_by = a.id AND b.city = a.city) ORDER BY a.id;
SELECT c.name, (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) AS n_orders FROM customer c ORDER BY c.id;
SELECT c.name, (SELECT MAX(o.placed) FROM orders o WHERE o.customer_id = c.id AND o.status = 'paid') AS last_paid FROM customer c ORDER BY c.id;
SELECT o.id, (SELECT SUM(l.qty) FROM order_line l WHERE l.order_id = o.id) AS qty, (SELECT c.name FROM customer c WHERE c.id = o.customer_id) AS who FROM orders o ORDER BY o.id;
SELECT i.name, (SELECT COUNT(DISTINCT l.order_id) FROM order_line l WHERE l.item_id = i.id) + 0 AS orders_with FROM item i ORDER BY i.id;
SELECT c.name, (SELECT o.id FROM orders o WHERE o.customer_id = c.id) AS only_order FROM customer c WHERE c.id IN (2, 3, 5) ORDER BY c.id;
SELECT c.name, (SELECT o.id FROM orders o WHERE o.customer_id = c.id) AS only_order FROM customer c ORDER BY c.id;
SELECT c.name FROM customer c ORDER BY (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) DESC, c.name;
SELECT c.name, (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) FROM customer c WHERE EXISTS (SELECT 1 FROM orders o2 WHERE o2.customer_id = c.id) ORDER BY (SELECT MAX(o3.id) FROM orders o3 WHERE o3.customer_id = c.id), c.name;
SELECT o.id, o.status FROM orders o WHERE o.id = (SELECT MAX(o2.id) FROM orders o2 WHERE o2.customer_id = o.customer_id) ORDER BY o.id;
SELECT c.name FROM customer c WHERE (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) >= 1 AND c.id < 10 ORDER BY c.name;
