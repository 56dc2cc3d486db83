-- Built-in string, numeric and date functions (function_registry.h and functions_*.cc): over
-- literals, over NULL, and over the item and customer tables in the select list and WHERE.
-- ASCII text but for the character counts. Left out where MySQL 8.0, MariaDB or Shoal's parser
-- differ: LEFT, RIGHT and TRUNCATE with a wrong number of arguments (grammar in both servers,
-- so 1064, while Shoal's parser makes them calls and answers 1582); the FROM/FOR forms of
-- SUBSTRING and TRIM(BOTH … FROM …) (not parsed yet); UUID's value (random: only its
-- length); the warning of HOUR/MINUTE/SECOND over what is not a time (MariaDB's "Incorrect
-- time value", MySQL's "Truncated incorrect time value"); and results of string functions
-- that MariaDB types as nullable where MySQL does not, in columns narrower than NULL (the
-- client pads a nullable column to four characters): the columns here are wider.
SELECT CONCAT_WS('-', 'a', 'b', 'c'), CONCAT_WS(',', 'x', NULL, 'y'), CONCAT_WS(NULL, 'a', 'b');
SELECT SUBSTRING('quadratically', 5), SUBSTRING('quadratically', 5, 6), SUBSTR('Sakila', -3), MID('Sakila', -5, 3);
SELECT MID('abcdef', 3), SUBSTRING('abc', 0), SUBSTRING('abc', -5), SUBSTRING('abc', 2, 0), SUBSTRING('abc', 4), SUBSTRING('abc', 2, -1);
SELECT LEFT('foobarbar', 5), RIGHT('foobarbar', 4), LEFT('abc', 0), RIGHT('abc', 10), LEFT('abc', -1);
SELECT REPLACE('www.mysql.com', 'w', 'Ww'), REPLACE('abc', '', 'x'), REPLACE('aAa', 'a', 'b');
SELECT LPAD('hi', 4, '??'), LPAD('hi', 1, '??'), RPAD('hi', 5, 'ab'), RPAD('hello', 3, 'x'), LPAD('hi', 5, '');
SELECT LPAD('hi', -1, 'x'), RPAD(NULL, 2, 'x');
SELECT REPEAT('ab', 3), REPEAT('ab', 0), REPEAT('ab', -1), REVERSE('abc'), REVERSE('');
SELECT CHAR_LENGTH('héllo'), CHARACTER_LENGTH('abc'), LENGTH('héllo'), LENGTH(12345), LENGTH('');
SELECT TRIM('  bar  '), LTRIM('  barbar'), RTRIM('barbar   '), CONCAT('[', TRIM('   '), ']');
SELECT INSTR('foobarbar', 'bar'), INSTR('xbar', 'foobar'), INSTR('FOO', 'o');
SELECT ABS(-2), ABS(-2.50), ABS(-1.5e0), ABS(3);
SELECT ROUND(-1.23), ROUND(-1.58), ROUND(1.58), ROUND(1.298, 1), ROUND(1.298, 0), ROUND(23.298, -1);
SELECT ROUND(2.5), ROUND(-2.5), ROUND(2.5e0), ROUND(3.5e0), ROUND(-2.5e0), ROUND(0.5e0);
SELECT ROUND(1.5, 3), ROUND(125, -1), ROUND(-125, -1), ROUND(7, 2), ROUND(1.2345e0, 2), ROUND(1e0, 2);
SELECT TRUNCATE(1.223, 1), TRUNCATE(1.999, 1), TRUNCATE(1.999, 0), TRUNCATE(-1.999, 1), TRUNCATE(122, -2), TRUNCATE(10.28e0, 1);
SELECT FLOOR(1.23), FLOOR(-1.23), CEIL(1.23), CEILING(-1.23), FLOOR(-1.5e0), CEIL(1.5e0), FLOOR(7);
SELECT MOD(234, 10), MOD(253, 7), MOD(29, 9), MOD(34.5, 3), MOD(-7, 3), MOD(7, 0);
SELECT SIGN(-32), SIGN(0), SIGN(234), SIGN(-0.5), SIGN(2.5e0);
SELECT GREATEST(2, 0), GREATEST(34.0, 3.0, 5.0, 767.0), GREATEST('B', 'A', 'C'), LEAST(2, 0), LEAST(34.0, 3.0, 5.0, 767.0), LEAST('B', 'A', 'C');
SELECT GREATEST(1, NULL, 3), LEAST(1, 2.5), GREATEST(1, 2.5);
SELECT YEAR('2024-02-29'), MONTH('2024-02-29 10:11:12'), DAY('2024-02-29'), DAYOFMONTH('2024-03-01');
SELECT HOUR('10:05:03'), MINUTE('2024-01-02 10:05:03'), SECOND('10:05:03'), HOUR('838:00:00');
SELECT DATE('2024-01-02 10:05:03'), DATEDIFF('2024-03-01', '2024-02-01'), DATEDIFF('2024-01-01 23:59:59', '2024-01-02 00:00:01');
SELECT DATE_FORMAT('2009-10-04 22:23:00', '%W %M %Y'), DATE_FORMAT('2007-10-04 22:23:00', '%H:%i:%s');
SELECT DATE_FORMAT('1900-10-04 22:23:00', '%D %y %a %d %m %b %j'), DATE_FORMAT('1997-10-04 22:23:00', '%H %k %I %r %T %S %w');
SELECT DATE_FORMAT('2024-01-02 03:04:05.123456', '%Y-%m-%d %h:%i:%s.%f %p %c %e %%');
SELECT DATE_FORMAT('2024-01-02 15:04:05', '%l %p %q');
SELECT MD5('testing'), MD5(''), LENGTH(UUID()), MD5('a') = MD5('A');
SELECT LENGTH(MD5(REPEAT('x', 1000)));
SELECT CRC32('MySQL'), CRC32('mysql'), CRC32(''), CRC32(NULL), CRC32(123), CRC32('héllo');
SELECT SHA1('abc'), SHA('abc') = SHA1('abc'), SHA1(NULL), SHA2('abc', 224), SHA2('abc', 0);
SELECT SHA2('abc', 256), SHA2('abc', 384), SHA2('abc', 7), SHA2(NULL, 256);
SELECT SHA2(name, 512) FROM customer WHERE id = 1;
SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', id, name, category))) FROM item;
SELECT id, CONCAT_WS('/', name, category), LEFT(name, 3), RIGHT(name, 2), LPAD(id, 3, '0') FROM item ORDER BY id;
SELECT id, SUBSTRING(name, 2, 3), REVERSE(name), CHAR_LENGTH(name), UPPER(REPLACE(name, 'a', 'A')) FROM item ORDER BY id;
SELECT id, ROUND(price), ROUND(price, 1), TRUNCATE(price, 1), FLOOR(price), CEIL(price), ABS(-price) FROM item ORDER BY id;
SELECT id, MOD(qty, 3), SIGN(qty - 3), GREATEST(qty, 3), LEAST(qty, 3) FROM item ORDER BY id;
SELECT id, YEAR(added), MONTH(added), DAY(added), HOUR(added), MINUTE(added), SECOND(added) FROM item ORDER BY id;
SELECT id, DATE(added), DATEDIFF(added, '2024-01-01'), DATE_FORMAT(added, '%d/%m/%Y %H:%i') FROM item ORDER BY id;
SELECT id, name FROM item WHERE LEFT(name, 1) = 's' OR CHAR_LENGTH(name) = 4 ORDER BY id;
SELECT id, name FROM customer WHERE INSTR(name, 'e') > 0 ORDER BY id;
SELECT c.id, CONCAT_WS(' from ', UPPER(c.name), c.city) FROM customer c ORDER BY c.id;
SELECT CONCAT_WS('-');
SELECT ROUND(1, 2, 3);
SELECT ABS('abc');
SHOW WARNINGS;
SELECT SUBSTRING('abcdef', '2');
SELECT SUBSTRING(NULL, 1), LEFT(NULL, 1), ROUND(NULL), ROUND(1.5, NULL), DATE_FORMAT(NULL, '%Y'), MD5(NULL), ABS(NULL), REPEAT('a', NULL);
SELECT YEAR('2024-02-30');
SHOW WARNINGS;
SELECT DATEDIFF('x', '2024-01-01');
SHOW WARNINGS;
CREATE TABLE fn_trim (id INT PRIMARY KEY, s VARCHAR(20), t VARCHAR(30)) DEFAULT CHARSET = utf8mb4;
INSERT INTO fn_trim VALUES (1, 'xxaxx', '10:00:00.123456'), (2, '  a  ', '2024-01-01 00:00:00.5'), (3, 'cabab', '-01:00:00.25'), (4, 'Wisława é ß', NULL), (5, 'ŁÓDŹ ÉCOLE', NULL);
SELECT id, TRIM(BOTH 'x' FROM s) AS a, TRIM(LEADING FROM s) AS b, TRIM(TRAILING 'ab' FROM s) AS c, TRIM('a' FROM s) AS d, TRIM(s) AS e, TRIM(BOTH '' FROM s) AS f FROM fn_trim ORDER BY id;
SELECT id, MICROSECOND(t) AS us FROM fn_trim ORDER BY id;
SELECT id, UPPER(s) AS up, LOWER(s) AS low FROM fn_trim WHERE id >= 4 ORDER BY id;
DROP TABLE fn_trim;
