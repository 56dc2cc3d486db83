"""A privilege matrix run the same way on Shoal and on MariaDB, step by step.

Accounts are made and grants given as root on one connection; each account's statements run
on its own connections over TCP — on Shoal through the *other* router (grant on one router,
enforced on the other at once). Every step's outcome (its rows, or its error code) must be the
same on both, except where MySQL 8.0 (whose behaviour Shoal follows) and MariaDB differ: those
steps name both codes.

  privileges_matrix.py SHOAL_ADMIN_SOCKET SHOAL_USER_PORT MARIADB_SOCKET MARIADB_PORT
"""
import sys

import pymysql

shoal_admin, shoal_port, maria_admin, maria_port = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(
    sys.argv[4])

# System schemas differ (MariaDB has no performance_schema for an account without grants);
# what an account may see of its own databases must not.
SYSTEM = {"information_schema", "performance_schema", "mysql", "sys"}


class Side:

    def __init__(self, name, admin_socket, user_port):
        self.name = name
        self.admin = pymysql.connect(unix_socket=admin_socket, user="root", autocommit=True)
        self.user_port = user_port
        self.sessions = {}

    def connect(self, user, password):
        return pymysql.connect(host="127.0.0.1", port=self.user_port, user=user,
                               password=password, autocommit=True, connect_timeout=10)

    def run(self, who, sql):
        """('ok', rows) or ('error', code)."""
        try:
            conn = self.admin if who == "root" else self.sessions.get(who)
            if conn is None:
                return ("error", "not logged in")
            with conn.cursor() as cur:
                cur.execute(sql)
                rows = cur.fetchall() if cur.description else ()
            return ("ok", normalize(sql, rows))
        except pymysql.err.MySQLError as e:
            return ("error", e.args[0])

    def root_elsewhere(self):
        """The id of a root session on the users' port, opened once."""
        if not hasattr(self, "root_tcp"):
            self.root_tcp = self.connect("root", "")
        return self.root_tcp.thread_id()

    def login(self, who, password, user=None):
        """A session named `who`, as `user` (`who` itself unless given)."""
        self.sessions.pop(who, None)
        try:
            self.sessions[who] = self.connect(user or who, password)
            return ("ok", ())
        except pymysql.err.MySQLError as e:
            return ("error", e.args[0])


def normalize(sql, rows):
    rows = [tuple(str(v) for v in row) for row in rows]
    if sql.upper().startswith("SHOW DATABASES"):
        rows = [r for r in rows if r[0] not in SYSTEM]
    # MariaDB's ALL also holds its own DELETE HISTORY.
    rows = [r for r in rows if "DELETE HISTORY" not in r]
    if sql.upper().startswith("SHOW CREATE"):
        return []  # the texts differ (types, engines, charsets); that it answers is compared
    if sql.upper().startswith("SHOW GRANTS"):
        # MariaDB adds the password hash to the USAGE line.
        rows = [(r[0].split(" IDENTIFIED BY PASSWORD")[0],) for r in rows]
    return sorted(rows)


