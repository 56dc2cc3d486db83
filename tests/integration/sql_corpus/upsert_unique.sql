-- INSERT … ON DUPLICATE KEY UPDATE where the row collides on a UNIQUE secondary key (GORM's
-- upserts by a unique name): the stored row that holds the key is updated, whatever its
-- primary key; a collision on the primary key comes first; rows of one statement see each
-- other (ids are left out: how many a statement takes is up to the engine). Column comments are kept (GORM compares them to decide what to migrate). Tables of
-- their own, named uu_….
CREATE TABLE uu_user (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL COMMENT 'login name', email VARCHAR(40) COMMENT 'where to write', age INT, UNIQUE KEY uu_name (name)) DEFAULT CHARSET = utf8mb4;
SELECT COLUMN_NAME, COLUMN_COMMENT FROM information_schema.COLUMNS WHERE TABLE_NAME = 'uu_user' ORDER BY ORDINAL_POSITION;
INSERT INTO uu_user (name, email, age) VALUES ('alice', 'a@x', 30), ('bob', 'b@x', 40);
INSERT INTO uu_user (name, email, age) VALUES ('alice', 'alice@new', 31), ('dave', 'd@x', 60) ON DUPLICATE KEY UPDATE age = VALUES(age), email = VALUES(email);
SELECT ROW_COUNT();
SELECT name, email, age FROM uu_user ORDER BY name;
INSERT INTO uu_user (id, name, age) VALUES (1, 'bob', 1) ON DUPLICATE KEY UPDATE age = age + 100;
SELECT name, age FROM uu_user ORDER BY name;
INSERT INTO uu_user (name, age) VALUES ('erin', 5), ('erin', 6), ('bob', 7) ON DUPLICATE KEY UPDATE age = age * 10 + VALUES(age);
SELECT name, age FROM uu_user ORDER BY name;
INSERT INTO uu_user (name, email, age) VALUES ('bob', NULL, 0) ON DUPLICATE KEY UPDATE id = id;
SELECT ROW_COUNT();
INSERT INTO uu_user (name, age) VALUES ('carl', 1) ON DUPLICATE KEY UPDATE name = 'bob';
SELECT name, age FROM uu_user ORDER BY name;
ALTER TABLE uu_user MODIFY email VARCHAR(40) COMMENT 'changed';
SELECT COLUMN_COMMENT FROM information_schema.COLUMNS WHERE TABLE_NAME = 'uu_user' AND COLUMN_NAME = 'email';
DROP TABLE uu_user;
