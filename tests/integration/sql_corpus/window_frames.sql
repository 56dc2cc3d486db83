-- Window frames: ROWS with UNBOUNDED, n PRECEDING, CURRENT ROW, n FOLLOWING (running totals,
-- moving sums and averages, frames that lie wholly before or after the row, empty frames:
-- NULL, COUNT 0), RANGE with UNBOUNDED and CURRENT ROW (peers count as the row), a lone frame
-- start, FIRST_VALUE, LAST_VALUE and NTH_VALUE over frames and the default frame, frames per
-- partition; PERCENT_RANK and CUME_DIST (rounded: MariaDB prints them at 10 digits, MySQL 8.0
-- in their shortest form; MariaDB refuses them without ORDER BY, where MySQL 8.0 makes every
-- row a peer); RANGE with n PRECEDING/FOLLOWING over an integer or DECIMAL ORDER BY value,
-- ascending and descending, NULL values (a NULL row's frame is the NULLs). Left out: RANGE
-- with INTERVAL (MariaDB 10.11 refuses it; tests/integration/sql_show_test.cc has it) and
-- named windows; a frame on ROW_NUMBER, RANK and the like (MySQL
-- 8.0 and Shoal ignore it, MariaDB refuses it with 4017); a frame whose start follows its end
-- (empty in MySQL 8.0 and Shoal; MariaDB 10.11 gives some rows a value); the errors for
-- UNBOUNDED FOLLOWING as a start or UNBOUNDED PRECEDING as an end (MySQL 8.0 says 3584/3585,
-- MariaDB a syntax error). As in windows.sql, short columns are aliased to four characters or
-- more (MariaDB types columns as nullable beside windows). Tables wf_….
CREATE TABLE wf_sale (id INT PRIMARY KEY, region VARCHAR(10), day INT, amount INT);
INSERT INTO wf_sale VALUES (1, 'north', 1, 10), (2, 'north', 2, 20), (3, 'north', 2, 5), (4, 'north', 4, NULL), (5, 'north', 5, 40), (6, 'south', 1, 7), (7, 'south', 3, 3), (8, 'south', 3, 9), (9, 'west', 9, 100);
SELECT id AS ident, SUM(amount) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running FROM wf_sale ORDER BY id;
SELECT id AS ident, SUM(amount) OVER (ORDER BY id ROWS 2 PRECEDING) AS last3, COUNT(amount) OVER (ORDER BY id ROWS 2 PRECEDING) AS cnt3 FROM wf_sale ORDER BY id;
SELECT id AS ident, ROUND(AVG(amount) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), 2) AS moving FROM wf_sale ORDER BY id;
SELECT id AS ident, SUM(amount) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest FROM wf_sale ORDER BY id;
SELECT id AS ident, MAX(amount) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) AS ahead, COUNT(*) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) AS n_ahead FROM wf_sale ORDER BY id;
SELECT id AS ident, MIN(amount) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) AS behind FROM wf_sale ORDER BY id;
SELECT id AS ident, SUM(amount) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS total FROM wf_sale ORDER BY id;
SELECT id AS ident, SUM(amount) OVER (PARTITION BY region ORDER BY day RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS by_day, SUM(amount) OVER (PARTITION BY region ORDER BY day, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS by_row FROM wf_sale ORDER BY region, day, id;
SELECT id AS ident, SUM(amount) OVER (PARTITION BY region ORDER BY day RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS from_day, COUNT(*) OVER (PARTITION BY region ORDER BY day RANGE CURRENT ROW) AS peers FROM wf_sale ORDER BY id;
SELECT id AS ident, FIRST_VALUE(amount) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS fv, LAST_VALUE(amount) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS lv FROM wf_sale ORDER BY id;
SELECT id AS ident, LAST_VALUE(amount) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS last_in FROM wf_sale ORDER BY id;
SELECT id AS ident, SUM(id) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS all_ids FROM wf_sale ORDER BY id;
SELECT region, SUM(SUM(amount)) OVER (ORDER BY region ROWS UNBOUNDED PRECEDING) AS cumulative FROM wf_sale GROUP BY region ORDER BY region;
SELECT id AS ident, NTH_VALUE(amount, 2) OVER (PARTITION BY region ORDER BY id) AS second, NTH_VALUE(amount, 2) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS next_one, NTH_VALUE(id, 3) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS third FROM wf_sale ORDER BY id;
SELECT id AS ident, ROUND(PERCENT_RANK() OVER (ORDER BY day), 4) AS pr, ROUND(CUME_DIST() OVER (ORDER BY day), 4) AS cd FROM wf_sale ORDER BY id;
SELECT id AS ident, ROUND(PERCENT_RANK() OVER (PARTITION BY region ORDER BY day DESC), 4) AS pr, ROUND(CUME_DIST() OVER (PARTITION BY region ORDER BY amount), 4) AS cd FROM wf_sale ORDER BY id;
SELECT id AS ident, SUM(amount) OVER (PARTITION BY region ORDER BY day RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS near_days, COUNT(*) OVER (ORDER BY day RANGE 2 PRECEDING) AS last3days FROM wf_sale ORDER BY id;
SELECT id AS ident, SUM(amount) OVER (ORDER BY day DESC RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS dsc, MAX(amount) OVER (ORDER BY day RANGE BETWEEN 1 FOLLOWING AND 3 FOLLOWING) AS ahead FROM wf_sale ORDER BY id;
SELECT id AS ident, COUNT(*) OVER (ORDER BY day RANGE BETWEEN UNBOUNDED PRECEDING AND 2 FOLLOWING) AS upto, COUNT(*) OVER (ORDER BY day DESC RANGE BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING) AS below FROM wf_sale ORDER BY id;
SELECT id AS ident, FIRST_VALUE(id) OVER (ORDER BY day RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS fv FROM wf_sale WHERE region = 'north' ORDER BY id;
CREATE TABLE wf_range (id INT PRIMARY KEY, x DECIMAL(5,1), amount INT);
INSERT INTO wf_range VALUES (1, 1.0, 1), (2, 1.1, 2), (3, 1.2, 4), (4, NULL, 8), (5, 2.0, 16), (6, NULL, 32), (7, 1.1, 64);
SELECT id AS ident, SUM(amount) OVER (ORDER BY x RANGE BETWEEN 0.1 PRECEDING AND 0.1 FOLLOWING) AS near FROM wf_range ORDER BY id;
SELECT id AS ident, SUM(amount) OVER (ORDER BY x DESC RANGE BETWEEN 0.5 PRECEDING AND CURRENT ROW) AS dsc, SUM(amount) OVER (ORDER BY x RANGE 1 PRECEDING) AS back1 FROM wf_range ORDER BY id;
DROP TABLE wf_range;
DROP TABLE wf_sale;
