"""TLS logins and REQUIRE clauses run the same way on Shoal and on MariaDB.

Both servers serve the same certificate (the one Shoal's routers made in their ssl_dir), so a
client verifies either against the same CA. Accounts with every REQUIRE clause are made as root;
each logs in over TCP without TLS, with verified TLS, and with TLS and the CA's client
certificate. Every outcome (logged in and what Ssl_version/Ssl_cipher say, or the error code
and message) must be the same on both; so must mysql.user's TLS columns, @@have_ssl and
@@ssl_ca. Then require_secure_transport, where MySQL 8.0 (whose answer Shoal gives) and
MariaDB differ in the code.

  tls_matrix.py TLS_DIR SHOAL_ADMIN_SOCKET SHOAL_USER_SOCKET SHOAL_USER_PORT MARIADB_SOCKET
      MARIADB_PORT

Accounts are made through one router (SHOAL_ADMIN_SOCKET) and log in through the other
(SHOAL_USER_PORT); require_secure_transport, a setting of each router, is set on the users'
router (SHOAL_USER_SOCKET).
"""
import sys

import pymysql

tls_dir = sys.argv[1]
shoal_admin, shoal_user_socket, shoal_port = sys.argv[2], sys.argv[3], int(sys.argv[4])
maria_admin, maria_port = sys.argv[5], int(sys.argv[6])

CA = f"{tls_dir}/ca.pem"
CLIENT = {"cert": f"{tls_dir}/client-cert.pem", "key": f"{tls_dir}/client-key.pem"}
CLIENT_SUBJECT = "/CN=Shoal_Router_Auto_Generated_Client_Certificate"
CA_SUBJECT = "/CN=Shoal_Router_Auto_Generated_CA_Certificate"

ACCOUNTS = [
    ("tls_none", ""),
    ("tls_ssl", "REQUIRE SSL"),
    ("tls_x509", "REQUIRE X509"),
    ("tls_subject", f"REQUIRE SUBJECT '{CLIENT_SUBJECT}' AND ISSUER '{CA_SUBJECT}'"),
    ("tls_other_subject", "REQUIRE SUBJECT '/CN=someone else'"),
    ("tls_cipher", "REQUIRE CIPHER 'TLS_AES_256_GCM_SHA384'"),
    ("tls_other_cipher", "REQUIRE CIPHER 'ECDHE-RSA-AES128-SHA'"),
]
MODES = {
    "plain": None,
    "tls": {"ca": CA},
    "tls+certificate": dict(ca=CA, **CLIENT),
}


def connect(port, user, mode):
    tls = MODES[mode]
    if tls is None:
        return pymysql.connect(host="127.0.0.1", port=port, user=user, password="pw",
                               connect_timeout=10)
    # Verified: the certificate against the CA, and its names against 127.0.0.1.
    return pymysql.connect(host="127.0.0.1", port=port, user=user, password="pw",
                           ssl_ca=tls["ca"], ssl_cert=tls.get("cert"), ssl_key=tls.get("key"),
                           ssl_verify_cert=True, ssl_verify_identity=True, connect_timeout=10)


def outcome(port, user, mode):
    try:
        conn = connect(port, user, mode)
    except pymysql.err.MySQLError as e:
        # MariaDB names a loopback client 'localhost' (it resolves 127.0.0.1); Shoal names the
        # address.
        return ("error", e.args[0], e.args[1].replace("'@'localhost'", "'@'127.0.0.1'"))
    with conn.cursor() as cur:
        cur.execute("SHOW STATUS WHERE Variable_name IN ('Ssl_version', 'Ssl_cipher')")
        status = dict(cur.fetchall())
    conn.close()
    return ("ok", status.get("Ssl_version"), status.get("Ssl_cipher"))


def text(value):
    return value.decode() if isinstance(value, bytes) else value


def admin_rows(socket, sql):
    conn = pymysql.connect(unix_socket=socket, user="root", autocommit=True)
    with conn.cursor() as cur:
        cur.execute(sql)
        rows = [tuple(text(v) for v in row) for row in cur.fetchall()] if cur.description else []
    conn.close()
    return rows


failures = 0
checked = 0


def same(what, shoal, maria):
    global failures, checked
    checked += 1
    if shoal != maria:
        failures += 1
        print(f"DIFFERENT {what}:\n  Shoal   {shoal}\n  MariaDB {maria}")


# MariaDB's anonymous accounts would take TCP logins from this host before '%' ones.
for host in ("localhost", "127.0.0.1", "::1"):
    admin_rows(maria_admin, f"DROP USER IF EXISTS ''@'{host}'")
for socket in (shoal_admin, maria_admin):
    for user, clause in ACCOUNTS:
        admin_rows(socket, f"CREATE USER {user}@'%' IDENTIFIED BY 'pw' {clause}")
        admin_rows(socket, f"GRANT SELECT ON *.* TO {user}@'%'")
    # ALTER USER changes the clause, and REQUIRE NONE takes it away.
    admin_rows(socket, "ALTER USER tls_none@'%' REQUIRE X509")
    admin_rows(socket, "ALTER USER tls_none@'%' REQUIRE NONE")

same("mysql.user TLS columns",
     admin_rows(shoal_admin, "SELECT user, ssl_type, ssl_cipher, x509_issuer, x509_subject "
                "FROM mysql.user WHERE user LIKE 'tls%' ORDER BY user"),
     admin_rows(maria_admin, "SELECT user, ssl_type, ssl_cipher, x509_issuer, x509_subject "
                "FROM mysql.user WHERE user LIKE 'tls%' ORDER BY user"))
for variable in ("have_ssl", "have_openssl", "ssl_ca"):
    same(f"@@{variable}", admin_rows(shoal_admin, f"SELECT @@{variable}"),
         admin_rows(maria_admin, f"SELECT @@{variable}"))

for user, clause in ACCOUNTS:
    for mode in MODES:
        shoal, maria = outcome(shoal_port, user, mode), outcome(maria_port, user, mode)
        same(f"{user} ({clause or 'no REQUIRE'}) over {mode}", shoal, maria)
        print(f"  {user:18} {mode:16} " + " ".join(str(part) for part in shoal))

# require_secure_transport: TCP without TLS is refused, TLS and the Unix socket are not.
for socket in (shoal_user_socket, maria_admin):
    admin_rows(socket, "SET GLOBAL require_secure_transport = ON")
try:
    for mode in ("plain", "tls"):
        shoal, maria = outcome(shoal_port, "tls_none", mode), outcome(maria_port, "tls_none", mode)
        if mode == "plain":
            # MySQL 8.0: 3159 ER_SECURE_TRANSPORT_REQUIRED; MariaDB has its own code for it.
            checked += 1
            if shoal[:2] != ("error", 3159) or maria[0] != "error":
                failures += 1
                print(f"DIFFERENT require_secure_transport over plain TCP: {shoal} / {maria}")
        else:
            same("require_secure_transport over TLS", shoal, maria)
    same("require_secure_transport over the Unix socket",
         admin_rows(shoal_user_socket, "SELECT 1"), admin_rows(maria_admin, "SELECT 1"))
finally:
    for socket in (shoal_user_socket, maria_admin):
        admin_rows(socket, "SET GLOBAL require_secure_transport = OFF")

print(f"{checked} outcomes compared, {failures} different")
sys.exit(1 if failures else 0)
