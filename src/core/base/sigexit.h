/* SPDX-License-Identifier: MIT */
/* Dying of the signal that stopped us: a command that catches SIGINT /
 * SIGTERM / SIGHUP cleans up (terminal, workers, QPs, temp files), notes
 * the signal, and main re-raises it, so the shell sees 128 + signal
 * (130 for Ctrl-C, 143 for SIGTERM) as it would without the handler. */
#ifndef IBC_BASE_SIGEXIT_H
#define IBC_BASE_SIGEXIT_H

#include <signal.h>

/* The one SIGINT / SIGTERM catcher of the commands that run until
 * stopped: sigexit_catch() zeroes sigexit_stop and installs a handler
 * that stores the signal there, saving the old actions in old_int /
 * old_term (either may be NULL). */
extern volatile sig_atomic_t sigexit_stop;
void sigexit_catch(struct sigaction *old_int, struct sigaction *old_term);

/* The signal that stopped the program; the first one noted wins. */
void sigexit_note(int sig);
int sigexit_noted(void);
/* If a signal was noted: flush stdio, restore its default action and
 * raise it (does not return); else returns. */
void sigexit_reraise(void);
/* A bounded clean-up after a stop signal: SIGALRM's default action ends
 * the process if the clean-up has not finished within `seconds`
 * (libraries that block on exit, e.g. a simulator that has died). */
void sigexit_watchdog(unsigned seconds);

#endif
