/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_share: train.share: check. A PGO configuration that differs from an
 * earlier one only in switches GCC applies after instrumenting the code
 * (gccopt_profile_form()) is predicted to train the same profile; once a
 * pair that differs in the same kinds of switch trained, each its own, and
 * got byte-identical profiles (tree_hash()), the others use their lead's
 * profile instead of building instrumented and training. A pair with
 * different profiles refutes its kinds: every configuration differing in
 * one of them trains its own. See run_priv.h.
 */
#include <stdlib.h>
#include <string.h>

#include "tuner/gccopt.h"
#include "tuner/util.h"
#include "run_priv.h"

/* The kinds of a space-separated list, each looked up in (or added to)
 * ctx->late: their indices (malloced) into *out; the count. */
static size_t kinds_of(struct run_ctx *ctx, const char *kinds, size_t **out)
{
	char **w;
	size_t n = gccopt_words(&w, kinds, 0);
	size_t *idx = xcalloc(n + 1, sizeof(*idx));

	for (size_t i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < ctx->nlate; k++)
			if (!strcmp(ctx->late[k].kind, w[i]))
				break;
		if (k == ctx->nlate) {
			ctx->late = xrealloc(ctx->late, (k + 1) * sizeof(*ctx->late));
			memset(&ctx->late[k], 0, sizeof(ctx->late[k]));
			ctx->late[k].kind = xstrdup(w[i]);
			ctx->nlate++;
		}
		idx[i] = k;
	}
	gccopt_words_free(w, n);
	*out = idx;
	return n;
}

void run_predict_profiles(struct run_ctx *ctx, struct unit *units, size_t n)
{
	const char **flags = xcalloc(n + 1, sizeof(*flags));
	unsigned long *group = xcalloc(n + 1, sizeof(*group));
	size_t *lead = xcalloc(n + 1, sizeof(*lead));
	char **kinds = xcalloc(n + 1, sizeof(*kinds));

	/*
	 * Alike only with PGO, the same source and layout seed. A unit that
	 * build.equivalent predicts to be another's build takes no part: it
	 * is either not built at all or built to check that prediction.
	 */
	for (size_t i = 0; i < n; i++) {
		flags[i] = units[i].cfg.flags;
		if (units[i].cfg.pgo != PGO_ON || units[i].pred_lead)
			group[i] = 2 * (unsigned long)i + 1; /* alone */
		else
			group[i] = 2 * run_unit_group(ctx, &units[i]);
	}
	gccopt_profile_leads(lead, kinds, flags, group, n);
	for (size_t i = 0; i < n; i++) {
		if (lead[i] == i)
			continue;
		units[i].prof_lead = &units[lead[i]];
		units[i].nprof_kinds = kinds_of(ctx, kinds[i], &units[i].prof_kind);
		free(kinds[i]);
	}
	free(flags);
	free(group);
	free(lead);
	free(kinds);
}

/*
 * Lets every pair of trainings in hand decide the kinds it differs in
 * (under ctx->pred_lock): a unit with a lead, both trained by their own
 * builds. Different profiles refute each of the pair's kinds; the same
 * confirm those not refuted.
 */
static void check_shares(struct run_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nunits; i++) {
		const struct unit *u = &ctx->units[i];
		int same;

		if (!u->prof_lead || atomic_load(&u->prof_trained) != 1 ||
		    atomic_load(&u->prof_lead->prof_trained) != 1)
			continue;
		same = !strcmp(u->prof_hash, u->prof_lead->prof_hash);
		for (size_t k = 0; k < u->nprof_kinds; k++) {
			struct late_kind *lk = &ctx->late[u->prof_kind[k]];

			if (lk->state == PRED_REFUTED || (same && lk->state == PRED_CONFIRMED))
				continue;
			lk->state = same ? PRED_CONFIRMED : PRED_REFUTED;
			lk->twin = u;
			lk->lead = u->prof_lead;
		}
	}
}

/* Where u stands (under ctx->pred_lock): a kind refuted (-1), all
 * confirmed (1), else 0, with *free_to_check whether none of its unchecked
 * kinds is being checked. */
