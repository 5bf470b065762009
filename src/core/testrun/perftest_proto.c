// SPDX-License-Identifier: MIT
/* perftest's out-of-band handshake: pure encoders and decoders. Every
 * message has one fixed length; perftest reads each with a single read()
 * of that length, so a sender must write each one whole. */
#include "config.h"
#include "core/testrun/perftest_proto.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void pt_version_encode(const char *ver, uint8_t out[PT_VERSION_LEN])
{
	size_t n = strlen(ver);

	memset(out, 0, PT_VERSION_LEN);
	memcpy(out, ver, n < PT_VERSION_LEN - 1 ? n : PT_VERSION_LEN - 1);
}

int pt_version_decode(const uint8_t in[PT_VERSION_LEN], char *ver, size_t verlen,
		      char *why, size_t whylen)
{
	size_t n = 0;
	int major = 0, minor = 0, digits = 0, i;

	while (n < PT_VERSION_LEN && in[n])
		n++;
	if (n == 0 || n == PT_VERSION_LEN) {
		snprintf(why, whylen, "the version string is %s", n ? "not terminated" : "empty");
		return -1;
	}
	for (i = 0; i < (int)n && in[i] >= '0' && in[i] <= '9'; i++) {
		major = major * 10 + (in[i] - '0');
		if (major > 999)
			break;
	}
	if (i == 0 || i >= (int)n || in[i] != '.' || major > 999) {
		snprintf(why, whylen, "'%.*s' is not a perftest version (digits.digits)", (int)n, (const char *)in);
		return -1;
	}
	/* hundredths, as atof() then a comparison with 6.28 sees it */
	for (i++; i < (int)n && in[i] >= '0' && in[i] <= '9'; i++, digits++)
		if (digits < 2)
			minor = minor * 10 + (in[i] - '0');
	if (digits == 0 || i != (int)n) {
		snprintf(why, whylen, "'%.*s' is not a perftest version (digits.digits)", (int)n, (const char *)in);
		return -1;
	}
	if (digits == 1)
		minor *= 10;
	if (ver && verlen)
		snprintf(ver, verlen, "%.*s", (int)n, (const char *)in);
	return major * 100 + minor;
}

void pt_u32_encode(uint32_t v, uint8_t out[4])
{
	for (int i = 0; i < 4; i++)
		out[i] = (uint8_t)(v >> (24 - 8 * i));
}

uint32_t pt_u32_decode(const uint8_t in[4])
{
	return (uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 | (uint32_t)in[2] << 8 | in[3];
}

void pt_u64_encode(uint64_t v, uint8_t out[8])
{
	for (int i = 0; i < 8; i++)
		out[i] = (uint8_t)(v >> (56 - 8 * i));
}

uint64_t pt_u64_decode(const uint8_t in[8])
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | in[i];
	return v;
}

/* perftest byte-swaps the host (little-endian) double: the IEEE bits in
 * network order */
void pt_double_encode(double v, uint8_t out[8])
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	pt_u64_encode(u, out);
}

double pt_double_decode(const uint8_t in[8])
{
	uint64_t u = pt_u64_decode(in);
	double v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

int pt_mtu_encode(int mtu_enum, uint8_t out[PT_MTU_LEN])
{
	if (mtu_enum < 1 || mtu_enum > 5)
		return -1;
	out[0] = (uint8_t)('0' + mtu_enum);
	out[1] = 0;
	return PT_MTU_LEN;
}

int pt_mtu_decode(const uint8_t in[PT_MTU_LEN], char *why, size_t whylen)
{
	if (in[0] < '1' || in[0] > '5' || in[1] != 0) {
		snprintf(why, whylen, "the MTU message is not one of \"1\"..\"5\" (bytes 0x%02x 0x%02x)",
			 in[0], in[1]);
		return -1;
	}
	return in[0] - '0';
}

int pt_key_encode(const struct pt_key *k, bool gid, uint8_t *out, size_t outlen)
{
	size_t need = gid ? PT_KEY_GID_LEN : PT_KEY_LEN;
	char buf[PT_KEY_GID_LEN + 16];
	int n;

	if (outlen < need || k->qpn > 0xffffff || k->psn > 0xffffff)
		return -1;
	n = snprintf(buf, sizeof(buf), "%04x:%04x:%06x:%06x:%08x:%016" PRIx64 ":",
		     k->lid, k->out_reads, k->qpn, k->psn, k->rkey, k->vaddr);
	if (gid)
		for (int i = 0; i < 16; i++)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%02x:", k->gid[i]);
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, gid ? "%08x:" : "%08x", k->srqn);
	if ((size_t)n + 1 != need)
		return -1;
	memcpy(out, buf, need);	/* with the NUL */
	return (int)need;
}

