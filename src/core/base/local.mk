# src/core/base: what every room stands on — rooted sysfs reads, the
# monotonic clock, the JSON writer and the JSON reader, the umad lock,
# the strict parsers, the worker thread, dying of a caught signal (and the
# one SIGINT / SIGTERM catcher), running a short helper program (spawn),
# numbers for people (numfmt: significant digits, a unit) and a shared
# library loaded on first use instead of linked (dynlib).
libibc_core_a_SOURCES += \
	src/core/base/sysfs.c src/core/base/sysfs.h \
	src/core/base/clock.c src/core/base/clock.h \
	src/core/base/json.c src/core/base/json.h \
	src/core/base/jsonscan.c src/core/base/jsonscan.h \
	src/core/base/jsoncdl.c src/core/base/jsoncdl.h \
	src/core/base/hmacdl.c src/core/base/hmacdl.h \
	src/core/base/umadlock.c src/core/base/umadlock.h \
	src/core/base/worker.c src/core/base/worker.h \
	src/core/base/parse.c src/core/base/parse.h \
	src/core/base/sigexit.c src/core/base/sigexit.h \
	src/core/base/spawn.c src/core/base/spawn.h \
	src/core/base/numfmt.c src/core/base/numfmt.h \
	src/core/base/dynlib.c src/core/base/dynlib.h
