# tests/unit: cmocka units for the pure logic, one binary per module.
UNIT_TESTS = tests/unit/test_port tests/unit/test_pcie \
	tests/unit/test_delta tests/unit/test_counters tests/unit/test_rules \
	tests/unit/test_linkhealth tests/unit/test_topofile tests/unit/test_proto \
	tests/unit/test_perftest_proto \
	tests/unit/test_engine_stats tests/unit/test_testverdict tests/unit/test_layout \
	tests/unit/test_keymap tests/unit/test_triage tests/unit/test_testjob \
	tests/unit/test_parse tests/unit/test_thresholds tests/unit/test_topoinput \
	tests/unit/test_worker tests/unit/test_monitor tests/unit/test_sweep \
	tests/unit/test_accept tests/unit/test_export tests/unit/test_json \
	tests/unit/test_events tests/unit/test_congestion tests/unit/test_pfc \
	tests/unit/test_hostlist tests/unit/test_spawn tests/unit/test_libload
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
tests_unit_test_libload_SOURCES = tests/unit/test_libload.c
tests_unit_test_libload_LDADD = libibc_ui.a $(CORE_LIBS) $(CMOCKA_LIBS) -lpthread
tests_unit_test_libload_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS)
tests_unit_test_events_SOURCES = tests/unit/test_events.c
tests_unit_test_events_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_congestion_SOURCES = tests/unit/test_congestion.c
tests_unit_test_congestion_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS) -lm
tests_unit_test_pfc_SOURCES = tests/unit/test_pfc.c
tests_unit_test_pfc_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_port_SOURCES = tests/unit/test_port.c
tests_unit_test_port_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_pcie_SOURCES = tests/unit/test_pcie.c
tests_unit_test_pcie_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_delta_SOURCES = tests/unit/test_delta.c
tests_unit_test_delta_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_counters_SOURCES = tests/unit/test_counters.c
tests_unit_test_counters_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_rules_SOURCES = tests/unit/test_rules.c
tests_unit_test_rules_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_linkhealth_SOURCES = tests/unit/test_linkhealth.c
tests_unit_test_linkhealth_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_topofile_SOURCES = tests/unit/test_topofile.c
tests_unit_test_topofile_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_proto_SOURCES = tests/unit/test_proto.c
tests_unit_test_proto_LDADD = $(CORE_LIBS) $(NETTLE_LIBS) $(CMOCKA_LIBS) -lm
tests_unit_test_engine_stats_SOURCES = tests/unit/test_engine_stats.c
tests_unit_test_engine_stats_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS) -lm
tests_unit_test_testverdict_SOURCES = tests/unit/test_testverdict.c
tests_unit_test_testverdict_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS)
# the man page whose TEST VERDICT section the test holds against the rule table
tests_unit_test_testverdict_CPPFLAGS = $(AM_CPPFLAGS) \
	-DMAN_PAGE_IN='"$(abs_top_srcdir)/man/ibconsole.8.in"'
