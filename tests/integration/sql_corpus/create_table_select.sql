-- CREATE TABLE … [IGNORE] [AS] query: the query's columns, typed as their source columns (name,
-- type, length, nullability; compared through information_schema, where MySQL and MariaDB name
-- types alike) after the columns written that the query has not, a column written taking the
-- query's of its name; keys on the query's columns;
-- the rows as INSERT … SELECT puts them; IF NOT EXISTS of a table that exists inserts nothing;
-- a table with no primary key; an empty result; a UNION and a parenthesized query. Left out
-- (sql_tables_test's): a failed insert (the table dropped again: 1062 names the key as
-- 'cs_dup.PRIMARY' in MySQL 8.0, 'PRIMARY' in MariaDB), IGNORE (MariaDB 10.11 counts one
-- duplicate fewer than it skips), REPLACE (Shoal counts a replaced row once, as NDB) and the
-- types of computed columns (MySQL's and MariaDB's differ).
CREATE TABLE cs_copy AS SELECT id, name, price, added FROM item WHERE id < 4;
SELECT * FROM cs_copy ORDER BY id;
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE, CHARACTER_MAXIMUM_LENGTH FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'cs_copy' ORDER BY ORDINAL_POSITION;
CREATE TABLE cs_keyed (id INT PRIMARY KEY, note VARCHAR(10) DEFAULT 'n', KEY k_name (name)) SELECT id, name FROM customer;
SELECT * FROM cs_keyed ORDER BY id;
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'cs_keyed' ORDER BY ORDINAL_POSITION;
SELECT id FROM cs_keyed WHERE name = 'bob';
CREATE TABLE cs_keyed SELECT 1 AS id;
CREATE TABLE IF NOT EXISTS cs_keyed SELECT 99 AS id, 'x' AS name;
SHOW WARNINGS;
SELECT COUNT(*) FROM cs_keyed;
CREATE TABLE cs_order (b INT, a VARCHAR(3) NOT NULL, c INT DEFAULT 7) SELECT 1 AS a, 2 AS z;
SELECT * FROM cs_order;
SELECT COLUMN_NAME, IS_NULLABLE, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'cs_order' ORDER BY ORDINAL_POSITION;
CREATE TABLE cs_expr AS SELECT id * 2 AS d, CONCAT(name, '!') AS n, price + 1 AS p, qty IS NULL AS q FROM item;
SELECT * FROM cs_expr ORDER BY d;
CREATE TABLE cs_union SELECT id FROM customer UNION SELECT customer_id FROM orders;
SELECT id FROM cs_union ORDER BY id;
CREATE TABLE cs_empty SELECT id, name FROM item WHERE qty > 1000;
SELECT COUNT(*) FROM cs_empty;
CREATE TABLE cs_paren (SELECT id, status FROM orders ORDER BY id DESC LIMIT 2);
SELECT * FROM cs_paren ORDER BY id;
INSERT INTO cs_paren VALUES (1, 'new');
SELECT * FROM cs_paren ORDER BY id;
DROP TABLE cs_copy, cs_keyed, cs_order, cs_expr, cs_union, cs_empty, cs_paren;
