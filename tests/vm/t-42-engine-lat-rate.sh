#!/bin/sh
# SPDX-License-Identifier: MIT
# t-42-engine-lat-rate.sh: `ibconsole test lat` (write / read / send, by
# iterations and by duration, UD send, more sends than the receive ring
# holds) and `test rate` (several QPs, a
# given GID index and CQ moderation) on rxe0, with plausible numbers.
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
PORT=18620
. "$VM_TESTS_DIR/enginelib.sh"
start_agent
check lat-write lat -n 100
check lat-read lat --op read -n 100
check lat-send lat --op send -n 100
check lat-duration lat -D 1
check lat-ud lat --op send -c UD -n 100
# more pings than the receive ring is deep (512): the latency loop tops the
# ring up after each answer's post, on both ends, or the 513th ping stalls
check lat-send-ring lat --op send -n 1500
check lat-ud-ring lat --op send -c UD -n 1500
check rate rate -n 100
check rate-gid rate -n 100 -x "$gid" --cq-mod 10 -t 64
stop_agent
validate
