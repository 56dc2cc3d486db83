-- DECIMAL arithmetic exactly, as MySQL: a division keeps nine fraction digits per word past
-- div_precision_increment, truncated, and shows four more than its dividend (1/3*3 is 1.0000,
-- 2/3 = 0.6667 is true); SUM and AVG of decimals are exact; numbers up to 38 digits.
SELECT 123456789.123456/1, 1/3*3, 1/7*7, 2/3*3 = 2, CAST(1/3 AS DECIMAL(10,5));
SELECT 123456789012345678901234567890.12*2, 99999999999999999999999999999999999999+1, 100000000000000000000.0/3;
SELECT 2/3*3 = 2, 2/3*3 - 2, (2/3)*3000000000, 1/3 + 0, (1/3)*1000000000, 2/3*1000000000, 1/3*3, CAST(2/3 AS DECIMAL(20,15)), 2/3 = 0.6667, 2/3 = 0.666666667, 1.5/7, 1.5/7*7, 10/4, 7/2*2 = 7;
SELECT 0.1 + 0.2, 0.1 + 0.2 = 0.3, 1.10 * 3, 5 % 3, 5.5 % 2, -7 % 3, 7 MOD -2.5, 1/0, 1.0/0, 10 DIV 3, 1 - 0.999, 12.345 * 0.001;
SELECT CONCAT(1/3), CONCAT(10/4), LENGTH(1/3), -(1/3), ROUND(1/3, 6), 1/3 IN (0.3333), FLOOR(7/2), 1/3 * 1/3;
CREATE TABLE money (id INT PRIMARY KEY, amt DECIMAL(12,2), big DECIMAL(20,6));
INSERT INTO money VALUES (1, 1234567890.13, 1.1), (2, 0.01, 123456789.123456), (3, NULL, NULL);
SELECT SUM(amt), AVG(amt), AVG(amt)*3, SUM(big), AVG(big), MAX(amt) / 3, SUM(amt) / COUNT(*) FROM money;
SELECT id, amt / 7, amt * 1.5, amt + 0.005 FROM money ORDER BY id;
DROP TABLE money;
