# fuzz: libFuzzer targets for every parser that reads the network or a
# file. In `make check` each replays its seed corpus (a regression test);
# `make fuzz` fuzzes each for IBCONSOLE_FUZZ_SECONDS (default 60).
FUZZ_TESTS = fuzz/fuzz-proto.test fuzz/fuzz-topo.test fuzz/fuzz-config.test \
	fuzz/fuzz-namemap.test fuzz/fuzz-perftest.test fuzz/fuzz-acceptres.test \
	fuzz/fuzz-capture.test fuzz/fuzz-capsweep.test
TESTS += $(FUZZ_TESTS)
fuzz:
	IBCONSOLE_FUZZ_SECONDS=$${IBCONSOLE_FUZZ_SECONDS:-60}; export IBCONSOLE_FUZZ_SECONDS; \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(FUZZ_TESTS)'
.PHONY: fuzz
EXTRA_DIST += fuzz/fuzz-proto.test fuzz/fuzz_proto.c fuzz/corpus \
	fuzz/fuzzlib.sh fuzz/fuzzfile.h fuzz/fuzz-topo.test fuzz/fuzz_topo.c fuzz/corpus-topo \
	fuzz/fuzz-config.test fuzz/fuzz_config.c fuzz/corpus-config \
	fuzz/fuzz-namemap.test fuzz/fuzz_namemap.c fuzz/corpus-namemap \
	fuzz/fuzz-perftest.test fuzz/fuzz_perftest.c fuzz/corpus-perftest \
	fuzz/fuzz-acceptres.test fuzz/fuzz_acceptres.c fuzz/corpus-acceptres \
	fuzz/fuzz-capture.test fuzz/fuzz_capture.c fuzz/corpus-capture \
	fuzz/fuzz-capsweep.test fuzz/fuzz_capsweep.c fuzz/corpus-capsweep
# The module page decoders and the saved-page reader.
FUZZ_TESTS += fuzz/fuzz-optics.test
EXTRA_DIST += fuzz/fuzz-optics.test fuzz/fuzz_optics.c fuzz/corpus-optics
