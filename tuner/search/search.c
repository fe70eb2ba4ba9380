/* SPDX-License-Identifier: GPL-2.0-or-later */
/* search: see tuner/search/search.h */
#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "tuner/util.h"

/*
 * Up to this many configurations the random order is a Fisher-Yates shuffle
 * of the whole index range (8 MB at most); beyond it, or when the budget is a
 * small part of the space, Floyd's algorithm picks the sample.
 */
#define SHUFFLE_MAX 1000000ULL
/* Floyd keeps every chosen index and a hash set of them in memory: about
 * 100 MB at this many, far beyond any budget a build-and-measure loop gets
 * through. */
#define SAMPLE_MAX SEARCH_MAX_RANDOM

/* DRAW: a space beyond 2^64, drawn a dimension at a time (search.h). */
enum order { ORDER_SEQUENTIAL, ORDER_SHUFFLE, ORDER_SAMPLE, ORDER_DRAW };

/* The picks drawn so far, packed (each dimension's value index in as few
 * bits as its values need), in an open-addressing set: exact, and a few
 * words per configuration. */
struct pick_set {
	uint64_t *packed; /* count picks of `words` words each */
	size_t words, n;
	uint64_t *slot;   /* 1 + the pick's number in packed; 0: empty */
	uint64_t mask;
};

struct search_state {
	enum order order;
	const struct space *s;
	uint64_t count; /* how many configurations to propose */
	uint64_t done;  /* how many proposed so far */
	struct rng rng;
	uint64_t *idx;  /* SHUFFLE: 0..size-1 being shuffled; SAMPLE: the sample */
	uint64_t size;
	struct pick_set drawn; /* DRAW */
	unsigned char *bits;   /* DRAW: bits of each dimension's value index */
};

/* Bits to write v (>= 1) - 1 in. */
static unsigned char bits_for(uint64_t v)
{
	unsigned char b = 0;

	while (b < 64 && (v - 1) >> b)
		b++;
	return b;
}

static void pick_set_init(struct pick_set *set, const unsigned char *bits, size_t ndims,
			  uint64_t n)
{
	uint64_t total = 0, cap = 16;

	for (size_t d = 0; d < ndims; d++)
		total += bits[d];
	set->words = (size_t)(total + 63) / 64 ? (size_t)(total + 63) / 64 : 1;
	set->n = 0;
	set->packed = xcalloc((size_t)n * set->words, sizeof(*set->packed));
	while (cap < 2 * n)
		cap *= 2;
	set->slot = xcalloc((size_t)cap, sizeof(*set->slot));
	set->mask = cap - 1;
}

/* Adds pick to the set; 1 if it was new, 0 if it was drawn before. Room
 * for it is there (at most n of pick_set_init()). */
static int pick_set_add(struct pick_set *set, const unsigned char *bits, size_t ndims,
			const size_t *pick)
{
	uint64_t *w = set->packed + set->n * set->words;
	size_t at = 0;
	uint64_t i;

	for (size_t d = 0; d < ndims; d++) {
		uint64_t v = pick[d];

		if (!bits[d])
			continue;
		w[at / 64] |= v << (at % 64);
		if (at % 64 + bits[d] > 64)
			w[at / 64 + 1] |= v >> (64 - at % 64);
		at += bits[d];
	}
	i = mix64(hash64(HASH64_INIT, w, set->words * sizeof(*w))) & set->mask;
	while (set->slot[i]) {
		if (!memcmp(set->packed + (set->slot[i] - 1) * set->words, w,
			    set->words * sizeof(*w))) {
			memset(w, 0, set->words * sizeof(*w));
			return 0;
		}
		i = (i + 1) & set->mask;
	}
	set->slot[i] = ++set->n;
	return 1;
}

/*
 * Floyd's sample of k distinct indices from [0, n) (Bentley & Floyd 1987):
 * for j = n-k .. n-1 pick t in [0, j]; take t, or j if t was taken already.
 * Each k-subset is equally likely, but the order in which the members come
 * out is not uniform (late j's cluster at the end), so the sample is then
 * shuffled.
 */
static void floyd_sample(uint64_t *out, struct rng *r, uint64_t n, uint64_t k)
{
	struct u64set set = U64SET_INIT;
	uint64_t m = 0;

	for (uint64_t j = n - k; j < n; j++) {
		uint64_t t = rng_below(r, j + 1);

		if (u64set_add(&set, t)) {
			out[m++] = t;
		} else {
			u64set_add(&set, j);
			out[m++] = j;
		}
	}
	for (uint64_t i = k; i > 1; i--) {
		uint64_t j = rng_below(r, i);
		uint64_t tmp = out[i - 1];

		out[i - 1] = out[j];
		out[j] = tmp;
	}
	u64set_release(&set);
}

