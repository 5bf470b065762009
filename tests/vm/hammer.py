#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hammer.py: starve `ibconsole serve`, or time one greeting through it.

  hammer.py hold HOST PORT IDLE SLOW SECONDS [--refill] [--from ADDR]
      Opens IDLE connections that never send a byte and SLOW ones that
      send a valid SETUP one byte per second (slowloris), prints
      "ready IDLE SLOW" once all are open, and keeps them for SECONDS;
      with --refill a connection the agent drops is opened again at once.
      --from binds the source address (e.g. 127.0.0.2: another "host").

  hammer.py probe HOST PORT LIMIT_S [--from ADDR]
      One honest client: connects, reads HELLO, sends a valid SETUP and
      reads the answer. Prints "hello=<s> answer=<TYPE> total=<s>" and
      exits 0 when both came within LIMIT_S seconds, 1 otherwise. The
      answer is ACCEPT where the agent has an RDMA device, ERROR (no
      device) where it has none; either way the handshake was served.
"""
import select
import socket
import struct
import sys
import time

TYPES = {1: "HELLO", 3: "ACCEPT", 12: "ERROR", 13: "BUSY"}


def frame(mtype, payload):
    return b"IBCT" + bytes([2, mtype, 0, 0]) + struct.pack(">I", len(payload)) + payload


def setup():
    mac = bytes(32)
    # kind bw, op write, conn RC, flags 0; qps, tx_depth, inline, cq_mod,
    # duration_ms, counter_ms, size, iters
    params = struct.pack(">BBBBIIIIIIQQ", 0, 0, 0, 0, 1, 128, 0, 1, 0, 1000, 65536, 1000)
    # facts: 11 empty strings, numa_node, cpu_mhz, rate, mtu, gid_index, netdev_mtu
    facts = struct.pack(">H", 0) * 11 + struct.pack(">iIIIiI", -1, 0, 0, 0, -1, 0)
    return frame(2, mac + params + facts)


def recv_msg(s, deadline):
    buf = b""
    need = 12
    while len(buf) < need:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        s.settimeout(left)
        try:
            b = s.recv(need - len(buf))
        except (socket.timeout, OSError):
            return None
        if not b:
            return None
        buf += b
        if len(buf) == 12 and need == 12:
            need = 12 + struct.unpack(">I", buf[8:12])[0]
    return buf[5], buf[12:]


def probe(host, port, limit, src):
    t0 = time.monotonic()
    try:
        s = socket.create_connection((host, port), timeout=limit,
                                     source_address=(src, 0) if src else None)
    except OSError as e:
        print(f"connect failed after {time.monotonic() - t0:.3f} s: {e}")
        return 1
    hello = recv_msg(s, t0 + limit)
    th = time.monotonic() - t0
    if not hello or hello[0] != 1:
        print(f"hello=none after {th:.3f} s")
        return 1
    s.sendall(setup())
    ans = recv_msg(s, t0 + limit)
    tt = time.monotonic() - t0
    name = TYPES.get(ans[0], str(ans[0])) if ans else "none"
    print(f"hello={th:.3f} answer={name} total={tt:.3f}")
    if ans and ans[0] == 3:
        # a real session started: end it politely, so the agent is free
        s.sendall(frame(12, struct.pack(">H", 4) + struct.pack(">H", 5) + b"probe"))
    s.close()
    return 0 if ans and th <= limit and tt <= limit else 1


def hold(host, port, nidle, nslow, seconds, refill, src):
    payload = setup()

    def opened():
        s = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        if src:
            s.bind((src, 0))
        s.setblocking(False)
        try:
            s.connect((host, port))
        except BlockingIOError:
            pass
        return s

    idle = [opened() for _ in range(nidle)]
    slow = [[opened(), 0, time.monotonic() + 1] for _ in range(nslow)]
    print(f"ready {nidle} {nslow}", flush=True)
    reopened = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        # drain HELLOs; a closed one is opened again
        socks = [x for x in idle + [x[0] for x in slow] if x.fileno() >= 0]
        r, _, _ = select.select(socks, [], [], 0.2)
        for s in r:
            try:
                b = s.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                b = b""
            if b:
                continue
            s.close()
            if not refill:
                continue
            reopened += 1
            if s in idle:
                idle[idle.index(s)] = opened()
            else:
                for x in slow:
                    if x[0] is s:
                        x[0], x[1], x[2] = opened(), 0, time.monotonic() + 1
        now = time.monotonic()
        for x in slow:
            if x[1] < len(payload) and now >= x[2]:
                x[2] = now + 1
                try:
                    x[1] += x[0].send(payload[x[1]:x[1] + 1])
                except OSError:
                    pass
    print(f"done reopened={reopened}", flush=True)
    return 0


def main(argv):
    refill = "--refill" in argv
    src = None
    if "--from" in argv and argv.index("--from") + 1 < len(argv):
        src = argv[argv.index("--from") + 1]
    args = [a for a in argv[1:] if a not in ("--refill", "--from", src)]
    if len(args) == 6 and args[0] == "hold":
        return hold(args[1], int(args[2]), int(args[3]), int(args[4]), float(args[5]),
                    refill, src)
    if len(args) == 4 and args[0] == "probe":
        return probe(args[1], int(args[2]), float(args[3]), src)
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
