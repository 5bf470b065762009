# src/diag: the judgements — thresholds, counter rules, the slow-growth
# baseline, link health and test verdicts. Never links curses.
libibc_diag_a_SOURCES += \
	src/diag/thresholds.c src/diag/thresholds.h \
	src/diag/rules.c src/diag/rules.h \
	src/diag/linkhealth.c src/diag/linkhealth.h \
	src/diag/testverdict.c src/diag/testverdict.h \
	src/diag/baseline.c src/diag/baseline.h
