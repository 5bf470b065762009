# src/core/triage: what the seven-step triage judges — the evidence
# (plain data) and its gathering from the other core rooms.
libibc_core_a_SOURCES += \
	src/core/triage/evidence.h \
	src/core/triage/gather.c src/core/triage/gather.h
