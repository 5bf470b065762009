/* SPDX-License-Identifier: MIT */
/* Demo mode: ibsim + opensm + umad2sim around a re-executed console, and
 * a driver that feeds the simulator's console so counters keep moving.
 *
 * Lifetime: every child has PR_SET_PDEATHSIG (the console SIGTERM, so it
 * restores the terminal; the rest SIGKILL), ibsim and opensm share one
 * process group with a small reaper, out of the terminal's group. The
 * reaper outlives us: when our end of its pipe closes — we exited, or were
 * killed with SIGKILL — it ends whatever child is left and removes the
 * temporary directory. */
#include "config.h"
#include "demo/demo.h"
#include "core/base/sigexit.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/ibconsole"
#endif
#ifndef UMAD2SIM
#define UMAD2SIM "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"
#endif

#define DEMO_MAX_PORTS 128
#define DEMO_NAME 64
#define DEMO_ERR_PERIOD 20	/* seconds between error bursts */
#define DEMO_SM_TIMEOUT 30	/* seconds opensm may take */
#define DEMO_READY_TIMEOUT 10	/* seconds ibsim may take to load */
#define DEMO_LOG_MAX (1 << 20)	/* ibsim's console log is cut beyond */

/* One active HCA port of the fabric and the counters we pretend it has. */
struct demo_port {
	char node[DEMO_NAME];
	int port;
	char peer[DEMO_NAME];
	int peer_port;
	uint64_t words_per_s;	/* PortXmitData rate, 4-octet words */
	uint64_t xmit_data, rcv_data, xmit_pkts, rcv_pkts;
	uint64_t sym_err, rcv_err, peer_sym_err;
};

struct demo {
	char dir[PATH_MAX];
	char topo[PATH_MAX];
	char ibsim[PATH_MAX];
	char opensm[PATH_MAX];
	char sockname[48];
	char host[DEMO_NAME];	/* SIM_HOST of the console */
	char err_node[DEMO_NAME];
	int err_port;
	int ctl_fd;		/* console FIFO, kept open read-write */
	int log_fd;		/* ibsim's log, to cut it now and then */
	int reaper_fd;		/* write end of the reaper's pipe */
	pid_t sim, console, reaper;
	bool sim_died;		/* said once the console has the terminal back */
	int stop_sig;		/* the signal that ended the demo, 0 none */
	struct demo_port ports[DEMO_MAX_PORTS];
	int nports;
	uint32_t rnd;
	unsigned tick;
};

static uint32_t demo_rand(struct demo *d)
{
	d->rnd = d->rnd * 1103515245u + 12345u;
	return d->rnd >> 8;
}

static bool demo_find_exe(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char buf[4096];
	char *save = NULL, *dir;

	/* opensm lives in sbin, which a user's PATH often lacks */
	snprintf(buf, sizeof(buf), "%s:/usr/sbin:/sbin", path ? path : "");
	for (dir = strtok_r(buf, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		if (!*dir)
			continue;
		snprintf(out, len, "%s/%s", dir, name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

static bool demo_readable(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, R_OK) == 0;
}

/* IBCONSOLE_DATADIR, the installed pkgdatadir, then the build tree. */
static bool demo_find_topo(struct demo *d)
{
	const char *env = getenv("IBCONSOLE_DATADIR");
	char exe[PATH_MAX - 32];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(d->topo, sizeof(d->topo), "%s/demo.net", env);
		if (demo_readable(d->topo))
			return true;
	}
	snprintf(d->topo, sizeof(d->topo), "%s/demo.net", PKGDATADIR);
	if (demo_readable(d->topo))
		return true;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(d->topo, sizeof(d->topo), "%s/tests/topo/demo.net", exe);
		if (demo_readable(d->topo))
			return true;
	}
	return false;
}

static const char *demo_quoted(const char *s, char *out, size_t len)
{
	const char *a = strchr(s, '"'), *b;

	if (!a || !(b = strchr(a + 1, '"')) || (size_t)(b - a - 1) >= len)
		return NULL;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = '\0';
	return b + 1;
}

/* Collects the cabled HCA ports and the "#@demo-errors" directive. */
static int demo_parse_topo(struct demo *d, char *err, size_t errlen)
{
	FILE *f = fopen(d->topo, "r");
	char line[512], hca[DEMO_NAME] = "";
	bool in_hca = false;

	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", d->topo,
			 strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s = line;
		const char *rest;
		struct demo_port *p;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!strncmp(s, "#@demo-errors", 13)) {
			rest = demo_quoted(s, d->err_node, sizeof(d->err_node));
			d->err_port = rest ? atoi(rest) : 0;
			continue;
		}
		if (*s == '#' || *s == '\n' || *s == '\0') {
			if (*s != '#')
				in_hca = false;
			continue;
		}
		if (!strncmp(s, "Hca", 3) || !strncmp(s, "Switch", 6)) {
			in_hca = s[0] == 'H' &&
				 demo_quoted(s, hca, sizeof(hca)) != NULL;
			if (in_hca && !d->host[0])
				snprintf(d->host, sizeof(d->host), "%s", hca);
			continue;
		}
		if (!in_hca || *s != '[' || d->nports >= DEMO_MAX_PORTS)
			continue;
		p = &d->ports[d->nports];
		memset(p, 0, sizeof(*p));
		p->port = atoi(s + 1);
		rest = demo_quoted(s, p->peer, sizeof(p->peer));
		if (p->port <= 0 || !rest)
			continue;
		rest = strchr(rest, '[');
		p->peer_port = rest ? atoi(rest + 1) : 0;
		snprintf(p->node, sizeof(p->node), "%s", hca);
		d->nports++;
	}
	fclose(f);
	if (!d->nports) {
		snprintf(err, errlen, "no cabled HCA port in %s", d->topo);
		return -1;
	}
	return 0;
}

