// SPDX-License-Identifier: MIT
/* Verbs asynchronous events on a worker thread: poll() on every device's
 * async descriptor with a short time-out, so stopping never waits long. */
#include "config.h"
#include "core/port/asyncev.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

#include "core/base/umadlock.h"
#include "core/base/worker.h"
#include "core/port/verbsdl.h"

#define POLL_MS 200

struct asyncev {
	struct worker w;		/* lock guards the queue and warned */
	int ndev;
	struct ibv_context *ctx[ASYNCEV_MAX_DEVS];
	char name[ASYNCEV_MAX_DEVS][IBV_SYSFS_NAME_MAX];
	char file[512];
	bool warned;
	int qn, qhead;
	struct port_event q[ASYNCEV_QUEUE];
};

const char *asyncev_kind(int type)
{
	switch (type) {
	case IBV_EVENT_PORT_ERR: return "port_err";
	case IBV_EVENT_PORT_ACTIVE: return "port_active";
	case IBV_EVENT_LID_CHANGE: return "lid_change";
	case IBV_EVENT_SM_CHANGE: return "sm_change";
	case IBV_EVENT_PKEY_CHANGE: return "pkey_change";
	case IBV_EVENT_GID_CHANGE: return "gid_change";
	case IBV_EVENT_CLIENT_REREGISTER: return "client_reregister";
	case IBV_EVENT_DEVICE_FATAL: return "device_fatal";
	default: return NULL;	/* QP / CQ / SRQ events: not ours to open */
	}
}

static void record(struct asyncev *a, int d, const struct ibv_async_event *ev)
{
	const char *kind = asyncev_kind(ev->event_type);
	struct port_event e;
	struct timespec ts;
	char err[700];
	int port;

	if (!kind)
		return;
	port = ev->event_type == IBV_EVENT_DEVICE_FATAL ? 0 : ev->element.port_num;
	clock_gettime(CLOCK_REALTIME, &ts);
	memset(&e, 0, sizeof(e));
	e.t = (double)ts.tv_sec + ts.tv_nsec / 1e9;
	snprintf(e.port, sizeof(e.port), "%s/%d", a->name[d], port);
	snprintf(e.kind, sizeof(e.kind), "%s", kind);
	snprintf(e.source, sizeof(e.source), "verbs");
	if (a->file[0] && events_append(a->file, &e, err, sizeof(err)) && !a->warned) {
		fprintf(stderr, "ibconsole: %s — port events are not kept across runs (set XDG_STATE_HOME to a writable directory)\n", err);
		a->warned = true;
	}
	worker_lock(&a->w);
	a->q[(a->qhead + a->qn) % ASYNCEV_QUEUE] = e;
	if (a->qn < ASYNCEV_QUEUE)
		a->qn++;
	else
		a->qhead = (a->qhead + 1) % ASYNCEV_QUEUE;	/* drop the oldest */
	worker_unlock(&a->w);
}

static void asyncev_main(struct worker *w, void *arg)
{
	struct asyncev *a = arg;
	struct pollfd pfd[ASYNCEV_MAX_DEVS];

	for (int d = 0; d < a->ndev; d++) {
		pfd[d].fd = a->ctx[d]->async_fd;
		pfd[d].events = POLLIN;
	}
	for (;;) {
		bool stop;

		worker_lock(w);
		stop = worker_stopping(w);
		worker_unlock(w);
		if (stop)
			break;
		if (poll(pfd, (nfds_t)a->ndev, POLL_MS) <= 0)
			continue;
		for (int d = 0; d < a->ndev; d++) {
			struct ibv_async_event ev;

			if (!(pfd[d].revents & POLLIN))
				continue;
			/* non-blocking: EAGAIN when another reader took it */
			while (!ibv_get_async_event(a->ctx[d], &ev)) {
				record(a, d, &ev);
				ibv_ack_async_event(&ev);
			}
		}
	}
}

struct asyncev *asyncev_start(const char *device, const char *events_file,
			      char *err, size_t errlen)
{
	struct ibv_device **list;
	struct asyncev *a;
	int n = 0;

	if (verbsdl_load(err, errlen))
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (events_file)
		snprintf(a->file, sizeof(a->file), "%s", events_file);
	/* the device list reads sysfs, which ibsim's umad2sim preload
	 * intercepts: not while another thread talks umad there */
	umadlock_span_begin();
	list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n && a->ndev < ASYNCEV_MAX_DEVS; i++) {
		const char *name = ibv_get_device_name(list[i]);
		struct ibv_context *ctx;
		int fl;

		if (device && strcmp(device, name))
			continue;
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			continue;
		fl = fcntl(ctx->async_fd, F_GETFL);
		if (fl < 0 || fcntl(ctx->async_fd, F_SETFL, fl | O_NONBLOCK) < 0) {
			ibv_close_device(ctx);
			continue;
		}
		snprintf(a->name[a->ndev], sizeof(a->name[0]), "%s", name);
		a->ctx[a->ndev++] = ctx;
	}
	if (list)
		ibv_free_device_list(list);
	umadlock_span_end();
	if (!a->ndev) {
		snprintf(err, errlen, "no verbs device%s%s opens",
			 device ? " " : "", device ? device : "");
		free(a);
		return NULL;
	}
	if (worker_init(&a->w, NULL, "verbs event", err, errlen)) {
		for (int d = 0; d < a->ndev; d++)
			ibv_close_device(a->ctx[d]);
		free(a);
		return NULL;
	}
	if (worker_start(&a->w, asyncev_main, a, "verbs event", err, errlen)) {
		worker_stop(&a->w);
		for (int d = 0; d < a->ndev; d++)
			ibv_close_device(a->ctx[d]);
		free(a);
		return NULL;
	}
	return a;
}

int asyncev_take(struct asyncev *a, struct port_event *out, int max)
{
	int n = 0;

	if (!a)
		return 0;
	worker_lock(&a->w);
	while (a->qn && n < max) {
		out[n++] = a->q[a->qhead];
		a->qhead = (a->qhead + 1) % ASYNCEV_QUEUE;
		a->qn--;
	}
	worker_unlock(&a->w);
	return n;
}

int asyncev_ndevs(const struct asyncev *a)
{
	return a ? a->ndev : 0;
}

void asyncev_stop(struct asyncev *a)
{
	if (!a)
		return;
	worker_stop(&a->w);
	for (int d = 0; d < a->ndev; d++)
		ibv_close_device(a->ctx[d]);
	free(a);
}
