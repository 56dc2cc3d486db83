#!/usr/bin/env bash
# TLS with real MySQL drivers that verify the router's certificate, over TCP to 127.0.0.1:
# go-sql-driver/mysql (a tls.Config registered for tls=custom), Connector/J (sslMode=VERIFY_CA
# and VERIFY_IDENTITY with a PKCS12 truststore made here with keytool from the routers' ca.pem,
# and a client keystore made with openssl pkcs12), PyMySQL (ssl_ca, ssl_verify_cert,
# ssl_verify_identity, and its ssl={'ca': …}) and mysql-connector-python (ssl_ca,
# ssl_verify_cert, ssl_verify_identity), the latter both through its C extension
# (libmysqlclient) and its pure-Python protocol.
#
# The cluster in a box on its embedded configuration, whose routers make a CA and certificates
# once in the run directory's tls/. For each driver:
# * a REQUIRE SSL account logs in with the server's certificate verified (its address, and
#   `localhost`, both in the certificate), runs the driver's scripted session, and the server
#   says the session is TLS (Ssl_version, Ssl_cipher); a value of 17,000,000 bytes goes there
#   and back (MySQL packets split at 0xFFFFFF bytes, across many TLS records); TLS 1.2 alone
#   works as well as 1.3 (Go, Connector/J, mysql-connector-python); mysql-connector-python
#   then resets the session (COM_RESET_CONNECTION) and changes its user (COM_CHANGE_USER),
#   after which the server must still say TLS;
# * a CA made apart (shoal-router --make-certificates, the same names as the routers' own)
#   fails the handshake on the client's side, and so does, for Go, a name the certificate
#   does not have;
# * a REQUIRE X509 account (and a REQUIRE SUBJECT '/CN=…' one with Go, Connector/J and
#   PyMySQL) logs in with the client certificate from the routers' tls/, and is refused (1045)
#   with TLS and no certificate; Go then opens a connection that resumes the TLS session
#   (a TLS 1.3 ticket, a TLS 1.2 session) and logs in again;
# * the REQUIRE SSL account is refused (1045) without TLS.
# Then a client certificate from the other CA is refused by the router's handshake (the
# mariadb CLI); and with SET GLOBAL require_secure_transport=ON on router 5 every driver's
# plain TCP login gets 3159 while its verified TLS login succeeds (the Unix socket stays open).
#
#   tests/integration/tls_clients_test.sh
#
# ctest runs it as tls_clients_test. Needs the clients (tests/clients/build.sh;
# SHOAL_CLIENTS_DIR, default build/clients), java and keytool, openssl and the mariadb CLI.
# Prints one line per check; stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
clients=${SHOAL_CLIENTS_DIR:-build/clients}
python=$clients/pyvenv/bin/python
goclient=$clients/mysqlclient-go
java_classpath="$clients/java/classes:$clients/java/lib/*"
for need in "$python" "$goclient" "$clients/java/lib"; do
  [ -e "$need" ] || { echo "FAIL: no $need (tests/clients/build.sh builds it)" >&2; exit 1; }
done
for tool in java keytool openssl mariadb; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing" >&2; exit 1; }
done

# 1. The cluster in a box: router 4 on 127.0.0.1:$port, router 5 on the next port.
start_box tls-clients 0 "$(free_ports 2)"
port=$router_port
port5=$((port + 1))
shoal() { mariadb -S "$socket" -u root "$@"; }
# quiet COMMAND…: runs it, showing what it said only if it failed.
quiet() {
  local out
  out=$("$@" 2>&1) || { echo "FAIL: $1: $out" >&2; return 1; }
}

# 2. The routers' certificates, and another CA with the same names that clients must refuse.
tls=$work/shoal/tls
other=$work/other-ca
quiet "$bin/shoal-router" --make-certificates "$other"
for f in ca.pem server-cert.pem client-cert.pem client-key.pem; do
  [ -s "$tls/$f" ] || { echo "FAIL: the routers made no $tls/$f" >&2; exit 1; }
done
openssl verify -CAfile "$tls/ca.pem" "$tls/server-cert.pem" "$tls/client-cert.pem" >/dev/null
echo "routers' CA: $(openssl x509 -in "$tls/ca.pem" -noout -subject);" \
  "the other CA: $(openssl x509 -in "$other/ca.pem" -noout -subject)"