# (who, statement or ("login", password), expected difference as (shoal, mariadb) codes)
STEPS = [
    ("root", "CREATE DATABASE pt"),
    ("root", "CREATE TABLE pt.t (id INT PRIMARY KEY, v INT)"),
    ("root", "CREATE TABLE pt.u (id INT PRIMARY KEY)"),
    ("root", "INSERT INTO pt.t VALUES (1, 10), (2, 20)"),
    ("root", "INSERT INTO pt.u VALUES (1)"),
    ("root", "CREATE USER 'alice'@'%' IDENTIFIED BY 'a1'"),
    ("alice", ("login", "wrong")),
    ("alice", ("login", "a1")),
    ("alice", "SELECT * FROM pt.t"),
    ("alice", "SHOW DATABASES"),
    ("alice", "USE pt"),
    ("alice", "SHOW GRANTS"),
    ("root", "GRANT SELECT ON pt.t TO 'alice'@'%'"),
    # The same session, at once, through the other router.
    ("alice", "SELECT * FROM pt.t"),
    ("alice", "SELECT id FROM pt.t WHERE v > 15"),
    ("alice", "SELECT * FROM pt.u"),
    ("alice", "SELECT t.id FROM pt.t JOIN pt.u ON t.id = u.id"),
    ("alice", "SELECT id FROM pt.t WHERE id IN (SELECT id FROM pt.u)"),
    ("alice", "SELECT (SELECT COUNT(*) FROM pt.u) FROM pt.t"),
    ("alice", "INSERT INTO pt.t VALUES (3, 30)"),
    ("alice", "UPDATE pt.t SET v = 1"),
    ("alice", "DELETE FROM pt.t"),
    ("alice", "USE pt"),
    ("alice", "SELECT DATABASE()"),
    # MySQL (and MariaDB) apply a change of the session's current database's grants only at
    # its next USE; Shoal at the next statement. Leave it, so both apply them at once.
    ("alice", "USE information_schema"),
    ("alice", "SHOW TABLES FROM pt"),
    ("alice", "SHOW DATABASES"),
    ("alice", "SHOW GRANTS"),
    ("alice", "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'pt'"),
    ("alice", "SHOW CREATE TABLE pt.t"),
    ("alice", "SHOW CREATE TABLE pt.u"),
    ("root", "GRANT INSERT, UPDATE ON pt.* TO 'alice'@'%'"),
    ("alice", "INSERT INTO pt.t VALUES (3, 30)"),
    ("alice", "SELECT GRANTEE, TABLE_SCHEMA, TABLE_NAME, PRIVILEGE_TYPE, IS_GRANTABLE "
              "FROM information_schema.TABLE_PRIVILEGES"),
    ("alice", "SELECT GRANTEE, TABLE_SCHEMA, PRIVILEGE_TYPE, IS_GRANTABLE "
              "FROM information_schema.SCHEMA_PRIVILEGES"),
    ("alice", "SELECT GRANTEE, PRIVILEGE_TYPE, IS_GRANTABLE FROM information_schema.USER_PRIVILEGES"),
    ("alice", "SELECT User FROM mysql.user"),
    ("root", "SELECT Host, User, Select_priv, Insert_priv, Grant_priv, Create_user_priv, "
             "password_expired FROM mysql.user WHERE User = 'alice'"),
    ("alice", "UPDATE pt.t SET v = v + 1 WHERE id = 3"),
    ("alice", "UPDATE pt.u SET id = 5 WHERE id = 1"),
    ("alice", "UPDATE pt.u SET id = 5"),
    ("alice", "REPLACE INTO pt.t VALUES (3, 31)"),
    ("alice", "INSERT INTO pt.t VALUES (3, 1) ON DUPLICATE KEY UPDATE v = 2"),
    ("alice", "SELECT * FROM pt.t WHERE id = 3"),
    ("alice", "DELETE FROM pt.t WHERE id = 3"),
    ("alice", "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'pt'"),
    ("alice", "CREATE TABLE pt.x (id INT PRIMARY KEY)"),
    ("alice", "DROP TABLE pt.t"),
    ("alice", "TRUNCATE TABLE pt.t"),
    ("alice", "ALTER TABLE pt.t ADD COLUMN w INT"),
    ("alice", "CREATE INDEX iv ON pt.t (v)"),
    ("alice", "CREATE DATABASE q"),
    ("alice", "DROP DATABASE pt"),
    ("alice", "CREATE USER 'bob'@'%'"),
    ("alice", "DROP USER 'root'@'localhost'"),
    ("alice", "GRANT SELECT ON pt.t TO 'alice'@'%'"),
    ("alice", "GRANT SELECT ON pt.* TO 'alice'@'%'"),
    ("alice", "SHOW GRANTS FOR 'root'@'localhost'"),
    ("alice", "SET GLOBAL max_connections = 100"),
    ("alice", "FLUSH PRIVILEGES"),
    ("alice", "KILL %ROOT%"),
    ("alice", "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER <> 'alice'"),
    ("alice", "CREATE VIEW pt.v AS SELECT id FROM pt.t"),
    ("root", "REVOKE INSERT ON pt.* FROM 'alice'@'%'"),
    ("alice", "INSERT INTO pt.t VALUES (4, 40)"),
    ("alice", "UPDATE pt.t SET v = 11 WHERE id = 1"),
    ("root", "REVOKE SELECT ON pt.u FROM 'alice'@'%'"),
    ("root", "REVOKE SELECT ON nodb.* FROM 'alice'@'%'"),
    ("root", "GRANT SELECT ON pt.nope TO 'alice'@'%'"),
    ("root", "GRANT SUPER ON pt.* TO 'alice'@'%'"),
    ("root", "GRANT CREATE USER ON pt.t TO 'alice'@'%'"),
    ("root", "CREATE USER 'alice'@'%'"),
    ("root", "CREATE USER IF NOT EXISTS 'alice'@'%'"),
    ("root", "DROP USER 'nobody'@'%'"),
    ("root", "DROP USER IF EXISTS 'nobody'@'%'"),
    ("root", "ALTER USER 'nobody'@'%' IDENTIFIED BY 'x'"),
    ("root", "SET PASSWORD FOR 'nobody'@'%' = 'x'"),
    ("root", "SHOW GRANTS FOR 'nobody'@'%'"),
    ("root", "SHOW GRANTS FOR 'alice'@'%'"),
    ("root", "ALTER USER 'alice'@'%' IDENTIFIED BY 'a2'"),
    ("alice", ("login", "a1")),
    ("alice", ("login", "a2")),
    ("alice", "SET PASSWORD = PASSWORD('a3')"),
    ("alice", ("login", "a3")),
    ("root", "ALTER USER 'alice'@'%' ACCOUNT LOCK"),
    ("alice", ("login", "a3"), (3118, 4151)),  # MariaDB's own code for a locked account
    ("root", "SELECT User, Select_priv FROM mysql.user WHERE User = 'alice'"),
    ("root", "ALTER USER 'alice'@'%' ACCOUNT UNLOCK"),
    ("alice", ("login", "a3")),
    ("root", "GRANT ALL ON pt.* TO 'alice'@'%' WITH GRANT OPTION"),
    ("root", "SELECT GRANTEE, TABLE_SCHEMA, PRIVILEGE_TYPE, IS_GRANTABLE FROM "
             "information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE = \"'alice'@'%'\""),
    ("alice", "CREATE TABLE pt.x (id INT PRIMARY KEY)"),
    ("alice", "INSERT INTO pt.x VALUES (7)"),
    ("alice", "DROP TABLE pt.x"),
    ("root", "CREATE USER 'bob'@'%' IDENTIFIED BY 'b1'"),
    ("alice", "GRANT SELECT ON pt.t TO 'bob'@'%'"),
    ("alice", "GRANT SELECT ON *.* TO 'bob'@'%'"),
    ("bob", ("login", "b1")),
    ("bob", "SELECT COUNT(*) FROM pt.t"),
    ("bob", "SELECT COUNT(*) FROM pt.u"),
    ("root", "RENAME USER 'bob'@'%' TO 'carol'@'%'"),
    ("carol", ("login", "b1")),
    ("carol", "SELECT COUNT(*) FROM pt.t"),
    ("bob", ("login", "b1")),
    ("root", "RENAME USER 'nobody'@'%' TO 'dave'@'%'"),
    ("root", "SHOW GRANTS FOR 'carol'@'%'"),
    ("root", "CREATE VIEW pt.v AS SELECT id FROM pt.t"),
    ("root", "CREATE USER 'erin'@'%' IDENTIFIED BY 'e1'"),
    ("root", "GRANT SELECT ON pt.v TO 'erin'@'%'"),
    ("erin", ("login", "e1")),
    ("erin", "SELECT * FROM pt.v"),
    ("erin", "SELECT * FROM pt.t"),
    ("erin", "SHOW TABLES FROM pt"),
    ("root", "REVOKE ALL PRIVILEGES, GRANT OPTION FROM 'alice'@'%'"),
    ("alice", "SELECT * FROM pt.t"),
    ("alice", "SHOW GRANTS"),
    ("root", "DROP USER 'alice'@'%', 'carol'@'%'"),
    ("alice", ("login", "a3")),
    ("root", "DROP USER 'erin'@'%'"),
    ("root", "CREATE USER 'mu'@'%' IDENTIFIED BY 'm' WITH MAX_USER_CONNECTIONS 1"),
    ("mu", ("login", "m")),
    ("mu2", ("login", "m", "mu")),  # a second session of the account
    ("root", "DROP USER 'mu'@'%'"),
    # Hourly limits: every statement is a question; those that write are updates too (the
    # one refused for max_updates was counted as a question).
    ("root", "CREATE USER 'lim'@'%' IDENTIFIED BY 'l' WITH MAX_QUERIES_PER_HOUR 5 "
             "MAX_UPDATES_PER_HOUR 2"),
    ("root", "GRANT ALL ON pt.* TO 'lim'@'%'"),
    ("root", "SELECT user, max_questions, max_updates, max_connections, max_user_connections "
             "FROM mysql.user WHERE user = 'lim'"),
    ("lim", ("login", "l")),
    ("lim", "INSERT INTO pt.u VALUES (101)"),
    ("lim", "UPDATE pt.u SET id = 102 WHERE id = 101"),
    ("lim", "DELETE FROM pt.u WHERE id = 102"),
    ("lim", "SELECT COUNT(*) FROM pt.u WHERE id > 100"),
    ("lim", "SELECT 1"),
    ("lim", "SELECT 2"),
    ("lim2", ("login", "l", "lim")),  # the account's counts, not the session's
    ("lim2", "SELECT 3"),
    ("root", "FLUSH USER_RESOURCES"),
    ("lim", "SELECT 4"),
    ("lim", "DELETE FROM pt.u WHERE id > 100"),
    ("root", "ALTER USER 'lim'@'%' WITH MAX_QUERIES_PER_HOUR 0 MAX_UPDATES_PER_HOUR 0"),
    ("lim", "SELECT 5"),
    ("root", "CREATE USER 'hour'@'%' IDENTIFIED BY 'h' WITH MAX_CONNECTIONS_PER_HOUR 2"),
    ("hour", ("login", "h")),
    ("hour2", ("login", "h", "hour")),
    ("hour3", ("login", "h", "hour")),
    ("root", "SHOW GRANTS FOR 'hour'@'%'"),
    ("root", "DROP USER 'lim'@'%', 'hour'@'%'"),
    ("root", "DROP DATABASE pt"),
]


