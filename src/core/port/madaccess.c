// SPDX-License-Identifier: MIT
/* The umad device probe and the permission advice. */
#include "config.h"
#include "core/port/madaccess.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <infiniband/umad.h>

void madaccess_explain(const char *dev, int port, const struct madaccess_node *n,
		       char *why, size_t whylen)
{
	char what[160], perm[120] = "";

	snprintf(what, sizeof(what), "cannot open %s (%s/%d): %s",
		 n->path ? n->path : "the umad device", dev, port, strerror(n->err));
	if (n->have_stat)
		snprintf(perm, sizeof(perm), " (%s:%s %04o)", n->owner, n->group, n->mode & 07777);
	if (n->err == ENOENT || n->err == ENODEV || n->err == ENXIO) {
		snprintf(why, whylen, "%s — load the ib_umad module (modprobe ib_umad)", what);
		return;
	}
	if (n->err != EACCES && n->err != EPERM) {
		snprintf(why, whylen, "%s%s", what, perm);
		return;
	}
	/* a group already may read and write it: join that group */
	if (n->have_stat && (n->mode & 060) == 060 && strcmp(n->group, "root")) {
		if (n->member && !n->in_session)
			snprintf(why, whylen, "%s%s — you are in group %s but this session is not: log in again (or newgrp %s)",
				 what, perm, n->group, n->group);
		else
			snprintf(why, whylen, "%s%s — join group %s (usermod -aG %s USER, log in again) or run as root",
				 what, perm, n->group, n->group);
		return;
	}
	snprintf(why, whylen,
		 "%s%s — run as root, or add the udev rule KERNEL==\"umad*\", GROUP=\"rdma\", MODE=\"0660\" and join group rdma",
		 what, perm);
}

static bool in_session(gid_t g)
{
	gid_t list[256];
	int n = getgroups(256, list);

	if (getegid() == g)
		return true;
	for (int i = 0; i < n; i++)
		if (list[i] == g)
			return true;
	return false;
}

static bool listed_member(const struct group *gr)
{
	struct passwd *pw = getpwuid(geteuid());

	if (!pw || !gr)
		return false;
	if (pw->pw_gid == gr->gr_gid)
		return true;
	for (char **m = gr->gr_mem; m && *m; m++)
		if (!strcmp(*m, pw->pw_name))
			return true;
	return false;
}

int madaccess_probe(const char *dev, int port, char *why, size_t whylen)
{
	struct madaccess_node n = { 0 };
	char path[256], owner[64], group[64];
	struct stat st;
	int fd = umad_open_port(dev, port), e;

	if (fd >= 0) {
		umad_close_port(fd);
		return 0;
	}
	e = errno ? errno : -fd;
	n.err = e;
	/* the umad device has the issm device's number */
	if (umad_get_issm_path(dev, port, path, sizeof(path)) >= 0) {
		char *s = strstr(path, "issm");

		if (s) {
			memcpy(s, "umad", 4);
			n.path = path;
		}
	}
	if (n.path && !stat(n.path, &st)) {
		struct passwd *pw = getpwuid(st.st_uid);
		struct group *gr = getgrgid(st.st_gid);

		snprintf(owner, sizeof(owner), "%s", pw ? pw->pw_name : "?");
		if (!pw)
			snprintf(owner, sizeof(owner), "%u", (unsigned)st.st_uid);
		snprintf(group, sizeof(group), "%s", gr ? gr->gr_name : "?");
		if (!gr)
			snprintf(group, sizeof(group), "%u", (unsigned)st.st_gid);
		n.have_stat = true;
		n.mode = st.st_mode;
		n.owner = owner;
		n.group = group;
		n.member = listed_member(getgrgid(st.st_gid));
		n.in_session = in_session(st.st_gid);
	}
	madaccess_explain(dev, port, &n, why, whylen);
	return -1;
}
