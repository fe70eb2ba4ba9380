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
 * Floyd, "A sample of brilliance", CACM 30(9), 1987). A space of more than
 * 2^64 configurations (space_beyond_u64()), whose numbers do not fit the
 * RNG's 64 bits, is sampled a dimension at a time instead: each
 * dimension's value drawn uniformly, a configuration drawn before drawn
 * again, so every configuration is equally likely and every dimension
 * varies. Such a space needs a budget.
 *
 * A random order keeps its sample in memory: at most SEARCH_MAX_RANDOM
 * configurations. Exhaustive order without a budget needs no memory and
 * has no bound here; what a run can plan is the run's limit (study.h,
 * study_check_plan()).
 */
#ifndef TUNER_SEARCH_H
#define TUNER_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include "tuner/space.h"

/* The most configurations a random order proposes (Floyd's sample and
 * the per-dimension draws keep them all: about 100 MB at this many). */
#define SEARCH_MAX_RANDOM 4000000ULL

struct search_ops {
	const char *name;
	/* Creates state proposing from space s, which must outlive it.
	 * budget 0: the whole space. Caller frees with ops->free. 0, or -1
	 * with a message (a random order of more than SEARCH_MAX_RANDOM, a
	 * space beyond 2^64 without a budget); *out is then NULL. */
	int (*init)(void **out, const struct space *s, uint64_t budget, uint64_t seed);
	/* 1 and pick[0 .. s->ndims) set to the next configuration's value
	 * indices (space_config_pick()), or 0 when the strategy is done. */
	int (*next)(void *state, size_t *pick);
	void (*free)(void *state);
};

/* The strategy called name, or NULL. */
const struct search_ops *search_find(const char *name);
/* Comma-separated names for messages. Static string. */
const char *search_names(void);

#endif
