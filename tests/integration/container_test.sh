#!/usr/bin/env bash
# Issue 20's containers: docker/ runs a real cluster, each process in a container of its own.
#
#   1. The runtime image of docker/Dockerfile (target prebuilt) is built with podman from this
#      build's release binaries, over a Debian 12 base made here with debootstrap (no registry
#      is needed; the base is kept between runs as localhost/shoal-debian-runtime).
#   2. podman-compose brings docker/compose.yaml up: an mgmd, two data nodes and two routers on
#      a private network, TCP between them. The console shows every node started, and every
#      container's own healthcheck passes.
#   3. From this host, with the mariadb CLI over TCP to the routers' published ports: a table
#      is created and rows written through router 4 read through router 5, and back.
#   4. Data node 3's container is restarted while a writer goes on through both routers: every
#      write succeeds. Then data node 2's container is stopped, so that node 3 alone serves:
#      every row — those written before, during and after its restart — is there, through both
#      routers. Node 2 comes back.
#   5. docker/k8s/ passes kubernetes-validate (the Kubernetes JSON schemas, strict), and its
#      ConfigMap's cluster configuration passes shoal-mgmd --check-config.
#
# Everything it made (containers, network, volumes, the image) is removed at the end.
#
#   tests/integration/container_test.sh        (as root; ctest runs it as container_test)
#
# Needs podman, runc and debootstrap (scripts/install-deps.sh --tests), the Debian mirror, the
# mariadb CLI, and podman-compose and kubernetes-validate from the clients venv
# (tests/clients/build.sh; SHOAL_CLIENTS_DIR, default build/clients). A machine that cannot run
# containers at all (not root, no kernel support) makes it exit 77, which ctest shows as
# skipped. Runs of it on one machine take turns: the compose network's addresses are fixed.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${SHOAL_BIN_DIR:-build/bin}
clients=${SHOAL_CLIENTS_DIR:-build/clients}
mirror=${SHOAL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
compose_file=$PWD/docker/compose.yaml
skip_code=77
source tests/testutil/free_ports.sh

t0=$SECONDS
step() { echo "[$((SECONDS - t0))s] $*" >&2; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
skip() {
  echo "SKIP: $*" >&2
  exit "$skip_code"
}

[ "$(id -u)" -eq 0 ] || skip "containers with a bridge network of fixed addresses and debootstrap need root"
for tool in podman runc debootstrap mariadb; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh --tests installs it)"
done
podman_compose=$clients/pyvenv/bin/podman-compose
k8s_validate=$clients/pyvenv/bin/kubernetes-validate
for tool in "$podman_compose" "$k8s_validate"; do
  [ -x "$tool" ] || fail "$tool is missing (tests/clients/build.sh installs it)"
done
for b in shoal-mgmd shoal-mgm shoal-datanode shoal-router shoal-restore; do
  [ -x "$bin/$b" ] || fail "$bin/$b is missing (cmake --build --preset release --target shoal_daemons)"
done

work=$(mktemp -d /tmp/shoal-container-XXXXXX)
run_id=$(basename "$work" | sed 's/^shoal-container-//' | tr 'A-Z' 'a-z')
project=shoalct$run_id
image=localhost/shoal-container-test:$run_id
writer_pid=""
status=1
cleanup() {
  status=$?
  [ -z "$writer_pid" ] || kill "$writer_pid" 2>/dev/null || true
  local label=io.podman.compose.project=$project name
  if [ "$status" -ne 0 ] && [ -n "${compose_up:-}" ]; then
    mkdir -p "$work/logs"
    for name in $(podman ps -a --filter "label=$label" --format '{{.Names}}'); do
      podman logs "$name" >"$work/logs/$name.log" 2>&1 || true
    done
  fi
  if [ -n "${compose_up:-}" ]; then
    timeout 120 "$podman_compose" -p "$project" -f "$compose_file" down -v -t 10 \
      >"$work/down.log" 2>&1 || echo "podman-compose down failed: $work/down.log" >&2
  fi
  # Whatever down left (a container it did not know of, a volume in use): by the project label.
  podman ps -aq --filter "label=$label" | xargs -r podman rm -f >/dev/null 2>&1 || true
  podman volume ls -q --filter "label=$label" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
  podman network ls -q --filter "label=$label" | xargs -r podman network rm -f >/dev/null 2>&1 || true
  podman image exists "$image" && podman rmi -f "$image" >/dev/null 2>&1 || true
  if [ "$status" -ne 0 ] && [ "$status" -ne "$skip_code" ]; then
    echo "work dir kept: $work (the containers' logs in logs/)" >&2
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap cleanup EXIT

# podman as this machine allows it, for podman-compose's podman calls too: runc and cgroupfs
# work on hosts where crun or systemd cgroups do not (a hybrid cgroup hierarchy, no systemd),
# and a container's limits may not be raised above this shell's without CAP_SYS_RESOURCE.
cat >"$work/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$(ulimit -Sn):$(ulimit -Hn)", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
EOF
export CONTAINERS_CONF=$work/containers.conf

# One run at a time: the compose network's subnet and addresses are fixed (docker/cluster.yaml).
exec 9>/tmp/shoal-container-test.lock
flock 9
subnet=$(sed -n 's/^ *- subnet: //p' "$compose_file")
[ -n "$subnet" ] || fail "no subnet in $compose_file"
for net in $(podman network ls -q); do
  if podman network inspect "$net" | grep -q "\"subnet\": \"$subnet\""; then
    fail "podman network $net already uses $subnet (left by an earlier run? podman network rm $net)"
  fi
done

# --- 1. The image -------------------------------------------------------------------------
# The base: Debian 12 minbase with the runtime libraries docker/Dockerfile names, so that its
# build installs nothing. Tagged by that list: a new library makes a new base.
packages=$(sed -n '/^ARG RUNTIME_PACKAGES="/,/"$/p' docker/Dockerfile |
  sed 's/^ARG RUNTIME_PACKAGES=//; s/[\\"]//g' | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
[ -n "$packages" ] || fail "no RUNTIME_PACKAGES in docker/Dockerfile"
base=localhost/shoal-debian-runtime:bookworm-$(echo "$packages" | sha256sum | cut -c1-12)
(
  flock 8
  if ! podman image exists "$base"; then
    step "base image: debootstrap bookworm from $mirror with $packages"
    debootstrap --variant=minbase --include="${packages// /,}" bookworm "$work/rootfs" "$mirror" \
      >"$work/debootstrap.log" 2>&1 || fail "debootstrap failed: $work/debootstrap.log"
    # What a slim image leaves out: the downloaded packages, apt's lists, documentation.
    rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/* \
      "$work"/rootfs/usr/share/{doc,man,info,locale}/*
    tar -C "$work/rootfs" -c . | podman import --quiet - "$base" >/dev/null
    rm -rf "$work/rootfs"
  fi
) 8>/tmp/shoal-container-base.lock

# A machine that cannot run containers at all says so here, before anything of Shoal's runs.
if ! podman run --rm --network none "$base" true >"$work/probe.log" 2>&1; then
  skip "podman cannot run a container on this machine: $(tail -n 3 "$work/probe.log")"
fi

step "image $image from $bin"
mkdir "$work/context"
cp "$bin"/shoal-{mgmd,mgm,datanode,router,restore} "$work/context/"
podman build --pull=never --quiet -f docker/Dockerfile --target prebuilt \
  --build-arg RUNTIME_BASE="$base" -t "$image" "$work/context" >"$work/build.log" 2>&1 ||
  fail "podman build failed: $(tail -n 20 "$work/build.log")"
podman run --rm "$image" shoal-router --version >/dev/null ||
  fail "shoal-router does not run in the image (a library missing?)"
[ "$(podman run --rm "$image" id -un)" = shoal ] || fail "the image does not run as user shoal"

# --- 2. The cluster -----------------------------------------------------------------------
router4_port=$(free_ports 2)
router5_port=$((router4_port + 1))
export SHOAL_IMAGE=$image SHOAL_ROUTER4_PORT=$router4_port SHOAL_ROUTER5_PORT=$router5_port
step "compose up (project $project; routers on 127.0.0.1:$router4_port and :$router5_port)"
compose_up=1
timeout 120 "$podman_compose" -p "$project" -f "$compose_file" up -d >"$work/up.log" 2>&1 ||
  fail "podman-compose up failed: $(grep -v 'systemd connection' "$work/up.log" | tail -n 20)"

container() {
  local name
  name=$(podman ps -a --filter "label=io.podman.compose.project=$project" \
    --filter "label=com.docker.compose.service=$1" --format '{{.Names}}')
  [ -n "$name" ] || fail "no container for service $1"
  echo "$name"
}
mgmd=$(container mgmd)
mgm() { podman exec "$mgmd" shoal-mgm -c 172.30.86.10:1186 -e "$1"; }
logs_on_failure() {
  for service in mgmd datanode-2 datanode-3 router-4 router-5; do
    echo "--- $service" >&2
    podman logs --tail 15 "$(container "$service")" 2>&1 | grep -v 'systemd connection' >&2 || true
  done
}
# Waits until `mgm SHOW` lists exactly N nodes started.
wait_started() {
  local want=$1 deadline=$((SECONDS + ${2:-90})) show=""
  while [ $SECONDS -lt $deadline ]; do
    show=$(mgm SHOW 2>/dev/null || true)
    [ "$(grep -c ', started, ' <<<"$show")" -eq "$want" ] && return 0
    sleep 1
  done
  echo "$show" >&2
  logs_on_failure
  fail "not $want nodes started within ${2:-90}s"
}
wait_started 5
step "all five nodes started"
mgm SHOW | sed 's/^/  /' >&2
# The compose file's healthchecks (podman runs them from systemd timers, which a machine
# without systemd lacks: here they are run by hand).
for service in mgmd datanode-2 datanode-3 router-4 router-5; do
  podman healthcheck run "$(container "$service")" >/dev/null 2>&1 ||
    fail "the healthcheck of $service fails"
done

# --- 3. SQL through both routers ----------------------------------------------------------
sql() {
  local port=$1
  shift
  mariadb -h 127.0.0.1 -P "$port" --protocol=TCP -u app -psecret --connect-timeout=5 -N -B "$@"
}
sql "$router4_port" -e "CREATE DATABASE ct;
  CREATE TABLE ct.t (id INT PRIMARY KEY, via VARCHAR(16) NOT NULL, note VARCHAR(64));
  INSERT INTO ct.t VALUES (1, 'router-4', 'written through router 4')" ||
  fail "CREATE TABLE and INSERT through router 4"
[ "$(sql "$router5_port" -e "SELECT via FROM ct.t WHERE id = 1")" = router-4 ] ||
  fail "router 5 does not read the row written through router 4"
sql "$router5_port" -e "INSERT INTO ct.t VALUES (2, 'router-5', 'written through router 5')"
[ "$(sql "$router4_port" -e "SELECT via FROM ct.t WHERE id = 2")" = router-5 ] ||
  fail "router 4 does not read the row written through router 5"
step "SQL: a row written through each router reads through the other"

# --- 4. A data node's container restarts -------------------------------------------------
# One INSERT per statement, alternating routers, until told to stop; every outcome logged.
writer() {
  local id=100 port
  while [ ! -e "$work/stop-writer" ]; do
    port=$router4_port
    [ $((id % 2)) -eq 0 ] || port=$router5_port
    if out=$(sql "$port" -e "INSERT INTO ct.t VALUES ($id, 'writer', 'during the restart')" 2>&1); then
      echo "ok $id"
    else
      echo "error $id $out"
    fi
    id=$((id + 1))
  done >"$work/writer.log"
}
writer &
writer_pid=$!
sleep 2
dn3=$(container datanode-3)
started_before=$(podman inspect -f '{{.State.StartedAt}}' "$dn3")
mac() { podman inspect -f '{{range .NetworkSettings.Networks}}{{.MacAddress}}{{end}}' "$1"; }
mac_before=$(mac "$dn3")
step "restarting data node 3's container while the writer runs"
podman restart -t 30 "$dn3" >/dev/null 2>>"$work/podman.log"
[ "$(podman inspect -f '{{.State.StartedAt}}' "$dn3")" != "$started_before" ] ||
  fail "data node 3's container did not restart"
# Its peers' ARP caches hold its MAC: a new one would cut it off from them for half a minute.
[ "$(mac "$dn3")" = "$mac_before" ] || fail "data node 3's MAC changed at its restart: $mac_before, now $(mac "$dn3")"
wait_started 5 120
# The cluster saw it go and come back (a new process, which restored its own disk and copied
# from node 2 what changed meanwhile).
mgm CLUSTERLOG >"$work/clusterlog-restart.txt"
awk '/Node 3: stopped/ { stopped = 1 } stopped && /Node 3: Data node connected/ { back = 1 }
     back && /Node 3: Data node started/ { ok = 1 } END { exit !ok }' "$work/clusterlog-restart.txt" ||
  fail "the cluster log does not show node 3 stopped, connected and started again: $(tail -n 20 "$work/clusterlog-restart.txt")"
grep 'Node 3: ' "$work/clusterlog-restart.txt" | tail -n 6 | sed 's/^/  /' >&2
step "data node 3 serves again"
sleep 2
touch "$work/stop-writer"
wait "$writer_pid"
writer_pid=""
writes=$(grep -c '^ok ' "$work/writer.log" || true)
errors=$(grep -c '^error ' "$work/writer.log" || true)
[ "$errors" -eq 0 ] || fail "$errors of $((writes + errors)) writes failed while data node 3 restarted: $(grep -m 5 '^error ' "$work/writer.log")"
[ "$writes" -ge 20 ] || fail "only $writes writes in the restart window"
step "$writes writes through both routers during the restart, none failed"

# Node 3 alone: what it holds is every row, from its own disk and from node 2 while it was down.
dn2=$(container datanode-2)
podman stop -t 30 "$dn2" >/dev/null 2>>"$work/podman.log"
wait_started 4 60
want=$((writes + 2))
for port in "$router4_port" "$router5_port"; do
  got=$(sql "$port" -e "SELECT COUNT(*), SUM(via = 'writer') FROM ct.t") ||
    fail "data node 3 alone does not serve through the router on $port"
  [ "$got" = "$want	$writes" ] ||
    fail "data node 3 alone holds '$got' rows (all, the writer's), not '$want	$writes'"
done
[ "$(podman exec "$dn3" sh -c 'ls /var/lib/shoal/datanode-3 | wc -l')" -gt 0 ] ||
  fail "data node 3's volume holds nothing"
step "data node 3 alone holds all $want rows"
podman start "$dn2" >/dev/null 2>>"$work/podman.log"
wait_started 5 120
[ "$(sql "$router5_port" -e "SELECT COUNT(*) FROM ct.t")" = "$want" ] ||
  fail "rows missing after data node 2 came back"
step "data node 2 back; all five nodes started"

# Both data nodes' containers stopped, then started: the rows come back from the volumes.
podman stop -t 30 "$dn2" "$dn3" >/dev/null 2>>"$work/podman.log"
wait_started 3 60
podman start "$dn2" "$dn3" >/dev/null 2>>"$work/podman.log"
wait_started 5 120
mgm CLUSTERLOG | grep 'System restart: recovering epoch' | tail -n 1 | sed 's/^/  /' >&2
for port in "$router4_port" "$router5_port"; do
  # A router links to the data nodes again on its own after the mgmd shows them started;
  # until then it answers with MySQL's temporary error (1297), which clients retry.
  deadline=$((SECONDS + 30))
  until got=$(sql "$port" -e "SELECT COUNT(*), SUM(via = 'writer') FROM ct.t" 2>"$work/sql.err"); do
    grep -q 'ERROR 1297' "$work/sql.err" && [ $SECONDS -lt $deadline ] ||
      fail "no answer through the router on $port after the data nodes restarted: $(cat "$work/sql.err")"
    echo "  router on $port: $(grep ERROR "$work/sql.err"); retrying" >&2
    sleep 0.5
  done
  [ "$got" = "$want	$writes" ] ||
    fail "after every data node restarted: '$got' rows (all, the writer's), not '$want	$writes'"
done
step "every data node restarted from its volume: all $want rows there"

# --- 5. The Kubernetes manifests -----------------------------------------------------------
step "kubernetes-validate docker/k8s"
# The oldest Kubernetes the manifests mean to support, and the newest the schemas know. An
# unknown kind is only a warning to kubernetes-validate: here, anything but a pass fails.
for version in 1.28.0 ""; do
  "$k8s_validate" --strict ${version:+--kubernetes-version "$version"} docker/k8s/*.yaml \
    >"$work/k8s.log" 2>&1 || fail "kubernetes-validate: $(cat "$work/k8s.log")"
  ! grep -qv '^INFO .* passed for resource ' "$work/k8s.log" ||
    fail "kubernetes-validate: $(grep -v '^INFO ' "$work/k8s.log")"
  [ "$(grep -c . "$work/k8s.log")" -ge 9 ] || fail "kubernetes-validate checked too little: $(cat "$work/k8s.log")"
done
sed 's/^/  /' "$work/k8s.log" >&2
# The ConfigMap's configuration, with its pods' DNS names (which do not resolve here) as
# addresses: everything else in it must be valid.
"$clients/pyvenv/bin/python" - docker/k8s/configmap.yaml "$work/k8s-cluster.yaml" <<'PY'
import re, sys, yaml
with open(sys.argv[1]) as f:
    config = yaml.safe_load(f)["data"]["cluster.yaml"]
names = sorted(set(re.findall(r"^\s*host:\s*(\S+)", config, re.M)))
for i, name in enumerate(names):
    config = re.sub(rf"(host:\s*){re.escape(name)}\b", rf"\g<1>10.99.0.{i + 1}", config)
with open(sys.argv[2], "w") as f:
    f.write(config)
PY
"$bin/shoal-mgmd" --config-file "$work/k8s-cluster.yaml" --check-config >"$work/k8s-check.log" 2>&1 ||
  fail "the ConfigMap's cluster.yaml: $(cat "$work/k8s-check.log")"

step "PASS"
