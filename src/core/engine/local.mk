# src/core/engine: the libibverbs test engine (bandwidth, latency, message
# rate) with its own types (params.h: parameters and their limits, QPs,
# facts), perftest's statistics and the host facts a record carries.
# Nothing here includes the agent.
libibc_core_a_SOURCES += \
	src/core/engine/engine.c src/core/engine/engine_run.c \
	src/core/engine/engine_stats.c \
	src/core/engine/engine.h src/core/engine/engine_int.h \
	src/core/engine/params.c src/core/engine/params.h \
	src/core/engine/facts.c src/core/engine/facts.h
