# src/core/testrun: a test run as the console and the CLI start it — the
# test job on a worker, the TCP baseline, the perftest client and its
# handshake, the test records (written, read back for --compare) and the
# test peer chosen on the fabric screen.
libibc_core_a_SOURCES += \
	src/core/testrun/testjob.c src/core/testrun/testjob.h \
	src/core/testrun/tcptest.c src/core/testrun/tcptest.h \
	src/core/testrun/perftest_client.c src/core/testrun/perftest_client.h \
	src/core/testrun/perftest_proto.c src/core/testrun/perftest_proto.h \
	src/core/testrun/record.c src/core/testrun/record.h \
	src/core/testrun/peer.c src/core/testrun/peer.h
