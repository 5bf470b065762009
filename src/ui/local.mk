# src/ui: the console — one loop, screens, widgets, the key map and
# curses-free layout maths.
libibc_ui_a_SOURCES += \
	src/ui/ui.h src/ui/app.c \
	src/ui/screen.h src/ui/screen_ports.c src/ui/screen_ports_int.h \
	src/ui/screen_ports_detail.c src/ui/screen_help.c \
	src/ui/screen_fabric.c src/ui/screen_triage.c \
	src/ui/ctrview.c src/ui/ctrview.h \
	src/ui/screen_counters.c src/ui/screen_sweep.c \
	src/ui/screen_test.c src/ui/screen_test_int.h \
	src/ui/screen_test_form.c src/ui/screen_test_run.c \
	src/ui/screen_test_result.c src/ui/screen_demo.c \
	src/ui/screen_accept.c src/ui/screen_accept_heat.c src/ui/screen_accept_int.h \
	src/ui/widgets.c src/ui/widgets.h \
	src/ui/keymap.c src/ui/keymap.h \
	src/ui/layout.c src/ui/layout.h \
	src/ui/uitrace.c src/ui/uitrace.h \
	src/ui/cursesdl.c src/ui/cursesdl.h
# The build-time tool that writes the key table into the man page.
noinst_PROGRAMS += src/ui/keys-man
src_ui_keys_man_SOURCES = src/ui/keys_man.c
src_ui_keys_man_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS)
src_ui_keys_man_LDADD = libibc_ui.a
