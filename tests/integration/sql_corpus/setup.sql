-- The tables the corpus reads, the same on both servers.
CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, category VARCHAR(10), qty INT,
  price DECIMAL(8,2), code VARCHAR(10), added DATETIME);
INSERT INTO item VALUES
  (1, 'hammer', 'tool', 10, 12.50, '30', '2024-01-02 10:00:00'),
  (2, 'nails', 'part', 0, 3.99, '7', '2024-01-03 11:30:00'),
  (3, 'saw', 'tool', 2, 25.00, '100', '2024-02-01 09:15:00'),
  (4, 'glue', NULL, NULL, NULL, 'x9', NULL),
  (5, 'tape', 'part', 4, 1.25, '012', '2023-12-31 23:59:59');
-- A shop for the joins: customers (one refers another), their orders (one of nobody, one of a
-- customer that does not exist) and order lines (a composite key; one names no item).
CREATE TABLE customer (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, city VARCHAR(20),
  referred_by INT);
INSERT INTO customer VALUES (1, 'ann', 'paris', NULL), (2, 'bob', 'oslo', 1),
  (3, 'cid', 'Paris', 1), (4, 'dee', NULL, 2), (5, 'eve', 'rome', NULL);
CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, placed DATE, status VARCHAR(10),
  KEY k_customer (customer_id));
INSERT INTO orders VALUES (10, 1, '2024-01-05', 'paid'), (11, 1, '2024-02-01', 'open'),
  (12, 2, '2024-02-03', 'paid'), (13, 3, '2024-03-01', 'void'), (14, NULL, '2024-03-02', 'open'),
  (15, 9, '2024-03-03', 'paid'), (16, 1, '2024-03-05', 'paid');
CREATE TABLE order_line (order_id INT, line INT, item_id INT, qty INT NOT NULL,
  PRIMARY KEY (order_id, line));
INSERT INTO order_line VALUES (10, 1, 1, 2), (10, 2, 2, 100), (11, 1, 3, 1), (12, 1, 1, 1),
  (12, 2, 5, 3), (13, 1, 4, 1), (16, 1, 2, 50), (16, 2, 9, 1);
