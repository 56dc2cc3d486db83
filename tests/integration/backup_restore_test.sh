#!/usr/bin/env bash
# Issue 20's backup test: an online backup taken while money moves between accounts, restored
# with shoal-restore into a cluster of another shape, holds every table exactly as it was at
# the backup's epoch.
#
#   1. Cluster A (two data nodes, one node group; local checkpoints every 1 MiB of redo) holds
#      `bank`: accounts, the transfers between them (AUTO_INCREMENT, a foreign key to the
#      accounts), customers keyed by a case-insensitive name, notes without a primary key, a
#      view; and sysbench's sbtest1 (30,000 rows, so that the backup starts from a checkpoint).
#   2. While three PyMySQL clients run transfers (each a transaction: two balances and a
#      transfer row), `START BACKUP` from shoal-mgm; a second one is started and aborted, and
#      its files go.
#   3. Cluster B (four data nodes: two node groups) gets the backup with shoal-restore, from
#      both data nodes' backup directories.
#   4. In B: the tables that did not change are row for row those of A; every balance is its
#      start plus what the restored transfers brought in and took out (a backup cut in the
#      middle of a transaction, or at different moments on different partitions, would break
#      this); every transfer committed before START BACKUP was sent is there; AUTO_INCREMENT
#      goes on after the largest id; the case-insensitive key finds and refuses as in A; the
#      view reads; a second restore refuses to overwrite the tables.
#
# ctest runs it as backup_restore_test. Needs sysbench and the clients venv
# (tests/clients/build.sh). Stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${SHOAL_BIN_DIR:-build/bin}
clients=${SHOAL_CLIENTS_DIR:-build/clients}
python=$clients/pyvenv/bin/python
source tests/testutil/free_ports.sh