# Roles and FAILED_LOGIN_ATTEMPTS, on Shoal alone: MariaDB's roles differ from MySQL 8.0's (no
# host part, SET DEFAULT ROLE … FOR, other error codes) and it has no FAILED_LOGIN_ATTEMPTS,
# so these steps name MySQL's outcome: ("ok", rows or None to skip them) or ("error", code).
MYSQL_ONLY_STEPS = [
    ("root", "CREATE DATABASE rt", ("ok", None)),
    ("root", "CREATE TABLE rt.t (id INT PRIMARY KEY)", ("ok", None)),
    ("root", "INSERT INTO rt.t VALUES (1)", ("ok", None)),
    ("root", "CREATE ROLE 'reader', 'writer'", ("ok", None)),
    ("root", "CREATE ROLE reader", ("error", 1396)),
    ("root", "CREATE ROLE IF NOT EXISTS reader", ("ok", None)),
    ("root", "GRANT SELECT ON rt.* TO reader", ("ok", None)),
    ("root", "GRANT INSERT ON rt.t TO writer", ("ok", None)),
    ("root", "GRANT reader TO writer", ("ok", None)),
    ("root", "GRANT writer TO reader", ("error", 3549)),
    ("root", "GRANT nosuch TO writer", ("error", 3523)),
    ("root", "CREATE USER 'ann'@'%' IDENTIFIED BY 'a' DEFAULT ROLE reader", ("ok", None)),
    ("ann", ("login", "a"), ("ok", None)),
    ("ann", "SELECT CURRENT_ROLE()", ("ok", [("`reader`@`%`",)])),
    ("ann", "SELECT id FROM rt.t", ("ok", [("1",)])),
    ("ann", "INSERT INTO rt.t VALUES (2)", ("error", 1142)),
    ("ann", "SET ROLE writer", ("error", 3530)),
    ("ann", "CREATE ROLE r2", ("error", 1227)),
    ("ann", "GRANT reader TO 'ann'@'%'", ("error", 1227)),
    ("root", "GRANT writer TO 'ann'@'%'", ("ok", None)),
    ("ann", "SET ROLE writer", ("ok", None)),
    ("ann", "INSERT INTO rt.t VALUES (2)", ("ok", None)),
    ("ann", "SELECT id FROM rt.t", ("ok", [("1",), ("2",)])),  # reader, through writer
    ("ann", "SET ROLE NONE", ("ok", None)),
    ("ann", "SELECT id FROM rt.t", ("error", 1142)),
    ("ann", "SHOW DATABASES", ("ok", [])),
    ("ann", "SET ROLE DEFAULT", ("ok", None)),
    ("ann", "SELECT CURRENT_ROLE()", ("ok", [("`reader`@`%`",)])),
    ("ann", "SET DEFAULT ROLE ALL TO 'ann'@'%'", ("ok", None)),
    ("ann", ("login", "a"), ("ok", None)),
    ("ann", "SELECT CURRENT_ROLE()", ("ok", [("`reader`@`%`,`writer`@`%`",)])),
    ("root", "SHOW GRANTS FOR 'ann'@'%'",
     ("ok", [("GRANT USAGE ON *.* TO `ann`@`%`",), ("GRANT `reader`@`%`,`writer`@`%` TO `ann`@`%`",)])),
    ("root", "DROP ROLE writer", ("ok", None)),
    ("ann", "INSERT INTO rt.t VALUES (3)", ("error", 1142)),
    ("root", "SHOW GRANTS FOR 'ann'@'%'",
     ("ok", [("GRANT USAGE ON *.* TO `ann`@`%`",), ("GRANT `reader`@`%` TO `ann`@`%`",)])),
    ("root", "DROP ROLE nosuch", ("error", 1396)),
    ("root", "DROP USER 'ann'@'%'", ("ok", None)),
    ("root", "DROP ROLE reader", ("ok", None)),
    ("root", "DROP DATABASE rt", ("ok", None)),
    ("root", "CREATE USER 'fay'@'%' IDENTIFIED BY 'f' FAILED_LOGIN_ATTEMPTS 2 "
             "PASSWORD_LOCK_TIME 1", ("ok", None)),
    ("fay", ("login", "x"), ("error", 1045)),
    ("fay", ("login", "f"), ("ok", None)),  # a login that succeeds starts the count again
    ("fay", ("login", "x"), ("error", 1045)),
    ("fay", ("login", "x"), ("error", 3955)),  # the second in a row blocks the account
    ("fay", ("login", "f"), ("error", 3955)),  # even for the right password
    ("root", "ALTER USER 'fay'@'%' ACCOUNT UNLOCK", ("ok", None)),
    ("fay", ("login", "f"), ("ok", None)),
    ("root", "DROP USER 'fay'@'%'", ("ok", None)),
    # MariaDB lets a client that cannot change an expired password in (disconnect_on_expired_
    # password is off there); MySQL refuses it. PyMySQL does not say it can.
    ("root", "CREATE USER 'gus'@'%' IDENTIFIED BY 'g' PASSWORD EXPIRE", ("ok", None)),
    ("gus", ("login", "g"), ("error", 1862)),
    ("root", "DROP USER 'gus'@'%'", ("ok", None)),
]


