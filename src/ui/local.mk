# src/ui: the console — one loop, screens, widgets, the key map and
# curses-free layout maths.
libibc_ui_a_SOURCES += \
	src/ui/ui.h src/ui/app.c \
	src/ui/screen.h src/ui/screen_ports.c src/ui/screen_help.c \
	src/ui/screen_fabric.c \
	src/ui/ctrview.c src/ui/ctrview.h \
	src/ui/screen_counters.c src/ui/screen_sweep.c \
	src/ui/screen_test.c \
	src/ui/widgets.c src/ui/widgets.h \
	src/ui/keymap.c src/ui/keymap.h \
	src/ui/layout.c src/ui/layout.h