static int state_new(void **out, const struct space *s, uint64_t budget,
		     uint64_t seed, int in_order)
{
	struct search_state *st = xcalloc(1, sizeof(*st));
	uint64_t n = space_size(s);

	*out = NULL;
	st->s = s;
	st->size = n;
	st->count = budget == 0 || budget > n ? n : budget;
	rng_seed(&st->rng, seed);

	if (space_beyond_u64(s)) {
		/* Numbers do not reach every configuration: draw them a
		 * dimension at a time. */
		if (!budget || budget > SAMPLE_MAX) {
			char *size = space_size_str(s, 0);

			if (budget)
				tn_error("cannot draw %llu of %s configurations; set a search "
					 "budget of at most %llu", (unsigned long long)budget, size,
					 (unsigned long long)SAMPLE_MAX);
			else
				tn_error("cannot propose all %s configurations; set a search "
					 "budget of at most %llu", size,
					 (unsigned long long)SAMPLE_MAX);
			free(size);
			goto fail;
		}
		st->order = ORDER_DRAW;
		st->count = budget;
		st->bits = xcalloc(s->ndims ? s->ndims : 1, sizeof(*st->bits));
		for (size_t d = 0; d < s->ndims; d++)
			st->bits[d] = bits_for(s->dims[d].nvalues);
		pick_set_init(&st->drawn, st->bits, s->ndims, budget);
	} else if (in_order && st->count == n) {
		st->order = ORDER_SEQUENTIAL;
	} else if (n <= SHUFFLE_MAX && st->count >= n / 8) {
		/* Shuffled lazily in next(): step i fixes position i. */
		st->order = ORDER_SHUFFLE;
		st->idx = xmalloc((size_t)n * sizeof(*st->idx));
		for (uint64_t i = 0; i < n; i++)
			st->idx[i] = i;
	} else if (st->count <= SAMPLE_MAX) {
		st->order = ORDER_SAMPLE;
		st->idx = xmalloc((size_t)st->count * sizeof(*st->idx));
		floyd_sample(st->idx, &st->rng, n, st->count);
	} else {
		tn_error("cannot sample %llu of %llu configurations in random "
			 "order; set a search budget of at most %llu",
			 (unsigned long long)st->count, (unsigned long long)n,
			 (unsigned long long)SAMPLE_MAX);
		goto fail;
	}
	*out = st;
	return 0;
fail:
	free(st);
	return -1;
}

static int exhaustive_init(void **out, const struct space *s, uint64_t budget,
			   uint64_t seed)
{
	return state_new(out, s, budget, seed, 1);
}

static int random_init(void **out, const struct space *s, uint64_t budget,
		       uint64_t seed)
{
	return state_new(out, s, budget, seed, 0);
}

static int state_next(void *state, size_t *pick)
{
	struct search_state *st = state;
	const struct space *s = st->s;
	uint64_t i = st->done, index = 0;

	if (st->done >= st->count)
		return 0;
	switch (st->order) {
	case ORDER_SEQUENTIAL:
		index = i;
		break;
	case ORDER_SHUFFLE: {
		uint64_t j = i + rng_below(&st->rng, st->size - i);

		index = st->idx[j];
		st->idx[j] = st->idx[i];
		st->idx[i] = index;
		break;
	}
	case ORDER_SAMPLE:
		index = st->idx[i];
		break;
	case ORDER_DRAW:
		/* Beyond 2^64 configurations and at most SAMPLE_MAX drawn, a
		 * draw repeats one with odds below 2^-42. */
		do {
			for (size_t d = 0; d < s->ndims; d++)
				pick[d] = (size_t)rng_below(&st->rng, s->dims[d].nvalues);
		} while (!pick_set_add(&st->drawn, st->bits, s->ndims, pick));
		st->done++;
		return 1;
	}
	space_index_pick(pick, s, index);
	st->done++;
	return 1;
}

static void state_free(void *state)
{
	struct search_state *st = state;

	if (!st)
		return;
	free(st->idx);
	free(st->bits);
	free(st->drawn.packed);
	free(st->drawn.slot);
	free(st);
}

static const struct search_ops exhaustive_ops = {
	"exhaustive", exhaustive_init, state_next, state_free,
};

static const struct search_ops random_ops = {
	"random", random_init, state_next, state_free,
};

static const struct search_ops *const strategies[] = {
	&exhaustive_ops,
	&random_ops,
};

const struct search_ops *search_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(strategies); i++)
		if (!strcmp(strategies[i]->name, name))
			return strategies[i];
	return NULL;
}

const char *search_names(void)
{
	return "exhaustive, random";
}