def main():
    shoal = Side("Shoal", shoal_admin, shoal_port)
    maria = Side("MariaDB", maria_admin, maria_port)
    # MariaDB's anonymous accounts would take TCP logins from this host before '%' ones.
    for host in ("localhost", maria.run("root", "SELECT @@hostname")[1][0][0]):
        maria.run("root", f"DROP USER IF EXISTS ''@'{host}'")
    # Nor does MySQL grant anything on `test` to everyone, as MariaDB's PUBLIC does.
    maria.run("root", "DELETE FROM mysql.db WHERE User IN ('', 'PUBLIC')")
    maria.run("root", "FLUSH PRIVILEGES")
    failures = 0
    for number, step in enumerate(STEPS, 1):
        who, what = step[0], step[1]
        if isinstance(what, tuple):
            got = shoal.login(who, *what[1:]), maria.login(who, *what[1:])
            label = f"{who} logs in with {what[1]!r}"
        elif "%ROOT%" in what:  # a root session where `who`'s are (a router kills its own)
            got = tuple(side.run(who, what.replace("%ROOT%", str(side.root_elsewhere())))
                        for side in (shoal, maria))
            label = f"{who}: {what}"
        else:
            got = shoal.run(who, what), maria.run(who, what)
            label = f"{who}: {what}"
        expected = got[1]
        if len(step) > 2:
            expected = ("error", step[2][0]) if got[1] == ("error", step[2][1]) else ("?", got[1])
        if got[0] != expected:
            failures += 1
            print(f"FAIL step {number}, {label}\n  Shoal:   {got[0]}\n  MariaDB: {got[1]}")
    print(f"{len(STEPS)} steps, {failures} different")
    for number, (who, what, expected) in enumerate(MYSQL_ONLY_STEPS, 1):
        got = shoal.login(who, *what[1:]) if isinstance(what, tuple) else shoal.run(who, what)
        if got[0] != expected[0] or (expected[1] is not None and got[1] != expected[1]):
            failures += 1
            print(f"FAIL MySQL-only step {number}, {who}: {what}\n  Shoal:    {got}\n  expected: {expected}")
    print(f"{len(MYSQL_ONLY_STEPS)} steps on Shoal alone")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
