#!/bin/sh
# SPDX-License-Identifier: MIT
# t-40-engine-bw.sh: `ibconsole test bw` against `ibconsole serve` on rxe0:
# write / read / send, several QPs with TX depth, CQ moderation and inline
# options, bidirectional, by duration, a size sweep and UD send; every run
# ends with plausible numbers (tests/vm/enginelib.sh: validate).
set -eu
. "$VM_TESTS_DIR/vmlib.sh"
PORT=18600
. "$VM_TESTS_DIR/enginelib.sh"
start_agent
check bw-write bw -n 100
check bw-read bw --op read -n 100
check bw-send bw --op send -n 100
check bw-write-4qp bw -n 100 -q 4 -t 16 -Q 4 -I 0
check bw-bidir bw -n 100 --bidir
check bw-send-bidir bw --op send -n 100 --bidir -s 4096
check bw-duration bw -D 1
check bw-sweep bw --sweep -s 64K -n 20
check bw-ud bw --op send -c UD -s 1024 -n 2000
stop_agent
validate
