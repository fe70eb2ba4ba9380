/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * search: strategies that propose configurations, behind one interface.
 * Pure: a seeded RNG, no I/O.
 *
 *   exhaustive  every configuration in index order; with a budget smaller
 *               than the space, `budget` distinct configurations in a seeded
 *               random order (a uniform sample without replacement)
 *   random      `budget` (default: all) distinct configurations in a seeded
 *               random order
 *
 * Both sample without replacement with Floyd's algorithm when the budget is
 * small against the space, so spaces too large to list are fine (Bentley &
 * Floyd, "A sample of brilliance", CACM 30(9), 1987).
 */
#ifndef TUNER_SEARCH_H
#define TUNER_SEARCH_H

#include <stdint.h>
#include "tuner/space.h"

struct search_ops {
	const char *name;
	/* Creates state proposing from space s. budget 0: the whole space.
	 * Caller frees with ops->free. */
	int (*init)(void **out, const struct space *s, uint64_t budget, uint64_t seed);
	/* 1 and *out_index set, or 0 when the strategy is done. */
	int (*next)(void *state, uint64_t *out_index);
	void (*free)(void *state);
};

/* The strategy called name, or NULL. */
const struct search_ops *search_find(const char *name);
/* Comma-separated names for messages. Static string. */
const char *search_names(void);

#endif
