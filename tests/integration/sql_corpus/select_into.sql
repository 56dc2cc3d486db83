-- SELECT … INTO @variables: the one row sets them; no row leaves them as they were (1329), more
-- than one is 1172, a different number of columns 1222, a name without @ 1327. Left out: INTO
-- after FROM or at the end (MariaDB warns 1287 that it is deprecated; MySQL 8.0 deprecates the
-- other position, before FROM, and Shoal warns of neither), INTO in a subquery or before UNION
-- (MySQL 8.0's 3954, MariaDB's 1064) and INTO OUTFILE (1235 in Shoal).
SELECT name, qty INTO @n, @q FROM item WHERE id = 1;
SELECT @n, @q;
SELECT name INTO @n FROM item WHERE id = 99;
SHOW WARNINGS;
SELECT @n;
SELECT name INTO @n FROM item;
SELECT name, qty INTO @n FROM item WHERE id = 1;
SELECT COUNT(*), MAX(price), SUM(qty) INTO @c, @m, @s FROM item;
SELECT @c, @m, @s, @c + 1, CONCAT(@m, '!');
SELECT added, price INTO @d, @p FROM item WHERE id = 1;
SELECT @d, @p;
SELECT id INTO @i FROM item ORDER BY id DESC LIMIT 1;
SELECT @i;
SELECT c.name, COUNT(o.id) INTO @who, @orders FROM customer c JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY COUNT(o.id) DESC LIMIT 1;
SELECT @who, @orders;
SELECT 5 INTO x;
SELECT 1 + 1 INTO @two;
SELECT @two;
SELECT NULL INTO @gone;
SELECT @gone IS NULL;
