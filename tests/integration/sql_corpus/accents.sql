-- Text in other languages under the default _ci collation (engine/schema/text_fold.h): case
-- and accents do not count in any script, in keys as in expressions. A primary key, a unique
-- key and a secondary index found by any spelling ('jose' finds 'José', 'МОСКВА' finds
-- 'Москва') and refused a second time; = < BETWEEN IN LIKE LOCATE INSTR FIND_IN_SET; ORDER
-- BY, GROUP BY, DISTINCT, COUNT(DISTINCT), MIN/MAX, a join, UNION and a window partition over
-- accented text; UPPER and LOWER of every script. LOCATE and INSTR compare the needle with the
-- haystack's bytes of its own length, as both servers do: 'É' finds 'é', 'e' does not. 1062's
-- text differs (MySQL 8.0 names the key 'ac_person.PRIMARY'): INSERT IGNORE's count stands
-- for it. Left out where MySQL 8.0's
-- utf8mb4_0900_ai_ci (which Shoal models) and MariaDB's utf8mb4_general_ci differ: letters
-- that are two in one (ß = "ss", æ = "ae" in MySQL 8.0; ß = "s" and æ a letter of its own in
-- MariaDB), letters with a stroke (ø = o, ł = l in MySQL 8.0 only), Cyrillic ё (= е in MySQL
-- 8.0 only), and which spelling a group shows (any of its rows' in both servers). Tables ac_….
SET NAMES utf8mb4;
CREATE TABLE ac_person (name VARCHAR(30) NOT NULL PRIMARY KEY, email VARCHAR(40), city VARCHAR(30), n INT, UNIQUE KEY ac_email (email), KEY ac_city (city)) DEFAULT CHARSET = utf8mb4;
INSERT INTO ac_person VALUES ('José Álvarez', 'jose@ejemplo.es', 'Málaga', 1), ('Müller', 'mueller@beispiel.de', 'Zürich', 2), ('Ñandú Pérez', 'nandu@ejemplo.ar', 'Córdoba', 3), ('Σοφία', 'sofia@paradeigma.gr', 'Αθήνα', 4), ('Пётр', 'petr@primer.ru', 'Москва', 5), ('Zoë', 'zoe@example.fr', 'Köln', 6), ('Åsa', 'åsa@exempel.se', 'Malmö', 7), ('Çelik', 'celik@örnek.tr', 'İzmir', 8), ('Hélène', 'helene@exemple.fr', 'Besançon', 9), ('François', NULL, 'Montréal', 10);
SELECT name, n FROM ac_person WHERE name = 'jose alvarez';
SELECT name, n FROM ac_person WHERE name = 'JOSÉ ÁLVAREZ';
SELECT name, n FROM ac_person WHERE name = 'muller';
SELECT name, n FROM ac_person WHERE name = 'ÑANDU PEREZ';
SELECT name, n FROM ac_person WHERE name = 'σοφια';
SELECT name, n FROM ac_person WHERE name = 'ΣΟΦΊΑ';
SELECT name, n FROM ac_person WHERE name = 'ПЁТР';
SELECT name, n FROM ac_person WHERE name = 'zoe';
SELECT name, n FROM ac_person WHERE name = 'asa';
SELECT name, n FROM ac_person WHERE name IN ('celik', 'HELENE', 'francois', 'nobody') ORDER BY n;
SELECT name, n FROM ac_person WHERE email = 'ASA@EXEMPEL.SE';
SELECT name, n FROM ac_person WHERE email = 'celik@ornek.tr';
SELECT name, n FROM ac_person WHERE city = 'zurich';
SELECT name, n FROM ac_person WHERE city = 'MOSKVA';
SELECT name, n FROM ac_person WHERE city = 'МОСКВА';
SELECT name, n FROM ac_person WHERE city = 'αθηνα';
SELECT name, n FROM ac_person WHERE city = 'montreal';
SELECT name, n FROM ac_person WHERE city IN ('malaga', 'MALMO', 'koln') ORDER BY n;
SELECT name, n FROM ac_person WHERE city BETWEEN 'a' AND 'd' ORDER BY city;
SELECT name, n FROM ac_person WHERE city >= 'm' AND city < 'n' ORDER BY city, n;
SELECT name, n FROM ac_person WHERE name < 'h' ORDER BY name;
SELECT name, n FROM ac_person WHERE name LIKE 'jose%';
SELECT name, n FROM ac_person WHERE name LIKE '%PEREZ';
SELECT name, n FROM ac_person WHERE name LIKE 'h_l_ne';
SELECT name, n FROM ac_person WHERE city LIKE '%o_ba';
SELECT name, n FROM ac_person WHERE name LIKE 'σοφ%';
SELECT name, n FROM ac_person WHERE name NOT LIKE '%e%' ORDER BY n;
SELECT name, LOCATE('e', name), INSTR(name, 'A'), LOCATE('ALV', name), LOCATE('É', name), LOCATE('ÁLV', name), INSTR(city, 'Ü') FROM ac_person ORDER BY n;
SELECT name, FIND_IN_SET('zurich', 'bern,ZÜRICH,genf'), FIND_IN_SET(city, 'malaga,cordoba') FROM ac_person WHERE n <= 3 ORDER BY n;
SELECT name FROM ac_person ORDER BY name;
SELECT name FROM ac_person ORDER BY name DESC;
SELECT city FROM ac_person ORDER BY city;
SELECT name, n FROM ac_person ORDER BY email, n;
SELECT UPPER(name), LOWER(name), UPPER(city), LOWER(city) FROM ac_person ORDER BY n;
SELECT MIN(name), MAX(name), MIN(city), MAX(city) FROM ac_person;
SELECT 'é' = 'E', 'Ü' = 'u', 'ñ' < 'o', 'Å' = 'a', 'Ç' = 'c', 'й' = 'Й', 'ά' = 'Α';
SELECT 'résumé' = 'RESUME', 'naïve' LIKE 'NAIVE', 'Crème Brûlée' LIKE '%brulee';
INSERT IGNORE INTO ac_person VALUES ('JOSE ALVAREZ', 'x@x', 'x', 11);
INSERT IGNORE INTO ac_person VALUES ('Jose Alvarez', 'y@y', 'y', 12);
INSERT IGNORE INTO ac_person VALUES ('muller', 'm2@x', 'x', 13), ('Mùller', 'm3@x', 'x', 14), ('Ana', 'JOSE@EJEMPLO.ES', 'x', 15), ('Ana', 'ana@x', 'x', 16);
SELECT COUNT(*) FROM ac_person;
SELECT name, email, n FROM ac_person WHERE name = 'ana';
REPLACE INTO ac_person VALUES ('ZOE', 'zoe@example.fr', 'Köln', 17);
SELECT name, n FROM ac_person WHERE name = 'zoë';
UPDATE ac_person SET n = n + 100 WHERE name = 'HÉLÈNE';
SELECT name, n FROM ac_person WHERE n > 100;
DELETE FROM ac_person WHERE name = 'francois';
SELECT COUNT(*) FROM ac_person WHERE name LIKE 'fran%';
CREATE TABLE ac_visit (id INT PRIMARY KEY, who VARCHAR(30), place VARCHAR(30)) DEFAULT CHARSET = utf8mb4;
INSERT INTO ac_visit VALUES (1, 'JOSE ALVAREZ', 'Sevilla'), (2, 'jose álvarez', 'Cádiz'), (3, 'MÜLLER', 'Bern'), (4, 'Σοφια', 'Κρήτη'), (5, 'ПЁТР', 'Казань'), (6, 'nobody', 'Nowhere'), (7, 'Asa', 'Göteborg');
SELECT p.name, v.place FROM ac_person p JOIN ac_visit v ON v.who = p.name ORDER BY v.id;
SELECT v.who, p.n FROM ac_visit v LEFT JOIN ac_person p ON p.name = v.who ORDER BY v.id;
SELECT p.name FROM ac_person p WHERE p.name IN (SELECT who FROM ac_visit) ORDER BY p.n;
SELECT COUNT(*), COUNT(DISTINCT who) FROM ac_visit;
SELECT MIN(id), COUNT(*) FROM ac_visit GROUP BY who ORDER BY MIN(id);
SELECT COUNT(*) FROM (SELECT DISTINCT who FROM ac_visit) d;
SELECT COUNT(*) FROM (SELECT who FROM ac_visit UNION SELECT name FROM ac_person) u;
SELECT id AS ident, ROW_NUMBER() OVER (PARTITION BY who ORDER BY id) AS rn FROM ac_visit ORDER BY id;
CREATE TABLE ac_word (w VARCHAR(20) PRIMARY KEY, lang CHAR(2)) DEFAULT CHARSET = utf8mb4;
INSERT INTO ac_word VALUES ('café', 'fr'), ('naïve', 'en'), ('Straße', 'de'), ('Ελλάδα', 'el'), ('Россия', 'ru'), ('日本', 'ja'), ('中文', 'zh'), ('한국어', 'ko');
SELECT w FROM ac_word WHERE w = 'CAFE';
SELECT w FROM ac_word WHERE w = 'ελλαδα';
SELECT w FROM ac_word WHERE w = 'РОССИЯ';
SELECT w FROM ac_word WHERE w = '日本';
SELECT w FROM ac_word WHERE w IN ('中文', '한국어') ORDER BY lang;
SELECT w, lang FROM ac_word ORDER BY w;
SELECT UPPER(w), LOWER(w), CHAR_LENGTH(UPPER(w)) FROM ac_word ORDER BY lang;
