# tests/sanitize: the unit, fixture, ibsim and tmux tests again in an ASan +
# UBSan build configured in a temporary directory; suppressions name only
# third-party frames (umad2sim, libibnetdisc), each with its reason.
TESTS += tests/sanitize.test
EXTRA_DIST += tests/sanitize.test tests/sanitize/asan.supp tests/sanitize/lsan.supp
