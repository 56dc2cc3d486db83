"""Clients that break the TLS handshake, each on its own connection, while another client stays
logged in over TLS: an SSLRequest and then nothing, garbage, a truncated ClientHello, a login
in the clear, a second SSLRequest, and 200 handshakes dropped halfway. After each the router
must still serve the logged-in client and take a new verified TLS login.

  tls_abuse.py HOST PORT CA_FILE
"""
import socket
import ssl
import struct
import sys

import pymysql

host, port, ca = sys.argv[1], int(sys.argv[2]), sys.argv[3]
CLIENT_SSL, PROTOCOL_41, SECURE_CONNECTION, PLUGIN_AUTH = 0x800, 0x200, 0x8000, 0x80000


def packet(payload, seq):
    return struct.pack("<I", len(payload))[:3] + bytes([seq]) + payload


def ssl_request():
    caps = CLIENT_SSL | PROTOCOL_41 | SECURE_CONNECTION | PLUGIN_AUTH
    return packet(struct.pack("<IIB", caps, 1 << 24, 45) + bytes(23), 1)


def client_hello():
    context = ssl.create_default_context(cafile=ca)
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname=host)
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def raw(*chunks, wait_for_reply=True):
    """Reads the greeting, sends `chunks`, reads what comes back until the router closes."""
    with socket.create_connection((host, port), timeout=10) as s:
        s.recv(4096)
        for chunk in chunks:
            s.sendall(chunk)
        if not wait_for_reply:
            return b""
        reply = b""
        try:
            while data := s.recv(4096):
                reply += data
        except (ConnectionResetError, socket.timeout):
            pass
        return reply


def verified_login():
    conn = pymysql.connect(host=host, port=port, user="root", ssl_ca=ca, ssl_verify_cert=True,
                           ssl_verify_identity=True, connect_timeout=10)
    with conn.cursor() as cur:
        cur.execute("SHOW STATUS LIKE 'Ssl_version'")
        return conn, cur.fetchone()[1]


staying, version = verified_login()
hello = client_hello()
plain_login = packet(struct.pack("<IIB", PROTOCOL_41 | SECURE_CONNECTION, 1 << 24, 45) +
                     bytes(23) + b"root\x00\x00", 2)
cases = {
    "an SSLRequest, then the client closes": [ssl_request()],
    "an SSLRequest, then garbage": [ssl_request(), b"\x16\x03\x01\xff\xff" + bytes(300)],
    "an SSLRequest, then half a ClientHello": [ssl_request(), hello[: len(hello) // 2]],
    "an SSLRequest, then a login in the clear": [ssl_request(), plain_login],
    "two SSLRequests": [ssl_request(), ssl_request()],
}
for name, chunks in cases.items():
    raw(*chunks, wait_for_reply=name != "an SSLRequest, then the client closes")
    with staying.cursor() as cur:
        cur.execute("SELECT 1")
        assert cur.fetchone() == (1,)
    conn, v = verified_login()
    conn.close()
    print(f"ok: {name}: the router serves on ({v})")
for _ in range(200):
    raw(ssl_request(), hello, wait_for_reply=False)  # a ClientHello, then gone
conn, v = verified_login()
conn.close()
print(f"ok: 200 handshakes dropped after the ClientHello: the router serves on ({v})")
staying.close()
