#!/usr/bin/env bash
# Native-API benchmark (issue 4): starts a cluster under a temp dir, runs bench/flexasync over
# shared memory and over TCP with 8-byte and 100-byte records, prints each run's table, and
# stops everything.
#
#   bench/flexasync.sh [data nodes: 1 or 2, default 1] [records per thread, default 500000]
#                      [extra flexasync flags...]
#
# One data node (replicas: 1) is the seeds' single-node figure; two form a node group, share
# the primaries and replicate every write to each other. Needs a release build. Environment:
# SHOAL_SPIN (data nodes' spin, e.g. 50us), SHOAL_THREADS (data nodes' `threads`, 0 = auto),
# SHOAL_REPLICAS (default: the number of data nodes; 1 with two nodes makes two node groups
# that do not replicate), SHOAL_TRANSPORTS (default "shm tcp"), SHOAL_SIZES (default "8 100").
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:-1}
records=${2:-500000}
shift $(( $# > 2 ? 2 : $# ))
work=$(mktemp -d /tmp/shoal-flex-XXXXXX)
mgmd_pid=
cleanup() {
  [[ -n $mgmd_pid ]] && kill "$mgmd_pid" 2>/dev/null && wait "$mgmd_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

port=$(( 20000 + RANDOM % 20000 ))
{
  echo "cluster:"
  echo "  replicas: ${SHOAL_REPLICAS:-$nodes}"
  echo "  data_memory: 2G"
  echo "mgmd:"
  echo "  port: $port"
  echo "  data_dir: $work/mgmd"
  echo "datanodes:"
  for id in $(seq 2 $((nodes + 1))); do
    echo "  - id: $id"
    echo "    data_dir: $work/dn$id"
    echo "    socket: $work/dn$id.sock"
    echo "    spin: ${SHOAL_SPIN:-0ms}"
    echo "    threads: ${SHOAL_THREADS:-0}"
  done
} >"$work/cluster.yaml"
build/bin/shoal-mgmd --config-file "$work/cluster.yaml" --run-dir "$work" --launch \
  >"$work/mgmd.log" 2>&1 &
mgmd_pid=$!
for _ in $(seq 100); do
  started=$(build/bin/shoal-mgm -c "127.0.0.1:$port" -e SHOW 2>/dev/null | grep -c "datanode.*started" || true)
  [[ $started -ge $nodes ]] && break
  sleep 0.1
done

for transport in ${SHOAL_TRANSPORTS:-shm tcp}; do
  for size in ${SHOAL_SIZES:-8 100}; do
    echo "== $nodes data node(s), replicas: ${SHOAL_REPLICAS:-$nodes}, $transport, $size-byte records"
    build/bin/flexasync --mgmd "127.0.0.1:$port" --transport "$transport" --record_size "$size" \
      --records "$records" "$@"
  done
done
