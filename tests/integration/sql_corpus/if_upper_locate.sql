-- IF, NULLIF, UPPER/UCASE, LOWER/LCASE and LOCATE (what Connector/J's DatabaseMetaData sends,
-- among others), over literals and columns (other scripts: accents.sql).
SELECT IF(1 > 0, 'yes', 'no'), IF(NULL, 1, 2), IF(0, 1, 2.5), IF('1', 'a', 7);
SELECT NULLIF(1, 1), NULLIF(1, 2), NULLIF('a', 'A'), NULLIF(NULL, 1);
SELECT UPPER('MixedCase 123'), UCASE('abc'), LOWER('MixedCase'), LCASE('ABC'), UPPER(NULL);
SELECT LOCATE('bar', 'foobarbar'), LOCATE('bar', 'foobarbar', 5), LOCATE('xyz', 'foobar');
SELECT LOCATE('BAR', 'foobar'), LOCATE('', 'abc'), LOCATE('a', 'abc', 0), LOCATE('a', NULL);
SELECT id, IF(qty > 3, 'plenty', 'short') FROM item ORDER BY id;
SELECT id, UPPER(name), LOCATE('a', name), NULLIF(category, 'tool') FROM item ORDER BY id;
SELECT id FROM item WHERE UPPER(category) = 'TOOL' ORDER BY id;
SELECT UPPER(CASE WHEN LOCATE('UNSIGNED', UPPER('int unsigned')) != 0 THEN 'int unsigned' ELSE 'int' END);
SELECT IF(1, 2);
