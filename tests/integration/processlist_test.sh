#!/usr/bin/env bash
# SHOW [FULL] PROCESSLIST, information_schema.PROCESSLIST and KILL [CONNECTION | QUERY]
# through a router, with the real mariadb client and mariadb-admin (issue 23: a long LOAD DATA
# shows its progress and can be stopped).
#
# Side by side with a private MariaDB from Debian: SHOW PROCESSLIST's columns (MariaDB adds a
# Progress column after MySQL's eight) and KILL of an unknown id (1094). Then on Shoal: an
# idle session shows as Sleep in its database; the session asking sees itself running its
# statement; a LOAD DATA LOCAL fed slowly through
# a FIFO shows "Loading: … rows read, … committed", and KILL QUERY stops it with 1317 while
# the connection and what it committed stay (its Info cut at 100 characters without FULL); KILL closes an idle connection (its next
# statement finds the server gone) and takes it off the list; KILL of one's own connection
# answers 1317; mariadb-admin processlist and kill work.
#
#   tests/integration/processlist_test.sh
#
# ctest runs it as processlist_test. Needs mariadb-server and mariadb-client. Stops everything
# it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/integration/box_beside_mariadb.sh
start_box_and_mariadb processlist

failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
ok() { echo "ok: $*"; }

shoal() { mariadb -S "$socket" -u root "$@"; }
maria() { mariadb -S "$mariadb_socket" -u root "$@"; }
# The row of session `id` in SHOW FULL PROCESSLIST, tab-separated, without the header.
row_of() { shoal -N -e "SHOW FULL PROCESSLIST" | awk -F'\t' -v id="$1" '$1 == id'; }

# 1. Beside MariaDB: the columns, and KILL of an id nobody has.
shoal_cols=$(shoal -e "SHOW PROCESSLIST" | sed -n 1p)
maria_cols=$(maria -e "SHOW PROCESSLIST" | sed -n 1p | cut -f1-8)
[ "$shoal_cols" = "$maria_cols" ] && ok "SHOW PROCESSLIST columns: $shoal_cols" ||
  fail "SHOW PROCESSLIST columns: Shoal '$shoal_cols', MariaDB '$maria_cols'"
[ "$(shoal -e "SHOW FULL PROCESSLIST" | sed -n 1p)" = "$shoal_cols" ] ||
  fail "SHOW FULL PROCESSLIST has other columns"
for kill in "KILL 987654" "KILL QUERY 987654" "KILL CONNECTION 987654"; do
  s=$(shoal -e "$kill" 2>&1 | grep ERROR || true)
  m=$(maria -e "$kill" 2>&1 | grep ERROR || true)
  [ "$s" = "$m" ] && ok "$kill: $s" || fail "$kill: Shoal '$s', MariaDB '$m'"
done
shoal_is=$(shoal -e "SELECT * FROM information_schema.PROCESSLIST LIMIT 1" | sed -n 1p)
[ "$shoal_is" = "$(printf 'ID\tUSER\tHOST\tDB\tCOMMAND\tTIME\tSTATE\tINFO')" ] &&
  ok "information_schema.PROCESSLIST columns" ||
  fail "information_schema.PROCESSLIST columns: '$shoal_is'"

# 2. An idle session, kept open by a FIFO, in database pl.
shoal -e "CREATE DATABASE pl; CREATE TABLE pl.t (id INT PRIMARY KEY, v VARCHAR(20))"
mkfifo "$work/idle.in"
shoal pl -N --unbuffered --skip-reconnect <"$work/idle.in" >"$work/idle.out" 2>&1 &
kill_on_exit+=($!)
exec 7>"$work/idle.in"
echo "SELECT CONNECTION_ID();" >&7
for _ in $(seq 100); do [ -s "$work/idle.out" ] && break; sleep 0.1; done
idle_id=$(head -1 "$work/idle.out")
sleep 1.2
row=$(row_of "$idle_id")
fields=$(awk -F'\t' '{print $2 "|" $4 "|" $5 "|" $7 "|" $8 "|" ($6 >= 1)}' <<<"$row")
[ "$fields" = "root|pl|Sleep||NULL|1" ] && ok "an idle session: $row" ||
  fail "the idle session's row: '$row' ($fields)"

