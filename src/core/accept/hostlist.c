// SPDX-License-Identifier: MIT
/* The hosts file of an all-pairs acceptance: one agent a line as
 * host[:port] ([v6]:port), '#' comments; also the list an agent takes
 * test orders towards. */
#include "config.h"
#include "core/accept/hostlist.h"

#include <stdio.h>
#include <string.h>

#include "core/base/parse.h"

static bool host_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-' || c == '_' || c == ':' || c == '%';
}

int hostlist_parse_line(const char *line, int default_port, struct hostlist_entry *e,
			char *why, size_t whylen)
{
	char buf[256], *s, *end, *port = NULL;
	size_t n;

	memset(e, 0, sizeof(*e));
	snprintf(buf, sizeof(buf), "%s", line);
	buf[strcspn(buf, "#\r\n")] = '\0';
	s = buf + strspn(buf, " \t");
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	if (!n)
		return 0;
	if (strpbrk(s, " \t")) {
		snprintf(why, whylen, "one host a line, no spaces inside");
		return -1;
	}
	if (s[0] == '[') {
		end = strchr(s, ']');
		if (!end || (end[1] && end[1] != ':')) {
			snprintf(why, whylen, "an IPv6 address in brackets needs ']' then ':PORT' or nothing");
			return -1;
		}
		*end = '\0';
		port = end[1] ? end + 2 : NULL;
		s++;
	} else if ((end = strrchr(s, ':'))) {
		if (strchr(s, ':') != end) {
			snprintf(why, whylen, "an IPv6 address needs brackets: [ADDR]:PORT");
			return -1;
		}
		*end = '\0';
		port = end + 1;
	}
	if (!*s || strlen(s) >= sizeof(e->host)) {
		snprintf(why, whylen, "the host name is empty or longer than %zu characters", sizeof(e->host) - 1);
		return -1;
	}
	for (const char *p = s; *p; p++)
		if (!host_char(*p)) {
			snprintf(why, whylen, "'%c' cannot be in a host name or address", *p);
			return -1;
		}
	e->port = default_port;
	if (port && parse_int(port, 1, 65535, &e->port)) {
		snprintf(why, whylen, "the port must be 1..65535");
		return -1;
	}
	snprintf(e->host, sizeof(e->host), "%s", s);
	snprintf(e->name, sizeof(e->name), strchr(s, ':') ? "[%s]:%d" : "%s:%d", s, e->port);
	return 1;
}

bool hostlist_has(const struct hostlist *l, const char *host, int port)
{
	for (int i = 0; i < l->n; i++)
		if (l->h[i].port == port && !strcmp(l->h[i].host, host))
			return true;
	return false;
}

int hostlist_load(struct hostlist *l, const char *path, int default_port, char *err, size_t errlen)
{
	char why[128], line[512];
	FILE *f = parse_fopen(path, why, sizeof(why));
	int r, no = 0;

	l->n = 0;
	if (!f) {
		snprintf(err, errlen, "cannot read the hosts file %s: %s — give a file with one host[:port] a line",
			 path, why);
		return -1;
	}
	while ((r = parse_line(f, line, sizeof(line))) != 0) {
		struct hostlist_entry e;
		int k;

		no++;
		if (r < 0) {
			snprintf(why, sizeof(why), "the line %s", parse_line_why(r));
			k = -1;
		} else {
			k = hostlist_parse_line(line, default_port, &e, why, sizeof(why));
		}
		if (k > 0 && hostlist_has(l, e.host, e.port)) {
			snprintf(why, sizeof(why), "%s is listed twice", e.name);
			k = -1;
		}
		if (k > 0 && l->n == HOSTLIST_MAX) {
			snprintf(why, sizeof(why), "more than %d hosts", HOSTLIST_MAX);
			k = -1;
		}
		if (k < 0) {
			snprintf(err, errlen, "hosts file %s line %d: %s — fix that line (host[:port], # comments)",
				 path, no, why);
			fclose(f);
			return -1;
		}
		if (k > 0)
			l->h[l->n++] = e;
	}
	fclose(f);
	return 0;
}
