-- BIT_AND, BIT_OR, BIT_XOR and the variances and standard deviations (VAR_POP, VARIANCE,
-- VAR_SAMP, STD, STDDEV, STDDEV_POP, STDDEV_SAMP) over the item table and a table of their
-- own: NULLs skipped, no rows (BIT_AND all ones, BIT_OR and BIT_XOR 0, the others NULL), one
-- row (the samples NULL), negatives in two's complement, decimals rounded, grouped, in HAVING
-- and ORDER BY. The deviations are shown rounded: MariaDB prints a DOUBLE aggregate at 4 or 6
-- digits where MySQL 8.0 prints its shortest form. Tables ba_….
SELECT BIT_AND(qty), BIT_OR(qty), BIT_XOR(qty), COUNT(qty) FROM item;
SELECT category, BIT_AND(id), BIT_OR(id), BIT_XOR(id) FROM item GROUP BY category ORDER BY category;
SELECT BIT_AND(qty), BIT_OR(qty), BIT_XOR(qty) FROM item WHERE id > 100;
SELECT ROUND(STD(qty), 6), ROUND(STDDEV(qty), 6), ROUND(STDDEV_POP(qty), 6), ROUND(STDDEV_SAMP(qty), 6) FROM item;
SELECT ROUND(VARIANCE(qty), 6), ROUND(VAR_POP(qty), 6), ROUND(VAR_SAMP(qty), 6) FROM item;
SELECT ROUND(VAR_POP(price), 4), ROUND(STDDEV_SAMP(price), 4) FROM item;
SELECT ROUND(STD(qty), 6), VAR_SAMP(qty), STDDEV_SAMP(qty) FROM item WHERE id = 1;
SELECT STD(qty), VARIANCE(qty) FROM item WHERE id > 100;
SELECT category, ROUND(VAR_SAMP(price), 4) AS v FROM item GROUP BY category HAVING v IS NOT NULL ORDER BY v DESC;
CREATE TABLE ba_n (id INT PRIMARY KEY, g INT, v BIGINT, d DECIMAL(6,2));
INSERT INTO ba_n VALUES (1, 1, 5, 1.4), (2, 1, -1, 2.5), (3, 2, NULL, NULL), (4, 2, 12, -3.5), (5, 3, 3, 0), (6, 3, 9223372036854775807, 7.25);
SELECT g, BIT_AND(v), BIT_OR(v), BIT_XOR(v), BIT_OR(d) FROM ba_n GROUP BY g ORDER BY g;
SELECT g, ROUND(STDDEV_POP(v), 2), ROUND(VAR_POP(d), 4) FROM ba_n WHERE g < 3 GROUP BY g ORDER BY g;
SELECT BIT_XOR(v) & 255, BIT_OR(id) | 64 FROM ba_n;
SELECT g FROM ba_n GROUP BY g ORDER BY BIT_XOR(id) DESC, g;
DROP TABLE ba_n;
