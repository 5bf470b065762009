// SPDX-License-Identifier: MIT
/* Event log: a ring of error-counter increments; the console highlights
 * what is newer than the last acknowledgement. */
#include "config.h"
#include "core/counters/eventlog.h"

#include <stdio.h>
#include <string.h>

void eventlog_init(struct eventlog *l)
{
	memset(l, 0, sizeof(*l));
	l->next_seq = 1;
}

int eventlog_add_from(struct eventlog *l, const struct delta_port *d,
		      const struct timespec *when)
{
	int added = 0;

	for (int i = 0; i < d->n; i++) {
		const struct delta_ctr *c = &d->c[i];
		struct event *e;

		if (c->cls != CTR_ERROR)
			continue;
		if (!c->delta && c->state != DELTA_RESET)
			continue;
		e = &l->ev[l->head];
		memset(e, 0, sizeof(*e));
		e->seq = l->next_seq++;
		e->when = *when;
		snprintf(e->port, sizeof(e->port), "%s", d->label);
		snprintf(e->counter, sizeof(e->counter), "%s", c->name);
		e->cls = c->cls;
		e->delta = c->delta;
		e->value = c->value;
		e->state = (uint8_t)c->state;
		l->head = (l->head + 1) % EVENTLOG_MAX;
		if (l->n < EVENTLOG_MAX)
			l->n++;
		added++;
	}
	return added;
}

void eventlog_add_text(struct eventlog *l, const char *port, const char *what,
		       const char *text, const struct timespec *when)
{
	struct event *e = &l->ev[l->head];

	memset(e, 0, sizeof(*e));
	e->seq = l->next_seq++;
	e->when = *when;
	snprintf(e->port, sizeof(e->port), "%s", port);
	snprintf(e->counter, sizeof(e->counter), "%s", what);
	snprintf(e->text, sizeof(e->text), "%s", text);
	e->cls = CTR_ERROR;
	l->head = (l->head + 1) % EVENTLOG_MAX;
	if (l->n < EVENTLOG_MAX)
		l->n++;
}

const struct event *eventlog_get(const struct eventlog *l, int i)
{
	if (i < 0 || i >= l->n)
		return NULL;
	return &l->ev[((l->head - 1 - i) % EVENTLOG_MAX + EVENTLOG_MAX) % EVENTLOG_MAX];
}

int eventlog_unacked(const struct eventlog *l, const char *port,
		     const char *counter)
{
	int n = 0;

	for (int i = 0; i < l->n; i++) {
		const struct event *e = eventlog_get(l, i);

		if (e->seq <= l->acked)
			break;
		if (port && strcmp(e->port, port))
			continue;
		if (counter && strcmp(e->counter, counter))
			continue;
		n++;
	}
	return n;
}

void eventlog_ack(struct eventlog *l)
{
	l->acked = l->next_seq - 1;
}
