-- Aggregates where MySQL takes none: another aggregate's argument, WHERE, ON, GROUP BY,
-- UPDATE's SET and WHERE, INSERT's VALUES — 1111; where they belong (the select list, HAVING,
-- ORDER BY of a grouped SELECT, a subquery's own) they are computed. An aggregate in a SELECT
-- without tables aggregates over its one row.
SELECT MAX(COUNT(*)) FROM item;
SELECT SUM(MIN(qty)) FROM item GROUP BY category;
SELECT * FROM item WHERE COUNT(*) > 1;
SELECT id FROM item WHERE qty > AVG(qty);
SELECT c.id FROM customer c JOIN orders o ON o.customer_id = MAX(c.id);
SELECT category FROM item GROUP BY COUNT(*);
UPDATE item SET qty = COUNT(*);
DELETE FROM item WHERE SUM(qty) > 0;
INSERT INTO item (id, name) VALUES (COUNT(*), 'x');
SELECT id FROM item WHERE qty > (SELECT AVG(qty) FROM item) ORDER BY id;
SELECT category, COUNT(*) FROM item GROUP BY category HAVING MAX(qty) > 1 ORDER BY category;
SELECT COUNT(*), SUM(3), MAX('a'), MIN(2.5), AVG(4);
SELECT COUNT(*) + 1 AS n, GROUP_CONCAT('x') AS g;
SELECT id FROM item ORDER BY id;
