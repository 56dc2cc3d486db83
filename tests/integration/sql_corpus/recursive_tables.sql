-- Recursive common tables (WITH RECURSIVE, issue 18): number and date series, a referral tree
-- walked down from its roots (depth and path), a walk up from one customer, a walk through a
-- join to a table, UNION DISTINCT that stops a cycle, two non-recursive and two recursive
-- SELECTs, a column list, the CTE read twice and by a subquery, aggregates and a window over
-- the result, an ordinary CTE beside a recursive one in one WITH, a recursion that makes no
-- rounds, and WITH RECURSIVE over a table that does not read itself. Left out: the errors
-- (MySQL's codes 3573-3577 and 3636 differ from MariaDB's; session tests check them), and a
-- string that grows past its column (MySQL refuses or cuts it, MariaDB keeps it).
WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 10) SELECT n FROM seq ORDER BY n;
WITH RECURSIVE seq AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM seq WHERE n < 100) SELECT COUNT(*), SUM(n), MIN(n), MAX(n) FROM seq;
WITH RECURSIVE days (d) AS (SELECT CAST('2024-02-26' AS DATE) UNION ALL SELECT d + INTERVAL 1 DAY FROM days WHERE d < '2024-03-02') SELECT d, DAYNAME(d) FROM days ORDER BY d;
WITH RECURSIVE fib (n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 20) SELECT n, a FROM fib ORDER BY n;
WITH RECURSIVE tree (id, name, depth, path) AS (SELECT id, name, 0, CAST(name AS CHAR(100)) FROM customer WHERE referred_by IS NULL UNION ALL SELECT c.id, c.name, t.depth + 1, CONCAT(t.path, '/', c.name) FROM customer c JOIN tree t ON c.referred_by = t.id) SELECT id, name, depth, path FROM tree ORDER BY path;
WITH RECURSIVE up (id, referred_by, hops) AS (SELECT id, referred_by, 0 FROM customer WHERE id = 4 UNION ALL SELECT c.id, c.referred_by, u.hops + 1 FROM up u JOIN customer c ON c.id = u.referred_by) SELECT id, hops FROM up ORDER BY hops;
WITH RECURSIVE tree (id) AS (SELECT id FROM customer WHERE id = 1 UNION ALL SELECT c.id FROM tree t JOIN customer c ON c.referred_by = t.id) SELECT o.id, o.customer_id, o.status FROM orders o JOIN tree t ON t.id = o.customer_id ORDER BY o.id;
WITH RECURSIVE cyc (n) AS (SELECT 1 UNION SELECT MOD(n, 3) + 1 FROM cyc) SELECT n FROM cyc ORDER BY n;
WITH RECURSIVE two (n, tag) AS (SELECT 1, 'a' UNION ALL SELECT 100, 'b' UNION ALL SELECT n + 1, tag FROM two WHERE n < 3 UNION ALL SELECT n * 2, tag FROM two WHERE n BETWEEN 100 AND 300) SELECT n, tag FROM two ORDER BY tag, n;
WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 5) SELECT a.n, b.n FROM seq a JOIN seq b ON b.n = a.n * 2 ORDER BY a.n;
WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 6) SELECT id, name FROM item WHERE id IN (SELECT n FROM seq WHERE n % 2 = 1) ORDER BY id;
WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 12) SELECT n % 3 AS r, COUNT(*), SUM(n) FROM seq GROUP BY n % 3 ORDER BY r;
WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 6) SELECT n AS num, SUM(n) OVER (ORDER BY n) AS running FROM seq ORDER BY num;
WITH RECURSIVE base AS (SELECT 3 AS top), seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq, base WHERE n < top) SELECT n FROM seq ORDER BY n;
WITH RECURSIVE none (n) AS (SELECT id FROM item WHERE id > 100 UNION ALL SELECT n + 1 FROM none WHERE n < 200) SELECT COUNT(*) FROM none;
WITH RECURSIVE plain AS (SELECT id, name FROM item WHERE qty > 1) SELECT id, name FROM plain ORDER BY id;
WITH RECURSIVE stock (id, qty) AS (SELECT id, qty FROM item WHERE qty IS NOT NULL UNION ALL SELECT id, qty - 3 FROM stock WHERE qty > 3) SELECT id, COUNT(*), MIN(qty) FROM stock GROUP BY id ORDER BY id;
SELECT * FROM (WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 4) SELECT n FROM seq) d ORDER BY n DESC;
