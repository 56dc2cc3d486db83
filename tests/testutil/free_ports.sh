# shellcheck shell=bash
# Sourced by the shell tests that listen on TCP: free_ports N.

# N consecutive ports free on 127.0.0.1 (none of them bound when looked at); prints the first.
free_ports() {
  python3 - "$1" <<'PY'
import random, socket, sys
n = int(sys.argv[1])
for _ in range(200):
    base = random.randint(20000, 60000 - n)
    socks = []
    try:
        for port in range(base, base + n):
            s = socket.socket()
            socks.append(s)
            s.bind(("127.0.0.1", port))
        print(base)
        break
    except OSError:
        pass
    finally:
        for s in socks:
            s.close()
else:
    sys.exit("no free ports on 127.0.0.1")
PY
}
