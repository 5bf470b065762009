#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""slowclients.py — hostile clients for a TCP server on loopback.

  slowclients.py PORT SECONDS [--slow N] [--addrs M] [--idle K]
                 [--prefix TEXT] [--stats FILE]

N slow clients, spread over M loopback source addresses (127.0.0.1 and
up, so one of them is the address a scraper on loopback uses), each send PREFIX and then one byte a second that never ends the
request (no newline); K idle clients (from 127.0.0.1) connect and send
nothing. A client the server drops connects again after 0.1 s. Runs
SECONDS at most (one loop, each turn bounded by a 0.1 s wait), then
writes its figures as JSON to FILE (or stdout): connections made, drops
seen, bytes sent, and the average number of sockets it held open.
Loopback only: every address is in 127.0.0.0/8.
"""
import argparse
import errno
import json
import select
import socket
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("port", type=int)
ap.add_argument("seconds", type=float)
ap.add_argument("--slow", type=int, default=200)
ap.add_argument("--addrs", type=int, default=50)
ap.add_argument("--idle", type=int, default=32)
ap.add_argument("--prefix", default="")
ap.add_argument("--stats")
a = ap.parse_args()
if not (1 <= a.addrs <= 200 and 0 <= a.slow <= 1000 and 0 <= a.idle <= 1000 and 0 < a.seconds <= 600):
    sys.exit("slowclients.py: out of range")

prefix = a.prefix.encode().decode("unicode_escape").encode("latin-1")
start = time.monotonic()
end = start + a.seconds


class Client:
    def __init__(self, src, slow):
        self.src, self.slow = src, slow
        self.sock, self.sent, self.next, self.again = None, 0, 0.0, 0.0


clients = [Client("127.0.0.%d" % (1 + i % a.addrs), True) for i in range(a.slow)]
clients += [Client("127.0.0.1", False) for _ in range(a.idle)]
st = {"connects": 0, "refused": 0, "drops": 0, "bytes": 0, "open_avg": 0.0, "open_max": 0}
held = 0.0	# socket-seconds, for the time-weighted average


def connect(c, now):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    try:
        s.bind((c.src, 0))
        s.connect_ex(("127.0.0.1", a.port))
    except OSError:
        s.close()
        c.again = now + 0.1
        return
    c.sock, c.sent, c.next = s, 0, now
    st["connects"] += 1


def dropped(c, now):
    c.sock.close()
    c.sock, c.again = None, now + 0.1
    st["drops"] += 1


while True:
    now = time.monotonic()
    if now >= end:
        break
    for c in clients:
        if c.sock is None and now >= c.again:
            connect(c, now)
    live = [c for c in clients if c.sock is not None]
    st["open_max"] = max(st["open_max"], len(live))
    # a socket the server closed reads as end-of-file (or an error)
    if live:
        r, _, _ = select.select([c.sock for c in live], [], [], 0.1)
    else:
        r = []
        time.sleep(0.1)
    rs = set(r)
    held += len(live) * (time.monotonic() - now)
    now = time.monotonic()
    for c in live:
        if c.sock in rs:
            try:
                if not c.sock.recv(4096):
                    dropped(c, now)
                    continue
            except OSError:
                dropped(c, now)
                continue
        if c.slow and now >= c.next:
            # the prefix at once, then one byte a second
            b = prefix[c.sent:] if c.sent < len(prefix) else b"a"
            try:
                n = c.sock.send(b)
            except BlockingIOError:
                n = 0
            except OSError as e:
                if e.errno in (errno.ENOTCONN, errno.EAGAIN):
                    n = 0
                else:
                    dropped(c, now)
                    continue
            c.sent += n
            st["bytes"] += n
            c.next = now if c.sent < len(prefix) else now + 1.0
for c in clients:
    if c.sock is not None:
        c.sock.close()
st["open_avg"] = round(held / max(time.monotonic() - start, 0.001), 1)
st["seconds"] = round(time.monotonic() - start, 1)
out = json.dumps(st)
if a.stats:
    open(a.stats, "w").write(out + "\n")
else:
    print(out)
