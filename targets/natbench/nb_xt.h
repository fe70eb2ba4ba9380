/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * natbench: the data of iptables-style matches and targets (xt_* infos).
 * The harness (config.c) builds the rule set from these; the fast path
 * (fp_xt_match.c, fp_xt_target.c) interprets them. Types only.
 */
#ifndef NB_XT_H
#define NB_XT_H

#include <stdint.h>

struct xt_tcp {
	uint16_t spts[2], dpts[2];
	uint8_t flg_mask, flg_cmp;
	uint8_t option;         /* TCP option kind that must be present, 0 any */
	uint8_t invflags;       /* XT_TCP_INV_* */
};
#define XT_TCP_INV_SRCPT 0x1u
#define XT_TCP_INV_DSTPT 0x2u
#define XT_TCP_INV_FLAGS 0x4u

struct xt_udp {
	uint16_t spts[2], dpts[2];
	uint8_t invflags;
};

struct xt_icmp {
	uint8_t type;           /* 0xff: any */
	uint8_t code[2];
	uint8_t invert;
};

enum { XT_MP_SRC, XT_MP_DST, XT_MP_ANY };
#define XT_MP_MAX 15
struct xt_multiport {
	uint8_t flags, count, invert;
	uint16_t ports[XT_MP_MAX];
	uint8_t pflags[XT_MP_MAX];  /* 1: ports[i]..ports[i+1] is a range */
};

#define IPRANGE_SRC 0x1u
#define IPRANGE_DST 0x2u
#define IPRANGE_SRC_INV 0x10u
#define IPRANGE_DST_INV 0x20u
struct xt_iprange {
	uint32_t src_min, src_max, dst_min, dst_max;
	uint8_t flags;
};

#define XT_CT_STATE 0x1u
#define XT_CT_STATUS 0x2u
#define XT_CT_DIRECTION 0x4u
#define XT_CT_ORIGSRC 0x8u
#define XT_CT_REPLSRC 0x10u
#define XT_CT_ORIGDST 0x20u
/* state bits: 1 << ctinfo-derived state */
#define XT_STATE_INVALID 0x1u
#define XT_STATE_NEW 0x2u
#define XT_STATE_ESTABLISHED 0x4u
#define XT_STATE_RELATED 0x8u
#define XT_STATE_UNTRACKED 0x10u
#define XT_STATE_SNAT 0x20u
#define XT_STATE_DNAT 0x40u
struct xt_conntrack {
	uint32_t addr, mask;
	uint16_t match_flags, invert_flags;
	uint16_t state_mask;
	uint32_t status_mask;
	uint8_t dir;
};

struct xt_mark_info {
	uint32_t mark, mask;
	uint8_t invert;
};

struct xt_length {
	uint16_t min, max;
	uint8_t invert;
};

struct xt_dscp {
	uint8_t dscp, invert;
};

struct xt_tos_match {
	uint8_t tos, mask, invert;
};

enum { XT_TTL_EQ, XT_TTL_NE, XT_TTL_LT, XT_TTL_GT };
struct xt_ttl {
	uint8_t mode, ttl;
};

/* Token bucket in jiffies (mutable: the match updates it). */
struct xt_rateinfo {
	uint32_t avg;           /* jiffies per token, scaled by 64 */
	uint32_t burst;
	uint32_t prev;
	uint32_t credit, credit_cap, cost;
};

enum { XT_CONNBYTES_PKTS, XT_CONNBYTES_BYTES, XT_CONNBYTES_AVGPKT };
enum { XT_CONNBYTES_DIR_ORIGINAL, XT_CONNBYTES_DIR_REPLY,
	XT_CONNBYTES_DIR_BOTH };
struct xt_connbytes {
	uint64_t from, to;      /* to == 0: no upper bound */
	uint8_t what, dir;
};

#define XT_STRING_MAX 32
struct xt_string {
	uint16_t from, to;      /* payload window searched */
	uint8_t plen, invert, icase;
	uint8_t pattern[XT_STRING_MAX];
	uint8_t shift[256];     /* Horspool bad-character table */
};

enum { XT_U32_AND, XT_U32_LEFTSH, XT_U32_RIGHTSH, XT_U32_AT };
#define XT_U32_MAXSIZE 6
struct xt_u32_location {
	uint32_t number;
	uint8_t nextop;
};
struct xt_u32_value {
	uint32_t min, max;
};
struct xt_u32_test {
	struct xt_u32_location location[XT_U32_MAXSIZE + 1];
	struct xt_u32_value value[XT_U32_MAXSIZE + 1];
	uint8_t nnums, nvalues;
};
struct xt_u32 {
	struct xt_u32_test tests[2];
	uint8_t ntests, invert;
};

#define XT_ADDRTYPE_UNICAST 0x1u
#define XT_ADDRTYPE_LOCAL 0x2u
#define XT_ADDRTYPE_BROADCAST 0x4u
#define XT_ADDRTYPE_MULTICAST 0x8u
#define XT_ADDRTYPE_UNREACHABLE 0x10u
#define XT_ADDRTYPE_BLACKHOLE 0x20u
struct xt_addrtype {
	uint16_t source, dest;
	uint8_t invert_source, invert_dest;
};

struct xt_pkttype {
	uint8_t pkttype, invert;
};

struct xt_helper {
	uint8_t app;            /* helper id + 1 */
	uint8_t invert;
};

struct xt_tcpmss_match {
	uint16_t mss_min, mss_max;
	uint8_t invert;
};

#define XT_ECN_IP 0x1u
#define XT_ECN_TCP_CWR 0x2u
#define XT_ECN_TCP_ECE 0x4u
struct xt_ecn {
	uint8_t operation, invert, ip_ect;
};

/* ---- targets ---- */

enum { XT_MARK_SET, XT_MARK_AND, XT_MARK_OR, XT_MARK_XOR };
struct xt_mark_tginfo {
	uint32_t mark, mask;
	uint8_t mode;
};

enum { XT_CONNMARK_SET, XT_CONNMARK_SAVE, XT_CONNMARK_RESTORE };
struct xt_connmark_tginfo {
	uint32_t ctmark, ctmask, nfmask;
	uint8_t mode;
};

struct xt_dscp_tginfo {
	uint8_t dscp;
};

struct xt_tos_tginfo {
	uint8_t tos_value, tos_mask;
};

struct xt_classify {
	uint32_t priority;
};

struct xt_tcpmss_tginfo {
	uint16_t mss;           /* 0: clamp to path MTU */
};

#define LOG_PREFIX_MAX 24
struct xt_log {
	char prefix[LOG_PREFIX_MAX];
	uint8_t level, flags;
};
#define XT_LOG_TCPSEQ 0x1u
#define XT_LOG_IPOPT 0x4u

enum { IPT_ICMP_NET_UNREACHABLE, IPT_ICMP_HOST_UNREACHABLE,
	IPT_ICMP_PORT_UNREACHABLE, IPT_ICMP_ADMIN_PROHIBITED, IPT_TCP_RESET };
struct xt_reject {
	uint8_t with;
};

struct nf_nat_range {
	uint32_t min_addr, max_addr;
	uint16_t min_port, max_port;
	uint8_t flags;
};
#define NF_NAT_RANGE_MAP_IPS 0x1u
#define NF_NAT_RANGE_PROTO_SPECIFIED 0x2u
#define NF_NAT_RANGE_PROTO_RANDOM 0x4u

enum { XT_TTL_SET, XT_TTL_INC, XT_TTL_DEC };
struct xt_ttl_tginfo {
	uint8_t mode, ttl;
};

#endif