static int demo_rm_entry(const char *path, const struct stat *st, int flag,
			 struct FTW *ftw)
{
	remove(path);
	return 0;
}

static void demo_rmtree(const char *dir)
{
	if (dir[0])
		nftw(dir, demo_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void demo_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* In a child: the signal mask and dispositions the parent changed must
 * not leak into the exec'd program; die with the parent. */
static void demo_child_setup(int deathsig, pid_t parent)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, deathsig);
	if (getppid() != parent)
		_exit(127);
}

#define DEMO_REAP_GRACE_MS 2000	/* the console's own clean-up, then SIGKILL */
#define DEMO_REAP_MAX 8

/* A pid is gone once it no longer exists or is a zombie (its new parent
 * has not reaped it yet). */
static bool demo_pid_alive(pid_t pid)
{
	char path[64], buf[256];
	const char *rp;
	FILE *f;
	bool alive = true;

	if (kill(pid, 0) != 0 && errno == ESRCH)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')) && rp[1] == ' ')
		alive = rp[2] != 'Z' && rp[2] != 'X';
	fclose(f);
	return alive;
}

/* Waits up to the grace time for all of pids to be gone. */
static void demo_wait_gone(const pid_t *pids, int n)
{
	for (int waited = 0; waited < DEMO_REAP_GRACE_MS; waited += 50) {
		bool any = false;

		for (int i = 0; i < n; i++)
			any |= demo_pid_alive(pids[i]);
		if (!any)
			return;
		demo_sleep_ms(50);
	}
}

/* The reaper's life: collect the pids we tell it, and when the pipe says
 * we are gone, end them (SIGTERM, a grace period, SIGKILL) and remove the
 * directory. Never returns. */
static void demo_reaper(int fd, const char *dir)
{
	pid_t pids[DEMO_REAP_MAX];
	int n = 0, i;
	char c;
	long v = 0;
	bool in = false;

	for (;;) {
		ssize_t k = read(fd, &c, 1);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		if (c == '-') {
			n = 0;	/* we reaped them all ourselves: their pids may
				 * already belong to someone else */
		} else if (c >= '0' && c <= '9') {
			v = v * 10 + (c - '0');
			in = true;
		} else if (in) {
			if (n < DEMO_REAP_MAX)
				pids[n++] = (pid_t)v;
			v = 0;
			in = false;
		}
	}
	for (i = 0; i < n; i++)
		if (demo_pid_alive(pids[i]))
			kill(pids[i], SIGTERM);
	demo_wait_gone(pids, n);
	for (i = 0; i < n; i++)
		if (demo_pid_alive(pids[i]))
			kill(pids[i], SIGKILL);
	/* the directory goes only once nobody writes into it */
	demo_wait_gone(pids, n);
	demo_rmtree(dir);
	_exit(0);
}

