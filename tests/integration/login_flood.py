"""Failed logins do not hurt anyone else: N wrong-password logins (several threads, over TCP)
against one router while a logged-in client keeps querying through it; every wrong login gets
1045, the client's every query answers, and the router serves new logins afterwards.

  login_flood.py PORT FAILED_LOGINS
"""
import sys
import threading
import time

import pymysql

port, total = int(sys.argv[1]), int(sys.argv[2])


def connect(user, password):
    return pymysql.connect(host="127.0.0.1", port=port, user=user, password=password,
                           connect_timeout=10, autocommit=True)


def main():
    admin = connect("root", "")
    with admin.cursor() as cur:
        cur.execute("CREATE USER 'flood'@'%' IDENTIFIED BY 'right'")
    refused = []
    unexpected = []
    lock = threading.Lock()

    def attack(count, user):
        for _ in range(count):
            try:
                connect(user, "wrong").close()
                with lock:
                    unexpected.append("a wrong password logged in")
            except pymysql.err.OperationalError as e:
                with lock:
                    (refused if e.args[0] == 1045 else unexpected).append(e.args)

    answered = 0
    stop = threading.Event()

    def serve():
        nonlocal answered
        client = connect("flood", "right")
        while not stop.is_set():
            with client.cursor() as cur:
                cur.execute("SELECT 1")
                assert cur.fetchone() == (1,)
            answered += 1

    threads = [threading.Thread(target=attack, args=(total // 4, user))
               for user in ("flood", "flood", "nobody", "root")]
    server = threading.Thread(target=serve)
    server.start()
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    server.join()
    elapsed = time.monotonic() - started
    connect("flood", "right").close()  # still serving logins
    with admin.cursor() as cur:
        cur.execute("DROP USER 'flood'@'%'")
    print(f"{len(refused)} logins refused with 1045 in {elapsed:.1f} s; "
          f"{answered} queries answered meanwhile")
    if unexpected or len(refused) != 4 * (total // 4) or answered == 0:
        print(f"FAIL: unexpected {unexpected[:5]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
