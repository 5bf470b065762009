# tests/sim: owned fragment (see Makefile.am)
# Integration tests on a simulated fabric (ibsim + umad2sim + opensm -o,
# harness tests/sim/simlib.sh), with ibstat / smpquery as the oracles.
# IBCONSOLE, TOPODIR and IBCONSOLE_DATADIR come from AM_TESTS_ENVIRONMENT.
TESTS += tests/sim/snapshot-oracle.test tests/sim/errors.test
EXTRA_DIST += tests/sim/snapshot-oracle.test tests/sim/errors.test \
	tests/sim/simlib.sh tests/sim/snapcmp.py \
	tests/topo/small.net tests/topo/degraded.net
