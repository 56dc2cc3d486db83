-- NATURAL [INNER | LEFT [OUTER] | RIGHT [OUTER]] JOIN: USING every column both sides name, shown
-- once and first — in the left side's order, the right table's for RIGHT JOIN — then the rest of
-- the left side and of the right table; no common column is a cross join; chains join each
-- table to everything before it. Left out: an unqualified common column of a RIGHT JOIN in
-- WHERE or ORDER BY (Shoal reads the left table's, as for USING; MySQL the right one's).
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
DROP TABLE nj_a, nj_b, nj_c;