# 3. The asking session sees itself (the mariadb client sends each statement on its own).
mine=$(shoal -N -e "SELECT CONNECTION_ID(); SHOW PROCESSLIST; SHOW FULL PROCESSLIST")
self=$(head -1 <<<"$mine")
self_rows=$(awk -F'\t' -v id="$self" 'NR > 1 && $1 == id {print $5 "|" $8}' <<<"$mine")
[ "$self_rows" = "Query|SHOW PROCESSLIST
Query|SHOW FULL PROCESSLIST" ] && ok "the asking session sees itself" ||
  fail "the asking session's rows: '$self_rows'"

# 4. A LOAD DATA fed slowly shows its progress; KILL QUERY stops it with 1317.
mkfifo "$work/rows.fifo"
(
  for i in $(seq 1 3000); do printf '%d,row-%d\n' "$i" "$i"; done
  sleep 30  # until killed: the load waits for more of its file meanwhile
  for i in $(seq 3001 3100); do printf '%d,row-%d\n' "$i" "$i"; done
) >"$work/rows.fifo" &
feeder=$!
kill_on_exit+=($feeder)
load="LOAD DATA LOCAL INFILE '$work/rows.fifo' INTO TABLE t FIELDS TERMINATED BY ',' ENCLOSED BY ''"
load="$load LINES STARTING BY '' (id, v)"
shoal --local-infile=1 pl -e "$load" >"$work/load.out" 2>&1 &
loader=$!
kill_on_exit+=($loader)
# Batches of 1,000 rows: two of them commit while the rest of the file waits in the FIFO.
load_row=""
for _ in $(seq 100); do
  load_row=$(shoal -N -e "SHOW FULL PROCESSLIST" | awk -F'\t' '$8 ~ /^LOAD DATA/')
  grep -q "rows read, 2000 committed" <<<"$load_row" && break
  sleep 0.2
done
grep -Eq "	Loading: 2[0-9]{3} rows read, 2000 committed	" <<<"$load_row" &&
  ok "LOAD DATA shows its progress: $(cut -f5-7 <<<"$load_row")" ||
  fail "LOAD DATA's row: '$load_row'"
load_id=$(cut -f1 <<<"$load_row")
# Without FULL, Info is the statement's first 100 characters.
short=$(shoal -N -e "SHOW PROCESSLIST" | awk -F'\t' -v id="$load_id" '$1 == id {print $8}')
[ "$(cut -f8 <<<"$load_row")" = "$load" ] && [ "$short" = "${load:0:100}" ] &&
  ok "Info: the whole statement with FULL, its first 100 characters without" ||
  fail "Info: FULL '$(cut -f8 <<<"$load_row")', not FULL '$short'"
[ -n "$load_id" ] && shoal -e "KILL QUERY $load_id"
kill "$feeder" 2>/dev/null || true  # the file ends here: the load answers
load_status=0
wait "$loader" || load_status=$?
if [ "$load_status" -ne 0 ] && grep -q "ERROR 1317 (70100).*Query execution was interrupted" "$work/load.out"; then
  ok "KILL QUERY stopped the load: $(cat "$work/load.out")"
else
  fail "the killed load: exit $load_status, $(cat "$work/load.out")"
fi
rows=$(shoal -N -e "SELECT COUNT(*) FROM pl.t")
[ "$rows" = 2000 ] && ok "what the load committed stayed: $rows rows" ||
  fail "after the killed load: $rows rows, not 2000"

# 5. KILL closes an idle connection; its next statement finds the server gone.
shoal -e "KILL $idle_id"
for _ in $(seq 50); do [ -z "$(row_of "$idle_id")" ] && break; sleep 0.1; done
[ -z "$(row_of "$idle_id")" ] && ok "KILL $idle_id took it off the list" ||
  fail "KILL $idle_id left: $(row_of "$idle_id")"
echo "SELECT 'still here';" >&7
exec 7>&-
wait "${kill_on_exit[0]}" 2>/dev/null || true
if grep -qx "still here" "$work/idle.out" || ! grep -Eq "ERROR 20(06|13)" "$work/idle.out"; then
  fail "the killed connection: $(cat "$work/idle.out")"
else
  ok "the killed connection is gone: $(grep -E "ERROR 20(06|13)" "$work/idle.out")"
fi

# 6. KILL of one's own connection, and mariadb-admin.
own=$(shoal -e "KILL CONNECTION_ID()" 2>&1 | grep ERROR || true)
[[ "$own" == *"ERROR 1317 (70100)"* ]] && ok "KILL CONNECTION_ID(): $own" ||
  fail "KILL CONNECTION_ID(): '$own'"
mkfifo "$work/idle2.in"
shoal -N --unbuffered <"$work/idle2.in" >"$work/idle2.out" 2>&1 &
kill_on_exit+=($!)
exec 8>"$work/idle2.in"
echo "SELECT CONNECTION_ID();" >&8
for _ in $(seq 100); do [ -s "$work/idle2.out" ] && break; sleep 0.1; done
idle2=$(head -1 "$work/idle2.out")
admin_list=$(mariadb-admin -S "$socket" -u root processlist)
grep -q "| $idle2 *| root" <<<"$admin_list" && ok "mariadb-admin processlist lists $idle2" ||
  fail "mariadb-admin processlist: $admin_list"
mariadb-admin -S "$socket" -u root kill "$idle2"
for _ in $(seq 50); do [ -z "$(row_of "$idle2")" ] && break; sleep 0.1; done
[ -z "$(row_of "$idle2")" ] && ok "mariadb-admin kill $idle2" || fail "mariadb-admin kill left $idle2"
exec 8>&-

[ "$failed" -eq 0 ] && echo "PASS: process list and KILL"
exit "$failed"
