-- JSON_ARRAYAGG over the item table. MySQL 8.0 writes its arrays canonically (`[1, 2]`),
-- MariaDB without spaces (`[1,2]`), and neither promises an order: one-member arrays are
-- compared as they are, longer ones through JSON_LENGTH, JSON_CONTAINS and JSON_EXTRACT.
SELECT JSON_ARRAYAGG(id) FROM item WHERE id = 3;
SELECT JSON_ARRAYAGG(name), JSON_ARRAYAGG(qty) FROM item WHERE id = 1;
SELECT JSON_ARRAYAGG(id) FROM item WHERE id > 100;
SELECT JSON_LENGTH(JSON_ARRAYAGG(id)), JSON_LENGTH(JSON_ARRAYAGG(category)) FROM item;
SELECT category, JSON_LENGTH(JSON_ARRAYAGG(qty)) FROM item GROUP BY category ORDER BY category;
SELECT JSON_CONTAINS(JSON_ARRAYAGG(name), '"saw"'), JSON_CONTAINS(JSON_ARRAYAGG(name), '"drill"') FROM item;
SELECT JSON_EXTRACT(JSON_ARRAYAGG(qty), '$[0]') FROM item WHERE id = 4;
SELECT id, JSON_ARRAYAGG(qty) FROM item WHERE id IN (2, 4) GROUP BY id ORDER BY id;
