# tests/vm: the Soft-RoCE VM tests. verbs.test boots one VM (rxe-vm.sh) and
# runs every t-*.sh inside it through suite.sh; wire.test, wire-screen.test
# (the console's test screen on a lossy wire) and wire-triage.test (the
# triage across a wire: MTUs, drops under load, its screen) and
# wire-accept.test (acceptance of four agents, two NICs per VM, with a
# planted bad NIC and a bad path) join two VMs through wire-run.sh.
# fleet.test boots one VM for fleet-rules.sh (the fleet rules' defaults
# judging a half-rate and a delayed path among three shaped NICs). demo.test runs `ibconsole --demo roce` (two VMs,
# the console on the terminal) in tmux.
# agent-hammer.test starves `serve` with hammer.py on this machine (no VM);
# agent-orders.test checks an agent's refusals of test orders (no VM).
# agent-tcp.test: the TCP baseline port and the log under hostile clients (no VM).
# The VM tests come first in TESTS, longest first, so that `make check`
# with enough jobs (the README's command: one more than the CPUs for each
# VM test) starts them all at once: each waits in vmlock.sh for a free
# slot, the next starting within a second of one ending, and the other
# tests take the remaining jobs. Make's own prerequisites would not do: a
# freed job goes to the next test in the list, and a chained VM test
# behind it waited minutes.
# the locks vmlock.sh takes live in the build tree; clean removes them
CLEANFILES = tests/vm-1.lock tests/vm-2.lock tests/vm-wait.*
VM_TESTS = tests/vm/verbs.test tests/vm/demo.test tests/vm/fleet.test \
	tests/vm/wire-accept.test tests/vm/wire-triage.test tests/vm/wire-screen.test tests/vm/wire.test
TESTS += $(VM_TESTS) tests/vm/agent-hammer.test tests/vm/agent-orders.test \
	tests/vm/agent-tcp.test
EXTRA_DIST += tests/vm/verbs.test tests/vm/rxe-vm.sh tests/vm/suite.sh tests/vm/vmlock.sh \
	tests/vm/vmlib.sh tests/vm/enginelib.sh tests/vm/faultlib.sh tests/vm/valgrind.supp \
	tests/vm/snapshot_oracle.py tests/vm/hammer.py tests/vm/agent-hammer.test tests/vm/agent-tcp.test \
	tests/vm/keylat.py tests/vm/screenlib.sh tests/vm/t-50-screen-faults.sh \
	tests/vm/agent-orders.test \
	tests/vm/t-00-env.sh tests/vm/t-05-permission.sh tests/vm/t-06-optics.sh tests/vm/t-snapshot.sh \
	tests/vm/t-perftest.sh tests/vm/t-40-counters.sh tests/vm/t-40-engine-bw.sh \
	tests/vm/t-41-fabric.sh tests/vm/t-41-faults-net.sh \
	tests/vm/t-42-engine-lat-rate.sh tests/vm/t-43-engine-oracle.sh \
	tests/vm/t-44-faults-kill.sh tests/vm/t-45-triage.sh tests/vm/t-46-accept.sh tests/vm/t-50-accept-hosts.sh \
	tests/vm/t-46-export.sh tests/vm/t-47-perftest-peer.sh \
	tests/vm/t-47-perftest-lat.sh tests/vm/perftestlib.sh \
	tests/vm/t-48-agent-starve.sh tests/vm/t-49-flaps.sh tests/vm/t-45-test-screen.sh tests/vm/t-51-accept-screen.sh \
	tests/vm/t-52-accept-pcie.sh tests/vm/fleet.test tests/vm/fleet-rules.sh \
	tests/vm/wire.test tests/vm/wire/server.sh tests/vm/wire/client.sh \
	tests/vm/wire-screen.test tests/vm/wire/screen-server.sh \
	tests/vm/wire/screen-client.sh tests/vm/wire-run.sh \
	tests/vm/wire-triage.test tests/vm/wire/triage-server.sh \
	tests/vm/wire/triage-client.sh tests/vm/wire-accept.test \
	tests/vm/wire/accept-server.sh tests/vm/wire/accept-client.sh tests/vm/demo.test
