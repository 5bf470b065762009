// SPDX-License-Identifier: MIT
/* Dying of the signal that stopped us, after the clean-up. */
#include "config.h"
#include "core/base/sigexit.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t noted;
volatile sig_atomic_t sigexit_stop;

static void on_signal(int sig)
{
	sigexit_stop = sig;
}

void sigexit_catch(struct sigaction *old_int, struct sigaction *old_term)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigexit_stop = 0;
	sigaction(SIGINT, &sa, old_int);
	sigaction(SIGTERM, &sa, old_term);
}

void sigexit_note(int sig)
{
	if (!noted && sig > 0)
		noted = sig;
}

int sigexit_noted(void)
{
	return noted;
}

void sigexit_reraise(void)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigset_t set;
	int sig = noted;

	if (!sig)
		return;
	fflush(NULL);
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	/* a signal whose default is not to end the process: the same status */
	_exit(128 + sig);
}

void sigexit_watchdog(unsigned seconds)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigset_t set;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	alarm(seconds);
}
