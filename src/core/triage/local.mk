# src/core/triage: what the seven-step triage judges — the evidence
# (plain data), its gathering from the other core rooms, and the
# console's worker that gathers it off the UI thread.
libibc_core_a_SOURCES += \
	src/core/triage/evidence.h \
	src/core/triage/gather.c src/core/triage/gather.h \
	src/core/triage/job.c src/core/triage/job.h \
	src/core/triage/envtools.c src/core/triage/envtools.h
