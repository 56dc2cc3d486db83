-- JSON columns and MySQL's JSON functions. Shoal stores a document in MySQL 8.0's canonical
-- form (`{"a": 1, "b": [1, 2]}`, keys by length then bytes); MariaDB keeps the text as sent,
-- so the documents here are written canonically and the two must agree. Errors differ in
-- code (MySQL 3140/3141/3143, MariaDB a CHECK failure or a warning), MariaDB has no `->` and
-- `->>`, answers 0 where MySQL answers NULL for a path that selects nothing in JSON_CONTAINS,
-- and calls the type longtext: those are tested beside MySQL's texts in sql_tables_test. Tables of their own, named js_….
CREATE TABLE js_doc (id INT PRIMARY KEY, doc JSON, note VARCHAR(20)) DEFAULT CHARSET = utf8mb4;
INSERT INTO js_doc VALUES (1, '{"a": 1, "b": [1, 2, 3], "name": "ann"}', 'one');
INSERT INTO js_doc VALUES (2, '{"a": 2, "b": [], "name": "bob", "tags": {"x": true, "y": null}}', 'two');
INSERT INTO js_doc VALUES (3, '[1, "two", 3.5, null, false]', 'three'), (4, '"just text"', 'four'), (5, '42', 'five'), (6, NULL, 'six');
SELECT id, doc FROM js_doc ORDER BY id;
SELECT id, JSON_EXTRACT(doc, '$.a'), JSON_EXTRACT(doc, '$.name'), JSON_EXTRACT(doc, '$.b[1]') FROM js_doc ORDER BY id;
SELECT id FROM js_doc WHERE JSON_UNQUOTE(JSON_EXTRACT(doc, '$.name')) = 'bob';
SELECT id FROM js_doc WHERE JSON_EXTRACT(doc, '$.a') = 1 ORDER BY id;
SELECT id, JSON_TYPE(doc), JSON_LENGTH(doc), JSON_DEPTH(doc), JSON_VALID(doc) FROM js_doc ORDER BY id;
SELECT id, JSON_KEYS(doc) FROM js_doc ORDER BY id;
SELECT id, JSON_LENGTH(doc, '$.b'), JSON_KEYS(doc, '$.tags') FROM js_doc ORDER BY id;
SELECT id, JSON_CONTAINS(doc, '1', '$.a'), JSON_CONTAINS(doc, '{"a": 2}'), JSON_CONTAINS_PATH(doc, 'one', '$.tags', '$.zz') FROM js_doc WHERE id <= 2 ORDER BY id;
SELECT JSON_OBJECT('k', 1, 'arr', JSON_ARRAY(1, 'x', NULL)), JSON_ARRAY();
SELECT JSON_OBJECT('id', id, 'note', note) FROM js_doc ORDER BY id;
SELECT JSON_QUOTE('he said "hi"'), JSON_UNQUOTE('"a\\tb"'), JSON_UNQUOTE('plain');
SELECT JSON_VALID('{"a": 1}'), JSON_VALID('[1, 2]'), JSON_VALID(NULL);
SELECT JSON_SET('{"a": 1}', '$.b', 2), JSON_INSERT('{"a": 1}', '$.a', 9, '$.c', 3), JSON_REPLACE('{"a": 1}', '$.a', 9, '$.c', 3);
SELECT JSON_REMOVE('[1, 2, 3]', '$[1]'), JSON_REMOVE('{"a": 1, "b": 2}', '$.a');
SELECT JSON_ARRAY_APPEND('[1, 2]', '$', 3), JSON_ARRAY_INSERT('[1, 2]', '$[1]', 'x');
SELECT JSON_MERGE_PATCH('{"a": 1, "b": 2}', '{"b": null, "c": 3}'), JSON_MERGE_PRESERVE('[1]', '[2]');
SELECT JSON_EXTRACT('{"a": {"b": [10, 20]}}', '$.a.b[0]'), JSON_EXTRACT('[1, 2]', '$[5]');
SELECT JSON_UNQUOTE(JSON_EXTRACT('{"s": "x\\ny"}', '$.s'));
UPDATE js_doc SET doc = JSON_SET(doc, '$.a', 100) WHERE id = 1;
UPDATE js_doc SET doc = JSON_ARRAY_APPEND(doc, '$.b', 4) WHERE id = 2;
SELECT id, doc FROM js_doc WHERE id IN (1, 2) ORDER BY id;
SELECT COUNT(*), COUNT(doc) FROM js_doc;
SELECT id FROM js_doc WHERE doc IS NULL;
SELECT JSON_UNQUOTE(JSON_EXTRACT(doc, '$.name')) AS who, COUNT(*) FROM js_doc WHERE id <= 2 GROUP BY who ORDER BY who;
DELETE FROM js_doc WHERE JSON_EXTRACT(doc, '$.a') = 2;
SELECT id FROM js_doc ORDER BY id;
DROP TABLE js_doc;
