# tests/ui: the real binary in tmux on the simulated fabric, screen read
# back with capture-pane; cli.test: the command line as a user types it;
# lifecycle.test: how it ends (signals, --demo's children).
UI_TESTS = tests/ui/console.test tests/ui/counters.test tests/ui/fabric.test \
	tests/ui/cli.test tests/ui/interval.test tests/ui/triage.test tests/ui/peer.test \
	tests/ui/lifecycle.test tests/ui/flaps.test tests/ui/testscreen.test tests/ui/acceptmap.test \
	tests/ui/numbers.test tests/ui/ranges.test tests/ui/testform.test \
	tests/ui/firstscreen.test tests/ui/roce.test tests/ui/readme.test tests/ui/capture.test \
	tests/ui/stutter.test
TESTS += $(UI_TESTS)
EXTRA_DIST += tests/ui/console.test tests/ui/counters.test tests/ui/fabric.test \
	tests/ui/cli.test tests/ui/interval.test tests/ui/triage.test tests/ui/peer.test \
	tests/ui/lifecycle.test tests/ui/flaps.test tests/ui/testscreen.test tests/ui/acceptmap.test \
	tests/ui/numbers.test tests/ui/ranges.test tests/ui/testform.test \
	tests/ui/firstscreen.test tests/ui/roce.test tests/ui/readme.test tests/ui/capture.test \
	tests/ui/stutter.test tests/ui/refresh.sh
