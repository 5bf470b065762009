# src/core/fabric: libibnetdisc discovery and its worker, topology files
# (read: topofile.c, written: topowrite.c) and their diff, the fabric-wide
# counter sweep, and the sweeper: the one sweep loop of errors, the
# exporter and the console (kept model, rounds, previous samples).
libibc_core_a_SOURCES += \
	src/core/fabric/fabric.c src/core/fabric/fabric.h \
	src/core/fabric/diff.c src/core/fabric/diff.h \
	src/core/fabric/topofile.c src/core/fabric/topowrite.c \
	src/core/fabric/discovery.c src/core/fabric/discovery.h \
	src/core/fabric/sweep.c src/core/fabric/sweep.h \
	src/core/fabric/sweeper.c src/core/fabric/sweeper.h
