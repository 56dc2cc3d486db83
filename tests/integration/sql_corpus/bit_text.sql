-- BIT(M) columns (Hibernate's booleans): numbers inside, their bytes on the wire; 1406 past M
-- bits; compared and summed as numbers. TEXT sizes keep their names. Tables of their own,
-- named bt_….
CREATE TABLE bt_flags (id INT PRIMARY KEY, on_sale BIT NOT NULL DEFAULT b'0', mask BIT(10), note MEDIUMTEXT, body LONGTEXT, tiny TINYBLOB) DEFAULT CHARSET = utf8mb4;
INSERT INTO bt_flags (id, on_sale, mask) VALUES (1, 1, b'1010'), (2, 0, 1023), (3, TRUE, NULL), (4, b'1', 5);
INSERT INTO bt_flags (id) VALUES (5);
INSERT INTO bt_flags (id, on_sale) VALUES (6, 2);
INSERT INTO bt_flags (id, mask) VALUES (6, 1024);
SELECT id, on_sale + 0, mask + 0 FROM bt_flags ORDER BY id;
SELECT id FROM bt_flags WHERE on_sale = 1 ORDER BY id;
SELECT id FROM bt_flags WHERE on_sale ORDER BY id;
SELECT id FROM bt_flags WHERE mask > 5 ORDER BY id;
SELECT SUM(on_sale), MAX(mask + 0), COUNT(mask) FROM bt_flags;
SELECT on_sale + 0 AS s, COUNT(*) FROM bt_flags GROUP BY s ORDER BY s;
UPDATE bt_flags SET on_sale = 0 WHERE id = 1;
UPDATE bt_flags SET mask = mask + 1 WHERE id = 4;
SELECT id, on_sale + 0, mask + 0 FROM bt_flags ORDER BY id;
SELECT id, on_sale, mask FROM bt_flags WHERE id IN (2, 4) ORDER BY id;
SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, NUMERIC_PRECISION, COLUMN_DEFAULT, CHARACTER_MAXIMUM_LENGTH FROM information_schema.COLUMNS WHERE TABLE_NAME = 'bt_flags' AND COLUMN_NAME <> 'id' ORDER BY ORDINAL_POSITION;
DROP TABLE bt_flags;
