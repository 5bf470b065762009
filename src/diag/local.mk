# src/diag: the judgements — thresholds, counter rules, the slow-growth
# baseline, link health, test verdicts, the seven-step triage and its
# fingerprints, the PCIe limit and the sweep's listing rule. Never links
# curses.
libibc_diag_a_SOURCES += \
	src/diag/thresholds.c src/diag/thresholds.h \
	src/diag/rules.c src/diag/rules.h \
	src/diag/ctrclass.c src/diag/ctrclass.h \
	src/diag/baseline.c src/diag/baseline.h \
	src/diag/linkhealth.c src/diag/linkhealth.h \
	src/diag/testverdict.c src/diag/testverdict.h \
	src/diag/accept.c src/diag/accept.h \
	src/diag/pcielimit.c src/diag/pcielimit.h \
	src/diag/portfacts.c src/diag/portfacts.h \
	src/diag/sweeplisting.c src/diag/sweeplisting.h \
	src/diag/triage.c src/diag/triage.h src/diag/triage_steps.h \
	src/diag/triage_lines.c src/diag/triage_lines.h \
	src/diag/triage_env.c src/diag/triage_rate.c \
	src/diag/triage_ends.c src/diag/triage_load.c \
	src/diag/fingerprint.c src/diag/fingerprint.h \
	src/diag/triage_report.c src/diag/triage_report.h \
	src/diag/congestion.c src/diag/congestion.h \
	src/diag/pfc.c src/diag/pfc.h
# the effective bit error rate of a port (SymbolErrorCounter over the bits carried)
libibc_diag_a_SOURCES += src/diag/ber.c src/diag/ber.h