static int hexval(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A fixed-width hex field at p, then the separator sep (':' or NUL). */
static int field(const uint8_t *p, int width, uint8_t sep, uint64_t *v)
{
	uint64_t x = 0;

	for (int i = 0; i < width; i++) {
		int h = hexval(p[i]);

		if (h < 0)
			return -1;
		x = x << 4 | (uint64_t)h;
	}
	if (p[width] != sep)
		return -1;
	*v = x;
	return 0;
}

int pt_key_decode(const uint8_t *in, size_t len, bool gid, struct pt_key *k,
		  char *why, size_t whylen)
{
	static const int w[6] = { 4, 4, 6, 6, 8, 16 };
	size_t need = gid ? PT_KEY_GID_LEN : PT_KEY_LEN;
	uint64_t v[6], s;
	size_t off = 0;

	memset(k, 0, sizeof(*k));
	if (len != need) {
		snprintf(why, whylen, "a key line of %zu bytes where %zu were due (%s a GID)",
			 len, need, gid ? "with" : "without");
		return -1;
	}
	for (int i = 0; i < 6; i++) {
		if (field(in + off, w[i], ':', &v[i]))
			goto bad;
		off += (size_t)w[i] + 1;
	}
	if (gid)
		for (int i = 0; i < 16; i++, off += 3) {
			if (field(in + off, 2, ':', &s))
				goto bad;
			k->gid[i] = (uint8_t)s;
		}
	if (field(in + off, 8, gid ? ':' : 0, &s))
		goto bad;
	if (gid && in[off + 9] != 0)
		goto bad;
	k->lid = (uint16_t)v[0];
	k->out_reads = (uint16_t)v[1];
	k->qpn = (uint32_t)v[2];
	k->psn = (uint32_t)v[3];
	k->rkey = (uint32_t)v[4];
	k->vaddr = v[5];
	k->srqn = (uint32_t)s;
	return 0;
bad:
	snprintf(why, whylen, "the key line is malformed near byte %zu ('%.*s')", off,
		 (int)strnlen((const char *)in, len), (const char *)in);
	return -1;
}

/* Negotiation block layout (LP64): 7 × i32, pad to 32, size, iters,
 * 8 × i32, pad to 80, ibv_device_attr (232), [mlx5dv comp mask u64]. */
#define NEG_SIZE_OFF 32
#define NEG_INT2_OFF 48
#define NEG_ATTR_OFF 80
#define NEG_MLX5_OFF (NEG_ATTR_OFF + PT_DEVATTR_LEN)

static void neg_ints(struct pt_negotiate *n, int32_t **a, int32_t **b)
{
	a[0] = &n->test_method; a[1] = &n->connection_type; a[2] = &n->verb;
	a[3] = &n->tst; a[4] = &n->atomic_type; a[5] = &n->test_type; a[6] = &n->report_fmt;
	b[0] = &n->aes_xts; b[1] = &n->num_of_qps; b[2] = &n->duration; b[3] = &n->use_rdma_cm;
	b[4] = &n->use_write_with_imm; b[5] = &n->no_enhanced_reorder;
	b[6] = &n->sig_offload; b[7] = &n->data_validation;
}

int pt_negotiate_encode(const struct pt_negotiate *n, uint8_t *out, size_t outlen)
{
	size_t need = n->has_mlx5 ? PT_NEG_LEN_MLX5 : PT_NEG_LEN;
	struct pt_negotiate c = *n;
	int32_t *a[7], *b[8];

	if (outlen < need)
		return -1;
	memset(out, 0, need);
	neg_ints(&c, a, b);
	for (int i = 0; i < 7; i++)
		pt_u32_encode((uint32_t)*a[i], out + 4 * i);
	pt_u64_encode(n->size, out + NEG_SIZE_OFF);
	pt_u64_encode(n->iters, out + NEG_SIZE_OFF + 8);
	for (int i = 0; i < 8; i++)
		pt_u32_encode((uint32_t)*b[i], out + NEG_INT2_OFF + 4 * i);
	memcpy(out + NEG_ATTR_OFF, n->attr, PT_DEVATTR_LEN);
	if (n->has_mlx5)
		pt_u64_encode(n->mlx5_comp_mask, out + NEG_MLX5_OFF);
	return (int)need;
}

int pt_negotiate_decode(const uint8_t *in, size_t len, struct pt_negotiate *n,
			char *why, size_t whylen)
{
	int32_t *a[7], *b[8];

	memset(n, 0, sizeof(*n));
	if (len != PT_NEG_LEN && len != PT_NEG_LEN_MLX5) {
		snprintf(why, whylen, "a negotiation block of %zu bytes (perftest sends %d or %d)",
			 len, PT_NEG_LEN, PT_NEG_LEN_MLX5);
		return -1;
	}
	neg_ints(n, a, b);
	for (int i = 0; i < 7; i++)
		*a[i] = (int32_t)pt_u32_decode(in + 4 * i);
	n->size = pt_u64_decode(in + NEG_SIZE_OFF);
	n->iters = pt_u64_decode(in + NEG_SIZE_OFF + 8);
	for (int i = 0; i < 8; i++)
		*b[i] = (int32_t)pt_u32_decode(in + NEG_INT2_OFF + 4 * i);
	memcpy(n->attr, in + NEG_ATTR_OFF, PT_DEVATTR_LEN);
	n->has_mlx5 = len == PT_NEG_LEN_MLX5;
	if (n->has_mlx5)
		n->mlx5_comp_mask = pt_u64_decode(in + NEG_MLX5_OFF);
	return 0;
}

static const char *name_of(const char *const *names, int count, int32_t v, char *buf, size_t len)
{
	if (v >= 0 && v < count)
		return names[v];
	snprintf(buf, len, "%d", v);
	return buf;
}

int pt_negotiate_compare(const struct pt_negotiate *l, const struct pt_negotiate *r,
			 char *why, size_t whylen)
{
	static const char *const method[] = { "a single size", "all sizes (-a)", "run infinitely (--run_infinitely)" };
	static const char *const conn[] = { "RC", "UC", "UD", "RawEth", "XRC", "DC", "SRD" };
	static const char *const verb[] = { "send", "send with immediate", "write", "write with immediate", "read", "atomic" };
	static const char *const tst[] = { "latency", "bandwidth", "latency under load", "fs rate" };
	static const char *const type[] = { "iterations (-n)", "duration (-D)" };
	static const char *const fmt[] = { "Gb/s (--report_gbits)", "MB/s" };
	static const char *const onoff[] = { "off", "on" };
	struct {
		const char *opt;
		int32_t a, b;
		const char *const *names;
		int count;
	} ints[] = {
		{ "the test (ib_<verb>_<bw|lat>)", l->verb, r->verb, verb, 6 },
		{ "the test kind (bw or lat)", l->tst, r->tst, tst, 4 },
		{ "-c (connection type)", l->connection_type, r->connection_type, conn, 7 },
		{ "-a (all sizes)", l->test_method, r->test_method, method, 3 },
		{ "-D / -n (how the run ends)", l->test_type, r->test_type, type, 2 },
		{ "-A (atomic type)", l->atomic_type, r->atomic_type, NULL, 0 },
		{ "--report_gbits", l->report_fmt, r->report_fmt, fmt, 2 },
		{ "-q (QPs)", l->num_of_qps, r->num_of_qps, NULL, 0 },
		{ "-D (duration)", l->duration, r->duration, NULL, 0 },
		{ "-R (rdma_cm)", l->use_rdma_cm, r->use_rdma_cm, onoff, 2 },
		{ "--write_with_imm", l->use_write_with_imm, r->use_write_with_imm, onoff, 2 },
		{ "--no_enhanced_reorder", l->no_enhanced_reorder, r->no_enhanced_reorder, onoff, 2 },
		{ "--sig_offload", l->sig_offload, r->sig_offload, onoff, 2 },
		{ "--data_validation", l->data_validation, r->data_validation, onoff, 2 },
		{ "--aes_xts", l->aes_xts, r->aes_xts, onoff, 2 },
	};
	char b1[16], b2[16];

	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		if (ints[i].a == ints[i].b)
			continue;
		snprintf(why, whylen, "%s differs: here %s, the perftest server %s", ints[i].opt,
			 name_of(ints[i].names, ints[i].count, ints[i].a, b1, sizeof(b1)),
			 name_of(ints[i].names, ints[i].count, ints[i].b, b2, sizeof(b2)));
		return -1;
	}
	/* -s does not apply to -a; -n does not apply to -D */
	if (l->test_method != PT_RUN_ALL && l->size != r->size) {
		snprintf(why, whylen, "-s (size) differs: here %" PRIu64 ", the perftest server %" PRIu64,
			 l->size, r->size);
		return -1;
	}
	if (l->test_type == 0 && l->iters != r->iters) {
		snprintf(why, whylen, "-n (iterations) differs: here %" PRIu64 ", the perftest server %" PRIu64,
			 l->iters, r->iters);
		return -1;
	}
	return 0;
}

