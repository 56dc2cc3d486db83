-- CASE, CAST and CONVERT: over literals, and over a table's columns in the select list,
-- WHERE, ORDER BY and GROUP BY. Run on Shoal and on MariaDB; the outputs must be the same.
-- Left out where MySQL 8.0 and MariaDB differ: casts of strings with spaces around a number,
-- and of negative integers to UNSIGNED (MariaDB notes 1105, MySQL only for strings), and the text of 1426 (a precision past 65).
SELECT CASE WHEN 1 > 0 THEN 'yes' ELSE 'no' END;
SELECT CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END;
SELECT CASE 3 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END;
SELECT CASE NULL WHEN NULL THEN 'matched' ELSE 'NULL matches nothing' END;
SELECT CASE WHEN NULL THEN 1 WHEN 0 THEN 2 WHEN '1' THEN 3 ELSE 4 END;
SELECT CASE WHEN 1 THEN 1 ELSE 2.5 END, CASE WHEN 0 THEN 1 ELSE 2.5 END;
SELECT CASE WHEN 1 THEN 7 ELSE 'seven' END;
SELECT CASE 'a' WHEN 'A' THEN 'case-insensitive' ELSE 'binary' END;
SELECT CASE WHEN 1 THEN CASE WHEN 0 THEN 'inner-a' ELSE 'inner-b' END END;
SELECT CAST('42' AS SIGNED), CAST('-42' AS SIGNED INTEGER), CAST('7' AS UNSIGNED);
SELECT CAST('12abc' AS SIGNED);
SHOW WARNINGS;
SELECT CAST(1.5 AS SIGNED), CAST(-1.5 AS SIGNED), CAST(2.4e0 AS SIGNED);
SELECT CAST('-1' AS UNSIGNED);
SHOW WARNINGS;
SELECT CAST('3.14159' AS DECIMAL(5,2)), CAST(2 AS DECIMAL(4,1)), CAST('1.005' AS DECIMAL(10,2));
SELECT CAST(123.456 AS DECIMAL), CAST(-0.5 AS DECIMAL(3,0));
SELECT CAST('2024-02-29' AS DATE), CAST('2024-02-29 13:14:15.123456' AS DATETIME(3));
SELECT CAST('2024-02-30' AS DATE);
SHOW WARNINGS;
SELECT CAST('13:14:15' AS TIME), CAST('2024-01-02 03:04:05' AS TIME), CAST('-12:00:01.5' AS TIME(1));
SELECT CAST(20240102 AS DATE), CAST('2024-01-02 03:04:05' AS DATE);
SELECT CAST(12 AS CHAR), CAST(1.50 AS CHAR), CAST('abcdef' AS CHAR(3));
SHOW WARNINGS;
SELECT CAST('ab' AS BINARY(4)) = 'ab\0\0', CAST('abcdef' AS BINARY(2));
SELECT CAST('2.5' AS DOUBLE), CAST(7 AS DOUBLE) / 2;
SELECT CONVERT('42', SIGNED), CONVERT('x' USING utf8mb4), CONVERT(3.5, CHAR);
SELECT id, CASE WHEN qty > 5 THEN 'many' WHEN qty > 0 THEN 'few' ELSE 'none' END AS stock FROM item ORDER BY id;
SELECT id, CASE category WHEN 'tool' THEN price * 2 ELSE price END AS adjusted FROM item ORDER BY id;
SELECT CASE WHEN qty > 0 THEN 'in stock' ELSE 'out' END, COUNT(*) FROM item
  GROUP BY CASE WHEN qty > 0 THEN 'in stock' ELSE 'out' END ORDER BY COUNT(*);
SELECT id FROM item WHERE CASE WHEN category = 'tool' THEN qty > 3 ELSE qty = 0 END ORDER BY id;
SELECT id, CAST(price AS SIGNED), CAST(qty AS CHAR), CAST(added AS DATE) FROM item ORDER BY id;
SELECT id FROM item ORDER BY CAST(code AS UNSIGNED), id;
SELECT SUM(CAST(code AS UNSIGNED)) FROM item;
SELECT CAST(name AS CHAR(2)) FROM item ORDER BY id;
SELECT CAST(1 AS CHAR CHARACTER SET nosuchcharset);
-- BINARY: a binary string compares and matches byte for byte (Django's case-sensitive lookups).
SELECT 'abc' LIKE BINARY 'ABC', 'abc' LIKE 'ABC', 'abc' LIKE BINARY 'a%', BINARY 'a' = 'A', 'a' = 'A', BINARY 'a' < 'B', BINARY 'a' <=> 'a';
SELECT CAST('Ab' AS BINARY) = 'ab', CAST('Ab' AS BINARY) = 'Ab', BINARY ('x') LIKE 'X';
