#!/usr/bin/env bash
# Installs the Debian 12 packages Shoal needs to build, test and run, skipping what is there.
# Idempotent: a second run installs nothing. Needs root (or sudo) only when something is missing.
#
#   scripts/install-deps.sh           what building and running need
#   scripts/install-deps.sh --tests   and what only the tests need: a MariaDB server, which they
#                                     run privately beside Shoal (bench/private_mariadb.sh), and
#                                     podman with debootstrap for the containers test
#                                     (tests/integration/container_test.sh; podman-compose and
#                                     kubernetes-validate come from PyPI, tests/clients/build.sh)
set -euo pipefail
for_tests=false
[ "${1:-}" = --tests ] && for_tests=true

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config clang clang-format libclang-rt-14-dev
  # libraries
  libevent-dev libprotobuf-dev protobuf-compiler libabsl-dev libre2-dev
  libgtest-dev libgmock-dev libyaml-cpp-dev libssl-dev
  # clients used by the integration tests and benchmarks
  sysbench mariadb-client python3 python3-venv
  # tools the tests use
  procps iproute2 tcpdump curl
)

# Go, Java and Maven drive the real-client tests; machines of this project's kind ship newer
# ones than Debian's, which are only the fallback.
command -v go >/dev/null || [ -x /usr/local/go/bin/go ] || packages+=(golang-go)
command -v java >/dev/null || packages+=(default-jdk-headless)
command -v mvn >/dev/null || packages+=(maven)
$for_tests && packages+=(mariadb-server)
# The containers test: podman with runc (crun refuses some hosts' cgroup layouts) and the CNI
# bridge network; debootstrap makes its Debian base image, since no registry is assumed.
$for_tests && packages+=(podman runc containernetworking-plugins iptables debootstrap)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The tests run their own MariaDB; one the package just started as a system service would only
# hold port 3306 (where Shoal's routers listen by default) and share the CPUs.
if [[ " ${missing[*]} " == *" mariadb-server "* ]]; then
  if command -v systemctl >/dev/null && systemctl is-active --quiet mariadb 2>/dev/null; then
    $sudo systemctl disable --now mariadb >/dev/null 2>&1 || true
  elif command -v service >/dev/null; then
    $sudo service mariadb stop >/dev/null 2>&1 || true
  fi
fi
