# contrib: files for the system around the binary, distributed as they are
# (the systemd units of the exporter and the test agent).
EXTRA_DIST += contrib/ibconsole-exporter.service contrib/ibconsole-agent.service
