# contrib: files for the system around the binary, distributed as they are
# (the exporter's systemd unit).
EXTRA_DIST += contrib/ibconsole-exporter.service
