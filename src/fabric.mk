# Fabric view (issue 3): owned fragment (see Makefile.am).
# Discovery and topology files in core, link rules in diag, the screen in
# ui, the `fabric` command beside main.

libibc_core_a_SOURCES += \
	src/core/fabric.c src/core/fabric.h \
	src/core/fabric_diff.c src/core/topofile.c src/core/fabric_diff.h \
	src/core/fabric_worker.c src/core/fabric_worker.h \
	src/core/peer.c src/core/peer.h
libibc_diag_a_SOURCES += src/diag/linkhealth.c src/diag/linkhealth.h
ibconsole_SOURCES += src/cmd_fabric.c src/cmd_fabric.h

check_PROGRAMS += tests/unit/test_linkhealth tests/unit/test_topofile
tests_unit_test_linkhealth_SOURCES = tests/unit/test_linkhealth.c
tests_unit_test_linkhealth_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_linkhealth_LDADD = libibc_diag.a $(CORE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_topofile_SOURCES = tests/unit/test_topofile.c
tests_unit_test_topofile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_topofile_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)

# ibsim with planted faults, iblinkinfo / ibnetdiscover as oracles; the
# console in tmux on a 2,000-node fat tree.
TESTS += tests/sim/fabric.test tests/ui/fabric.test
EXTRA_DIST += tests/sim/fabric.test tests/sim/fabric_check.py \
	tests/ui/fabric.test tests/topo/fabric-faults.net tests/topo/gen-fattree.py \
	tests/vm/t-41-fabric.sh bench/fabric-discovery.sh bench/fabric-discovery.results
