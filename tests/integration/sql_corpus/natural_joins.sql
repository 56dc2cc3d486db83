-- NATURAL [INNER | LEFT [OUTER] | RIGHT [OUTER]] JOIN: USING every column both sides name, shown
-- once and first — in the left side's order, the right table's for RIGHT JOIN — then the rest of
-- the left side and of the right table; no common column is a cross join; chains join each
-- table to everything before it. An unqualified common column means the joined one wherever
-- it is named (select list, WHERE, ORDER BY, GROUP BY, a later ON): for RIGHT JOIN the right
-- table's value, never NULL for a row only the right side has; USING the same.
CREATE TABLE nj_a (k INT, x VARCHAR(5), v INT, PRIMARY KEY (k, x));
CREATE TABLE nj_b (w INT, v INT, k INT PRIMARY KEY);
CREATE TABLE nj_c (x VARCHAR(5) PRIMARY KEY, note VARCHAR(10));
INSERT INTO nj_a VALUES (1, 'p', 10), (2, 'q', 20), (3, 'r', 30), (4, 'p', NULL);
INSERT INTO nj_b VALUES (100, 10, 1), (200, 99, 2), (300, 30, 3), (400, NULL, 4), (500, 50, 5);
INSERT INTO nj_c VALUES ('p', 'pea'), ('r', 'rye'), ('z', 'zed');
SELECT * FROM nj_a NATURAL JOIN nj_b ORDER BY k;
SELECT * FROM nj_b NATURAL JOIN nj_a ORDER BY k;
SELECT * FROM nj_a NATURAL LEFT JOIN nj_b ORDER BY k, x;
SELECT * FROM nj_a NATURAL LEFT OUTER JOIN nj_c ORDER BY k;
SELECT * FROM nj_a NATURAL RIGHT JOIN nj_b ORDER BY w;
SELECT * FROM nj_c NATURAL RIGHT OUTER JOIN nj_a ORDER BY k;
SELECT * FROM nj_a NATURAL INNER JOIN nj_c ORDER BY k;
SELECT * FROM nj_a NATURAL JOIN nj_c NATURAL JOIN nj_b ORDER BY k;
SELECT k, x, v, w, note FROM nj_a NATURAL JOIN nj_b NATURAL LEFT JOIN nj_c ORDER BY k;
SELECT nj_a.k, nj_b.k, v FROM nj_a NATURAL JOIN nj_b ORDER BY 1;
SELECT COUNT(*) FROM nj_b NATURAL JOIN nj_c;
SELECT * FROM nj_b NATURAL JOIN nj_c ORDER BY k, x LIMIT 4;
SELECT c.name, o.id FROM customer c NATURAL JOIN orders o ORDER BY o.id;
SELECT * FROM item NATURAL JOIN customer ORDER BY id;
SELECT * FROM (SELECT k, v FROM nj_a) d NATURAL JOIN nj_b ORDER BY k;
SELECT k, v, w FROM nj_a NATURAL RIGHT JOIN nj_b ORDER BY k;
SELECT k, nj_a.k AS ak, nj_b.w FROM nj_a NATURAL RIGHT JOIN nj_b WHERE k >= 2 ORDER BY k DESC;
SELECT k, x, note FROM nj_c NATURAL RIGHT JOIN nj_a WHERE x <> 'q' ORDER BY x, k;
SELECT k, w FROM nj_a RIGHT JOIN nj_b USING (k) ORDER BY k;
SELECT k, x FROM nj_a RIGHT OUTER JOIN nj_b USING (k) WHERE k = 5;
SELECT k, COUNT(*), MAX(x) FROM nj_a RIGHT JOIN nj_b USING (k) GROUP BY k ORDER BY k;
SELECT k + 1 AS k1, v FROM nj_a RIGHT JOIN nj_b USING (k, v) ORDER BY k1;
SELECT k, nj_c.note FROM nj_a RIGHT JOIN nj_b USING (k) LEFT JOIN nj_c ON nj_c.x = 'p' AND k = 1
  ORDER BY k;
SELECT k, b2.w FROM nj_a RIGHT JOIN nj_b USING (k) JOIN nj_b AS b2 USING (k) ORDER BY k;
SELECT k, w FROM nj_a LEFT JOIN nj_b USING (k) WHERE k > 1 ORDER BY k;
DROP TABLE nj_a, nj_b, nj_c;
