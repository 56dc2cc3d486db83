# shellcheck shell=bash
# Sourced by the shell tests that listen on TCP: free_ports N.

# N consecutive ports free on 127.0.0.1 (none of them bound when looked at); prints the first.
# They lie below the kernel's ephemeral range: a port from inside it could be handed to any
# process's outgoing connection or port-0 listener between this look and the test's bind.
free_ports() {
  python3 - "$1" <<'PY'
import random, socket, sys
n = int(sys.argv[1])
with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
    ephemeral_low = int(f.read().split()[0])
for _ in range(200):
    base = random.randint(10000, max(10000, ephemeral_low - n))
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
