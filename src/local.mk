# src: the one binary — main, the command line (the command table) and
# one cmd_<name>.c per command (watch and errors share cmd_counters.c,
# test and serve cmd_test.c; export is the Prometheus exporter), and the
# bundled demo fabric; demo_roce.c starts the RoCE demo (demo/).
bin_PROGRAMS += ibconsole
ibconsole_SOURCES += src/main.c src/cli.c src/cli.h src/demo.c src/demo.h src/demo_roce.c \
	src/cmd_console.c src/cmd_console.h \
	src/cmd_snapshot.c src/cmd_snapshot.h \
	src/cmd_fabric.c src/cmd_fabric.h \
	src/cmd_counters.c src/cmd_counters.h \
	src/cmd_events.c src/cmd_events.h \
	src/cmd_test.c src/cmd_test.h src/cmd_tcp.c \
	src/cmd_triage.c src/cmd_triage.h \
	src/cmd_export.c src/cmd_export.h \
	src/cmd_accept.c src/cmd_accept.h
ibconsole_LDADD += libibc_ui.a libibc_diag.a $(CORE_LIBS) $(NCURSES_LIBS) -lpthread -lm
