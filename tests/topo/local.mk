# tests/topo: ibsim topologies the tests, the benches and the demo use.
dist_pkgdata_DATA += tests/topo/demo.net
EXTRA_DIST += tests/topo/small.net tests/topo/degraded.net \
	tests/topo/fabric-faults.net tests/topo/gen-fattree.py