int pt_script_for(int verb, bool lat, bool all, bool duplex, bool duration,
		  struct pt_script *s, char *why, size_t whylen)
{
	memset(s, 0, sizeof(*s));
	s->max_pow = 23;
	if (verb != PT_SEND && verb != PT_WRITE && verb != PT_READ) {
		snprintf(why, whylen, "perftest has no such test over RC");
		return -1;
	}
	if (lat && duplex) {
		snprintf(why, whylen, "perftest's latency tests have no -b (bidirectional)");
		return -1;
	}
	if (lat) {
		s->lead_sync = verb != PT_SEND;
		s->sync_after_connect = verb == PT_SEND;
		s->sync_after_keys = verb != PT_SEND;
		s->sync_before_run = verb == PT_SEND;
		s->close = verb != PT_WRITE;
		s->answer_first = verb == PT_WRITE;
		return 0;
	}
	if (verb == PT_SEND) {
		s->sync_after_connect = true;
		s->sync_before_run = true;
		s->sync_after_run = all;
		s->report_each = duplex && !duration;
		s->report_first = true;
	} else {
		s->sync_after_keys = true;
		s->sync_before_run = duplex;
		s->sync_after_run = duplex && all;
		s->report_each = duplex;
		s->report_end = !duplex;
	}
	s->close = true;
	return 0;
}

void pt_report_encode(const struct pt_report *r, int rem_ver, uint8_t out[PT_REPORT_MSGS][8],
		      size_t len[PT_REPORT_MSGS])
{
	pt_u64_encode(r->size, out[0]);
	if (rem_ver >= PT_V_ITERS64) {
		pt_u64_encode(r->iters, out[1]);
		len[1] = 8;
	} else {
		pt_u32_encode((uint32_t)r->iters, out[1]);
		len[1] = 4;
	}
	pt_double_encode(r->bw_peak, out[2]);
	pt_double_encode(r->bw_avg, out[3]);
	pt_double_encode(r->msg_rate_mpps, out[4]);
	len[0] = len[2] = len[3] = len[4] = 8;
}

void pt_report_decode(const uint8_t in[PT_REPORT_MSGS][8], int rem_ver, struct pt_report *r)
{
	r->size = pt_u64_decode(in[0]);
	r->iters = rem_ver >= PT_V_ITERS64 ? pt_u64_decode(in[1]) : pt_u32_decode(in[1]);
	r->bw_peak = pt_double_decode(in[2]);
	r->bw_avg = pt_double_decode(in[3]);
	r->msg_rate_mpps = pt_double_decode(in[4]);
}
