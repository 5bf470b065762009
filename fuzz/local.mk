# fuzz: libFuzzer targets for every parser that reads the network or a
# file; a short run of each is a test.
TESTS += fuzz/fuzz-proto.test
EXTRA_DIST += fuzz/fuzz-proto.test fuzz/fuzz_proto.c fuzz/corpus
