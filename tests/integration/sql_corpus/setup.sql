-- The tables the corpus reads, the same on both servers.
CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, category VARCHAR(10), qty INT,
  price DECIMAL(8,2), code VARCHAR(10), added DATETIME);
INSERT INTO item VALUES
  (1, 'hammer', 'tool', 10, 12.50, '30', '2024-01-02 10:00:00'),
  (2, 'nails', 'part', 0, 3.99, '7', '2024-01-03 11:30:00'),
  (3, 'saw', 'tool', 2, 25.00, '100', '2024-02-01 09:15:00'),
  (4, 'glue', NULL, NULL, NULL, 'x9', NULL),
  (5, 'tape', 'part', 4, 1.25, '012', '2023-12-31 23:59:59');
