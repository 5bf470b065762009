# src/core/export: the Prometheus exporter's metric model and exposition
# writer (pure), swept ports' texts kept between sweeps, and its
# serving: libmicrohttpd endpoint and textfile.
libibc_core_a_SOURCES += \
	src/core/export/expo.c src/core/export/expo.h \
	src/core/export/metrics.c src/core/export/metrics.h \
	src/core/export/porttext.c src/core/export/porttext.h \
	src/core/export/server.c src/core/export/server.h
