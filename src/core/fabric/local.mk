# src/core/fabric: libibnetdisc discovery and its worker, topology files
# and their diff, the fabric-wide counter sweep and the console's
# sweeper (the sweep's rounds, judged against the previous one).
libibc_core_a_SOURCES += \
	src/core/fabric/fabric.c src/core/fabric/fabric.h \
	src/core/fabric/diff.c src/core/fabric/diff.h \
	src/core/fabric/topofile.c src/core/fabric/topowrite.c \
	src/core/fabric/discovery.c src/core/fabric/discovery.h \
	src/core/fabric/sweep.c src/core/fabric/sweep.h \
	src/core/fabric/sweeper.c src/core/fabric/sweeper.h
