-- Date arithmetic (functions_date_arith.cc, functions_calendar.cc, functions_str_to_date.cc,
-- functions_clock.cc): INTERVAL in DATE_ADD, DATE_SUB, ADDDATE, SUBDATE and as an operand of
-- + and -, with simple and compound units and their string values; month arithmetic clamping
-- the day; results past 9999 (NULL, warning 1441); TIMESTAMPADD, TIMESTAMPDIFF, FROM_UNIXTIME,
-- UNIX_TIMESTAMP(date), STR_TO_DATE, LAST_DAY, DAYOFWEEK, DAYOFYEAR, WEEKDAY, DAYNAME, MONTHNAME,
-- QUARTER, TO_DAYS, FROM_DAYS, MAKEDATE, TIME_TO_SEC, SEC_TO_TIME; over literals, over NULL, and
-- over the item (DATETIME `added`) and orders (DATE `placed`) tables; INTERVAL where MySQL's
-- grammar has none (1064). Left out where MySQL 8.0 and MariaDB differ: a fractional SECOND
-- interval on a string date (MySQL prints six fraction digits, MariaDB the interval's);
-- UNIX_TIMESTAMP of a date before 1970 (MySQL 0, MariaDB NULL); STR_TO_DATE of a day the month
-- does not have (MySQL NULL with warning 1411, MariaDB the date); SEC_TO_TIME past 838:59:59
-- (the warning: MySQL's "time value", MariaDB's "seconds value"); and results in columns
-- narrower than NULL, which MariaDB types nullable where MySQL does not (aliases widen them).
SELECT DATE_ADD('2024-01-31', INTERVAL 1 MONTH) AS plus_month, DATE_ADD('2024-01-31 10:00:00', INTERVAL 1 MONTH) AS plus_month_dt, DATE_SUB('2024-03-01', INTERVAL 1 DAY) AS minus_day;
SELECT '2024-01-01' + INTERVAL 1 DAY AS plus_day, INTERVAL 1 DAY + '2024-01-01' AS day_first, '2024-01-01' - INTERVAL 2 HOUR AS minus_hours;
SELECT '2024-12-31 23:59:59' + INTERVAL 1 SECOND AS next_second, '2024-03-31' - INTERVAL 1 QUARTER AS quarter_before, '2023-02-28' + INTERVAL 1 YEAR + INTERVAL 1 DAY AS chained;
SELECT DATE_ADD('2024-01-01', INTERVAL 2 WEEK) AS weeks, DATE_ADD('2024-01-01', INTERVAL -90 MINUTE) AS negative, DATE_ADD('2024-01-01 00:00:00', INTERVAL 1500000 MICROSECOND) AS micros;
SELECT DATE_ADD('2024-01-01', INTERVAL '1:30' HOUR_MINUTE) AS hours_minutes, DATE_ADD('2024-01-01', INTERVAL '1 2:3:4' DAY_SECOND) AS days_seconds, DATE_ADD('2024-01-01', INTERVAL '1-2' YEAR_MONTH) AS years_months;
SELECT DATE_ADD('2024-01-01', INTERVAL '5' SECOND_MICROSECOND) AS sec_micro, DATE_ADD('2024-01-01', INTERVAL '1.5' SECOND_MICROSECOND) AS sec_micro2, DATE_ADD('2024-01-01', INTERVAL '1 1' DAY_HOUR) AS days_hours;
SELECT DATE_ADD('2024-01-01', INTERVAL '1:30' HOUR_SECOND) AS short_form, DATE_ADD('2024-01-01', INTERVAL '-1:30' MINUTE_SECOND) AS negative, DATE_ADD('2024-01-01', INTERVAL '1:2:3' HOUR_MINUTE) AS too_many;
SELECT ADDDATE('2024-01-01', 31) AS days_form, SUBDATE('2024-01-01', INTERVAL 1 YEAR) AS year_before, ADDDATE('2024-02-29', INTERVAL 1 YEAR) AS leap_day, SUBDATE('2024-03-01', 1) AS day_before;
SELECT DATE_ADD(20240101, INTERVAL 1 DAY) AS from_number, DATE_ADD('2024-02-30', INTERVAL 1 DAY) AS bad_date, DATE_ADD('9999-12-31', INTERVAL 1 DAY) AS past_9999;
SHOW WARNINGS;
SELECT DATE_SUB('0001-01-01', INTERVAL 1 DAY) AS before_year_1, DATE_ADD('2024-01-01', INTERVAL 8000 YEAR) AS far_year;
SHOW WARNINGS;
SELECT DATE_ADD(NULL, INTERVAL 1 DAY) AS null_date, DATE_ADD('2024-01-01', INTERVAL NULL DAY) AS null_interval, NULL + INTERVAL 1 DAY AS null_plus;
SELECT TIMESTAMPDIFF(MONTH, '2024-01-31', '2024-02-29') AS months, TIMESTAMPDIFF(YEAR, '2000-02-29', '2024-02-28') AS years, TIMESTAMPDIFF(SECOND, '2024-01-01 00:00:10', '2024-01-01') AS seconds, TIMESTAMPDIFF(DAY, '2024-03-01', '2024-01-01 12:00:00') AS days;
SELECT TIMESTAMPDIFF(QUARTER, '2024-01-15', '2024-10-14') AS quarters, TIMESTAMPDIFF(WEEK, '2024-01-01', '2024-02-01') AS weeks, TIMESTAMPDIFF(MINUTE, '2024-01-01', '2024-01-01 01:30:59') AS minutes, TIMESTAMPDIFF(HOUR, NULL, '2024-01-01') AS null_arg;
SELECT TIMESTAMPADD(MINUTE, 90, '2024-01-01') AS minutes, TIMESTAMPADD(WEEK, 1, '2024-01-01') AS week, TIMESTAMPADD(SQL_TSI_DAY, -1, '2024-01-01') AS tsi_day, TIMESTAMPADD(MONTH, 1, '2024-03-31') AS month;
SELECT FROM_UNIXTIME(0) AS epoch, FROM_UNIXTIME(1700000000) AS later, FROM_UNIXTIME(1700000000, '%Y %D %M') AS formatted, FROM_UNIXTIME(-1) AS negative;
SELECT UNIX_TIMESTAMP('2024-01-01') AS from_date, UNIX_TIMESTAMP('2024-01-01 00:00:00.25') AS fraction, UNIX_TIMESTAMP(20240101) AS from_number, UNIX_TIMESTAMP(NULL) AS null_arg;
SELECT STR_TO_DATE('01/02/2024', '%d/%m/%Y') AS date_only, STR_TO_DATE('2024-01-02 10:11:12', '%Y-%m-%d %H:%i:%s') AS date_time, STR_TO_DATE('10:11', '%H:%i') AS time_only, STR_TO_DATE('Jan 5 2024 3PM', '%b %e %Y %h%p') AS names;
SELECT STR_TO_DATE('March 3rd, 2024', '%M %D, %Y') AS month_name, STR_TO_DATE('2024-05-06 07:08:09.5', '%Y-%m-%d %T.%f') AS fraction, STR_TO_DATE('2024 32', '%Y %j') AS day_of_year;
SELECT STR_TO_DATE('abc', '%Y') AS no_match, STR_TO_DATE('2024-01-02x', '%Y-%m-%d') AS trailing_text, STR_TO_DATE(NULL, '%Y') AS null_arg;
SHOW WARNINGS;
SELECT LAST_DAY('2024-02-10') AS last_day, DAYOFWEEK('2024-01-07') AS day_of_week, DAYOFYEAR('2024-12-31') AS day_of_year, WEEKDAY('2024-01-07') AS weekday_no, DAYNAME('2024-01-07') AS day_name, MONTHNAME('2024-09-01') AS month_name, QUARTER('2024-11-30') AS quarter_no;
SELECT TO_DAYS('2024-01-01') AS to_days, FROM_DAYS(739251) AS from_days, FROM_DAYS(1) AS day_one, MAKEDATE(2024, 60) AS makedate, MAKEDATE(24, 0) AS day_zero, TIME_TO_SEC('-01:00:01') AS seconds, SEC_TO_TIME(3661) AS sec_to_time;
SELECT LAST_DAY('2024-13-01') AS bad_month, DAYNAME(NULL) AS null_arg;
SHOW WARNINGS;
SELECT id, added + INTERVAL 1 DAY AS next_day, DATE_SUB(added, INTERVAL 1 MONTH) AS month_before, TIMESTAMPDIFF(HOUR, added, '2024-02-01') AS hours_to FROM item ORDER BY id;
SELECT id, placed + INTERVAL 1 MONTH AS next_month, placed + INTERVAL 1 HOUR AS hour_later, LAST_DAY(placed) AS last_day, DAYNAME(placed) AS day_name FROM orders ORDER BY id;
SELECT id, DAYOFWEEK(placed) AS day_of_week, QUARTER(placed) AS quarter_no, TO_DAYS(placed) AS to_days, MONTHNAME(placed) AS month_name FROM orders ORDER BY id;
SELECT id, UNIX_TIMESTAMP(added) AS unix_time, TIME_TO_SEC(added) AS seconds_in_day, DATE_ADD(added, INTERVAL '1:15' MINUTE_SECOND) AS later FROM item ORDER BY id;
SELECT id FROM orders WHERE placed > '2024-02-01' - INTERVAL 1 WEEK ORDER BY id;
SELECT id FROM item WHERE added BETWEEN '2024-01-01' AND '2024-01-01' + INTERVAL 1 MONTH ORDER BY id;
SELECT INTERVAL 1 DAY;
SELECT DATE_ADD('2024-01-01', 1);
SELECT DATE_ADD('2024-01-01', INTERVAL 1 FORTNIGHT);
SELECT TIMESTAMPDIFF(DAY_HOUR, '2024-01-01', '2024-01-02');
SELECT 1 + INTERVAL 1 DAY AS from_one;
SHOW WARNINGS;
-- CONVERT_TZ with offsets; a named zone is NULL without the time zone tables (neither server
-- has them loaded), and a time before 1970 comes back unconverted. Django asks for the first.
SELECT CONVERT_TZ('2001-01-01 01:00:00', 'UTC', 'UTC') IS NOT NULL;
SELECT CONVERT_TZ('2004-01-01 12:00:00', '+00:00', '+10:00'), CONVERT_TZ('2004-01-01 12:00:00.25', '+05:30', '-02:00'), CONVERT_TZ('2004-01-01', '+01:00', 'SYSTEM');
SELECT CONVERT_TZ('1960-06-01 10:00:00', '+00:00', '+03:00'), CONVERT_TZ(NULL, '+00:00', '+03:00'), CONVERT_TZ('2004-01-01 12:00:00', '+00:00', 'Nowhere/City');
