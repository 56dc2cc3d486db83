"""One scripted session against a MySQL server with a real Python driver (PyMySQL or
mysql-connector-python), the way applications use it; exits non-zero on any surprise.
Used by the integration tests against a Shoal router.

  client.py --driver pymysql|connector [--socket PATH | --host H --port P] --user U
            [--password P] [--bad-password | --expect-error N] [--prepared] [--pure]
            [--ssl-ca FILE [--ssl-cert FILE --ssl-key FILE] [--verify-identity] [--ssl-dict]
             [--tls-version TLSv1.2] [--expect-tls-failure] | --ssl-disabled]
  client.py types ...   every column type, exact values back (types_check.py)

TLS: --ssl-ca verifies the server's certificate with that CA, through each driver's own
parameters: ssl_ca, ssl_cert, ssl_key, ssl_verify_cert=True and ssl_verify_identity (the host's
name or address against the certificate), for both; or, with --ssl-dict, PyMySQL's
ssl={'ca': …, 'cert': …, 'key': …} (mysql_ssl_set()'s, which verifies the certificate and the
host name); --tls-version: mysql-connector-python's tls_versions=[that one]. The session must
then be TLS 1.2 or 1.3 by the server's Ssl_version and Ssl_cipher (and, with PyMySQL, by its
own socket), and a value of more than 16 MiB must go there and back. --expect-tls-failure
expects the connect to fail on the server's certificate. --ssl-disabled: ssl_disabled=True
(mysql-connector-python asks for TLS by default), and the session must not be TLS. --pure:
mysql-connector-python's pure-Python protocol rather than its C extension (libmysqlclient),
which is its default.
"""
import argparse
import ssl
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
    if args.ssl_disabled:
        kw["ssl_disabled"] = True
    elif args.ssl_dict:
        kw["ssl"] = {"ca": args.ssl_ca}
        if args.ssl_cert:
            kw["ssl"].update(cert=args.ssl_cert, key=args.ssl_key)
    elif args.ssl_ca:
        kw.update(ssl_ca=args.ssl_ca, ssl_verify_cert=True,
                  ssl_verify_identity=args.verify_identity)
        if args.ssl_cert:
            kw.update(ssl_cert=args.ssl_cert, ssl_key=args.ssl_key)
        if args.tls_version:
            kw["tls_versions"] = [args.tls_version]
    if args.driver == "pymysql":
        import pymysql
        from pymysql.constants import CLIENT
        kw["client_flag"] = CLIENT.MULTI_STATEMENTS
        return pymysql.connect(**kw), pymysql.err.MySQLError
    import mysql.connector
    if args.pure:
        kw["use_pure"] = True
    return mysql.connector.connect(**kw), mysql.connector.Error


def rows(cursor):
    # PyMySQL returns tuples of tuples, mysql-connector lists of tuples: compare as lists.
    return [tuple(r) for r in cursor.fetchall()]


def error_code(e):
    return getattr(e, "errno", None) or (e.args[0] if e.args else None)


def certificate_refused(e):
    """Whether a failed connect was the driver's check of the server's certificate: Python's
    ssl module (PyMySQL keeps it as original_exception, the pure connector as the cause) or
    libmysqlclient's (the C extension's 2026, "SSL connection error")."""
    seen = [e, getattr(e, "original_exception", None), e.__cause__, e.__context__]
    if any(isinstance(x, ssl.SSLCertVerificationError) for x in seen):
        return True
    return error_code(e) == 2026 and "certificate verify failed" in str(e)


def session_tls(conn):
    """The server's view of this session's TLS: Ssl_version and Ssl_cipher, empty without."""
    cur = conn.cursor()
    status = {}
    for name in ("Ssl_version", "Ssl_cipher"):
        cur.execute(f"SHOW STATUS LIKE '{name}'")
        status[name] = cur.fetchone()[1]
    cur.close()
    return status["Ssl_version"], status["Ssl_cipher"]


