# src: the one binary — main, the command line and one cmd_<name>.c per
# family of commands, and the bundled demo fabric.
bin_PROGRAMS += ibconsole
ibconsole_SOURCES += src/main.c src/cli.c src/cli.h src/demo.c src/demo.h \
	src/cmd_fabric.c src/cmd_fabric.h \
	src/cmd_counters.c src/cmd_counters.h \
	src/cmd_test.c src/cmd_test.h src/cmd_tcp.c
ibconsole_LDADD += libibc_ui.a libibc_diag.a $(CORE_LIBS) $(NCURSES_LIBS) -lpthread -lm
