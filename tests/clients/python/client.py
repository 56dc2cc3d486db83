"""One scripted session against a MySQL server with a real Python driver (PyMySQL or
mysql-connector-python), the way applications use it; exits non-zero on any surprise.
Used by the integration tests against a Shoal router.

  client.py --driver pymysql|connector [--socket PATH | --host H --port P] --user U
            [--password P] [--bad-password] [--prepared]
  client.py types ...   every column type, exact values back (types_check.py)
"""
import argparse
import sys


def fail(what):
    print(f"FAIL: {what}", file=sys.stderr)
    sys.exit(1)


def connect(args):
    kw = dict(user=args.user, password=args.password)
    if args.socket:
        kw["unix_socket"] = args.socket
    else:
        kw.update(host=args.host, port=args.port)
    if args.driver == "pymysql":
        import pymysql
        from pymysql.constants import CLIENT
        kw["client_flag"] = CLIENT.MULTI_STATEMENTS
        return pymysql.connect(**kw), pymysql.err.MySQLError
    import mysql.connector
    return mysql.connector.connect(**kw), mysql.connector.Error


def rows(cursor):
    # PyMySQL returns tuples of tuples, mysql-connector lists of tuples: compare as lists.
    return [tuple(r) for r in cursor.fetchall()]


def error_code(e):
    return getattr(e, "errno", None) or (e.args[0] if e.args else None)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--driver", choices=["pymysql", "connector"], required=True)
    p.add_argument("--socket")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=3306)
    p.add_argument("--user", required=True)
    p.add_argument("--password", default="")
    p.add_argument("--bad-password", action="store_true")
    p.add_argument("--prepared", action="store_true", help="connector: cursor(prepared=True)")
    args = p.parse_args()

    if args.bad_password:
        try:
            connect(args)
        except Exception as e:  # the driver's own error class
            if error_code(e) != 1045:
                fail(f"expected 1045, got {e!r}")
            print("refused:", e)
            return
        fail("login with a wrong password succeeded")

    conn, db_error = connect(args)
    cur = conn.cursor(prepared=True) if args.prepared else conn.cursor()
    cur.execute("SELECT 1")
    if rows(cur) != [(1,)]:
        fail("SELECT 1")
    cur.execute("SELECT %s + 1", (41,))
    if rows(cur) != [(42,)]:
        fail("SELECT %s + 1")
    cur.execute("SELECT @@version")
    version = cur.fetchone()[0]
    if isinstance(version, (bytes, bytearray)):
        version = version.decode()
    if not version.startswith("8.0."):
        fail(f"SELECT @@version gave {version!r}")
    plain = conn.cursor()
    plain.execute("SET NAMES utf8mb4")
    conn.commit()
    try:
        plain.execute("SELEKT 1")
        fail("a syntax error went unnoticed")
    except db_error as e:
        if error_code(e) != 1064:
            fail(f"expected 1064, got {e!r}")
    plain.execute("SELECT 2")
    if rows(plain) != [(2,)]:
        fail("the connection survives an error")
    if args.driver == "pymysql":
        # One COM_QUERY holding two statements: two result sets, MORE_RESULTS_EXISTS between.
        plain.execute("SELECT 1; SELECT 'two'")
        first = rows(plain)
        if not plain.nextset():
            fail("multi-statement: no second result set")
        second = rows(plain)
        if first != [(1,)] or second != [("two",)] or plain.nextset():
            fail(f"multi-statement gave {first!r} {second!r}")
    conn.ping()
    conn.close()
    print("ok: version", version)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "types":
        import types_check
        sys.exit(types_check.main(sys.argv[2:]))
    main()
