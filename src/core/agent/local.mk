# src/core/agent: the agent protocol (pure, fuzzed), the agent (`serve`),
# the test client, test records, counters around a test, the test peer and
# the acceptance of the local cards against a reference.
libibc_core_a_SOURCES += \
	src/core/agent/proto.c src/core/agent/proto.h \
	src/core/agent/agent.c src/core/agent/agent.h \
	src/core/agent/client.c src/core/agent/client.h \
	src/core/agent/dial.c src/core/agent/dial.h \
	src/core/agent/hostlist.c src/core/agent/hostlist.h \
	src/core/agent/allpairs.c src/core/agent/allpairs.h \
	src/core/agent/record.c src/core/agent/record.h \
	src/core/agent/testctr.c src/core/agent/testctr.h \
	src/core/agent/peer.c src/core/agent/peer.h \
	src/core/agent/testjob.c src/core/agent/testjob.h \
	src/core/agent/accept.c src/core/agent/accept.h \
	src/core/agent/acceptres.c src/core/agent/acceptres.h \
	src/core/agent/tcptest.c src/core/agent/tcptest.h \
	src/core/agent/perftest_proto.c src/core/agent/perftest_proto.h \
	src/core/agent/perftest_client.c src/core/agent/perftest_client.h
