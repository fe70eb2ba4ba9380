/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hash: FNV-1a, splitmix64's finalizer and the set of 64-bit values (tuner/util.h) */
#include "tuner/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t hash64(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t hash64_str(uint64_t h, const char *s)
{
	return hash64(h, s, strlen(s) + 1);
}

void hash64_hex(char out[17], uint64_t h)
{
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int u64set_add(struct u64set *set, uint64_t v)
{
	size_t i;

	if (!v) {
		int was = set->has_zero;

		set->has_zero = 1;
		return !was;
	}
	if (2 * (set->n + 1) > set->cap) {
		struct u64set big = { NULL, 0, set->cap ? 2 * set->cap : 64, set->has_zero };

		big.slot = xcalloc(big.cap, sizeof(*big.slot));
		for (size_t k = 0; k < set->cap; k++)
			if (set->slot[k])
				u64set_add(&big, set->slot[k]);
		free(set->slot);
		*set = big;
	}
	for (i = mix64(v) & (set->cap - 1); set->slot[i]; i = (i + 1) & (set->cap - 1))
		if (set->slot[i] == v)
			return 0;
	set->slot[i] = v;
	set->n++;
	return 1;
}

void u64set_release(struct u64set *set)
{
	free(set->slot);
	*set = (struct u64set)U64SET_INIT;
}
