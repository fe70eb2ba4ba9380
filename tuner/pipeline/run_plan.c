/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run_plan: the units of a run: configurations from the strategy, times source revisions, times layout seeds; and build.equivalent's predictions (see run_priv.h). */
#include <stdlib.h>
#include <string.h>

#include "tuner/build.h"
#include "tuner/gccopt.h"
#include "tuner/search.h"
#include "tuner/study.h"
#include "tuner/util.h"
#include "run_priv.h"

/* Adds config c built from source src with each layout seed. */
static void add_units(struct unit **units, size_t *nunits, size_t *alloc,
		      struct run_ctx *ctx, const struct config *c, const struct gitsrc *src,
		      const char *compiler, const char *builds_root)
{
	const struct study *s = ctx->s;
	char id[17];

	memcpy(id, c->id, sizeof(id));
	if (ctx->nsrcs > 1)
		hash64_hex(id, hash64_str(hash64_str(HASH64_INIT, c->id), src->commit));
	for (unsigned seedi = 0; seedi < s->layout_samples; seedi++) {
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

static void free_units(struct unit *units, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(units[i].cfg.flags);
		free(units[i].dir);
		free(units[i].next);
	}
	free(units);
}

/* Plans the units: configurations from the strategy (or opts->picks),
 * times source revisions, times layout seeds, one unit per distinct build
 * key; the caller (run_study()) has checked the plan against
 * study_check_plan()'s limits before creating anything. Stops on an
 * interruption, with nothing planned. */
int run_plan(struct unit **out, size_t *n, struct run_ctx *ctx,
		const struct run_opts *opts, const char *compiler, const char *builds_root)
{
	const struct study *s = ctx->s;
	const struct search_ops *ops = opts->npicks ? NULL : search_find(s->strategy);
	uint64_t budget = opts->has_budget ? opts->budget : s->budget;
	uint64_t seed = opts->has_seed ? opts->seed : s->seed;
	size_t nd = s->space.ndims, given = 0;
	struct unit *units = NULL;
	size_t nunits = 0, alloc = 0;
	/* The ids planned so far, as their 64-bit values (a scan of every
	 * earlier id made planning quadratic). */
	struct u64set seen = U64SET_INIT;
	size_t *pick;
	void *st = NULL;
	int ret = -1;

	if (!opts->npicks && !ops)
		return tn_error("search strategy '%s' proposes in batches: run it with run_search()",
				s->strategy);
	if (ops && ops->init(&st, &s->space, budget, seed) < 0)
		return -1;
	pick = xcalloc(nd ? nd : 1, sizeof(*pick));
	for (;;) {
		struct config c = CONFIG_INIT;

		if (opts->npicks) {
			if (given == opts->npicks)
				break;
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
		/* Two flag strings with the same normalized set are one config. */
		if (!u64set_add(&seen, strtoull(c.id, NULL, 16))) {
			config_release(&c);
			continue;
		}
		for (size_t r = 0; r < ctx->nsrcs; r++)
			add_units(&units, &nunits, &alloc, ctx, &c, &ctx->srcs[r], compiler,
				  builds_root);
		config_release(&c);
	}
	*out = units;
	*n = nunits;
	units = NULL;
	nunits = 0;
	ret = 0;
out:
	free_units(units, nunits);
	if (ops)
		ops->free(st);
	u64set_release(&seen);
	free(pick);
	return ret;
}

/* The kinds of the switches in `ignored` (gccopt_kind()), in order. */
static char *ignored_kinds(const char *ignored)
{
	struct strbuf kinds = STRBUF_INIT, kind = STRBUF_INIT, setting = STRBUF_INIT;
	char **w;
	size_t n = gccopt_words(&w, ignored, 0);

	for (size_t i = 0; i < n; i++) {
		gccopt_kind(&kind, &setting, w[i]);
		if (kinds.len)
			strbuf_addch(&kinds, ' ');
		strbuf_addstr(&kinds, strbuf_str(&kind));
	}
	gccopt_words_free(w, n);
	strbuf_release(&kind);
	strbuf_release(&setting);
	return strbuf_detach(&kinds);
}

unsigned long run_unit_group(const struct run_ctx *ctx, const struct unit *u)
{
	return (unsigned long)(u->src - ctx->srcs) * ctx->s->layout_samples + u->layout_seed;
}

/*
 * build.equivalent: skip. Gives each unit that GCC is predicted to build
 * as an earlier one (equal gccopt_predicted() forms, same source, layout
 * seed and PGO) its lead and its prediction: one per kinds of ignored
 * switch and PGO, which the first pair built confirms or refutes.
 */
void run_predict(struct run_ctx *ctx, struct unit *units, size_t n)
{
	const char **flags = xcalloc(n + 1, sizeof(*flags));
	unsigned long *group = xcalloc(n + 1, sizeof(*group));
	size_t *lead = xcalloc(n + 1, sizeof(*lead));
	char **ignored = xcalloc(n + 1, sizeof(*ignored));

	/* Alike only with the same source, layout seed and PGO. */
	for (size_t i = 0; i < n; i++) {
		flags[i] = units[i].cfg.flags;
		group[i] = run_unit_group(ctx, &units[i]) * 2 + (units[i].cfg.pgo == PGO_ON);
	}
	gccopt_predicted_leads(lead, ignored, flags, group, n);
	for (size_t i = 0; i < n; i++) {
		struct unit *u = &units[i];
		char *kinds;
		size_t p;

		if (lead[i] == i)
			continue;
		u->pred_lead = &units[lead[i]];
		u->ignored = ignored[i];
		kinds = ignored_kinds(u->ignored);
		for (p = 0; p < ctx->npreds; p++)
			if (ctx->preds[p].pgo == (u->cfg.pgo == PGO_ON) &&
			    !strcmp(ctx->preds[p].ignored, kinds))
				break;
		if (p == ctx->npreds) {
			ctx->preds = xrealloc(ctx->preds, (p + 1) * sizeof(*ctx->preds));
			memset(&ctx->preds[p], 0, sizeof(*ctx->preds));
			ctx->preds[p].ignored = kinds;
			ctx->preds[p].pgo = u->cfg.pgo == PGO_ON;
			ctx->npreds++;
		} else {
			free(kinds);
		}
		u->pred = p;
	}
	free(flags);
	free(group);
	free(lead);
	free(ignored);
}
