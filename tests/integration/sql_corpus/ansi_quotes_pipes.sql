-- sql_mode ANSI_QUOTES ("…" is an identifier, as `…` is) and PIPES_AS_CONCAT (|| is CONCAT,
-- binding tighter than ^ and every other binary operator, looser than unary minus), alone and
-- through the combination mode ANSI. Left out: SELECT @@sql_mode, which MySQL 8.0 and MariaDB
-- expand differently (MariaDB's ANSI lacks ONLY_FULL_GROUP_BY, its TRADITIONAL has
-- NO_AUTO_CREATE_USER): executor_test checks MySQL's text.
SELECT "name", 0 || 1 FROM item WHERE id = 1;
SET sql_mode = 'ANSI_QUOTES';
SELECT "name", 'name' FROM item WHERE id = 1;
SELECT "i"."name" FROM item AS "i" WHERE "i"."id" = 2;
SELECT "a""b" FROM (SELECT 1 AS "a""b") AS "t";
SELECT 0 || 1, 0 || 0;
SET sql_mode = 'PIPES_AS_CONCAT';
SELECT 'a' || 'b', 'a' || 'b' = 'ab', - 1 || 2, 2 ^ 1 || 1, 1 || 2 + 3, 'x' || NULL;
SELECT name || '/' || category FROM item WHERE id < 3 ORDER BY id;
SELECT id FROM item WHERE id = 1 || id = 2;
SELECT "name" || '!' FROM item WHERE id = 1;
SET sql_mode = 'ANSI';
SELECT "name" || ':' || "qty" FROM item WHERE id = 3;
SELECT category, COUNT(*) FROM item GROUP BY category ORDER BY category;
SET sql_mode = DEFAULT;
SELECT "name" FROM item WHERE id = 1;
