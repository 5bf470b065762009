/* SPDX-License-Identifier: MIT */
/* What the host's own tools say about the environment extras the
 * reference procedure lists before any test: a firewall that drops RoCE
 * v2's UDP port 4791 (nft's JSON ruleset) and NetworkManager managing the
 * RDMA netdev (nmcli's terse device list). */
#ifndef IBC_TRIAGE_ENVTOOLS_H
#define IBC_TRIAGE_ENVTOOLS_H

#include <stddef.h>

/* RoCE v2 is UDP to destination port 4791 (IBTA, Annex A17 RoCEv2). */
#define ROCE_V2_UDP_PORT 4791

/* Judges `nft -j list ruleset`: 1 when a rule drops or rejects UDP
 * destination port 4791 (any chain but output / postrouting hooks) or an
 * input chain's policy is drop with no rule accepting it, with the rule
 * in evidence; 0 when nothing drops it (evidence says what was read);
 * -1 with why when the text is not nft's JSON. */
int env_judge_nft(const char *json, size_t len, char *evidence, size_t evlen, char *why, size_t whylen);

/* Judges `nmcli -t -f DEVICE,STATE device` for netdev: 1 managed (the
 * state named in evidence), 0 unmanaged or not listed. */
int env_judge_nmcli(const char *out, const char *netdev, char *evidence, size_t evlen);

#endif
