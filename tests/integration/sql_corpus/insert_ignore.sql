-- INSERT IGNORE keeps what each column can hold and warns, where strict mode refuses the row:
-- numbers out of range are clipped, text that is not a number gives 0, text too long is cut,
-- NULL into NOT NULL gives the type's zero, bad dates the zero date, unknown ENUM/SET members
-- '' or the known ones. Duplicates are skipped. MariaDB warns 1265 for a bad date where MySQL
-- warns 1292 (Shoal), and names a column `db`.`t`.`c` in 1366: those are left out. Tables of
-- their own, named ii_….
CREATE TABLE ii_t (id INT PRIMARY KEY, t TINYINT NOT NULL, u SMALLINT UNSIGNED, v VARCHAR(4), d DATE, n INT NOT NULL, e ENUM('a', 'b') NOT NULL, s SET('x', 'y')) DEFAULT CHARSET = utf8mb4;
INSERT INTO ii_t VALUES (1, 300, 1, 'ok', '2024-01-01', 1, 'a', 'x');
INSERT IGNORE INTO ii_t VALUES (2, 300, -5, 'toolong', '2024-02-28', 7, 'z', 'x,w');
SHOW WARNINGS;
INSERT IGNORE INTO ii_t VALUES (3, '12abc', 70000, 'abcd', NULL, NULL, 'b', 'y');
SHOW WARNINGS;
INSERT IGNORE INTO ii_t VALUES (1, 1, 1, 'dup', NULL, 1, 'a', ''), (4, -200, 5, 'w', NULL, 4, 'B', 'Y,X');
SHOW WARNINGS;
SELECT * FROM ii_t ORDER BY id;
DROP TABLE ii_t;
