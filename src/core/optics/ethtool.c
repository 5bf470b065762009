// SPDX-License-Identifier: MIT
/* The kernel's ethtool module EEPROM interface: the generic-netlink page
 * read (ETHTOOL_MSG_MODULE_EEPROM_GET, Linux 5.13 on, through libmnl),
 * else the older linear ioctl (ETHTOOL_GMODULEINFO / GMODULEEEPROM). */
#include "config.h"
#include "core/optics/source.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define NO_MODULE_WHY "the driver does not expose the module; vendor tools read it " \
		      "through vendor registers"

int optics_pages_wanted(const struct optics_pages *pg, int want[][2], int max)
{
	const uint8_t *lo = pg->lower[0];
	int n = 0;

#define WANT(a, p) do { if (n < max) { want[n][0] = (a); want[n][1] = (p); n++; } } while (0)
	WANT(0, 0);
	switch (lo[0]) {
	case 0x03:			/* SFF-8472: A2h when diagnostics are implemented */
		if (lo[92] & 0x40) {
			WANT(1, -1);	/* -1: the lower half */
			WANT(1, 0);
		}
		break;
	case 0x0c: case 0x0d: case 0x11:	/* SFF-8636: page 03h unless flat */
		if (!(lo[2] & 0x04))
			WANT(0, 3);
		break;
	case 0x18: case 0x19: case 0x1e:	/* CMIS: 01h, 02h, 11h unless flat */
		if (!(lo[2] & 0x80)) {
			WANT(0, 1);
			WANT(0, 2);
			WANT(0, 0x11);
		}
		break;
	default:
		break;
	}
#undef WANT
	return n;
}

struct nl {
	struct mnl_socket *sock;
	unsigned portid, seq;
	uint16_t family;
	/* MNL_SOCKET_BUFFER_SIZE at most (a runtime value); aligned for the
	 * struct nlmsghdr that libmnl lays at its start */
	_Alignas(8) char buf[8192];
};

static int family_cb(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(a, MNL_TYPE_U16) >= 0)
		*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int family_msg(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_cb, data) < 0
		       ? MNL_CB_ERROR : MNL_CB_OK;
}

static struct nlmsghdr *genl_put(struct nl *nl, uint16_t type, uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/* Sends nlh and runs cb on the answer up to the ack; -1 with errno. */
static int transact(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	int rc;

	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return -1;
	do {
		ssize_t got = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));

		if (got < 0)
			return -1;
		rc = mnl_cb_run(nl->buf, (size_t)got, nl->seq, nl->portid, cb, data);
	} while (rc > MNL_CB_STOP);
	return rc < 0 ? -1 : 0;
}

/* Opens the socket and finds the ethtool family; -1 when the kernel has
 * no ethtool netlink (before 5.6). */
static int nl_open(struct nl *nl)
{
	struct timeval tv = { .tv_sec = 2 };	/* the kernel answers at once; never wait longer */
	struct nlmsghdr *nlh;

	memset(nl, 0, sizeof(*nl));
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock)
		return -1;
	setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (unsigned)time(NULL);
	nlh = genl_put(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	if (transact(nl, nlh, family_msg, &nl->family) < 0 || !nl->family)
		goto fail;
	return 0;
fail:
	mnl_socket_close(nl->sock);
	nl->sock = NULL;
	return -1;
}

struct half {
	uint8_t *out;
	bool got;
};

static int data_cb(const struct nlattr *a, void *data)
{
	struct half *h = data;

	if (mnl_attr_get_type(a) == ETHTOOL_A_MODULE_EEPROM_DATA &&
	    mnl_attr_get_payload_len(a) == OPTICS_PAGE_LEN) {
		memcpy(h->out, mnl_attr_get_payload(a), OPTICS_PAGE_LEN);
		h->got = true;
	}
	return MNL_CB_OK;
}

static int data_msg(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), data_cb, data) < 0
		       ? MNL_CB_ERROR : MNL_CB_OK;
}

/* One half page: page -1 is the lower half. -1 with errno. */
static int nl_half(struct nl *nl, const char *ifname, int a, int page, uint8_t *out)
{
	struct nlmsghdr *nlh = genl_put(nl, nl->family, ETHTOOL_MSG_MODULE_EEPROM_GET,
					ETHTOOL_GENL_VERSION);
	struct nlattr *hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_MODULE_EEPROM_HEADER);
	struct half h = { out, false };

	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	mnl_attr_nest_end(nlh, hdr);
	mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_OFFSET, page < 0 ? 0 : OPTICS_PAGE_LEN);
	mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_LENGTH, OPTICS_PAGE_LEN);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_PAGE, (uint8_t)(page < 0 ? 0 : page));
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_BANK, 0);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, a ? 0x51 : 0x50);
	if (transact(nl, nlh, data_msg, &h) < 0)
		return -1;
	if (!h.got) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

static void mark(struct optics_pages *pg, int a, int page)
{
	if (page < 0)
		pg->have_lower[a] = true;
	else
		pg->have_upper[a] |= 1u << page;
}

static uint8_t *slot(struct optics_pages *pg, int a, int page)
{
	return page < 0 ? pg->lower[a] : pg->upper[a][page];
}

/* The ioctl's linear image: SFF-8079/8472 give A0h then A2h (256 bytes
 * each); SFF-8436/8636 give the lower half then upper pages 00h-03h one
 * after another (640 bytes). */