/* Starts the reaper, leader of the helpers' process group. */
static int demo_start_reaper(struct demo *d, char *err, size_t errlen)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		sigset_t none;

		close(p[1]);
		setpgid(0, 0);
		/* the terminal's keys and hang-up are for the console: the
		 * reaper goes by the pipe alone */
		signal(SIGINT, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGCHLD, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* nothing of ours stays open in it but the pipe */
		for (int fd = 3; fd < 1024; fd++)
			if (fd != p[0])
				close(fd);
		demo_reaper(p[0], d->dir);
	}
	close(p[0]);
	setpgid(pid, pid);	/* either side may win the race: both set it */
	d->reaper = pid;
	d->reaper_fd = p[1];
	return 0;
}

/* Tells the reaper one more child to end should we die. */
static void demo_reap_later(struct demo *d, pid_t pid)
{
	char line[24];
	int n = snprintf(line, sizeof(line), "%ld\n", (long)pid);

	if (d->reaper_fd >= 0 && pid > 0)
		(void)!write(d->reaper_fd, line, (size_t)n);
}

/* After we reaped a child ourselves: the reaper's list becomes exactly
 * the children still running (a reaped pid may be reused by anyone). */
static void demo_reap_now_only(struct demo *d)
{
	if (d->reaper_fd >= 0)
		(void)!write(d->reaper_fd, "-\n", 2);
	demo_reap_later(d, d->sim);
	demo_reap_later(d, d->console);
}

/* Joins pid to the helpers' group (the reaper's), out of the terminal's. */
static void demo_join_group(pid_t reaper)
{
	if (reaper <= 0 || setpgid(0, reaper) != 0)
		setpgid(0, 0);
}

static void demo_redirect(int fd, const char *path, int flags)
{
	int n = open(path, flags, 0600);

	if (n >= 0 && n != fd) {
		dup2(n, fd);
		close(n);
	}
}

static pid_t demo_spawn_ibsim(struct demo *d)
{
	char fifo[PATH_MAX + 8], log[PATH_MAX + 16];
	pid_t parent = getpid(), pid;

	snprintf(fifo, sizeof(fifo), "%s/ctl", d->dir);
	snprintf(log, sizeof(log), "%s/ibsim.log", d->dir);
	pid = fork();
	if (pid != 0)
		return pid;
	demo_child_setup(SIGKILL, parent);
	/* out of the terminal's process group: Ctrl-C is for the console,
	 * which must still reach the fabric while it shuts down */
	demo_join_group(d->reaper);
	demo_redirect(0, fifo, O_RDONLY);
	demo_redirect(1, log, O_WRONLY | O_CREAT | O_APPEND);
	dup2(1, 2);
	setenv("IBSIM_SOCKNAME", d->sockname, 1);
	execl(d->ibsim, "ibsim", "-s", d->topo, (char *)NULL);
	_exit(127);
}

/* The umad2sim environment every fabric client of the demo runs in. */
static void demo_sim_env(const struct demo *d)
{
	setenv("LD_PRELOAD", UMAD2SIM, 1);
	setenv("SIM_HOST", d->host, 1);
	setenv("IBSIM_SOCKNAME", d->sockname, 1);
}

static pid_t demo_spawn_opensm(struct demo *d)
{
	char log[PATH_MAX + 16], out[PATH_MAX + 16], cache[PATH_MAX + 8];
	pid_t parent = getpid(), pid;

	snprintf(log, sizeof(log), "%s/opensm.log", d->dir);
	snprintf(out, sizeof(out), "%s/opensm.out", d->dir);
	snprintf(cache, sizeof(cache), "%s/osm", d->dir);
	pid = fork();
	if (pid != 0)
		return pid;
	demo_child_setup(SIGKILL, parent);
	demo_join_group(d->reaper);
	if (chdir(d->dir) != 0)
		_exit(127);
	demo_redirect(0, "/dev/null", O_RDONLY);
	demo_redirect(1, out, O_WRONLY | O_CREAT | O_TRUNC);
	dup2(1, 2);
	demo_sim_env(d);
	setenv("OSM_CACHE_DIR", cache, 1);
	execl(d->opensm, "opensm", "-f", log, "-o", (char *)NULL);
	_exit(127);
}

