# tests/sim: integration tests on a simulated fabric (ibsim + umad2sim +
# opensm -o, harness simlib.sh), with ibstat / smpquery / perfquery /
# iblinkinfo / ibnetdiscover as the oracles. IBCONSOLE, TOPODIR and
# IBCONSOLE_DATADIR come from AM_TESTS_ENVIRONMENT.
SIM_TESTS = tests/sim/snapshot-oracle.test tests/sim/errors.test \
	tests/sim/fabric.test tests/sim/counters.test tests/sim/triage.test \
	tests/sim/fabric-input.test tests/sim/sweep-stop.test tests/sim/export.test tests/sim/peer.test \
	tests/sim/flaps.test tests/sim/details.test tests/sim/export-abuse.test \
	tests/sim/verdicts.test tests/sim/triage-errors.test tests/sim/sweeper.test \
	tests/sim/sweeper-follow.test tests/sim/capture.test tests/sim/ber.test \
	tests/sim/watch-scale.test tests/sim/watch-silent.test tests/sim/sweeper-late.test \
	tests/sim/smp-late.test
TESTS += $(SIM_TESTS)
EXTRA_DIST += tests/sim/snapshot-oracle.test tests/sim/errors.test \
	tests/sim/fabric.test tests/sim/counters.test tests/sim/fabric-input.test \
	tests/sim/triage.test tests/sim/sweep-stop.test tests/sim/export.test tests/sim/peer.test \
	tests/sim/flaps.test tests/sim/details.test tests/sim/simlib.sh tests/sim/snapcmp.py tests/sim/fabric_check.py \
	tests/sim/export-abuse.test tests/sim/slowclients.py \
	tests/sim/verdicts.test tests/sim/triage-errors.test tests/sim/sweeper.test \
	tests/sim/sweeper-follow.test tests/sim/capture.test tests/sim/ber.test \
	tests/sim/watch-scale.test tests/sim/watch-silent.test tests/sim/sweeper-late.test \
	tests/sim/smp-late.test
# The monitor's sweep driven directly (built for check, run by sweep-stop.test).
check_PROGRAMS += tests/sim/sweep_probe
tests_sim_sweep_probe_SOURCES = tests/sim/sweep_probe.c
tests_sim_sweep_probe_LDADD = libibc_diag.a $(CORE_LIBS) -lpthread
# The console's sweep beside the discovery worker (run by sweeper-follow.test).
check_PROGRAMS += tests/sim/follow_probe
tests_sim_follow_probe_SOURCES = tests/sim/follow_probe.c
tests_sim_follow_probe_LDADD = libibc_diag.a $(CORE_LIBS) -lpthread
# Late PMA and SMP answers after a time-out (run by sweeper-late.test and
# smp-late.test).
check_PROGRAMS += tests/sim/late_probe
tests_sim_late_probe_SOURCES = tests/sim/late_probe.c
tests_sim_late_probe_LDADD = libibc_diag.a $(CORE_LIBS) -lpthread
