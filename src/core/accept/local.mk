# src/core/accept: acceptance without printing — the cards of a snapshot
# tested against a reference, the all-pairs rounds, the hosts file and the
# reader of an `accept --hosts` results directory.
libibc_core_a_SOURCES += \
	src/core/accept/accept.c src/core/accept/accept.h \
	src/core/accept/acceptres.c src/core/accept/acceptres.h \
	src/core/accept/allpairs.c src/core/accept/allpairs.h \
	src/core/accept/hostlist.c src/core/accept/hostlist.h
