# tests/ui: the real binary in tmux on the simulated fabric, screen read
# back with capture-pane.
TESTS += tests/ui/console.test tests/ui/counters.test tests/ui/fabric.test \
	tests/ui/lifecycle.test
EXTRA_DIST += tests/ui/console.test tests/ui/counters.test tests/ui/fabric.test \
	tests/ui/lifecycle.test
