# src/core/agent: the agent alone — the protocol (pure, fuzzed), the
# agent's serve loop and its orders (`serve`), and the client side of the
# protocol (dial with retries, handshake, phases).
libibc_core_a_SOURCES += \
	src/core/agent/proto.c src/core/agent/proto.h \
	src/core/agent/agent.c src/core/agent/agent.h \
	src/core/agent/session.c src/core/agent/session.h \
	src/core/agent/client.c src/core/agent/client.h \
	src/core/agent/dial.c src/core/agent/dial.h