echo "server certificate: $(openssl x509 -in "$tls/server-cert.pem" -noout -ext subjectAltName |
  tail -n +2 | sed 's/^ *//')"
client_subject=/CN=$(openssl x509 -in "$tls/client-cert.pem" -noout -subject -nameopt multiline |
  sed -n 's/^ *commonName *= //p')

# Java's stores: a truststore of each CA (keytool), a keystore of the client certificate and
# its key (openssl pkcs12).
quiet keytool -importcert -noprompt -alias shoal-ca -file "$tls/ca.pem" -storetype PKCS12 \
  -keystore "$work/truststore.p12" -storepass trust-secret
quiet keytool -importcert -noprompt -alias other-ca -file "$other/ca.pem" -storetype PKCS12 \
  -keystore "$work/other-truststore.p12" -storepass trust-secret
quiet openssl pkcs12 -export -in "$tls/client-cert.pem" -inkey "$tls/client-key.pem" \
  -name shoal-client -out "$work/client.p12" -passout pass:client-secret

shoal -e "CREATE USER tls_app@'%' IDENTIFIED BY 'secret' REQUIRE SSL;
  CREATE USER tls_x509@'%' IDENTIFIED BY 'secret' REQUIRE X509;
  CREATE USER tls_subject@'%' IDENTIFIED BY 'secret' REQUIRE SUBJECT '$client_subject';
  GRANT ALL ON *.* TO tls_app@'%', tls_x509@'%', tls_subject@'%'"
echo "accounts: $(shoal -N -e "SHOW CREATE USER tls_app@'%'" | grep -o 'REQUIRE SSL'), \
$(shoal -N -e "SHOW CREATE USER tls_x509@'%'" | grep -o 'REQUIRE X509'), \
$(shoal -N -e "SHOW CREATE USER tls_subject@'%'" | grep -o "REQUIRE SUBJECT '[^']*'")"

