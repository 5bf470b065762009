# src/core/capture: the capture archive (libarchive: tar + gzip written,
# and untrusted archives read within caps) and --from, a capture opened
# for the read-only views. libarchive's headers only: the archive code
# dlopen()s it (ARCHIVE_SONAME), so no command links it.
libibc_core_a_SOURCES += src/core/capture/archive.c src/core/capture/archive.h \
	src/core/capture/replay.c src/core/capture/replay.h \
	src/core/capture/smpfile.c src/core/capture/smpfile.h \
	src/core/capture/sweepfile.c src/core/capture/sweepfile.h \
	src/core/capture/ctrfile.c src/core/capture/ctrfile.h \
	src/core/capture/links.c src/core/capture/links.h
libibc_core_a_CFLAGS += $(ARCHIVE_CFLAGS)
