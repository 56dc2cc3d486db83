-- MySQL's user-level locks, within one session (held cluster-wide: sql_tables_test checks
-- other sessions, other routers, waits, KILL QUERY, deadlocks and failures). Left out where
-- MySQL 8.0 and MariaDB differ: a NULL, empty or too long name (MySQL 8.0's 3057, MariaDB
-- answers NULL); names that differ in case only (one lock in MySQL 8.0, which lower-cases
-- them, two in MariaDB); a negative timeout (MySQL waits without end, MariaDB answers NULL);
-- the functions over a table's rows and in SELECT … INTO (1235 in Shoal).
SELECT GET_LOCK('corpus_a', 0), GET_LOCK('corpus_a', 0), GET_LOCK('corpus_b', 10);
SELECT IS_FREE_LOCK('corpus_a'), IS_FREE_LOCK('corpus_b'), IS_FREE_LOCK('corpus_c');
SELECT IS_USED_LOCK('corpus_a') = CONNECTION_ID(), IS_USED_LOCK('corpus_c');
SELECT RELEASE_LOCK('corpus_a'), RELEASE_LOCK('corpus_a'), RELEASE_LOCK('corpus_a'), RELEASE_LOCK('corpus_c');
SELECT GET_LOCK('corpus_a', 0.5), GET_LOCK('corpus_a', 1.5), RELEASE_ALL_LOCKS(), RELEASE_ALL_LOCKS();
SELECT IS_FREE_LOCK('corpus_a'), IS_FREE_LOCK('corpus_b'), IS_USED_LOCK('corpus_b');
DO GET_LOCK('corpus_d', 0);
SELECT RELEASE_LOCK('corpus_d') AS released, IS_FREE_LOCK('corpus_d') AS free;
SELECT GET_LOCK(CONCAT('corpus_', 'e'), 0) + 1, IF(IS_FREE_LOCK('corpus_e'), 'free', 'held');
SELECT RELEASE_LOCK('corpus_e'), IS_USED_LOCK('corpus_e');
