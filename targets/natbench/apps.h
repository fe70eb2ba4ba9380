/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * natbench: the application protocols the traffic carries, as grammars.
 * mkapps (a build-time generator) invents them from a fixed seed and writes
 * two things from the same description: a parser per message kind in the
 * fast path (fp_app*.c, straight-line code specialised to its grammar) and
 * these tables (apps_tab.c), which the traffic generator interprets to
 * build messages the parsers accept. Types only.
 */
#ifndef APPS_H
#define APPS_H

#include <stdint.h>

enum app_fk {
	FK_MAGIC,    /* n bytes (1..4): val, big-endian */
	FK_ENUM8,    /* one byte of set[0..n) */
	FK_LEN16,    /* be16 L in [lo, hi], then L bytes of class cls */
	FK_ID32,     /* be32 v with (v & aux) == val */
	FK_LSTR,     /* u8 L in [lo, hi], then L chars of class cls */
	FK_TLV,      /* u8 count in [lo, hi]; type, u8 len, value; n known
			types in set[], their value kinds in kinds[] */
	FK_TOKEN,    /* one of words[0..n), then a space */
	FK_HDRS,     /* lo..hi lines "Name: value\r\n" (names words[0..n),
			value kinds in kinds[]), then "\r\n" */
	FK_VARINT,   /* LEB128 value in [lo, hi] */
	FK_BITS8,    /* byte: top 2 bits val, bits 3..5 one of set[0..n) */
	FK_SUM8,     /* sum (aux 0) or xor (aux 1) of the message so far */
	FK_ADDR,     /* be32 address + be16 port of the client */
	FK_U16R,     /* be16 in [lo, hi] */
	FK_NKINDS
};

/* Character classes of strings and bodies. */
enum { CC_LOWER, CC_ALNUM, CC_DIGIT, CC_HEX, CC_PRINT, CC_ANY, CC_NCLASSES };

/* Value kinds of TLV entries and header lines. */
enum { TV_U16, TV_U32, TV_STR, TV_FLAGS, TV_LIST, TV_NKINDS };
enum { HV_NUMBER, HV_TOKEN };

struct app_field {
	uint8_t kind, n, cls;
	uint16_t lo, hi;
	uint32_t val, aux;
	const uint8_t *set;
	const uint8_t *kinds;
	const char *const *words;
};

struct app_msg {
	uint8_t nfields;
	const struct app_field *f;
};

/* Traffic patterns of a flow. */
enum { AK_BULK_DOWN, AK_BULK_UP, AK_REQRESP, AK_INTERACTIVE, AK_UDP_STREAM,
	AK_UDP_REQRESP, AK_NKINDS };

struct app_desc {
	uint8_t proto;       /* 6 or 17 */
	uint8_t kind;        /* AK_* */
	uint8_t dscp;
	uint16_t port;
	uint32_t weight;     /* relative share of new flows */
	uint16_t rounds[2];  /* request / response exchanges per flow */
	uint16_t resp_pkts[2];
	uint16_t fill[2];    /* filler bytes after a message */
	struct app_msg msg[2];  /* [0] client to server, [1] back */
};

extern const struct app_desc app_descs[];
extern const unsigned app_ndescs;

#endif
