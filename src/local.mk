# src: the one binary — main, the command line (cli.c: the common option
# rows, the list of commands, parsing and --help), one cmd_<name>.c with
# its header per command, each declaring its option rows and its entry
# (export is the Prometheus exporter, tcp the `test tcp` baseline) and
# cmdutil.c, the helpers they share. The demo has its own folder, src/demo.
bin_PROGRAMS += ibconsole
ibconsole_SOURCES += src/main.c src/cli.c src/cli.h src/cmdutil.c src/cmdutil.h \
	src/cmd_console.c src/cmd_console.h \
	src/cmd_snapshot.c src/cmd_snapshot.h \
	src/cmd_fabric.c src/cmd_fabric.h \
	src/cmd_watch.c src/cmd_watch.h \
	src/cmd_errors.c src/cmd_errors.h \
	src/cmd_events.c src/cmd_events.h \
	src/cmd_test.c src/cmd_test.h \
	src/cmd_serve.c src/cmd_serve.h \
	src/cmd_tcp.c src/cmd_tcp.h \
	src/cmd_triage.c src/cmd_triage.h \
	src/cmd_export.c src/cmd_export.h \
	src/cmd_accept.c src/cmd_accept.h \
	src/cmd_capture.c src/cmd_capture.h
ibconsole_LDADD += libibc_ui.a libibc_diag.a $(CORE_LIBS) -lpthread -lm
