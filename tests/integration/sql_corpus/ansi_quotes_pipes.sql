-- sql_mode ANSI_QUOTES ("…" is an identifier, as `…` is) and PIPES_AS_CONCAT (|| is CONCAT,
-- binding tighter than ^ and every other binary operator, looser than unary minus), alone and
-- through the combination mode ANSI. Left out: SELECT @@sql_mode, which MySQL 8.0 and MariaDB
-- expand differently (MariaDB's ANSI lacks ONLY_FULL_GROUP_BY, its TRADITIONAL has
-- NO_AUTO_CREATE_USER): executor_test checks MySQL's text. A view keeps the modes it was made
-- under (MySQL stores its sql_mode with it): read later under other modes, its "…" and || mean
-- what they meant then; CREATE TABLE … SELECT reads its definitions under the session's modes.
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
SET sql_mode = 'ANSI_QUOTES';
CREATE VIEW aq_v AS SELECT "name", 'lit' AS "l", "i"."qty" FROM item AS "i" WHERE "id" < 3;
CREATE TABLE aq_t ("k" INT PRIMARY KEY, "note" VARCHAR(10) DEFAULT 'n') AS
  SELECT "id" AS "k", "name" FROM item WHERE "id" < 3;
SET sql_mode = 'PIPES_AS_CONCAT';
CREATE VIEW pc_v AS SELECT id, name || '-' || category AS nc, CONCAT('[', 1 || 2, ']') AS z FROM item WHERE id < 3;
SET sql_mode = DEFAULT;
SELECT * FROM aq_v ORDER BY name;
SELECT "x", name, l FROM aq_v WHERE qty > 1;
SELECT * FROM pc_v ORDER BY id;
SELECT nc, z FROM pc_v WHERE id = 2;
SELECT * FROM aq_t ORDER BY k;
SET sql_mode = 'ANSI_QUOTES,PIPES_AS_CONCAT';
SELECT * FROM aq_v ORDER BY "name";
SELECT * FROM pc_v ORDER BY id;
SET sql_mode = DEFAULT;
DROP VIEW aq_v, pc_v;
DROP TABLE aq_t;
