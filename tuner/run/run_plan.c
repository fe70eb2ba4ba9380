/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run_plan: the units of a run: configurations from the strategy, times source revisions, times layout seeds (see run_priv.h). */
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "tuner/gccopt.h"
#include "search/search.h"
#include "tuner/strategy.h"
#include "tuner/study.h"
#include "tuner/util.h"
#include "run_priv.h"

/* Adds config c built from source src with layout seeds 0 .. nseeds - 1. */
static void add_units(struct unit **units, size_t *nunits, size_t *alloc,
		      struct run_ctx *ctx, const struct config *c, const struct gitsrc *src,
		      unsigned nseeds, const char *compiler, const char *builds_root)
{
	const struct study *s = ctx->s;
	char id[17];

	memcpy(id, c->id, sizeof(id));
	if (ctx->nsrcs > 1)
		hash64_hex(id, hash64_str(hash64_str(HASH64_INIT, c->id), src->commit));
	for (unsigned seedi = 0; seedi < nseeds; seedi++) {
		struct unit *u;
		ALLOC_GROW(*units, *nunits + 1, *alloc);
		u = &(*units)[(*nunits)++];
		memset(u, 0, sizeof(*u));
		u->cfg = *c;
		u->cfg.flags = xstrdup(c->flags);
		memcpy(u->cfg.id, id, sizeof(id));
		u->layout_seed = seedi;
		u->src = src;
		atomic_init(&u->built, 0);
		u->next = xcalloc(study_slots(s), sizeof(*u->next));
		u->ctx = ctx;
		build_key(u->key, s, c, seedi, src->tree, compiler);
		u->dir = xasprintf("%s/%s", builds_root, u->key);
	}
}

