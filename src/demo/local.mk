# src/demo: the bundled demo — `--demo` runs the console on a simulated
# fabric (ibsim on demo.net, a driver moving its counters; demo.c), and
# `--demo roce` hands over to the script that boots the two Soft-RoCE VMs
# (demo_roce.c; the scripts live in the top-level demo/ folder).
ibconsole_SOURCES += src/demo/demo.c src/demo/demo.h src/demo/demo_roce.c
