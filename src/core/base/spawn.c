// SPDX-License-Identifier: MIT
/* Spawn: fork, exec, one non-blocking pipe for the child's output, read
 * until it closes or the time-out, then reap. */
#include "config.h"
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "worker.h"

static void spawn_child(char *const argv[], int out)
{
	int null = open("/dev/null", O_RDONLY);

	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		_exit(127);
	/* the console may have caught or blocked these */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	execv(argv[0], argv);
	dprintf(1, "cannot run %s: %s", argv[0], strerror(errno));
	_exit(127);
}

int spawn_start(struct spawn *s, char *const argv[], double timeout_s)
{
	int fd[2];

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (pipe2(fd, O_CLOEXEC) < 0) {
		snprintf(s->out, sizeof(s->out), "pipe: %s", strerror(errno));
		return -1;
	}
	s->pid = fork();
	if (s->pid < 0) {
		snprintf(s->out, sizeof(s->out), "fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (s->pid == 0)
		spawn_child(argv, fd[1]);
	close(fd[1]);
	fcntl(fd[0], F_SETFL, O_NONBLOCK);
	s->fd = fd[0];
	s->deadline = worker_now() + timeout_s;
	s->running = true;
	return 0;
}

static int spawn_reap(struct spawn *s)
{
	int st;

	while (waitpid(s->pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

bool spawn_poll(struct spawn *s, int *rc)
{
	bool eof = false;

	if (!s->running)
		return false;
	for (;;) {
		char buf[512];
		ssize_t r = read(s->fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			eof = r == 0;
			break;
		}
		for (ssize_t i = 0; i < r && s->n + 1 < sizeof(s->out); i++)
			s->out[s->n++] = buf[i];
		s->out[s->n] = '\0';
	}
	if (!eof && worker_now() < s->deadline)
		return false;
	close(s->fd);
	s->fd = -1;
	s->running = false;
	if (!eof) {
		kill(s->pid, SIGKILL);
		spawn_reap(s);
		*rc = -1;
		snprintf(s->out, sizeof(s->out), "did not finish in time");
		return true;
	}
	*rc = spawn_reap(s);
	return true;
}

void spawn_cancel(struct spawn *s)
{
	if (!s->running)
		return;
	kill(s->pid, SIGKILL);
	spawn_reap(s);
	close(s->fd);
	s->fd = -1;
	s->running = false;
}