def check_session_tls(conn, args):
    """The server's view of this session's TLS; for PyMySQL also its socket's, which must
    agree. Then 17,000,000 bytes, not all alike, as a parameter and back: MySQL packets split
    at 0xFFFFFF bytes, across many TLS records each way. With mysql-connector-python the
    session is then reset (COM_RESET_CONNECTION) and its user changed to the same one
    (COM_CHANGE_USER): the connection is still TLS, and the server must still say so.
    Returns "TLSv1.3 TLS_AES_… (…)"."""
    version, cipher = session_tls(conn)
    if version not in ("TLSv1.2", "TLSv1.3") or not cipher:
        fail(f"the session's TLS: Ssl_version {version!r}, Ssl_cipher {cipher!r}")
    sock = getattr(conn, "_sock", None)
    if isinstance(sock, ssl.SSLSocket):
        ours = f"{sock.version()} {sock.cipher()[0]}"
        if ours != f"{version} {cipher}":
            fail(f"PyMySQL's socket says {ours}, the server {version} {cipher}")
    big = "".join(f"{i:08x}" for i in range(17_000_000 // 8 + 1))[:17_000_000]
    cur = conn.cursor()
    cur.execute("SELECT %s AS payload", (big,))
    back = cur.fetchone()[0]
    cur.close()
    if (back.decode() if isinstance(back, (bytes, bytearray)) else back) != big:
        fail(f"a {len(big)}-byte value through TLS came back as {len(back)} different bytes")
    if args.driver == "connector":
        conn.cmd_reset_connection()
        if session_tls(conn) != (version, cipher):
            fail(f"after COM_RESET_CONNECTION the session's TLS is {session_tls(conn)}")
        conn.cmd_change_user(username=args.user, password=args.password)
        if session_tls(conn) != (version, cipher):
            fail(f"after COM_CHANGE_USER the session's TLS is {session_tls(conn)}")
        return (f"{version} {cipher} (a {len(big)}-byte value each way; the same after"
                " COM_RESET_CONNECTION and COM_CHANGE_USER)")
    return f"{version} {cipher} (a {len(big)}-byte value each way)"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--driver", choices=["pymysql", "connector"], required=True)
    p.add_argument("--socket")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=3306)
    p.add_argument("--user", required=True)
    p.add_argument("--password", default="")
    p.add_argument("--bad-password", action="store_true", help="expect 1045")
    p.add_argument("--expect-error", type=int, help="expect the login to be refused with this")
    p.add_argument("--prepared", action="store_true", help="connector: cursor(prepared=True)")
    p.add_argument("--pure", action="store_true", help="connector: use_pure=True")
    p.add_argument("--ssl-ca", help="TLS, the server's certificate verified with this CA")
    p.add_argument("--ssl-cert", help="with --ssl-ca: the client certificate")
    p.add_argument("--ssl-key", help="with --ssl-ca: the client certificate's key")
    p.add_argument("--verify-identity", action="store_true", help="ssl_verify_identity=True")
    p.add_argument("--ssl-dict", action="store_true", help="PyMySQL: ssl={'ca': ...}")
    p.add_argument("--tls-version", help="connector: tls_versions=[this], e.g. TLSv1.2")
    p.add_argument("--ssl-disabled", action="store_true", help="ssl_disabled=True: no TLS")
    p.add_argument("--expect-tls-failure", action="store_true",
                   help="expect the connect to fail on the server's certificate")
    args = p.parse_args()
    if args.bad_password:
        args.expect_error = 1045
    if args.ssl_dict and (args.driver != "pymysql" or not args.ssl_ca):
        p.error("--ssl-dict is PyMySQL's, with --ssl-ca")
    if args.ssl_disabled and args.ssl_ca:
        p.error("--ssl-disabled or --ssl-ca")
    if args.tls_version and (args.driver != "connector" or not args.ssl_ca or args.ssl_dict):
        p.error("--tls-version is mysql-connector-python's, with --ssl-ca")

    if args.expect_tls_failure:
        try:
            connect(args)
        except Exception as e:  # the driver's own error class
            if not certificate_refused(e):
                fail(f"expected the server's certificate to be refused, got {e!r}")
            print("refused:", e)
            return
        fail("connected although the server's certificate should have been refused")
    if args.expect_error:
        try:
            connect(args)
        except Exception as e:  # the driver's own error class
            if error_code(e) != args.expect_error:
                fail(f"expected {args.expect_error}, got {e!r}")
            print("refused:", e)
            return
        fail(f"login succeeded where {args.expect_error} was expected")

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
    tls = check_session_tls(conn, args) if args.ssl_ca else None
    if args.ssl_disabled and session_tls(conn) != ("", ""):
        fail(f"ssl_disabled, yet the session's TLS is {session_tls(conn)}")
    conn.close()
    print("ok: version", version)
    if tls:
        print("ok: tls", tls)
    elif args.ssl_disabled:
        print("ok: no tls")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "types":
        import types_check
        sys.exit(types_check.main(sys.argv[2:]))
    main()
