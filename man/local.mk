# man: the manual page, built from its template with the KEYS list
# generated from the console's key table (src/ui/keys-man), so the page
# lists exactly the keys the console binds. It is distributed too.
dist_man_MANS = man/ibconsole.8
EXTRA_DIST += man/ibconsole.8.in
DISTCLEANFILES = man/ibconsole.8
man/ibconsole.8: $(srcdir)/man/ibconsole.8.in src/ui/keys-man$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) man && \
	src/ui/keys-man$(EXEEXT) $(srcdir)/man/ibconsole.8.in >$@.tmp && \
	mv -f $@.tmp $@
# docs/: the pages the README points to beside the man page (the source
# layout and the test list in full), distributed with it.
EXTRA_DIST += docs/architecture.md docs/tests.md