static int standing(const struct run_ctx *ctx, const struct unit *u, int *free_to_check)
{
	int all = 1;

	*free_to_check = 1;
	for (size_t k = 0; k < u->nprof_kinds; k++) {
		const struct late_kind *lk = &ctx->late[u->prof_kind[k]];

		if (lk->state == PRED_REFUTED)
			return -1;
		if (lk->state != PRED_CONFIRMED) {
			all = 0;
			if (lk->verifying)
				*free_to_check = 0;
		}
	}
	return all;
}

/* u starts (start 1) or ends (0) checking its kinds (under
 * ctx->pred_lock). */
static void verifying(struct run_ctx *ctx, const struct unit *u, int start)
{
	for (size_t k = 0; k < u->nprof_kinds; k++) {
		if (start)
			ctx->late[u->prof_kind[k]].verifying++;
		else
			ctx->late[u->prof_kind[k]].verifying--;
	}
}

int run_profile_share(struct unit *u, char **dir)
{
	struct run_ctx *ctx = u->ctx;
	int st, free_to_check, ret;

	*dir = NULL;
	for (;;) {
		pthread_mutex_lock(&ctx->pred_lock);
		st = standing(ctx, u, &free_to_check);
		if (st == 0) {
			check_shares(ctx);
			st = standing(ctx, u, &free_to_check);
		}
		if (st == 0 && free_to_check) {
			/* u checks them: it trains its own. */
			verifying(ctx, u, 1);
			u->prof_verifying = 1;
		}
		pthread_mutex_unlock(&ctx->pred_lock);
		if (st != 0 || u->prof_verifying)
			break;
		if (run_stopped(ctx))
			return -1;
		run_nap();
	}
	if (st < 0 || u->prof_verifying)
		return 0;
	/* Confirmed: the lead's profile, once it has trained. */
	while (!(ret = atomic_load(&u->prof_lead->prof_trained))) {
		if (run_stopped(ctx))
			return -1;
		run_nap();
	}
	if (ret < 0)
		return 0;
	*dir = xasprintf("%s/profile", u->prof_lead->dir);
	return 1;
}

void run_profile_trained(void *unit, const char *hash)
{
	struct unit *u = unit;

	snprintf(u->prof_hash, sizeof(u->prof_hash), "%s", hash);
	atomic_store(&u->prof_trained, 1);
}

void run_profile_done(struct unit *u)
{
	struct run_ctx *ctx = u->ctx;
	const struct build_record *b = u->build;

	/* From the journal: a build of an earlier run, or one that failed
	 * after training (the callback said it already). */
	if (!atomic_load(&u->prof_trained)) {
		if (b && b->profile[0] && !b->profile_from[0] && !b->same_build[0])
			run_profile_trained(u, b->profile);
		else
			atomic_store(&u->prof_trained, -1);
	}
	if (!u->prof_verifying)
		return;
	while (!atomic_load(&u->prof_lead->prof_trained) && !run_stopped(ctx))
		run_nap();
	pthread_mutex_lock(&ctx->pred_lock);
	verifying(ctx, u, 0);
	check_shares(ctx);
	pthread_mutex_unlock(&ctx->pred_lock);
	u->prof_verifying = 0;
}

void run_summarize_shares(struct run_result *out, struct run_ctx *ctx)
{
	/* This run's and the journal's. */
	for (size_t i = 0; i < ctx->nunits; i++) {
		const struct build_record *b = journal_find_build(ctx->j, ctx->units[i].key);

		out->trainings_shared += b && b->profile_from[0];
	}
	if (!ctx->nlate)
		return;
	check_shares(ctx);
	out->shares = xcalloc(ctx->nlate, sizeof(*out->shares));
	out->nshares = ctx->nlate;
	for (size_t k = 0; k < ctx->nlate; k++) {
		const struct late_kind *lk = &ctx->late[k];
		struct run_share *r = &out->shares[k];

		r->kind = xstrdup(lk->kind);
		r->checked = lk->state == PRED_CONFIRMED ? 1 : lk->state == PRED_REFUTED ? -1 : 0;
		if (lk->twin) {
			memcpy(r->twin, lk->twin->cfg.id, sizeof(r->twin));
			memcpy(r->lead, lk->lead->cfg.id, sizeof(r->lead));
		}
	}
}
