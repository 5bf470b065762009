/* SPDX-License-Identifier: MIT */
/* perftest's out-of-band handshake (TCP, port 18515), as its
 * perftest_communication.c speaks it: pure encoders and decoders for every
 * message a client exchanges with an unmodified perftest server. */
#ifndef IBC_TESTRUN_PERFTEST_PROTO_H
#define IBC_TESTRUN_PERFTEST_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PT_DEFAULT_PORT 18515
#define PT_VERSION_LEN 16	/* NUL-padded ASCII, e.g. "6.06" */
#define PT_KEY_LEN 59		/* lid:out_reads:qpn:psn:rkey:vaddr:srqn + NUL */
#define PT_KEY_GID_LEN 108	/* … with the 16 GID bytes between vaddr and srqn */
#define PT_MTU_LEN 2		/* the ibv_mtu enum as a decimal string, from 5.31 */
#define PT_DONE_LEN 5		/* "done" + NUL, the closing word */
#define PT_DEVATTR_LEN 232	/* struct ibv_device_attr on LP64 */
#define PT_NEG_LEN 312		/* parameter negotiation, 6.28+ */
#define PT_NEG_LEN_MLX5 320	/* … built with mlx5dv: one more u64 */

/* Versions as hundredths, the way perftest compares them (atof): 6.06 → 606. */
#define PT_V_MIN 570		/* older peers refuse anything newer */
#define PT_V_SYSDATA 532	/* cycle buffer + cache line exchanged */
#define PT_V_MTU2 531		/* MTU sent as 2 bytes (4 before) */
#define PT_V_ITERS64 533	/* report iterations as u64 (u32 before) */
#define PT_V_NEGOTIATE 628	/* parameter negotiation block */

/* One QP's key line. */
struct pt_key {
	uint16_t lid;
	uint16_t out_reads;	/* the peer's outstanding RDMA reads */
	uint32_t qpn, psn, rkey, srqn;
	uint64_t vaddr;
	uint8_t gid[16];
};

/* perftest's enums as they travel in the negotiation block. */
enum pt_verb { PT_SEND = 0, PT_SEND_IMM, PT_WRITE, PT_WRITE_IMM, PT_READ, PT_ATOMIC };
enum pt_tst { PT_LAT = 0, PT_BW, PT_LAT_BY_BW, PT_FS_RATE };
enum pt_method { PT_RUN_REGULAR = 0, PT_RUN_ALL, PT_RUN_INFINITELY };
enum pt_conn { PT_RC = 0, PT_UC, PT_UD, PT_RAWETH, PT_XRC, PT_DC, PT_SRD };

struct pt_negotiate {
	int32_t test_method, connection_type, verb, tst, atomic_type, test_type, report_fmt;
	uint64_t size, iters;
	int32_t aes_xts, num_of_qps, duration, use_rdma_cm, use_write_with_imm,
		no_enhanced_reorder, sig_offload, data_validation;
	uint8_t attr[PT_DEVATTR_LEN];	/* the sender's ibv_device_attr, host order */
	bool has_mlx5;			/* the 320-byte form */
	uint64_t mlx5_comp_mask;
};

/* What a perftest server expects around the QP key lines, from the order
 * of the exchanges in ib_<verb>_<bw|lat>'s main (RC, socket exchange). A
 * "sync" is one more key line each way (QP 1's). */
struct pt_script {
	bool lead_sync;		/* one before the first per-QP round (write, read latency) */
	bool sync_after_connect;	/* after RTR, before the second round (send) */
	bool sync_after_keys;	/* after the second round (write, read) */
	bool sync_before_run;	/* each size: before the traffic (send; bidirectional) */
	bool sync_after_run;	/* each size: after the traffic (send -a; write/read -a -b) */
	bool report_each;	/* each size: bandwidth reports both ways (bidirectional) */
	bool report_first;	/* … the reports come before the after-run sync (send) */
	bool report_end;	/* at the end: a sync and our report (write / read bw) */
	bool close;		/* at the end: a sync and "done" (all but write latency) */
	bool answer_first;	/* the server posts first (write latency ping-pong) */
	int max_pow;		/* -a: sizes 2^1 … 2^max_pow */
};

/* The script for verb (PT_SEND, PT_WRITE, PT_READ), latency or bandwidth,
 * -a, -b, -D; 0, or -1 with why for what perftest does not offer. */
int pt_script_for(int verb, bool lat, bool all, bool duplex, bool duration,
		  struct pt_script *s, char *why, size_t whylen);

/* The bandwidth report (xchg_bw_reports): five messages, each exchanged
 * on its own; iterations are 4 bytes for peers before 5.33. */
#define PT_REPORT_MSGS 5
struct pt_report {
	uint64_t size, iters;
	double bw_peak, bw_avg;	/* in the reporting side's unit (MB/s or Gb/s) */
	double msg_rate_mpps;	/* always Mpps: the unit-free figure */
};
/* Fills the five messages and their lengths. */
void pt_report_encode(const struct pt_report *r, int rem_ver, uint8_t out[PT_REPORT_MSGS][8],
		      size_t len[PT_REPORT_MSGS]);
void pt_report_decode(const uint8_t in[PT_REPORT_MSGS][8], int rem_ver, struct pt_report *r);

/* Version string: out is PT_VERSION_LEN bytes, NUL-padded. */
void pt_version_encode(const char *ver, uint8_t out[PT_VERSION_LEN]);
/* Decodes the peer's version; returns hundredths (606) or -1 with why. */
int pt_version_decode(const uint8_t in[PT_VERSION_LEN], char *ver, size_t verlen,
		      char *why, size_t whylen);

/* 32-bit network-order integers (cycle buffer, cache line size). */
void pt_u32_encode(uint32_t v, uint8_t out[4]);
uint32_t pt_u32_decode(const uint8_t in[4]);
/* 64-bit network-order integers and doubles (the bandwidth report). */
void pt_u64_encode(uint64_t v, uint8_t out[8]);
uint64_t pt_u64_decode(const uint8_t in[8]);
void pt_double_encode(double v, uint8_t out[8]);
double pt_double_decode(const uint8_t in[8]);

/* MTU: the ibv_mtu enum (1..5 = 256..4096 bytes) as "3\0". */
int pt_mtu_encode(int mtu_enum, uint8_t out[PT_MTU_LEN]);
int pt_mtu_decode(const uint8_t in[PT_MTU_LEN], char *why, size_t whylen);

/* Key line: PT_KEY_LEN bytes without a GID, PT_KEY_GID_LEN with; returns
 * the length written (out must hold it) or -1. */
int pt_key_encode(const struct pt_key *k, bool gid, uint8_t *out, size_t outlen);
/* Strict: exactly the format above (lower-case hex, NUL-terminated). */
int pt_key_decode(const uint8_t *in, size_t len, bool gid, struct pt_key *k,
		  char *why, size_t whylen);

/* Negotiation block (network order, except the device attributes). */
int pt_negotiate_encode(const struct pt_negotiate *n, uint8_t *out, size_t outlen);
int pt_negotiate_decode(const uint8_t *in, size_t len, struct pt_negotiate *n,
			char *why, size_t whylen);
/* Compares the options perftest requires to match; 0, or -1 with a line
 * naming the option (as perftest's command line spells it) and both values. */
int pt_negotiate_compare(const struct pt_negotiate *local, const struct pt_negotiate *remote,
			 char *why, size_t whylen);

#endif
