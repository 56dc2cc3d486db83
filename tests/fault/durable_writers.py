"""Writers for the durability tests (tests/fault/system_restart_test.cc): threads that insert
rows through Shoal's routers with PyMySQL, as an application would, and say which commits were
acknowledged and when, so that the test can tell, after every data node was killed, which
acknowledged commits survived.

  durable_writers.py --socket S [--socket S2 ...] --writers N --out FILE

Table dur.t (id BIGINT PRIMARY KEY, writer INT, seq BIGINT). Writer w inserts ids
w * 10**9 + seq; every fourth write is a transaction of two rows (seq and seq + 1, which hash to
different partitions), committed together or not at all. Lines written to FILE, flushed as
they happen:

  A <id> <ack unix ns> <rows>   acknowledged (rows 2: the pair id, id + 1)
  D <id> <rows>                 sent, outcome unknown (an error, a lost connection)

Runs until SIGTERM or SIGINT.
"""
import argparse
import signal
import threading
import time

import pymysql

stop = threading.Event()
out_lock = threading.Lock()


def record(out, line):
    with out_lock:
        out.write(line + "\n")
        out.flush()


def writer(index, socket, out):
    conn = None
    seq = 0
    while not stop.is_set():
        if conn is None:
            try:
                conn = pymysql.connect(unix_socket=socket, user="root", database="dur",
                                       autocommit=True, connect_timeout=5, read_timeout=30,
                                       write_timeout=30)
            except pymysql.err.MySQLError:
                time.sleep(0.1)
                continue
        key = index * 10**9 + seq
        rows = 2 if seq % 4 == 3 else 1
        seq += rows
        try:
            with conn.cursor() as cur:
                if rows == 1:
                    cur.execute("INSERT INTO t VALUES (%s, %s, %s)", (key, index, seq))
                else:
                    cur.execute("BEGIN")
                    cur.execute("INSERT INTO t VALUES (%s, %s, %s)", (key, index, seq))
                    cur.execute("INSERT INTO t VALUES (%s, %s, %s)", (key + 1, index, seq))
                    cur.execute("COMMIT")
            record(out, f"A {key} {time.time_ns()} {rows}")
        except pymysql.err.MySQLError:
            record(out, f"D {key} {rows}")
            try:
                conn.close()
            except Exception:  # noqa: BLE001 - the connection may be half gone
                pass
            conn = None
            time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", action="append", required=True)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    with open(args.out, "w") as out:
        threads = [threading.Thread(target=writer, args=(i, args.socket[i % len(args.socket)], out))
                   for i in range(args.writers)]
        for t in threads:
            t.start()
        while not stop.is_set():
            time.sleep(0.05)
        for t in threads:
            t.join()


if __name__ == "__main__":
    main()
