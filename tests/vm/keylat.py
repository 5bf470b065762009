#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# keylat.py: how long a key takes from tmux to the screen, measured
# through one tmux control-mode client: send-keys, then capture-pane
# every 10 ms until the pane matches. Polling through the control
# client costs no process start per look, so on a slow (emulated) guest
# the figure is the console's and tmux's, not fork's.
#
# usage: keylat.py SOCKET TARGET ROUNDS KEY1 ERE1 [KEY2 ERE2 ...]
#   sends KEY1 and waits for ERE1, then KEY2 and ERE2 and so on, ROUNDS
#   times; prints one line per key (its time, then @ when it was sent,
#   CLOCK_MONOTONIC seconds as in the console's IBCONSOLE_UI_TRACE), then
#   "median MS max MS" in whole milliseconds. Exit 1 when a key never showed within 30 s (the screen
#   printed).
#   ~ERE: the key shows when the lines matching ERE differ from those
#   before it was sent (a selection that moved, a page scrolled).
#   KEY@Ns: KEY is sent at most every N seconds; a round that comes
#   sooner leaves that step out (a sweep asked every N s, not each round).
import re
import subprocess
import sys
import time


def main():
    sock, target, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    steps = list(zip(sys.argv[4::2], sys.argv[5::2]))
    # attached to the session only: attaching to a window would make it
    # the session's current one
    tm = subprocess.Popen(["tmux", "-L", sock, "-C", "attach", "-t", target.split(":")[0]],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)

    def cmd(line):
        """Runs one tmux command; its output lines (notifications skipped)."""
        tm.stdin.write(line + "\n")
        tm.stdin.flush()
        out, inside = [], False
        for ln in tm.stdout:
            ln = ln.rstrip("\n")
            if not inside:
                if ln.startswith("%begin"):
                    inside = True
                continue
            if ln.startswith("%end") or ln.startswith("%error"):
                if ln.startswith("%error"):
                    raise SystemExit("tmux: %s: %s" % (line, " ".join(out)))
                return out
            out.append(ln)
        raise SystemExit("tmux control client ended")

    def matching(pat):
        return [x for x in cmd("capture-pane -p -t " + target) if pat.search(x)]

    cmd("display-message -p ok")    # attached and answering
    took = []
    last_sent = {}
    for r in range(rounds):
        for key, ere in steps:
            every = re.match(r"^(.*)@([0-9.]+)s$", key)
            if every:
                key, every = every.group(1), float(every.group(2))
                if time.monotonic() - last_sent.get(key, -every) < every:
                    continue
            changed = ere.startswith("~")
            pat = re.compile(ere[1:] if changed else ere)
            before = matching(pat) if changed else None
            t0 = time.monotonic()
            last_sent[key] = t0
            cmd("send-keys -t %s %s" % (target, key))
            while True:
                screen = cmd("capture-pane -p -t " + target)
                now = [x for x in screen if pat.search(x)]
                if now and (not changed or now != before):
                    break
                if time.monotonic() - t0 > 30:
                    print("\n".join(screen))
                    print("key %s: the screen never showed /%s/ within 30 s" % (key, ere))
                    sys.exit(1)
                time.sleep(0.01)
            ms = (time.monotonic() - t0) * 1000
            took.append(ms)
            print("key %s -> /%s/: %.0f ms @ %.3f" % (key, ere, ms, t0))
    took.sort()
    print("median %d max %d" % (round(took[len(took) // 2]), round(took[-1])))
    tm.stdin.close()
    tm.wait(timeout=10)


main()