static pid_t demo_spawn_console(struct demo *d, const char *self_exe,
				int argc, char **argv)
{
	pid_t parent = getpid(), pid;
	char **av;
	int i, n = 0;

	av = calloc((size_t)argc + 1, sizeof(*av));
	if (!av)
		return -1;
	for (i = 0; i < argc; i++)
		if (i == 0 || strcmp(argv[i], "--demo"))
			av[n++] = argv[i];
	av[n] = NULL;
	pid = fork();
	if (pid != 0) {
		free(av);
		return pid;
	}
	demo_child_setup(SIGTERM, parent);
	if (chdir(d->dir) != 0)
		_exit(127);
	demo_sim_env(d);
	setenv("IBCONSOLE_DEMO", "1", 1);
	execv(self_exe, av);
	_exit(127);
}

static bool demo_log_has(const struct demo *d, const char *needle)
{
	char path[PATH_MAX + 16], buf[4096];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/ibsim.log", d->dir);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(buf, sizeof(buf), f))
		found = strstr(buf, needle) != NULL;
	fclose(f);
	return found;
}

/* Waits for pid up to timeout_ms; kills it with SIGKILL past that.
 * Returns its wait status, or -1 when it had to be killed. */
static int demo_wait_for(pid_t pid, long timeout_ms)
{
	int st;
	long waited = 0;

	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (waited >= timeout_ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
		demo_sleep_ms(50);
		waited += 50;
	}
	return st;
}

/* Reaps pid if it exits within timeout_ms; false (pid left alone) if not. */
static bool demo_exited_within(pid_t pid, long timeout_ms, int *st)
{
	for (long waited = 0; waited < timeout_ms; waited += 50) {
		if (waitpid(pid, st, WNOHANG) == pid)
			return true;
		demo_sleep_ms(50);
	}
	return false;
}

