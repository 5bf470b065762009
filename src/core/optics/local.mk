# src/core/optics: a pluggable module's readings — the SFF-8472, SFF-8636
# and CMIS decoders (pure), and their sources: the kernel's ethtool module
# EEPROM read (netlink through libmnl, the ioctl before it) and saved dumps.
libibc_core_a_SOURCES += \
	src/core/optics/optics.h src/core/optics/optics_int.h \
	src/core/optics/decode.c src/core/optics/sff8636.c \
	src/core/optics/sff8472.c src/core/optics/cmis.c \
	src/core/optics/source.h src/core/optics/dump.c \
	src/core/optics/report.c src/core/optics/report.h \
	src/core/optics/ethtool.c
# libmnl: the generic-netlink plumbing of the page read (family lookup,
# attributes, acks), which the kernel's ethtool netlink needs.
libibc_core_a_CFLAGS += $(MNL_CFLAGS)
CORE_LIBS += $(MNL_LIBS)