failed=0
checks=0
# check WHAT EXPECT COMMAND…: COMMAND (a client program) must exit 0 and print a line that
# starts with EXPECT — "ok: tls" after a verified TLS session, "refused: " when it was told to
# expect a refusal and got that one. Prints those lines, or FAIL and all it printed.
check() {
  local what=$1 expect=$2 out lines line shown=""
  shift 2
  checks=$((checks + 1))
  if out=$(timeout -k 5 120 "$@" 2>&1) && lines=$(grep -- "^$expect" <<<"$out"); then
    while IFS= read -r line; do
      line=${line#"$expect"}
      shown+="${shown:+; }${line# }"
    done <<<"$lines"
    echo "ok: $what: $shown"
  else
    echo "FAIL: $what:" >&2
    sed 's/^/  /' <<<"$out" >&2
    failed=$((failed + 1))
  fi
}

# 3. Go: go-sql-driver/mysql.
go_tls=(-tls-ca "$tls/ca.pem")
go_cert=(-tls-cert "$tls/client-cert.pem" -tls-key "$tls/client-key.pem")
go_at() { echo "$1:secret@tcp($2:$port)/${3-}"; }
check "Go, REQUIRE SSL, verified at 127.0.0.1" "ok: tls" \
  "$goclient" -dsn "$(go_at tls_app 127.0.0.1)" "${go_tls[@]}"
check "Go, REQUIRE SSL, verified as localhost, interpolated, multi-statements" "ok: tls" \
  "$goclient" -dsn "$(go_at tls_app localhost '?multiStatements=true')" -interpolate "${go_tls[@]}"
check "Go, TLS 1.2 alone" "ok: tls" \
  "$goclient" -dsn "$(go_at tls_app 127.0.0.1)" "${go_tls[@]}" -tls-version 1.2
check "Go, the other CA" "refused: " \
  "$goclient" -dsn "$(go_at tls_app 127.0.0.1)" -tls-ca "$other/ca.pem" -expect-tls-failure
check "Go, a name the certificate does not have" "refused: " \
  "$goclient" -dsn "$(go_at tls_app 127.0.0.1)" "${go_tls[@]}" -server-name db.invalid \
  -expect-tls-failure
check "Go, REQUIRE X509 with the client certificate, then a resumed TLS session" "ok: tls" \
  "$goclient" -dsn "$(go_at tls_x509 127.0.0.1)" "${go_tls[@]}" "${go_cert[@]}" -tls-resume
check "Go, REQUIRE SUBJECT with the client certificate, TLS 1.2, resumed" "ok: tls" \
  "$goclient" -dsn "$(go_at tls_subject 127.0.0.1)" "${go_tls[@]}" "${go_cert[@]}" \
  -tls-version 1.2 -tls-resume
check "Go, REQUIRE X509 without a certificate" "refused: " \
  "$goclient" -dsn "$(go_at tls_x509 127.0.0.1)" "${go_tls[@]}" -expect-error 1045
check "Go, REQUIRE SSL without TLS" "refused: " \
  "$goclient" -dsn "$(go_at tls_app 127.0.0.1)" -expect-error 1045

# 4. Java: Connector/J.
trust="trustCertificateKeyStoreUrl=file:$work/truststore.p12&trustCertificateKeyStoreType=PKCS12"
trust+="&trustCertificateKeyStorePassword=trust-secret"
other_trust=${trust/truststore/other-truststore}
keys="clientCertificateKeyStoreUrl=file:$work/client.p12&clientCertificateKeyStoreType=PKCS12"
keys+="&clientCertificateKeyStorePassword=client-secret"
jdbc=(java -cp "$java_classpath" dev.shoal.ShoalClient)
url="jdbc:mysql://127.0.0.1:$port/?sslMode"
check "Java, REQUIRE SSL, VERIFY_CA" "ok: tls" \
  "${jdbc[@]}" "$url=VERIFY_CA&$trust" tls_app secret --tls
check "Java, REQUIRE SSL, VERIFY_IDENTITY at 127.0.0.1" "ok: tls" \
  "${jdbc[@]}" "$url=VERIFY_IDENTITY&$trust" tls_app secret --tls
localhost_tls12="${url/127.0.0.1/localhost}=VERIFY_IDENTITY&tlsVersions=TLSv1.2"
check "Java, VERIFY_IDENTITY as localhost, TLS 1.2 alone, server-side prepared" "ok: tls" \
  "${jdbc[@]}" "$localhost_tls12&useServerPrepStmts=true&$trust" tls_app secret --tls
check "Java, a truststore of the other CA" "refused: " \
  "${jdbc[@]}" "$url=VERIFY_CA&$other_trust" tls_app secret --expect-tls-failure
check "Java, REQUIRE X509 with the client keystore" "ok: tls" \
  "${jdbc[@]}" "$url=VERIFY_CA&$trust&$keys" tls_x509 secret --tls
check "Java, REQUIRE SUBJECT with the client keystore" "ok: tls" \
  "${jdbc[@]}" "$url=VERIFY_IDENTITY&$trust&$keys" tls_subject secret --tls
check "Java, REQUIRE X509 without a certificate" "refused: " \
  "${jdbc[@]}" "$url=VERIFY_CA&$trust" tls_x509 secret --expect-error 1045
check "Java, REQUIRE SSL without TLS" "refused: " \
  "${jdbc[@]}" "$url=DISABLED" tls_app secret --expect-error 1045

# 5. Python: PyMySQL, and mysql-connector-python through libmysqlclient and in pure Python.
# The last --host given counts: `"${py[@]}" --host localhost …` verifies that name.
py=("$python" tests/clients/python/client.py --host 127.0.0.1 --port "$port")
py_tls=(--ssl-ca "$tls/ca.pem")
py_cert=(--ssl-cert "$tls/client-cert.pem" --ssl-key "$tls/client-key.pem")
app=(--user tls_app --password secret)
x509=(--user tls_x509 --password secret)
# The driver's name, and its client.py arguments ("connector --pure" is two).
python_driver() {
  read -ra with <<<"--driver $1"
  case $1 in
    pymysql) name=PyMySQL ;;
    connector) name="mysql-connector-python (C extension)" ;;
    *) name="mysql-connector-python (pure Python)" ;;
  esac
}
check "PyMySQL, REQUIRE SSL, ssl={'ca': …} as localhost" "ok: tls" \
  "${py[@]}" --host localhost --driver pymysql "${app[@]}" "${py_tls[@]}" --ssl-dict
check "PyMySQL, REQUIRE SUBJECT, ssl={'ca', 'cert', 'key'}" "ok: tls" \
  "${py[@]}" --driver pymysql --user tls_subject --password secret "${py_tls[@]}" \
  "${py_cert[@]}" --ssl-dict
