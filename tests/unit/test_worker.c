// SPDX-License-Identifier: MIT
/* cmocka tests of the worker: signals blocked in the thread, an early
 * wake-up cuts a timed wait short, the wake descriptor polls readable
 * and drains, stop joins, and a failed start says pthread_create's error. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <cmocka.h>

#include "core/base/worker.h"

struct probe {
	bool sigint_blocked, sigwinch_blocked;
	double woke_after;		/* seconds the long wait took */
	bool woke_early;
	int rounds;
};

static void probe_main(struct worker *w, void *arg)
{
	struct probe *p = arg;
	sigset_t cur;
	double t0;

	pthread_sigmask(SIG_SETMASK, NULL, &cur);
	p->sigint_blocked = sigismember(&cur, SIGINT) == 1;
	p->sigwinch_blocked = sigismember(&cur, SIGWINCH) == 1;
	worker_lock(w);
	p->rounds++;
	worker_notify(w);
	t0 = worker_now();
	/* 30 s unless kicked */
	p->woke_early = worker_wait(w, t0 + 30.0);
	p->woke_after = worker_now() - t0;
	while (!worker_stopping(w))
		worker_wait(w, -1);
	worker_unlock(w);
}

static void test_worker_lifecycle(void **state)
{
	struct worker w;
	struct probe p = { 0 };
	struct pollfd pfd;
	char err[200];
	double t0;

	assert_int_equal(worker_init(&w, NULL, "probe", err, sizeof(err)), 0);
	assert_int_equal(worker_start(&w, probe_main, &p, "probe", err, sizeof(err)), 0);
	/* the thread notifies once it runs */
	pfd.fd = worker_fd(&w);
	pfd.events = POLLIN;
	assert_int_equal(poll(&pfd, 1, 5000), 1);
	worker_drain(&w);
	assert_int_equal(poll(&pfd, 1, 0), 0);	/* drained */
	/* the UI thread's mask is untouched */
	{
		sigset_t cur;

		pthread_sigmask(SIG_SETMASK, NULL, &cur);
		assert_int_equal(sigismember(&cur, SIGINT), 0);
	}
	/* kick the 30 s wait: it ends at once */
	t0 = worker_now();
	for (bool done = false; !done && worker_now() - t0 < 5;) {
		worker_lock(&w);
		worker_kick(&w);
		done = p.woke_after > 0;
		worker_unlock(&w);
		if (!done)
			poll(NULL, 0, 10);
	}
	worker_lock(&w);
	assert_true(p.woke_early);
	assert_true(p.woke_after < 5.0);
	worker_unlock(&w);
	worker_stop(&w);
	assert_true(p.sigint_blocked);
	assert_true(p.sigwinch_blocked);
	assert_int_equal(p.rounds, 1);
}

static void test_worker_timed_wait(void **state)
{
	struct worker w;
	char err[200];
	double t0, dt;
	bool early;

	assert_int_equal(worker_init(&w, NULL, "timer", err, sizeof(err)), 0);
	worker_lock(&w);
	t0 = worker_now();
	early = worker_wait(&w, t0 + 0.2);
	dt = worker_now() - t0;
	worker_unlock(&w);
	assert_false(early);
	assert_true(dt >= 0.19 && dt < 2.0);
	/* a deadline already past returns at once */
	worker_lock(&w);
	assert_false(worker_wait(&w, worker_now() - 1.0));
	worker_unlock(&w);
	worker_stop(&w);	/* never started: only frees */
}

static void test_worker_shared_fd(void **state)
{
	struct worker a, b;
	char err[200];

	assert_int_equal(worker_init(&a, NULL, "a", err, sizeof(err)), 0);
	assert_int_equal(worker_init(&b, &a, "b", err, sizeof(err)), 0);
	assert_int_equal(worker_fd(&a), worker_fd(&b));
	worker_notify(&b);
	{
		struct pollfd pfd = { .fd = worker_fd(&a), .events = POLLIN };

		assert_int_equal(poll(&pfd, 1, 0), 1);
	}
	worker_stop(&b);	/* borrowed: a's descriptor stays open */
	worker_notify(&a);
	worker_drain(&a);
	worker_stop(&a);
}

/* pthread_create's error comes back as its return value (errno is not
 * set): a failed start must print that code's text. */
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr,
			  void *(*fn)(void *), void *arg);
int __real_pthread_create(pthread_t *t, const pthread_attr_t *attr,
			  void *(*fn)(void *), void *arg);
static bool fail_create;

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr,
			  void *(*fn)(void *), void *arg)
{
	if (fail_create) {
		errno = 0;
		return EAGAIN;
	}
	return __real_pthread_create(t, attr, fn, arg);
}

static void test_worker_start_error(void **state)
{
	struct worker w;
	struct probe p = { 0 };
	char err[200];

	assert_int_equal(worker_init(&w, NULL, "probe", err, sizeof(err)), 0);
	fail_create = true;
	assert_int_equal(worker_start(&w, probe_main, &p, "probe", err, sizeof(err)), -1);
	fail_create = false;
	assert_non_null(strstr(err, "cannot start the probe thread: "));
	assert_non_null(strstr(err, strerror(EAGAIN)));
	worker_stop(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worker_lifecycle),
		cmocka_unit_test(test_worker_timed_wait),
		cmocka_unit_test(test_worker_shared_fd),
		cmocka_unit_test(test_worker_start_error),
	};

	return cmocka_run_group_tests_name("worker", tests, NULL, NULL);
}
