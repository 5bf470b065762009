# src/core/port: the local port model — the umad / sysfs / verbs sources
# (the SMP agent that lets go only once fenced under ibsim),
# PCIe and NUMA placement, the snapshot, its JSON and its sampler thread.
libibc_core_a_SOURCES += \
	src/core/port/port.c src/core/port/port.h \
	src/core/port/pcie.c src/core/port/pcie.h \
	src/core/port/numa.c src/core/port/numa.h \
	src/core/port/sources.h src/core/port/umad_source.c \
	src/core/port/madaccess.c src/core/port/madaccess.h \
	src/core/port/smpagent.c src/core/port/smpagent.h \
	src/core/port/verbs_source.c src/core/port/sysfs_source.c \
	src/core/port/verbsdl.c src/core/port/verbsdl.h \
	src/core/port/numadl.c src/core/port/numadl.h \
	src/core/port/snapshot.c src/core/port/snapshot.h \
	src/core/port/snapshot_json.c \
	src/core/port/sampler.c src/core/port/sampler.h \
	src/core/port/events.c src/core/port/events.h \
	src/core/port/asyncev.c src/core/port/asyncev.h