for driver in pymysql connector "connector --pure"; do
  python_driver "$driver"
  check "$name, REQUIRE SSL, verified at 127.0.0.1" "ok: tls" \
    "${py[@]}" "${with[@]}" "${app[@]}" "${py_tls[@]}" --verify-identity
  if [ "$driver" != pymysql ]; then # PyMySQL has no parameter for the TLS version
    check "$name, verified as localhost, TLS 1.2 alone, prepared" "ok: tls" \
      "${py[@]}" --host localhost "${with[@]}" "${app[@]}" "${py_tls[@]}" --verify-identity \
      --tls-version TLSv1.2 --prepared
  fi
  check "$name, the other CA" "refused: " \
    "${py[@]}" "${with[@]}" "${app[@]}" --ssl-ca "$other/ca.pem" --expect-tls-failure
  check "$name, REQUIRE X509 with ssl_cert and ssl_key" "ok: tls" \
    "${py[@]}" "${with[@]}" "${x509[@]}" "${py_tls[@]}" "${py_cert[@]}" --verify-identity
  check "$name, REQUIRE X509 without a certificate" "refused: " \
    "${py[@]}" "${with[@]}" "${x509[@]}" "${py_tls[@]}" --expect-error 1045
  check "$name, REQUIRE SSL without TLS" "refused: " \
    "${py[@]}" "${with[@]}" "${app[@]}" --ssl-disabled --expect-error 1045
done

# 6. A client certificate the routers' CA did not sign: the router's handshake refuses it.
checks=$((checks + 1))
if out=$(mariadb -h 127.0.0.1 -P "$port" --protocol=TCP -u tls_x509 -psecret \
  --ssl-ca="$tls/ca.pem" --ssl-verify-server-cert --ssl-cert="$other/client-cert.pem" \
  --ssl-key="$other/client-key.pem" -e "SELECT 1" 2>&1) || ! grep -q "unknown ca" <<<"$out"; then
  echo "FAIL: the other CA's client certificate: not refused by the handshake:" >&2
  sed 's/^/  /' <<<"$out" >&2
  failed=$((failed + 1))
else
  echo "ok: mariadb CLI, REQUIRE X509 with the other CA's client certificate: $out"
fi

# 7. require_secure_transport on router 5: plain TCP refused with 3159, TLS admitted.
mariadb -S "$socket5" -u root -e "SET GLOBAL require_secure_transport = ON"
py=("$python" tests/clients/python/client.py --host 127.0.0.1 --port "$port5")
check "Go, require_secure_transport, plain TCP" "refused: " \
  "$goclient" -dsn "root@tcp(127.0.0.1:$port5)/" -expect-error 3159
check "Go, require_secure_transport, TLS" "ok: tls" \
  "$goclient" -dsn "root@tcp(127.0.0.1:$port5)/" "${go_tls[@]}"
check "Java, require_secure_transport, sslMode=DISABLED" "refused: " \
  "${jdbc[@]}" "jdbc:mysql://127.0.0.1:$port5/?sslMode=DISABLED" root "" --expect-error 3159
check "Java, require_secure_transport, VERIFY_IDENTITY" "ok: tls" \
  "${jdbc[@]}" "jdbc:mysql://127.0.0.1:$port5/?sslMode=VERIFY_IDENTITY&$trust" root "" --tls
for driver in pymysql connector "connector --pure"; do
  python_driver "$driver"
  check "$name, require_secure_transport, no TLS" "refused: " \
    "${py[@]}" "${with[@]}" --user root --ssl-disabled --expect-error 3159
  check "$name, require_secure_transport, TLS" "ok: tls" \
    "${py[@]}" "${with[@]}" --user root "${py_tls[@]}" --verify-identity
done
checks=$((checks + 1))
if [ "$(mariadb -N -S "$socket5" -u root -e "SELECT @@require_secure_transport")" = 1 ]; then
  echo "ok: require_secure_transport: the Unix socket still admits root"
else
  echo "FAIL: require_secure_transport: the Unix socket" >&2
  failed=$((failed + 1))
fi
mariadb -S "$socket5" -u root -e "SET GLOBAL require_secure_transport = OFF"

if [ "$failed" -ne 0 ]; then
  echo "FAIL: tls_clients_test: $failed of $checks checks failed" >&2
  exit 1
fi
echo "PASS: tls_clients_test: $checks checks"
