/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uarch_cache: the set-associative caches of tuner/uarch/uarch.h. */
#include "uarch.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "uarch_priv.h"

int ua_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int ua_is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

unsigned ua_log2(uint64_t v)
{
	unsigned n = 0;

	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

int ua_geom_check(const struct ua_cache_geom *g, const char *name, char *err, size_t errlen)
{
	uint64_t lines;

	if (!ua_is_pow2(g->line) || g->line < 4)
		return ua_err(err, errlen, "%s: line size %u is not a power of two >= 4",
			      name, g->line);
	if (!g->ways || !g->size || g->size % g->line)
		return ua_err(err, errlen, "%s: size %u is not a whole number of %u-byte lines",
			      name, g->size, g->line);
	lines = g->size / g->line;
	if (lines % g->ways || !ua_is_pow2(lines / g->ways))
		return ua_err(err, errlen, "%s: %u bytes in %u ways of %u-byte lines is not a "
			      "power-of-two number of sets", name, g->size, g->ways, g->line);
	return 0;
}

int ua_cache_init(struct ua_cache *c, const struct ua_cache_geom *g, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	if (ua_geom_check(g, "cache", err, errlen) < 0)
		return -1;
	c->ways = g->ways;
	c->sets = g->size / g->line / g->ways;
	c->line_shift = ua_log2(g->line);
	c->policy = g->policy;
	c->tag = malloc((size_t)c->sets * c->ways * sizeof(*c->tag));
	c->next = calloc(c->sets, sizeof(*c->next));
	if (!c->tag || !c->next) {
		ua_cache_release(c);
		return ua_err(err, errlen, "out of memory");
	}
	ua_cache_flush(c);
	return 0;
}

void ua_cache_release(struct ua_cache *c)
{
	free(c->tag);
	free(c->next);
	memset(c, 0, sizeof(*c));
}

/* The LFSR's seed: any non-zero constant; fixed so runs repeat. */
#define UA_LFSR_SEED 0xace1u

void ua_cache_flush(struct ua_cache *c)
{
	for (size_t i = 0; i < (size_t)c->sets * c->ways; i++)
		c->tag[i] = UA_INVALID;
	memset(c->next, 0, c->sets * sizeof(*c->next));
	c->lfsr = UA_LFSR_SEED;
	c->last = UA_INVALID;
	c->last_slot = NULL;
}

/* A 32-bit Galois LFSR (taps 32, 22, 2, 1: a maximal-length polynomial). */
static uint32_t lfsr_step(uint32_t *s)
{
	uint32_t x = *s;

	x = (x >> 1) ^ (-(x & 1u) & 0x80200003u);
	*s = x;
	return x;
}

/*
 * The way of w[0..n) that holds line, or n. Without a branch per way: which
 * way hits depends on the guest's addresses, and a branch on it is one
 * the host mispredicts (the scan was a third of the plugin's time). An
 * empty way (UA_INVALID, all ones) never matches: line < 2^62.
 */
static inline uint32_t find_way(const uint64_t *w, uint32_t n, uint64_t line)
{
	uint64_t t = line << 1, m = 0;
	uint32_t base = 0;

	if (n == 4) { /* the routers' L1s */
		m = (uint64_t)((w[0] ^ t) <= 1) | (uint64_t)((w[1] ^ t) <= 1) << 1 |
		    (uint64_t)((w[2] ^ t) <= 1) << 2 | (uint64_t)((w[3] ^ t) <= 1) << 3;
		return m ? (uint32_t)__builtin_ctzll(m) : n;
	}
	for (; base < n; base += 64) {
		uint32_t k = n - base < 64 ? n - base : 64;

		m = 0;
		for (uint32_t i = 0; i < k; i++)
			m |= (uint64_t)((w[base + i] ^ t) <= 1) << i;
		if (m)
			return base + (uint32_t)__builtin_ctzll(m);
	}
	return n;
}

/*
 * A set's ways hold "line << 1 | dirty". LRU keeps the set ordered most
 * recent first (a hit moves its way to the front); round-robin and random
 * leave lines where they were filled. Every policy fills an empty way
 * before it evicts.
 */
int ua_cache_access(struct ua_cache *c, uint64_t addr, int write, uint64_t *wb_addr, int *wb)
{
	uint64_t line = addr >> c->line_shift;
	uint32_t set = (uint32_t)line & (c->sets - 1);
	uint64_t *w = c->tag + (size_t)set * c->ways;
	uint32_t n = c->ways, victim, i;
	uint64_t old;

	*wb = 0;
	/* The most recent line of all is the most recent of its set. */
	if (ua_cache_repeat(c, line, write))
		return 1;
	c->last = line;
	i = find_way(w, n, line);
	if (i < n) {
		uint64_t t = w[i] | (write ? 1u : 0u);

		if (c->policy == UA_LRU) {
			for (; i > 0; i--)
				w[i] = w[i - 1];
		}
		w[i] = t;
		c->last_slot = &w[i];
		return 1;
	}
	/* Miss: an empty way, else the policy's victim. */
	victim = find_way(w, n, UA_INVALID >> 1);
	if (victim == n) {
		switch (c->policy) {
		case UA_LRU:
			victim = n - 1;
			break;
		case UA_RR:
			victim = c->next[set];
			c->next[set] = (victim + 1) % n;
			break;
		case UA_RANDOM:
			victim = lfsr_step(&c->lfsr) % n;
			break;
		}
	}
	old = w[victim];
	if (old != UA_INVALID && (old & 1)) {
		*wb = 1;
		*wb_addr = (old >> 1) << c->line_shift;
	}
	if (c->policy == UA_LRU) {
		for (; victim > 0; victim--)
			w[victim] = w[victim - 1];
	}
	w[victim] = line << 1 | (write ? 1u : 0u);
	c->last_slot = &w[victim];
	return 0;
}

int ua_cache_maint(struct ua_cache *c, uint64_t addr, enum ua_maint_op op)
{
	uint64_t line = addr >> c->line_shift;
	uint32_t set = (uint32_t)line & (c->sets - 1);
	uint64_t *w = c->tag + (size_t)set * c->ways;
	uint32_t i = find_way(w, c->ways, line);
	int was;

	if (i == c->ways)
		return 0;
	was = UA_HELD | ((w[i] & 1) ? UA_WAS_DIRTY : 0);
	if (op & UA_MAINT_CLEAN)
		w[i] &= ~(uint64_t)1;
	if (op & UA_MAINT_INV) {
		/* An empty way; under LRU it moves to the end of the set,
		 * the first to be filled (the order of the others kept). */
		if (c->policy == UA_LRU) {
			for (; i + 1 < c->ways; i++)
				w[i] = w[i + 1];
		}
		w[i] = UA_INVALID;
		if (c->last == line) {
			c->last = UA_INVALID;
			c->last_slot = NULL;
		}
	}
	if (c->last != UA_INVALID && c->last_slot && (*c->last_slot >> 1) != c->last) {
		/* LRU moved the slot of the last line: find it again. */
		c->last = UA_INVALID;
		c->last_slot = NULL;
	}
	return was;
}
