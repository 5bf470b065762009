# tests/vm: owned fragment (see Makefile.am)
# The Soft-RoCE VM tests: verbs.test boots one VM (tests/vm/rxe-vm.sh) and
# runs every tests/vm/t-*.sh inside it through tests/vm/suite.sh.
TESTS += tests/vm/verbs.test
EXTRA_DIST += tests/vm/verbs.test tests/vm/rxe-vm.sh tests/vm/suite.sh \
	tests/vm/vmlib.sh tests/vm/t-00-env.sh tests/vm/t-snapshot.sh \
	tests/vm/t-perftest.sh tests/vm/snapshot_oracle.py tests/vm/t-05-permission.sh
AM_TESTS_ENVIRONMENT += IBCONSOLE=$(abs_top_builddir)/ibconsole; export IBCONSOLE;
