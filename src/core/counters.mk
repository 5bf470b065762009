# Counters (issue 5): owned fragment (see Makefile.am).
# Sampling (PMA / sysfs), the delta engine and the fabric sweep live in
# core with the event log and the console's worker; thresholds and rules
# in diag; the watch / errors
# commands next to main.c.

libibc_core_a_SOURCES += \
	src/core/counters.c src/core/counters.h \
	src/core/counters_sysfs.c \
	src/core/counters_out.c src/core/counters_out.h \
	src/core/ctrsample.c src/core/ctrsample.h \
	src/core/delta.c src/core/delta.h \
	src/core/sweep.c src/core/sweep.h \
	src/core/eventlog.c src/core/eventlog.h \
	src/core/ctrwork.c src/core/ctrwork.h \
	src/core/umadlock.c src/core/umadlock.h
libibc_diag_a_SOURCES += \
	src/diag/thresholds.c src/diag/thresholds.h \
	src/diag/rules.c src/diag/rules.h
ibconsole_SOURCES += src/cmd_counters.c src/cmd_counters.h

check_PROGRAMS += tests/unit/test_delta tests/unit/test_counters tests/unit/test_rules
tests_unit_test_delta_SOURCES = tests/unit/test_delta.c
tests_unit_test_delta_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_delta_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_counters_SOURCES = tests/unit/test_counters.c
tests_unit_test_counters_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_counters_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_rules_SOURCES = tests/unit/test_rules.c
tests_unit_test_rules_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_rules_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS)

# ibsim: PerformanceSet deltas in watch / errors, saturation and reset;
# tmux: the same on screen; two VMs: netem loss flags the port.
TESTS += tests/sim/counters.test tests/ui/counters.test tests/vm/wire.test
EXTRA_DIST += tests/sim/counters.test tests/ui/counters.test bench/sweep-bench.sh bench/gen-fabric.py tests/vm/t-40-counters.sh \
	tests/vm/wire.test tests/vm/wire/server.sh tests/vm/wire/client.sh \
	bench/RESULTS.md

# Console: counter cells, counters panel, event log and sweep views.
libibc_ui_a_SOURCES += \
	src/ui/ctrview.c src/ui/ctrview.h \
	src/ui/screen_counters.c src/ui/screen_sweep.c
