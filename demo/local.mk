# demo: `ibconsole --demo roce` — two Soft-RoCE VMs (the VM harness of the
# tests, installed beside the scripts), the agent on one, the console on
# the other, and the planted faults its demo menu switches.
dist_pkglibexec_SCRIPTS = demo/roce-demo.sh demo/roce-fault.sh
pkglibexec_SCRIPTS = tests/vm/rxe-vm.sh
