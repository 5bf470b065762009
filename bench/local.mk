# bench: speed and memory against the reference tools, results written down.
EXTRA_DIST += bench/RESULTS.md bench/gen-fabric.py bench/sweep-bench.sh \
	bench/fabric-discovery.sh bench/fabric-discovery.results \
	bench/engine-vs-perftest.sh bench/engine-vs-perftest.md bench/in-vm.sh \
	bench/export-bench.sh bench/export-bench.md bench/benchlib.sh \
	bench/madcount.c bench/sweep-cpu.sh bench/keylat-bench.sh bench/monitor-bench.sh bench/monitor-bench.md \
	bench/perftest-peer.sh bench/perftest-peer.md \
	bench/json-writer-bench.sh bench/json-writer.md bench/jsonwriter.c \
	bench/jsonwriter.h bench/jsonwriter_ours.c bench/tscrate.c
