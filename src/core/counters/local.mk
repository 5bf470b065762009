# src/core/counters: the counter table, the pipelined PMA client, the
# sysfs reader, the delta
# engine, the event log, the console's counter monitor and the port
# counter deltas around a test (testctr).
libibc_core_a_SOURCES += \
	src/core/counters/counters.c src/core/counters/counters.h \
	src/core/counters/pma.c src/core/counters/pma.h \
	src/core/counters/details.c src/core/counters/details.h \
	src/core/counters/sysfs_counters.c \
	src/core/counters/counters_json.c src/core/counters/counters_json.h \
	src/core/counters/reader.c src/core/counters/reader.h \
	src/core/counters/delta.c src/core/counters/delta.h \
	src/core/counters/eventlog.c src/core/counters/eventlog.h \
	src/core/counters/monitor.c src/core/counters/monitor.h \
	src/core/counters/samples.c src/core/counters/samples.h \
	src/core/counters/pfc.c src/core/counters/pfc.h \
	src/core/counters/ethstats.c src/core/counters/ethstats.h \
	src/core/counters/portcong.c src/core/counters/portcong.h \
	src/core/counters/testctr.c src/core/counters/testctr.h
