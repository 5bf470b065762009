# src/core/engine.mk: owned fragment (issue 4: test engine, agent, records)
# The test engine and the agent protocol live in core (no curses); the
# verdict rules in diag; `test` / `serve` in src/cmd_test.c.

libibc_core_a_SOURCES += \
	src/core/sha256.c src/core/sha256.h \
	src/core/proto.c src/core/proto.h \
	src/core/engine.c src/core/engine_run.c src/core/engine_stats.c \
	src/core/engine.h src/core/engine_int.h \
	src/core/facts.c src/core/facts.h \
	src/core/testctr.c src/core/testctr.h \
	src/core/agent.c src/core/agent.h \
	src/core/testrun.c src/core/testrun.h \
	src/core/record.c src/core/record.h
libibc_diag_a_SOURCES += src/diag/testverdict.c src/diag/testverdict.h
ibconsole_SOURCES += src/cmd_test.c src/cmd_test.h
ibconsole_LDADD += -lm

# Pure logic: the protocol codec (and SHA-256), perftest's maths, verdicts, records.
check_PROGRAMS += tests/unit/test_proto tests/unit/test_engine_stats tests/unit/test_testverdict
tests_unit_test_proto_SOURCES = tests/unit/test_proto.c
tests_unit_test_proto_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_proto_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS) -lm
tests_unit_test_engine_stats_SOURCES = tests/unit/test_engine_stats.c
tests_unit_test_engine_stats_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_engine_stats_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS) -lm
tests_unit_test_testverdict_SOURCES = tests/unit/test_testverdict.c
tests_unit_test_testverdict_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_testverdict_LDADD = libibc_diag.a $(CMOCKA_LIBS)

# Fuzzing the message parser (clang libFuzzer): a short run is a test.
TESTS += fuzz/fuzz-proto.test
EXTRA_DIST += fuzz/fuzz-proto.test fuzz/fuzz_proto.c fuzz/corpus \
	bench/engine-vs-perftest.sh bench/in-vm.sh bench/engine-vs-perftest.md \
	tests/vm/enginelib.sh tests/vm/faultlib.sh tests/vm/t-40-engine-bw.sh tests/vm/t-41-faults-net.sh \
	tests/vm/t-42-engine-lat-rate.sh tests/vm/t-43-engine-oracle.sh tests/vm/t-44-faults-kill.sh