# Layout maths: pure, linked without curses.
tests_unit_test_layout_SOURCES = tests/unit/test_layout.c
tests_unit_test_layout_LDADD = libibc_ui.a $(CMOCKA_LIBS)
# Strict parsers and the config file: values, files and lines users give.
tests_unit_test_spawn_SOURCES = tests/unit/test_spawn.c
tests_unit_test_spawn_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_parse_SOURCES = tests/unit/test_parse.c
tests_unit_test_parse_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_thresholds_SOURCES = tests/unit/test_thresholds.c
tests_unit_test_thresholds_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_topoinput_SOURCES = tests/unit/test_topoinput.c
tests_unit_test_topoinput_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
# The key table: pure data and lookups, linked without curses.
tests_unit_test_keymap_SOURCES = tests/unit/test_keymap.c
tests_unit_test_keymap_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS)
tests_unit_test_keymap_LDADD = libibc_ui.a $(CMOCKA_LIBS)
tests_unit_test_triage_SOURCES = tests/unit/test_triage.c
tests_unit_test_triage_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS) -lm
# The worker: a real thread; pthread_create wrapped to fail on demand.
tests_unit_test_worker_SOURCES = tests/unit/test_worker.c
tests_unit_test_worker_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS) -lpthread
tests_unit_test_worker_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=pthread_create
# The counter monitor's threads on a fixture tree it writes itself.
tests_unit_test_monitor_SOURCES = tests/unit/test_monitor.c
tests_unit_test_monitor_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS) -lpthread
# The sweep's port list and history; calloc wrapped to fail on demand.
tests_unit_test_sweep_SOURCES = tests/unit/test_sweep.c
tests_unit_test_sweep_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_sweep_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=calloc
tests_unit_test_testjob_SOURCES = tests/unit/test_testjob.c
tests_unit_test_testjob_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS) -lpthread -lm
# The exporter's text writer and metric model; promtool checks a whole
# synthetic exposition.
tests_unit_test_export_SOURCES = tests/unit/test_export.c
tests_unit_test_export_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS) -lm
# Acceptance: card verdict and cause, all-pairs schedule, fleet rules,
# localisation, the console's order and heat-map bands, accept.json read back.
tests_unit_test_accept_SOURCES = tests/unit/test_accept.c
tests_unit_test_accept_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_json_SOURCES = tests/unit/test_json.c
tests_unit_test_json_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_perftest_proto_SOURCES = tests/unit/test_perftest_proto.c
tests_unit_test_perftest_proto_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS) -lm
# The hosts file of accept --hosts / serve --hosts.
tests_unit_test_hostlist_SOURCES = tests/unit/test_hostlist.c
tests_unit_test_hostlist_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
# The module decoders on saved pages; the ethtool read against the kernel.
UNIT_TESTS += tests/unit/test_optics
tests_unit_test_optics_SOURCES = tests/unit/test_optics.c
tests_unit_test_optics_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS) -lm
tests_unit_test_optics_CPPFLAGS = $(AM_CPPFLAGS) \
	-DOPTICS_FIXTURES='"$(abs_top_srcdir)/tests/fixtures/optics"'
EXTRA_DIST += tests/fixtures/optics/mkdumps.py \
	tests/fixtures/optics/qsfp28/50-lower.hex \
	tests/fixtures/optics/qsfp28/50-page-00.hex \
	tests/fixtures/optics/qsfp28/50-page-03.hex \
	tests/fixtures/optics/qsfpdd/50-lower.hex \
	tests/fixtures/optics/qsfpdd/50-page-00.hex \
	tests/fixtures/optics/qsfpdd/50-page-01.hex \
	tests/fixtures/optics/qsfpdd/50-page-02.hex \
	tests/fixtures/optics/qsfpdd/50-page-11.hex \
	tests/fixtures/optics/sfp/50-lower.hex \
	tests/fixtures/optics/sfp/50-page-00.hex \
	tests/fixtures/optics/sfp/51-lower.hex \
	tests/fixtures/optics/sfp/51-page-00.hex \
	tests/fixtures/optics/sfpext/50-lower.hex \
	tests/fixtures/optics/sfpext/50-page-00.hex \
	tests/fixtures/optics/sfpext/51-lower.hex \
	tests/fixtures/optics/sfpext/51-page-00.hex
# The effective bit error rate (pure).
UNIT_TESTS += tests/unit/test_ber
tests_unit_test_ber_SOURCES = tests/unit/test_ber.c
tests_unit_test_ber_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS) -lm
# Triage step 1's path rule: measured against what the path carries.
UNIT_TESTS += tests/unit/test_triage_path
tests_unit_test_triage_path_SOURCES = tests/unit/test_triage_path.c
tests_unit_test_triage_path_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS) -lm
# Triage step 1's bit error rates, this end's optic and the end-naming advice.
UNIT_TESTS += tests/unit/test_triage_link
tests_unit_test_triage_link_SOURCES = tests/unit/test_triage_link.c
tests_unit_test_triage_link_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS) -lm
tests_unit_test_triage_link_CPPFLAGS = $(AM_CPPFLAGS) \
	-DOPTICS_FIXTURES='"$(abs_top_srcdir)/tests/fixtures/optics"'