static int ioctl_read(const char *ifname, struct optics_pages *pg, int *err_no)
{
	struct ethtool_modinfo mi = { .cmd = ETHTOOL_GMODULEINFO };
	struct ethtool_eeprom *ee = NULL;
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = -1;

	if (fd < 0) {
		*err_no = errno;
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&mi;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0 || mi.eeprom_len < 256 || mi.eeprom_len > 1024)
		goto out;
	ee = calloc(1, sizeof(*ee) + mi.eeprom_len);
	if (!ee)
		goto out;
	ee->cmd = ETHTOOL_GMODULEEEPROM;
	ee->len = mi.eeprom_len;
	ifr.ifr_data = (void *)ee;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		goto out;
	memcpy(pg->lower[0], ee->data, OPTICS_PAGE_LEN);
	pg->have_lower[0] = true;
	memcpy(pg->upper[0][0], ee->data + 128, OPTICS_PAGE_LEN);
	pg->have_upper[0] = 1;
	if (mi.type == ETH_MODULE_SFF_8472 && ee->len >= 512) {
		memcpy(pg->lower[1], ee->data + 256, OPTICS_PAGE_LEN);
		memcpy(pg->upper[1][0], ee->data + 384, OPTICS_PAGE_LEN);
		pg->have_lower[1] = true;
		pg->have_upper[1] = 1;
	} else if (mi.type != ETH_MODULE_SFF_8079 && mi.type != ETH_MODULE_SFF_8472) {
		for (unsigned p = 1; 128 + (p + 1) * 128 <= ee->len && p < 4; p++) {
			memcpy(pg->upper[0][p], ee->data + 128 + p * 128, OPTICS_PAGE_LEN);
			pg->have_upper[0] |= 1u << p;
		}
	}
	rc = 0;
out:
	if (rc < 0)
		*err_no = errno;
	free(ee);
	close(fd);
	return rc;
}

static void why_not(int e, const char *ifname, char *err, size_t errlen)
{
	if (e == ENODEV)
		snprintf(err, errlen, "%s: no such network interface", ifname);
	else if (e == EOPNOTSUPP || e == EINVAL)
		snprintf(err, errlen, "%s: %s", ifname, NO_MODULE_WHY);
	else if (e == EPERM || e == EACCES)
		snprintf(err, errlen, "%s: reading the module needs CAP_NET_ADMIN", ifname);
	else if (e == EIO || e == ENODATA || e == ETIMEDOUT || e == EAGAIN)
		snprintf(err, errlen, "%s: the module did not answer (%s): none plugged, or not powered",
			 ifname, strerror(e));
	else
		snprintf(err, errlen, "%s: module read failed: %s", ifname, strerror(e));
}

int optics_read_ethtool(const char *ifname, struct optics_pages *pg, char *err,
			size_t errlen)
{
	struct nl *nl = malloc(sizeof(*nl));
	int want[8][2], n, e = 0;

	memset(pg, 0, sizeof(*pg));
	if (nl && nl_open(nl) == 0) {
		if (nl_half(nl, ifname, 0, -1, pg->lower[0]) == 0) {
			pg->have_lower[0] = true;
			n = optics_pages_wanted(pg, want, 8);
			/* a page the module lacks is left out; the decoder says so */
			for (int i = 0; i < n; i++)
				if (nl_half(nl, ifname, want[i][0], want[i][1],
					    slot(pg, want[i][0], want[i][1])) == 0)
					mark(pg, want[i][0], want[i][1]);
		} else {
			e = errno;
		}
		mnl_socket_close(nl->sock);
	}
	free(nl);
	if (pg->have_lower[0])
		return 0;
	/* No netlink page read (an older kernel), or it failed: the ioctl
	 * answers on kernels before 5.13 and for a few drivers' quirks. */
	if (e != ENODEV && ioctl_read(ifname, pg, &e) == 0)
		return 0;
	why_not(e, ifname, err, errlen);
	return -1;
}

int optics_read_module(const char *ifname, const char *dump_root,
		       struct optics_module *m, char *err, size_t errlen)
{
	struct optics_pages *pg = malloc(sizeof(*pg));
	int rc;

	if (!pg) {
		snprintf(err, errlen, "%s: out of memory", ifname);
		return -1;
	}
	if (dump_root) {
		char dir[4096];

		snprintf(dir, sizeof(dir), "%s/%s", dump_root, ifname);
		rc = optics_load_dump(dir, pg, err, errlen);
	} else {
		rc = optics_read_ethtool(ifname, pg, err, errlen);
	}
	if (rc == 0)
		rc = optics_decode(pg, m, err, errlen);
	free(pg);
	return rc;
}

static const char *dump_root;

void optics_set_dump_root(const char *dir)
{
	dump_root = dir && *dir ? dir : NULL;
}

void optics_port_read(struct optics_port *p, const char *ifname, double near_db, int link_up)
{
	memset(p, 0, sizeof(*p));
	if (!ifname || !*ifname) {
		snprintf(p->why, sizeof(p->why), "the port has no network interface to read a module through");
		return;
	}
	if (optics_read_module(ifname, dump_root, &p->m, p->why, sizeof(p->why)) < 0)
		return;
	p->readable = true;
	optics_judge(&p->m, near_db, link_up);
}
