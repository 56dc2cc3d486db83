#!/usr/bin/env bash
# Builds the real MySQL client programs the integration tests drive, each from its ordinary
# package source: Go's go-sql-driver/mysql and GORM (Go module proxy), Connector/J and
# Hibernate ORM (Maven Central), PyMySQL and mysql-connector-python (PyPI, in a venv). Output
# goes to build/clients/.
# Idempotent: a second run only checks that everything is in place.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build/clients
export PATH="$PATH:/usr/local/go/bin"
for tool in go java mvn; do
  command -v "$tool" >/dev/null || { echo "tests/clients/build.sh: $tool is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
mkdir -p "$out"

echo "clients: Go (go-sql-driver/mysql, GORM)" >&2
(cd tests/clients/go && go build -o "../../../$out/mysqlclient-go" .)

echo "clients: Java (Connector/J, Hibernate ORM)" >&2
(cd tests/clients/java && mvn -q -B package -DskipTests)
rm -rf "$out/java" && mkdir -p "$out/java"
cp -r tests/clients/java/target/classes "$out/java/classes"
cp -r tests/clients/java/target/dependency "$out/java/lib"

echo "clients: Python (PyMySQL, mysql-connector-python; podman-compose, kubernetes-validate)" >&2
if [ ! -x "$out/pyvenv/bin/python" ]; then /usr/bin/python3 -m venv "$out/pyvenv"; fi
"$out/pyvenv/bin/pip" install -q --disable-pip-version-check -r tests/clients/python/requirements.txt
