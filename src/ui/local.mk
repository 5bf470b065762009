# src/ui: owned fragment (see Makefile.am)
# The console: screens, widgets, key map and curses-free layout maths;
# the sampler thread lives in core (no curses) so tests can use it.

libibc_core_a_SOURCES += src/core/sampler.c src/core/sampler.h

libibc_ui_a_SOURCES += \
	src/ui/ui.h src/ui/app.c \
	src/ui/screen.h src/ui/screen_ports.c src/ui/screen_help.c \
	src/ui/screen_fabric.c \
	src/ui/widgets.c src/ui/widgets.h \
	src/ui/keymap.c src/ui/keymap.h \
	src/ui/layout.c src/ui/layout.h

# Layout maths: pure, linked without curses.
check_PROGRAMS += tests/unit/test_layout
tests_unit_test_layout_SOURCES = tests/unit/test_layout.c \
	src/ui/layout.c src/ui/layout.h
tests_unit_test_layout_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_layout_LDADD = $(CMOCKA_LIBS)

# Screen tests: the real binary in tmux on the simulated fabric.
TESTS += tests/ui/console.test
EXTRA_DIST += tests/ui/console.test
