# fuzz: libFuzzer targets for every parser that reads the network or a
# file; a short run of each is a test.
TESTS += fuzz/fuzz-proto.test fuzz/fuzz-topo.test fuzz/fuzz-config.test \
	fuzz/fuzz-namemap.test fuzz/fuzz-perftest.test fuzz/fuzz-acceptres.test
EXTRA_DIST += fuzz/fuzz-proto.test fuzz/fuzz_proto.c fuzz/corpus \
	fuzz/fuzzlib.sh fuzz/fuzzfile.h fuzz/fuzz-topo.test fuzz/fuzz_topo.c fuzz/corpus-topo \
	fuzz/fuzz-config.test fuzz/fuzz_config.c fuzz/corpus-config \
	fuzz/fuzz-namemap.test fuzz/fuzz_namemap.c fuzz/corpus-namemap \
	fuzz/fuzz-perftest.test fuzz/fuzz_perftest.c fuzz/corpus-perftest \
	fuzz/fuzz-acceptres.test fuzz/fuzz_acceptres.c fuzz/corpus-acceptres