static int demo_start_fabric(struct demo *d, char *err, size_t errlen)
{
	char fifo[PATH_MAX + 8], log[PATH_MAX + 16];
	pid_t sm;
	int st, i;

	snprintf(fifo, sizeof(fifo), "%s/ctl", d->dir);
	snprintf(log, sizeof(log), "%s/ibsim.log", d->dir);
	if (mkfifo(fifo, 0600) != 0) {
		snprintf(err, errlen, "mkfifo %s: %s", fifo, strerror(errno));
		return -1;
	}
	/* Read-write: ibsim never sees EOF and the open does not block. */
	d->ctl_fd = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	d->log_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (d->ctl_fd < 0 || d->log_fd < 0) {
		snprintf(err, errlen, "open %s: %s", fifo, strerror(errno));
		return -1;
	}
	d->sim = demo_spawn_ibsim(d);
	if (d->sim < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	demo_reap_later(d, d->sim);
	for (i = 0; i < DEMO_READY_TIMEOUT * 20; i++) {
		if (demo_log_has(d, "Network simulator ready"))
			break;
		if (waitpid(d->sim, &st, WNOHANG) == d->sim) {
			d->sim = 0;
			snprintf(err, errlen, "ibsim exited while loading %s",
				 d->topo);
			return -1;
		}
		demo_sleep_ms(50);
	}
	if (!demo_log_has(d, "Network simulator ready")) {
		snprintf(err, errlen, "ibsim not ready after %d s",
			 DEMO_READY_TIMEOUT);
		return -1;
	}
	sm = demo_spawn_opensm(d);
	if (sm < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	demo_reap_later(d, sm);
	st = demo_wait_for(sm, DEMO_SM_TIMEOUT * 1000L);
	demo_reap_now_only(d);		/* opensm is gone, reaped */
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(err, errlen, "opensm -o failed to assign LIDs (%s)",
			 st == -1 ? "timed out" : "non-zero exit");
		return -1;
	}
	return 0;
}

static void demo_send(struct demo *d, const char *node, int port,
		      const char *field, uint64_t val)
{
	char line[160];
	int n;

	n = snprintf(line, sizeof(line), "PerformanceSet \"%s\"[%d] %s=%" PRIu64 "\n",
		     node, port, field, val);
	if (n <= 0 || n >= (int)sizeof(line))
		return;
	/* Lines under PIPE_BUF are written whole or not at all; when the
	 * FIFO is full ibsim is behind and this update is simply dropped. */
	(void)!write(d->ctl_fd, line, (size_t)n);
}

static void demo_set_data(struct demo *d, struct demo_port *p)
{
	static const char *const cls[] = { "PortCounters", "PortCountersExtended" };
	unsigned i;

	/* ibsim keeps the classic (32-bit, saturating) and the extended
	 * (64-bit) counters apart: feed both, as a real PMA would. */
	for (i = 0; i < 2; i++) {
		char f[64];

		snprintf(f, sizeof(f), "%s.PortXmitData", cls[i]);
		demo_send(d, p->node, p->port, f, p->xmit_data);
		snprintf(f, sizeof(f), "%s.PortRcvData", cls[i]);
		demo_send(d, p->node, p->port, f, p->rcv_data);
		snprintf(f, sizeof(f), "%s.PortXmitPkts", cls[i]);
		demo_send(d, p->node, p->port, f, p->xmit_pkts);
		snprintf(f, sizeof(f), "%s.PortRcvPkts", cls[i]);
		demo_send(d, p->node, p->port, f, p->rcv_pkts);
	}
}

static void demo_error_burst(struct demo *d)
{
	struct demo_port *p = NULL;
	int i;

	for (i = 0; i < d->nports && !p; i++)
		if (!strcmp(d->ports[i].node, d->err_node) &&
		    (!d->err_port || d->ports[i].port == d->err_port))
			p = &d->ports[i];
	if (!p)
		p = &d->ports[d->nports - 1];
	p->sym_err += 3 + demo_rand(d) % 12;
	p->rcv_err += 1 + demo_rand(d) % 4;
	p->peer_sym_err += 1 + demo_rand(d) % 6;
	demo_send(d, p->node, p->port, "PortCounters.SymbolErrorCounter",
		  p->sym_err);
	demo_send(d, p->node, p->port, "PortCounters.PortRcvErrors", p->rcv_err);
	if (p->peer_port > 0)
		demo_send(d, p->peer, p->peer_port,
			  "PortCounters.SymbolErrorCounter", p->peer_sym_err);
}

/* One second of traffic: every port moves, at its own jittered pace. */
static void demo_tick(struct demo *d)
{
	int i;

	for (i = 0; i < d->nports; i++) {
		struct demo_port *p = &d->ports[i];
		uint64_t w = p->words_per_s / 100 * (90 + demo_rand(d) % 21);
		uint64_t r = w / 100 * (85 + demo_rand(d) % 31);

		p->xmit_data += w;
		p->rcv_data += r;
		p->xmit_pkts += w / 512 + 1;	/* ~2 KiB packets */
		p->rcv_pkts += r / 512 + 1;
		demo_set_data(d, p);
	}
	if (++d->tick % DEMO_ERR_PERIOD == DEMO_ERR_PERIOD / 2)
		demo_error_burst(d);
	/* ibsim echoes every command; its writes are O_APPEND, so cutting
	 * the file under it is safe */
	if (lseek(d->log_fd, 0, SEEK_END) > DEMO_LOG_MAX)
		(void)!ftruncate(d->log_fd, 0);
}

static void demo_init_rates(struct demo *d)
{
	int i;

	d->rnd = (uint32_t)getpid();
	for (i = 0; i < d->nports; i++) {
		/* 0.2 to 6 GB/s, so busy and idle ports stand apart */
		uint64_t mbs = 200 + (uint64_t)((i * 7919) % 30) * 200;

		d->ports[i].words_per_s = mbs * 1000000 / 4;
	}
}

static void demo_stop(struct demo *d)
{
	if (d->console > 0) {
		kill(d->console, SIGTERM);
		demo_wait_for(d->console, 3000);
		d->console = 0;
	}
	if (d->sim > 0) {
		kill(d->sim, SIGTERM);
		demo_wait_for(d->sim, 2000);
		d->sim = 0;
	}
	if (d->ctl_fd >= 0)
		close(d->ctl_fd);
	if (d->log_fd >= 0)
		close(d->log_fd);
	d->ctl_fd = d->log_fd = -1;
	demo_rmtree(d->dir);
	if (d->reaper_fd >= 0) {
		(void)!write(d->reaper_fd, "-\n", 2);	/* all reaped: kill no one */
		close(d->reaper_fd);	/* the reaper removes nothing more, exits */
	}
	d->reaper_fd = -1;
	if (d->reaper > 0)
		demo_wait_for(d->reaper, 3000);
	d->reaper = 0;
}

static int demo_status_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 5;
}

/* The driver: ticks once a second until the console exits or we are
 * told to stop. Returns the console's exit status. */