work=$(mktemp -d /tmp/shoal-backup-XXXXXX)
mgmd_pids=()
workload_pid=""
status=1
cleanup() {
  [ -z "$workload_pid" ] || kill "$workload_pid" 2>/dev/null || true
  for pid in "${mgmd_pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ "$status" -eq 0 ] || { echo "work dir kept: $work" >&2; return; }
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Cluster NAME with DATANODES data nodes (two replicas each node group) in $work/NAME; sets
# port_NAME (its mgmd) and socket_NAME (router 4).
start_cluster() {
  local name=$1 datanodes=$2 run=$work/$1 base id
  mkdir -p "$run"
  base=$(free_ports $((datanodes + 1)))
  {
    cat <<EOF
cluster:
  replicas: 2
  data_memory: 128M
  epoch_interval: 200ms
  checkpoint_after_redo: 1M
mgmd:
  host: 127.0.0.1
  port: $base
  data_dir: $run/mgmd
datanodes:
EOF
    for ((id = 2; id < 2 + datanodes; id++)); do
      printf '  - {id: %d, host: 127.0.0.1, data_dir: %s/dn%d, socket: %s/dn%d.sock,' \
        "$id" "$run" "$id" "$run" "$id"
      printf ' metrics_port: %d}\n' $((base + id - 1))
    done
    cat <<EOF
routers:
  - {id: $((2 + datanodes)), host: 127.0.0.1, socket: $run/router.sock}
users:
  - name: root
EOF
  } >"$run/cluster.yaml"
  setsid "$bin/shoal-mgmd" --config-file "$run/cluster.yaml" --launch </dev/null \
    >"$run/mgmd.out" 2>&1 &
  mgmd_pids+=($!)
  printf -v "port_$name" '%s' "$base"
  printf -v "metrics_$name" '%s' "$((base + 1))"  # data node 2's; node N's is + N - 2
  printf -v "socket_$name" '%s' "$run/router.sock"
  for _ in $(seq 300); do
    if [ "$(mgm "$base" SHOW 2>/dev/null | grep -c 'started, pid')" -eq $((datanodes + 2)) ]; then
      return 0
    fi
    sleep 0.1
  done
  fail "cluster $name did not start: $(mgm "$base" SHOW 2>&1 | grep id= || tail -5 "$run/mgmd.out")"
}
mgm() { "$bin/shoal-mgm" -c "127.0.0.1:$1" --timeout=10s -e "$2"; }
# The local checkpoints data node 2 (+ N) of cluster A has completed.
checkpoints() {
  curl -s "http://127.0.0.1:$((metrics_a + ${1:-0}))/metrics" |
    awk '$1 == "shoal_datanode_checkpoints_total" {print $2}'
}
sql() {
  local socket=$1
  shift
  mariadb -S "$socket" -u root -N -B -e "$*"
}

start_cluster a 2
a=$socket_a

# ---- 1. The data. ----------------------------------------------------------------------------
sql "$a" "CREATE DATABASE bank"
mariadb -S "$a" -u root bank <<'SQL'
CREATE TABLE account (id INT PRIMARY KEY, owner VARCHAR(20) NOT NULL, balance BIGINT NOT NULL);
CREATE TABLE transfer (
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  src INT NOT NULL, dst INT NOT NULL, amount INT NOT NULL,
  KEY (src), CONSTRAINT fk_src FOREIGN KEY (src) REFERENCES account (id));
CREATE TABLE customer (name VARCHAR(30) PRIMARY KEY, city VARCHAR(20));
INSERT INTO customer VALUES ('Ada Lovelace', 'London'), ('Grace Hopper', 'New York'),
  ('Edsger Dijkstra', 'Nuenen'), ('zoë 😀', 'Zürich');
CREATE TABLE note (txt TEXT, n INT);
INSERT INTO note VALUES ('first', 1), ('second, with a tab\there', 2), (NULL, 3), ('first', 1);
CREATE VIEW rich AS SELECT id, owner, balance FROM account WHERE balance > 1000;
SQL
sql "$a" "INSERT INTO bank.account VALUES $(seq 1 200 | awk '{ printf "%s(%d,'"'"'owner-%d'"'"',1000)", (NR > 1 ? "," : ""), $1, $1 }')"
sysbench oltp_read_write --db-driver=mysql --mysql-socket="$a" --mysql-user=root \
  --mysql-db=bank --tables=1 --table-size=30000 prepare >"$work/prepare.out" 2>&1 ||
  fail "sysbench prepare: $(tail -5 "$work/prepare.out")"
checkpoints_after_prepare=("$(checkpoints 0)" "$(checkpoints 1)")

# ---- 2. Transfers, and the backup taken while they run. -------------------------------------
"$python" - "$a" "$work/stop" >"$work/workload.out" 2>&1 <<'PY' &
import random, sys, threading, os, pymysql
socket, stop = sys.argv[1], sys.argv[2]
done = [0]
def run(seed):
    rnd = random.Random(seed)
    db = pymysql.connect(unix_socket=socket, user="root", database="bank", autocommit=False)
    cur = db.cursor()
    while not os.path.exists(stop):
        src, dst = rnd.sample(range(1, 201), 2)
        amount = rnd.randint(1, 50)
        try:
            # The lower id first: no two transfers wait for each other, so commits never pause
            # and the backup's cut falls between transfers in flight.
            for account, delta in sorted([(src, -amount), (dst, amount)]):
                cur.execute("UPDATE account SET balance = balance + %s WHERE id = %s",
                            (delta, account))
            cur.execute("INSERT INTO transfer (src, dst, amount) VALUES (%s, %s, %s)",
                        (src, dst, amount))
            db.commit()
            done[0] += 1
        except pymysql.err.OperationalError as e:
            if e.args[0] not in (1205, 1213):  # lock wait timeout, deadlock: try again
                raise
            db.rollback()
threads = [threading.Thread(target=run, args=(i,)) for i in range(3)]
for t in threads: t.start()
for t in threads: t.join()
print("committed", done[0])
PY
workload_pid=$!
# The backup is to start from a checkpoint that holds sbtest1 whole: one begun after the
# prepare (the transfers' redo starts one every 1 MiB) and complete, on both data nodes.
for node in 0 1; do
  for _ in $(seq 600); do
    [ "$(checkpoints "$node")" -ge $((${checkpoints_after_prepare[$node]} + 2)) ] && break
    sleep 0.1
  done
  [ "$(checkpoints "$node")" -ge $((${checkpoints_after_prepare[$node]} + 2)) ] ||
    fail "data node $((node + 2)) completed no local checkpoint in 60 s"
done
sleep 1
committed_before=$(sql "$a" "SELECT COUNT(*) FROM bank.transfer")
[ "$committed_before" -gt 0 ] || fail "no transfer committed: $(cat "$work/workload.out")"
mgm "$port_a" "START BACKUP" >"$work/backup.out" 2>&1 || fail "START BACKUP: $(cat "$work/backup.out")"
backup_id=$(sed -n 's/^Backup \([0-9]*\) started from node 1 completed$/\1/p' "$work/backup.out")
[ -n "$backup_id" ] || fail "START BACKUP did not complete: $(cat "$work/backup.out")"
records=$(sed -n 's/^ #Records: \([0-9]*\) #LogRecords: \([0-9]*\)$/\1 \2/p' "$work/backup.out")
read -r data_rows log_records <<<"$records"
# sbtest1 went to a local checkpoint (its 30,000 rows passed checkpoint_after_redo many times),
# the transfers since then to the log.
[ "${data_rows:-0}" -ge 30000 ] && [ "${log_records:-0}" -gt 0 ] ||
  fail "expected the backup to start from a checkpoint and carry a log: $(cat "$work/backup.out")"
sleep 1
touch "$work/stop"
wait "$workload_pid" || fail "the transfers failed: $(cat "$work/workload.out")"
workload_pid=""
echo "ok: backup $backup_id taken during $(cat "$work/workload.out") transfers: $data_rows rows" \
  "from the checkpoints, $log_records log records"

# A backup aborted from the console leaves nothing behind.
started=$(mgm "$port_a" "START BACKUP NOWAIT")
aborted_id=$(sed -n 's/^Backup \([0-9]*\) started from node 1$/\1/p' <<<"$started")
[ "$aborted_id" = $((backup_id + 1)) ] || fail "START BACKUP NOWAIT said: $started"
mgm "$port_a" "ABORT BACKUP $aborted_id" | grep -qx "Backup $aborted_id aborted" ||
  fail "ABORT BACKUP $aborted_id did not abort it"
for _ in $(seq 50); do
  ls -d "$work"/a/dn*/backups/BACKUP-"$aborted_id" >/dev/null 2>&1 || break
  sleep 0.1
done
! ls -d "$work"/a/dn*/backups/BACKUP-"$aborted_id" >/dev/null 2>&1 ||
  fail "the aborted backup's files are still there: $(ls -R "$work"/a/dn*/backups)"
mgm "$port_a" CLUSTERLOG | grep -q "Backup $aborted_id failed: aborted from the console" ||
  fail "the cluster log does not say backup $aborted_id was aborted"
echo "ok: backup $aborted_id aborted from the console; its files are gone"

# A data node killed during a backup fails it (the other node's files go too); once the node is
# back — restarted by its angel from its own disk — the next backup completes.
node3_pid() { mgm "$port_a" SHOW | sed -n 's/^id=3 .*started, pid \([0-9]*\).*/\1/p'; }
old3=$(node3_pid)
started=$(mgm "$port_a" "START BACKUP NOWAIT")
killed_id=$(sed -n 's/^Backup \([0-9]*\) started from node 1$/\1/p' <<<"$started")
kill -9 "$old3"
for _ in $(seq 100); do
  mgm "$port_a" CLUSTERLOG | grep -q "Backup $killed_id failed: data node 3" && break
  sleep 0.1
done
mgm "$port_a" CLUSTERLOG | grep -q "Backup $killed_id failed: data node 3" ||
  fail "backup $killed_id did not fail with data node 3 killed: $(mgm "$port_a" CLUSTERLOG | tail -5)"
for _ in $(seq 300); do
  new3=$(node3_pid)
  [ -n "$new3" ] && [ "$new3" != "$old3" ] && break
  sleep 0.1
done
[ -n "$new3" ] && [ "$new3" != "$old3" ] || fail "data node 3 did not come back after kill -9"
! ls -d "$work"/a/dn2/backups/BACKUP-"$killed_id" >/dev/null 2>&1 ||
  fail "data node 2 kept its part of the failed backup $killed_id"
mgm "$port_a" "START BACKUP" >"$work/after-kill.out" 2>&1 ||
  fail "START BACKUP after data node 3 came back: $(cat "$work/after-kill.out")"
grep -q "^Backup $((killed_id + 1)) started from node 1 completed" "$work/after-kill.out" ||
  fail "the backup after the restart did not complete: $(cat "$work/after-kill.out")"
echo "ok: backup $killed_id failed with data node 3 killed; after its restart, backup" \
  "$((killed_id + 1)) completed"
# Data node 3 restarted: it read its parts back from its manifests.
for _ in $(seq 30); do
  mgm "$port_a" "SHOW BACKUPS" >"$work/show.out" 2>&1
  grep -q "node 3 (node group 0): $work/a/dn3/backups/BACKUP-$backup_id" "$work/show.out" && break
  sleep 0.2
done
grep -q "^Backup $backup_id: stop epoch [0-9]*, .*, every node group has a part" "$work/show.out" &&
  grep -q "node 3 (node group 0): $work/a/dn3/backups/BACKUP-$backup_id, [0-9]* bytes" \
    "$work/show.out" && ! grep -q "^Backup $aborted_id:" "$work/show.out" ||
  fail "SHOW BACKUPS said: $(cat "$work/show.out")"
echo "ok: SHOW BACKUPS lists backup $backup_id on both data nodes, not the aborted one"

# ---- 3. Restore into a cluster of another shape. --------------------------------------------
start_cluster b 4
b=$socket_b
"$bin/shoal-restore" --connect-string="127.0.0.1:$port_b" --backup-id="$backup_id" \
  --backup-path="$work/a/dn2/backups" --backup-path="$work/a/dn3/backups" \
  >"$work/restore.out" 2>"$work/restore.err" ||
  fail "shoal-restore: $(tail -5 "$work/restore.err")"
echo "ok: restored into two node groups: $(tail -1 "$work/restore.out")"

# ---- 4. What B holds. ---------------------------------------------------------------------
# The definitions but their AUTO_INCREMENT counters: the source's has run past ids its routers
# reserved and never used, the restored one starts after the largest id restored (as
# ndb_restore's), which the next check of `transfer` looks at.
definition() { sql "$1" "$2" | sed -E 's/ AUTO_INCREMENT=[0-9]+//'; }
for query in "SELECT * FROM bank.customer ORDER BY name" \
  "SELECT txt, n FROM bank.note ORDER BY n, txt" \
  "SELECT id, k, c, pad FROM bank.sbtest1 ORDER BY id" \
  "SHOW CREATE TABLE bank.transfer" "SHOW CREATE TABLE bank.sbtest1"; do
  diff <(definition "$a" "$query") <(definition "$b" "$query") >"$work/diff.out" ||
    fail "$query differs after the restore: $(head -20 "$work/diff.out")"
done
next_id=$(sql "$b" "SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'bank' AND TABLE_NAME = 'transfer'")
max_id=$(sql "$b" "SELECT MAX(id) FROM bank.transfer")
[ "$next_id" -gt "$max_id" ] ||
  fail "the restored transfer's next id $next_id is not past its largest, $max_id"
echo "ok: the tables no transfer touched read back row for row, with their definitions"

"$python" - "$b" "$committed_before" <<'PY' || fail "the restored bank is not consistent"
import sys, pymysql
db = pymysql.connect(unix_socket=sys.argv[1], user="root", database="bank")
cur = db.cursor()
cur.execute("SELECT id, balance FROM account")
balance = dict(cur.fetchall())
cur.execute("SELECT src, dst, amount FROM transfer")
transfers = cur.fetchall()
expected = {i: 1000 for i in range(1, 201)}
for src, dst, amount in transfers:
    expected[src] -= amount
    expected[dst] += amount
wrong = [(i, balance.get(i), expected[i]) for i in expected if balance.get(i) != expected[i]]
if wrong or len(balance) != 200:
    sys.exit(f"balances that the transfers do not explain: {wrong[:5]} ({len(balance)} accounts)")
if sum(balance.values()) != 200 * 1000:
    sys.exit(f"money appeared or vanished: {sum(balance.values())}")
if len(transfers) < int(sys.argv[2]):
    sys.exit(f"{len(transfers)} transfers restored, {sys.argv[2]} committed before the backup")
cur.execute("SELECT COUNT(*) FROM rich")
if cur.fetchone()[0] != sum(1 for v in balance.values() if v > 1000):
    sys.exit("the view rich does not read the restored accounts")
print(f"ok: {len(transfers)} transfers restored ({sys.argv[2]} were committed before START "
      "BACKUP); every balance is what they explain; the view reads them")
PY

max_id=$(sql "$b" "SELECT MAX(id) FROM bank.transfer")
sql "$b" "INSERT INTO bank.transfer (src, dst, amount) VALUES (1, 2, 0)"
new_id=$(sql "$b" "SELECT MAX(id) FROM bank.transfer")
[ "$new_id" -gt "$max_id" ] || fail "AUTO_INCREMENT gave $new_id after $max_id"
[ "$(sql "$b" "SELECT city FROM bank.customer WHERE name = 'ADA LOVELACE'")" = London ] ||
  fail "the case-insensitive key does not find 'ADA LOVELACE'"
if out=$(sql "$b" "INSERT INTO bank.customer VALUES ('grace hopper', 'x')" 2>&1); then
  fail "a second 'grace hopper' was taken"
fi
grep -q "ERROR 1062" <<<"$out" || fail "a duplicate name said: $out"
echo "ok: AUTO_INCREMENT goes on after $max_id; the case-insensitive key finds and refuses"

if "$bin/shoal-restore" --connect-string="127.0.0.1:$port_b" --backup-id="$backup_id" \
  --backup-path="$work/a/dn2/backups" >"$work/again.out" 2>&1; then
  fail "a second restore over the same tables succeeded"
fi
grep -q "exists" "$work/again.out" || fail "a second restore said: $(cat "$work/again.out")"
echo "ok: a second restore refuses to overwrite the tables"
status=0
