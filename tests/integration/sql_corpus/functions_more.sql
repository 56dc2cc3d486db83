-- More built-in functions (functions_math.cc, functions_radix.cc, functions_text.cc,
-- functions_time.cc, FORMAT, UUID_SHORT, DATE_FORMAT's week specifiers): over literals, over
-- NULL, and over the item table. Left out where MySQL 8.0 and MariaDB differ: ANY_VALUE (not
-- in MariaDB 10.11); PERIOD_ADD and PERIOD_DIFF of a period whose month is not 1..12 (MySQL
-- 8.0's 1210, MariaDB computes); FORMAT with a locale but en_US (other locales are 1235 in
-- Shoal); TIME_FORMAT with a date specifier; SLEEP (1235 in Shoal: see docs/architecture.md);
-- UUID_SHORT's value (only that it grows); RAND() unseeded and RAND(n) row by row over a
-- table (in the order the rows are read, which differs: only sums and extremes of them); the warning of a logarithm of a
-- number <= 0 (MySQL 8.0's 3020 "Invalid argument for logarithm", MariaDB's 1365 "Division by
-- 0"; the count of them is the same); TIMEDIFF of two dates written as strings (MySQL reads
-- them as dates, MariaDB as durations); a duration past 838:59:59 out of ADDTIME (MySQL cuts
-- it to 838:59:59 with one warning, MariaDB to 838:59:59.999999 with two); ADDTIME of a
-- date and time as its second argument (NULL in both; MariaDB warns); PI() + 0 (MySQL
-- keeps PI's six decimals through the addition; Shoal's arithmetic over DOUBLEs does not).
SELECT POW(2, 10), POWER(2, -1), SQRT(16), SQRT(2), SQRT(-1), EXP(0), EXP(1);
SELECT LN(1), LN(10), LOG(2, 65536), LOG(8), LOG2(8), LOG10(1000), LOG(1, 8);
SELECT LOG(-1), LOG2(0), LOG10(-5);
SELECT PI(), SIN(0), COS(0), TAN(1), SIN(PI() / 2), ASIN(1), ACOS(0), ATAN(1);
SELECT ATAN(1, 1), ATAN2(-1, -1), ATAN2(1, 0), COT(1), ASIN(2), ACOS(-1.5);
SELECT DEGREES(PI()), RADIANS(180), DEGREES(1), RADIANS(-90);
SELECT COT(0);
SELECT POW(10, 400);
SELECT EXP(1000);
SELECT SQRT(NULL), POW(NULL, 2), LOG(NULL), LOG(2, NULL), ATAN(NULL, 1), DEGREES(NULL);
SELECT SQRT('16'), POW('2', '3'), SQRT('4x');
SHOW WARNINGS;
SELECT RAND(3), RAND(0), RAND(1), RAND(NULL), RAND(-1), RAND(1000000);
SELECT RAND(3) = RAND(3), RAND() < 1, RAND() >= 0, ROUND(RAND(7) * 1000);
SELECT id, RAND(id) FROM item ORDER BY id;
SELECT ROUND(SUM(RAND(3)), 9), ROUND(MIN(RAND(3)), 9), ROUND(MAX(RAND(5)), 9), COUNT(DISTINCT RAND(3)) FROM item;
SELECT CONV('a', 16, 2), CONV('6E', 18, 8), CONV(-17, 10, -18), CONV('zz', 36, 10), CONV(-1, 10, 16);
SELECT CONV('99999999999999999999', 10, 16), CONV('12x', 10, 10), CONV('1', 1, 10), CONV('', 10, 2), CONV(NULL, 10, 2);
SELECT BIN(12), BIN(0), BIN(-1), OCT(12), OCT(NULL), BIN('7');
SELECT HEX(255), HEX('abc'), HEX(-1), HEX(1.5), HEX(''), HEX(NULL), HEX(0);
SELECT UNHEX('4D7953514C'), UNHEX('GG'), HEX(UNHEX('141')), UNHEX(''), UNHEX(NULL), UNHEX(HEX('héllo'));
SELECT TO_BASE64('abc'), TO_BASE64(''), TO_BASE64(NULL), FROM_BASE64('YWJj'), FROM_BASE64('YWI='), FROM_BASE64('YQ==');
SELECT FROM_BASE64(TO_BASE64(REPEAT('xyz', 40))) = REPEAT('xyz', 40), LENGTH(TO_BASE64(REPEAT('a', 60))), FROM_BASE64('Y W J j');
SELECT TO_BASE64(REPEAT('abc', 30));
SELECT BIT_COUNT(29), BIT_COUNT(-1), BIT_COUNT(0), BIT_COUNT(NULL), BIT_COUNT(1.6);
SELECT INET_ATON('10.0.5.9'), INET_ATON('127.1'), INET_ATON('1.2.3'), INET_ATON('1.2.3.256'), INET_ATON('1.2.3.'), INET_ATON('a.b.c.d');
SELECT INET_NTOA(167773449), INET_NTOA(0), INET_NTOA(4294967295), INET_NTOA(4294967296), INET_NTOA(-1), INET_NTOA(NULL);
SELECT SUBSTRING_INDEX('www.mysql.com', '.', 2), SUBSTRING_INDEX('www.mysql.com', '.', -2), SUBSTRING_INDEX('www.mysql.com', '.', 5);
SELECT SUBSTRING_INDEX('www.mysql.com', '.', 0), SUBSTRING_INDEX('abc', '', 1), SUBSTRING_INDEX('a..b', '..', -1), SUBSTRING_INDEX(NULL, '.', 1);
SELECT INSERT('Quadratic', 3, 4, 'What'), INSERT('Quadratic', -1, 4, 'What'), INSERT('Quadratic', 3, 100, 'What'), INSERT('Quadratic', 10, 1, 'x');
SELECT INSERT('Quadratic', 9, 1, 'x'), INSERT('héllo', 2, 1, 'e'), INSERT(NULL, 1, 1, 'x'), INSERT('abc', 1, -1, 'x');
SELECT CONCAT('[', SPACE(3), ']'), SPACE(0), SPACE(-1), SPACE(NULL);
SELECT ASCII('2'), ASCII(2), ASCII('dx'), ASCII(''), ASCII(NULL), ORD('2'), ORD('é'), ORD('');
SELECT STRCMP('text', 'text2'), STRCMP('text2', 'text'), STRCMP('text', 'text'), STRCMP('a', 'A'), STRCMP(10, 9), STRCMP(NULL, 'a');
SELECT CHAR(77, 121, 83, 81, '76'), CHAR(77, 77.3, '77.3'), HEX(CHAR(256, NULL, 1)), HEX(CHAR(1, 0)), LENGTH(CHAR(65536));
SELECT QUOTE('Don\'t!'), QUOTE(NULL), QUOTE('a\\b'), QUOTE(''), QUOTE(12);
SELECT SOUNDEX('Hello'), SOUNDEX('Quadratically'), SOUNDEX('Lee'), SOUNDEX(''), SOUNDEX('123'), SOUNDEX(NULL), SOUNDEX('Robert'), SOUNDEX('Tymczak');
SELECT MAKE_SET(1, 'a', 'b', 'c'), MAKE_SET(1 | 4, 'hello', 'nice', 'world'), MAKE_SET(1 | 4, 'hello', 'nice', NULL, 'world'), MAKE_SET(0, 'a', 'b'), MAKE_SET(NULL, 'a');
SELECT EXPORT_SET(5, 'Y', 'N', ',', 4), EXPORT_SET(6, '1', '0', ',', 10), EXPORT_SET(1, 'a', 'b', '', 3), EXPORT_SET(NULL, 'a', 'b');
SELECT EXPORT_SET(5, 'Y', 'N');
SELECT BIT_LENGTH('text'), BIT_LENGTH(''), BIT_LENGTH(NULL), BIT_LENGTH('é');
SELECT ISNULL(1 + 1), ISNULL(1 / 0), ISNULL(NULL), ISNULL('');
SELECT FORMAT(12332.123456, 4), FORMAT(12332.1, 4), FORMAT(12332.2, 0), FORMAT(-1234567.891, 2), FORMAT(123, 2);
SELECT FORMAT(1234.5e0, 0), FORMAT(0.5, 0), FORMAT(999.999, 2), FORMAT(1234567890123, 1), FORMAT(12332.2, 2, 'en_US');
SELECT FORMAT(NULL, 2), FORMAT(1, NULL), FORMAT(1.5, -1), FORMAT('1234.567', 1);
SELECT UUID_SHORT() < UUID_SHORT(), UUID_SHORT() > 0;
SELECT WEEK('2008-02-20'), WEEK('2008-02-20', 0), WEEK('2008-02-20', 1), WEEK('2008-12-31', 1), WEEK(NULL), WEEK('x');
SELECT WEEK('2000-01-01', 0), WEEK('2000-01-01', 1), WEEK('2000-01-01', 2), WEEK('2000-01-01', 3), WEEK('2000-01-01', 4), WEEK('2000-01-01', 5), WEEK('2000-01-01', 6), WEEK('2000-01-01', 7);
SELECT WEEK('2024-12-30', 0), WEEK('2024-12-30', 1), WEEK('2024-12-30', 2), WEEK('2024-12-30', 3), WEEK('2024-12-30', 4), WEEK('2024-12-30', 5), WEEK('2024-12-30', 6), WEEK('2024-12-30', 7);
SELECT YEARWEEK('1987-01-01'), YEARWEEK('2000-01-01', 1), YEARWEEK('2024-12-30', 3), WEEKOFYEAR('2008-02-20'), WEEKOFYEAR('2021-01-03'), WEEKOFYEAR('2020-12-31');
SELECT DATE_FORMAT('1999-01-01', '%X %V %x %v %U %u'), DATE_FORMAT('2024-12-30', '%X-%V %x-%v %U %u'), DATE_FORMAT('2021-01-03', '%U %u %V %v');
SELECT MAKETIME(12, 15, 30), MAKETIME(12, 60, 30), MAKETIME(-1, 0, 1.5), MAKETIME(0, 0, 59.999), MAKETIME(NULL, 1, 1);
SELECT MAKETIME(900, 0, 0);
SHOW WARNINGS;
SELECT TIME_FORMAT('100:00:00', '%H %k %h %I %l'), TIME_FORMAT('10:05:03.25', '%T %r %f %p %i %s'), TIME_FORMAT('23:00:00', '%h %p %%'), TIME_FORMAT(NULL, '%H');
SELECT TIMEDIFF('2000-01-01 00:00:00', '2000-01-01 00:00:00.000001'), TIMEDIFF('2008-12-31 23:59:59.000001', '2008-12-30 01:01:01.000002');
SELECT TIMEDIFF('10:00:00', '2000-01-01 00:00:00'), TIMEDIFF('10:00:00', '11:30:00'), TIMEDIFF('-01:00:00', '01:00:00'), TIMEDIFF(NULL, '01:00:00');
SELECT ADDTIME('2007-12-31 23:59:59.999999', '1 1:1:1.000002'), ADDTIME('01:00:00.999999', '02:00:00.999998'), ADDTIME('10:00:00', '01:00:00');
SELECT SUBTIME('2007-12-31 23:59:59.999999', '1 1:1:1.000002'), SUBTIME('01:00:00.999999', '02:00:00.999998'), SUBTIME('2024-01-01 00:00:00', '00:00:01');
SELECT ADDTIME(NULL, '01:00:00'), ADDTIME('10:00:00', NULL);
SELECT PERIOD_ADD(200801, 2), PERIOD_ADD(9912, 1), PERIOD_ADD(200812, -12), PERIOD_DIFF(200802, 200703), PERIOD_DIFF(9901, 200001), PERIOD_ADD(NULL, 1);
SELECT TO_SECONDS(950501), TO_SECONDS('2009-11-29'), TO_SECONDS('2009-11-29 13:43:32'), TO_SECONDS(NULL), TO_SECONDS('x');
SELECT TIME('2003-12-31 01:02:03'), TIME('2003-12-31 01:02:03.000123'), TIME('12:00'), TIME(NULL), TIME('838:59:59');
SELECT TIMESTAMP('2003-12-31'), TIMESTAMP('2003-12-31 12:00:00', '12:00:00'), TIMESTAMP('2003-12-31 12:00:00.5'), TIMESTAMP(NULL), TIMESTAMP('2024-01-01', NULL);
SELECT id, HEX(id), CONV(qty, 10, 2), SQRT(qty), POW(qty, 2), FORMAT(price, 1), SUBSTRING_INDEX(name, 'a', 1) FROM item ORDER BY id;
SELECT id, WEEK(added), YEARWEEK(added), TIME(added), TIMESTAMP(added, '01:00:00'), TO_SECONDS(added), ADDTIME(added, '00:30:00') FROM item ORDER BY id;
SELECT id, INSERT(name, 2, 1, '_'), QUOTE(category), SOUNDEX(name), ASCII(name), STRCMP(name, 'nails'), ISNULL(category), BIT_LENGTH(name) FROM item ORDER BY id;
SELECT id, name FROM item WHERE SUBSTRING_INDEX(name, 'a', 1) = 'h' OR ISNULL(qty) ORDER BY id;
SELECT COUNT(*), SUM(BIT_COUNT(id)), MAX(HEX(name)) FROM item;
SELECT SQRT(1, 2);