/* A 64-bit key and the position it was found at, to sort. */
struct keyed {
	uint64_t key;
	size_t at;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* first[i] = the first j <= i with key[j] == key[i]. */
static void firsts(size_t *first, const uint64_t *key, size_t n)
{
	struct keyed *k = xcalloc(n + 1, sizeof(*k));

	for (size_t i = 0; i < n; i++)
		k[i] = (struct keyed){ key[i], i };
	qsort(k, n, sizeof(*k), by_key);
	for (size_t i = 0, run = 0; i < n; i++) {
		if (i && k[i].key != k[i - 1].key)
			run = i;
		first[k[i].at] = k[run].at;
	}
	free(k);
}

void run_plan_rounds(unsigned *round, const size_t *picks, size_t n, size_t nd)
{
	const size_t **rows = xcalloc(n + 1, sizeof(*rows));
	size_t *first = xcalloc(n + 1, sizeof(*first));
	unsigned *seen = xcalloc(n + 1, sizeof(*seen));

	for (size_t i = 0; i < n; i++)
		rows[i] = picks + i * nd;
	strategy_first_picks(first, rows, n, nd);
	for (size_t i = 0; i < n; i++)
		round[i] = seen[first[i]]++;
	free(rows);
	free(first);
	free(seen);
}

/* The configurations of the run in order, each with how many times it
 * is to be built with layout.samples seeds (its rounds). */
struct planned {
	struct config *c;
	unsigned *rounds;
	size_t n, alloc, ralloc;
};

/* Collects the configurations from the strategy or opts->picks: two flag
 * strings with the same normalized set are one configuration; a pick given
 * again is another round of it (run_plan_rounds()). Stops on an
 * interruption, with an error. */
static int collect(struct planned *pl, const struct run_ctx *ctx, const struct run_opts *opts)
{
	const struct study *s = ctx->s;
	const struct search_ops *ops = opts->npicks ? NULL : search_find(s->strategy);
	uint64_t budget = opts->has_budget ? opts->budget : s->budget;
	uint64_t seed = opts->has_seed ? opts->seed : s->seed;
	size_t nd = s->space.ndims, given = 0, n = 0, alloc = 0;
	struct config *all = NULL;
	uint64_t *ids = NULL;
	unsigned *round = NULL;
	size_t *first, *pick, idalloc = 0;
	void *st = NULL;
	int ret = -1;

	if (!opts->npicks && !ops)
		return tn_error("search strategy '%s' proposes in batches: run it with run_search()",
				s->strategy);
	if (ops && ops->init(&st, &s->space, budget, seed) < 0)
		return -1;
	if (opts->npicks) {
		round = xcalloc(opts->npicks, sizeof(*round));
		run_plan_rounds(round, opts->picks, opts->npicks, nd);
	}
	pick = xcalloc(nd ? nd : 1, sizeof(*pick));
	for (;;) {
		struct config c = CONFIG_INIT;
		unsigned r = 0;

		if (opts->npicks) {
			if (given == opts->npicks)
				break;
			r = round[given];
			memcpy(pick, opts->picks + given++ * nd, nd * sizeof(*pick));
		} else if (ops->next(st, pick) != 1) {
			break;
		}
		if (tn_cancelled()) {
			tn_error("interrupted while planning the run");
			goto out;
		}
		if (space_config_pick(&c, &s->space, pick) < 0)
			continue;
		ALLOC_GROW(all, n + 1, alloc);
		ALLOC_GROW(ids, n + 1, idalloc);
		all[n] = c;
		ids[n] = strtoull(c.id, NULL, 16);
		/* Its rounds so far; merged into the first of its id below. */
		ALLOC_GROW(pl->rounds, n + 1, pl->ralloc);
		pl->rounds[n++] = r + 1;
	}
	first = xcalloc(n + 1, sizeof(*first));
	firsts(first, ids, n);
	for (size_t i = 0; i < n; i++) {
		size_t f = first[i];

		if (f == i)
			continue;
		if (pl->rounds[i] > pl->rounds[f])
			pl->rounds[f] = pl->rounds[i];
		config_release(&all[i]);
		pl->rounds[i] = 0;
	}
	/* Keep the first of each, in order. */
	for (size_t i = 0; i < n; i++) {
		if (!pl->rounds[i])
			continue;
		ALLOC_GROW(pl->c, pl->n + 1, pl->alloc);
		pl->c[pl->n] = all[i];
		pl->rounds[pl->n++] = pl->rounds[i];
	}
	free(first);
	n = 0;
	ret = 0;
out:
	for (size_t i = 0; i < n; i++)
		config_release(&all[i]);
	free(all);
	free(ids);
	free(round);
	free(pick);
	if (ops)
		ops->free(st);
	return ret;
}

/* Plans the units: configurations from the strategy (or opts->picks),
 * times source revisions, times layout seeds (times rounds), one unit per
 * distinct build key; the caller (run_study()) has checked the plan
 * against study_check_plan()'s limits before creating anything. Stops on
 * an interruption, with nothing planned. */
int run_plan(struct unit **out, size_t *n, struct run_ctx *ctx,
		const struct run_opts *opts, const char *compiler, const char *builds_root)
{
	const struct study *s = ctx->s;
	struct planned pl = { 0 };
	struct unit *units = NULL;
	size_t nunits = 0, alloc = 0;

	if (collect(&pl, ctx, opts) < 0) {
		free(pl.rounds);
		return -1;
	}
	ctx->nconfigs = pl.n * ctx->nsrcs;
	ctx->cfg_first = xcalloc(ctx->nconfigs + 1, sizeof(*ctx->cfg_first));
	ctx->cfg_units = xcalloc(ctx->nconfigs + 1, sizeof(*ctx->cfg_units));
	ctx->max_units = 0;
	for (size_t i = 0; i < pl.n; i++) {
		unsigned nseeds = pl.rounds[i] * s->layout_samples;

		for (size_t r = 0; r < ctx->nsrcs; r++) {
			size_t c = i * ctx->nsrcs + r;

			ctx->cfg_first[c] = nunits;
			add_units(&units, &nunits, &alloc, ctx, &pl.c[i], &ctx->srcs[r], nseeds,
				  compiler, builds_root);
			ctx->cfg_units[c] = nseeds;
		}
		if (nseeds > ctx->max_units)
			ctx->max_units = nseeds;
		config_release(&pl.c[i]);
	}
	free(pl.c);
	free(pl.rounds);
	*out = units;
	*n = nunits;
	return 0;
}

unsigned long run_unit_group(const struct run_ctx *ctx, const struct unit *u)
{
	return (unsigned long)(u->src - ctx->srcs) * ctx->max_units + u->layout_seed;
}
