-- Regular expressions: REGEXP and RLIKE, NOT REGEXP, over columns and literals, in WHERE,
-- the select list, ORDER BY and CASE; case-insensitive under the connection's collation,
-- case-sensitive over BINARY; anchors, classes, alternation, repetition, UTF-8 characters;
-- REGEXP_INSTR, REGEXP_SUBSTR and REGEXP_REPLACE in the forms both servers have (MariaDB's take
-- no position, occurrence or match type; its replacement names groups as \1, MySQL's as $1).
-- Left out: REGEXP_LIKE (MySQL only), REGEXP_SUBSTR without a match (MySQL NULL, MariaDB ''),
-- and the errors (MySQL 3685–3700, MariaDB 1139).
SELECT id, name FROM customer WHERE name REGEXP '^[a-c]' ORDER BY id;
SELECT id, name FROM customer WHERE name REGEXP '^[A-C]' ORDER BY id;
SELECT id, name FROM customer WHERE name NOT REGEXP 'e' ORDER BY id;
SELECT id, name FROM customer WHERE name RLIKE 'n{2}|b.b' ORDER BY id;
SELECT id, name FROM item WHERE name REGEXP '(bolt|nut)$' ORDER BY id;
SELECT id, city FROM customer WHERE city REGEXP '^[[:alpha:] ]+$' ORDER BY id;
SELECT name, name REGEXP 'o' AS has_o, BINARY name REGEXP '^A' AS upper_a FROM customer ORDER BY id;
SELECT 'Shoal' REGEXP '^sh', 'Shoal' REGEXP BINARY '^sh', 'abc' REGEXP '', NULL REGEXP 'a', 'a' REGEXP NULL;
SELECT 'Ωμέγα' REGEXP '^ω.{4}$', 'naïve' REGEXP 'a.v', '日本語' REGEXP '^日.語$';
SELECT 'a1b22c333' REGEXP '[0-9]{3}', 'x' REGEXP '^(a|b)*x$', 'aaa' REGEXP '^a+?$';
SELECT REGEXP_INSTR('dog cat dog', 'cat'), REGEXP_INSTR('añob', 'o'), REGEXP_INSTR('abc', 'z');
SELECT REGEXP_SUBSTR('abc def ghi', '[a-z]+'), REGEXP_SUBSTR('order 66 now', '[0-9]+');
SELECT REGEXP_REPLACE('a b  c', ' +', '-'), REGEXP_REPLACE('Hello', 'l', 'L'), REGEXP_REPLACE('abc', 'x', 'y');
SELECT name, REGEXP_REPLACE(name, '[aeiou]', '') AS consonants FROM customer ORDER BY id;
SELECT id FROM orders WHERE status REGEXP '^(paid|void)$' ORDER BY id;
SELECT CASE WHEN name REGEXP '^a' THEN 'a-name' ELSE 'other' END AS kind, COUNT(*) FROM customer GROUP BY kind ORDER BY kind;
SELECT id, name FROM customer ORDER BY name REGEXP 'e', id;