static int demo_drive(struct demo *d, const sigset_t *set)
{
	struct timespec second = { 1, 0 };
	siginfo_t si;
	int st, sig;

	for (;;) {
		sig = sigtimedwait(set, &si, &second);
		if (sig < 0 && errno == EAGAIN) {
			demo_tick(d);
			continue;
		}
		if (sig < 0)
			continue;
		if (sig == SIGCHLD) {
			if (waitpid(d->console, &st, WNOHANG) == d->console) {
				d->console = 0;
				/* stopped by a signal of its own: so are we */
				if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGINT ||
				    WTERMSIG(st) == SIGTERM || WTERMSIG(st) == SIGHUP))
					d->stop_sig = WTERMSIG(st);
				return demo_status_code(st);
			}
			if (d->sim > 0 && waitpid(d->sim, &st, WNOHANG) == d->sim) {
				/* the fabric is gone: the console shows it; we
				 * say why once it has the terminal back, never
				 * onto its screen */
				d->sim = 0;
				d->sim_died = true;
				demo_reap_now_only(d);
			}
			continue;
		}
		/*
		 * SIGINT / SIGHUP come from the terminal, which sent the
		 * console the same signal: let it restore the screen and
		 * exit on its own before asking it to. SIGTERM is ours alone.
		 */
		if (sig == SIGTERM || !demo_exited_within(d->console, 2000, &st)) {
			kill(d->console, SIGTERM);
			st = demo_wait_for(d->console, 3000);
		}
		d->console = 0;
		d->stop_sig = sig;	/* we die of it too, once all is clean */
		if (st == -1 || WIFSIGNALED(st))
			return 128 + sig;
		return demo_status_code(st);
	}
}

int demo_run(const char *self_exe, int argc, char **argv)
{
	struct demo *d;
	sigset_t set, old;
	char err[PATH_MAX + 128] = "";
	const char *host = getenv("IBCONSOLE_DEMO_HOST");
	int rc = 5;

	d = calloc(1, sizeof(*d));
	if (!d) {
		fprintf(stderr, "ibconsole: --demo: out of memory\n");
		return 5;
	}
	d->ctl_fd = d->log_fd = d->reaper_fd = -1;
	if (!demo_find_exe("ibsim", d->ibsim, sizeof(d->ibsim)) ||
	    !demo_find_exe("opensm", d->opensm, sizeof(d->opensm)) ||
	    !demo_readable(UMAD2SIM)) {
		fprintf(stderr, "ibconsole: --demo: ibsim not found — apt-get install ibsim-utils opensm\n");
		free(d);
		return 3;
	}
	if (!demo_find_topo(d)) {
		fprintf(stderr, "ibconsole: --demo: demo.net not found in $IBCONSOLE_DATADIR, %s or next to the binary — reinstall ibconsole or set IBCONSOLE_DATADIR\n",
			PKGDATADIR);
		free(d);
		return 3;
	}
	if (demo_parse_topo(d, err, sizeof(err)) != 0) {
		fprintf(stderr, "ibconsole: --demo: %s — check the demo topology\n", err);
		free(d);
		return 5;
	}
	if (host && *host)
		snprintf(d->host, sizeof(d->host), "%s", host);
	/* A socket name of our own: demos and tests never meet. */
	snprintf(d->sockname, sizeof(d->sockname), "ibcdemo%ld", (long)getpid());
	demo_init_rates(d);

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);

	snprintf(d->dir, sizeof(d->dir), "%s/ibconsole-demo.XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(d->dir)) {
		snprintf(err, sizeof(err), "mkdtemp %s: %s", d->dir, strerror(errno));
		d->dir[0] = '\0';
	} else if (demo_start_reaper(d, err, sizeof(err)) == 0 &&
		   demo_start_fabric(d, err, sizeof(err)) == 0) {
		d->console = demo_spawn_console(d, self_exe, argc, argv);
		if (d->console < 0) {
			snprintf(err, sizeof(err), "fork: %s", strerror(errno));
			d->console = 0;
		} else {
			demo_reap_later(d, d->console);
			demo_tick(d);
			rc = demo_drive(d, &set);
			err[0] = '\0';
		}
	}
	if (err[0])
		fprintf(stderr, "ibconsole: --demo: %s — is ibsim-utils / opensm installed and working?\n", err);
	if (d->sim_died)
		fprintf(stderr, "ibconsole: --demo: ibsim exited while the console ran — the simulated fabric was gone; rerun ibconsole --demo\n");
	demo_stop(d);
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigexit_note(d->stop_sig);	/* main dies of it: 130 / 143 */
	free(d);
	return rc;
}
