"""caching_sha2_password's full authentication with real clients, for accounts known by the
stored form MySQL 8 keeps ("$A$005$…"): one a MySQL 8 server made for the password "foobar",
and one copied from SHOW CREATE USER of an account made here. Each logs in with the password
itself the first time a router meets it — over TLS (PyMySQL), over the Unix socket (PyMySQL),
and without TLS with the router's RSA key (Go's driver, the mariadb CLI) — and by the fast path
after that where the client's scramble allows (PyMySQL and Go's driver hash the switch
request's trailing NUL with it, as they do against mysqld, so they send the password every
time); a wrong password is refused every way. Then the router restarts: its cache is gone, and
the next login sends the password once more.

  full_auth.py ADMIN_SOCKET USER_SOCKET USER_PORT CA_FILE GO_CLIENT MGM_COMMAND METRICS_URL

(USER_* are router 5's, which MGM_COMMAND, e.g. "shoal-mgm -c 127.0.0.1:1186", restarts.)
"""
import re
import shlex
import subprocess
import sys
import time
import urllib.request

import pymysql

admin_socket, user_socket, port, ca, go_client, mgm, metrics_url = sys.argv[1:8]
port = int(port)
# What a MySQL 8 server stored for the password "foobar" (its salt has control characters).
MYSQL_MADE = bytes.fromhex(
    "24412430303524031A69251C34295C4B35167C7F1E5A7B63091349503974624D34504B5A42467935485633"
    "6868686F52485A736E4A733368786E427575516C73446469496537")

admin = pymysql.connect(unix_socket=admin_socket, user="root", autocommit=True)
with admin.cursor() as cur:
    cur.execute("CREATE USER fa_source@'%' IDENTIFIED BY 'pw'")
    cur.execute("SELECT authentication_string FROM mysql.user WHERE user = 'fa_source'")
    made_here = cur.fetchone()[0]
    assert made_here.startswith("$A$005$"), made_here
    cur.execute("CREATE USER fa_copied@'%%' IDENTIFIED WITH caching_sha2_password AS %s",
                (made_here,))
    cur.execute("CREATE USER fa_mysql@'%%' IDENTIFIED WITH caching_sha2_password AS %s",
                (MYSQL_MADE.decode("ascii"),))
    for user in ("fa_copied", "fa_mysql"):
        cur.execute(f"GRANT SELECT ON *.* TO {user}@'%'")
    cur.execute("SHOW CREATE USER fa_mysql@'%'")
    shown = cur.fetchone()[0]
    assert MYSQL_MADE.decode("ascii")[:7] in shown, shown

ACCOUNTS = {"fa_copied": "pw", "fa_mysql": "foobar"}


def full_authentications():
    text = urllib.request.urlopen(metrics_url, timeout=5).read().decode()
    found = re.search(r"^shoal_router_full_authentications_total (\d+)", text, re.M)
    return int(found.group(1)) if found else 0


def pymysql_tls(user, password):
    return pymysql.connect(host="127.0.0.1", port=port, user=user, password=password,
                           ssl_ca=ca, ssl_verify_cert=True, ssl_verify_identity=True,
                           connect_timeout=10)


def pymysql_socket(user, password):
    return pymysql.connect(unix_socket=user_socket, user=user, password=password,
                           connect_timeout=10)


def go(user, password):
    dsn = f"{user}:{password}@tcp(127.0.0.1:{port})/"
    args = [go_client, "-dsn", dsn] + ([] if password in ACCOUNTS.values() else ["-bad-password"])
    out = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError(f"Go: {out.stdout}{out.stderr}")


def mariadb_cli(user, password):
    out = subprocess.run(["mariadb", "-h", "127.0.0.1", "-P", str(port), "--skip-ssl", "-u", user,
                          f"-p{password}", "-N", "-e", "SELECT CURRENT_USER()"],
                         capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise pymysql.err.OperationalError(1045, out.stderr.strip())
    assert out.stdout.strip() == f"{user}@%", out.stdout


def logs_in(how, user, password):
    try:
        conn = how(user, password)
        if conn is not None:
            with conn.cursor() as cur:
                cur.execute("SELECT CURRENT_USER()")
                assert cur.fetchone()[0] == f"{user}@%"
            conn.close()
        return True
    except pymysql.err.OperationalError as e:
        assert e.args[0] == 1045, e
        return False


WAYS = {"PyMySQL over TLS": pymysql_tls, "PyMySQL over the Unix socket": pymysql_socket,
        "mariadb CLI without TLS (RSA)": mariadb_cli}
for user, password in ACCOUNTS.items():
    for name, how in WAYS.items():
        before = full_authentications()
        assert logs_in(how, user, password), f"{user} via {name}"
        assert not logs_in(how, user, password + "x"), f"{user} via {name}: a wrong password"
        print(f"ok: {user} via {name} ({full_authentications() - before} full authentications)")
    go(user, password)
    go(user, "wrong")
    print(f"ok: {user} via Go's driver without TLS (RSA), a wrong password refused")

# A restarted router has forgotten what it learned: the next login sends the password again.
subprocess.run(shlex.split(mgm) + ["-e", "5 RESTART"], check=True, capture_output=True,
               timeout=120)
for _ in range(100):
    try:
        before = full_authentications()
        break
    except OSError:
        time.sleep(0.1)
assert before == 0, before
assert logs_in(mariadb_cli, "fa_mysql", "foobar")
assert full_authentications() == 1, full_authentications()
# The mariadb CLI hashes the 20-byte scramble: the digest learned decides its next login.
assert logs_in(mariadb_cli, "fa_mysql", "foobar")
assert full_authentications() == 1, full_authentications()
print("ok: after a router restart, one full authentication, then the fast path")
