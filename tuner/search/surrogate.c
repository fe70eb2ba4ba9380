/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * surrogate: tuner's model-based multi-objective strategy; see
 * include/tuner/strategy.h and docs/search.md. The strategy is here, its
 * model (points 2 and 3, predictions, the odds of building) in
 * surrogate_model.c and surrogate_screen.c, its candidates and the choice
 * among them (points 4 and 5) in surrogate_acquire.c, behind
 * surrogate_priv.h.
 *
 * What it assumes about flag spaces: most flags do nothing for a given
 * program, a few matter a lot, interactions are sparse and mostly with
 * the one that matters most (the -O level), and every measurement is
 * noisy (run and layout noise).
 *
 *  1. A balanced initial design: n0 = 1 + sum(values - 1) + 2 (the main
 *     effects' parameters and two), at least 8 and at most a third of
 *     the budget. Each dimension's column cycles through its values in
 *     random order and is shuffled on its own, so every value is measured
 *     about equally often and the columns are close to orthogonal; a swap
 *     in each column makes the first proposal the baseline (every
 *     dimension at its first value, the study's own setting).
 *  2. Per objective, a ridge regression of the log values (the raw values
 *     when one is not positive) on one-hot main effects, fitted as a
 *     Bayesian-bootstrap ensemble (16 fits with Exp(1) weights on the
 *     observations): the ensemble's spread is the model's uncertainty,
 *     and the measurement noise is in it.
 *  3. Screening: forward selection of the dimensions that matter to an
 *     objective, each dimension's effect given those already in tested
 *     against a permutation null (a max-statistic test, 5% for the whole
 *     family of dimensions). The dimension that matters most (often the
 *     -O level) gets interaction terms with every other dimension once
 *     the observations are at least the terms, so that its values each
 *     have the others' effects of their own (-Os takes alignment's size
 *     cost away).
 *  4. Candidates: every configuration not yet proposed when there are at
 *     most 30,000 of them; else 3,000 random ones, every one-value change
 *     of a front member and 1,000 changes of two or three values of a
 *     front member among the dimensions that matter.
 *  5. Acquisition: Monte Carlo expected hypervolume improvement over the
 *     ensemble (each fit's prediction is one sample) against the front of
 *     the feasible measured means, with the reference point 10% of the
 *     range beyond the worst feasible value; a sample that breaks a hard
 *     limit improves nothing, so the acquisition is EHVI times the
 *     probability of being feasible. Batches by the "believer" rule: the
 *     chosen candidate's mean prediction joins the front before the next
 *     one is chosen. When no candidate improves the front in any sample,
 *     the one the ensemble is least sure of is measured.
 *     A quarter of each batch (after the racing) is drawn at random
 *     from the configurations one value away from the measured front,
 *     the member by the hypervolume it holds alone (near_front()): a
 *     hedge against what the model gets wrong.
 *  6. Racing (when the caller can measure a configuration again): up to
 *     half of a batch (less early on) measures again a configuration
 *     whose place on the measured front is within two standard errors of
 *     the difference of changing, the most hypervolume at stake first
 *     (strategy_race(), shared with nsga2), and only a call whose
 *     expected loss is at least the best candidate's expected
 *     hypervolume improvement (point 5): a wrong call must cost more
 *     than a new configuration would add; a
 *     configuration's observations are averaged for the front, each is a
 *     row for the model.
 *
 * The RNG is reseeded from the seed and the number of observations at
 * each ask: a replay with the same observations gives the same batches.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "surrogate_priv.h"

/* 1/LOCAL_SHARE of each batch after the racing goes near the front
 * (near_front()), chosen as a hedge, not on bench/search's data */
#define LOCAL_SHARE 4
struct surrogate {
	struct problem p;
	uint64_t proposed;
	size_t n0, batch;
	struct pickset seen;
};

static int surrogate_init(void **out, const struct strategy_problem *sp)
{
	struct surrogate *g = xcalloc(1, sizeof(*g));
	size_t n0 = surrogate_main_params(sp->s) + 2;

	strategy_problem_copy(&g->p, sp);
	if (n0 < 8)
		n0 = 8;
	if (n0 > g->p.budget / 3)
		n0 = (size_t)(g->p.budget / 3);
	if (n0 < 2)
		n0 = g->p.budget < 2 ? (size_t)g->p.budget : 2;
	g->n0 = n0;
	g->batch = (size_t)(g->p.budget / 20);
	g->batch = g->batch < 2 ? 2 : g->batch > 8 ? 8 : g->batch;
	*out = g;
	return 0;
}

/* ---- The initial design ---- */

/* Point 1: want picks into picks, the first of them the baseline (every
 * dimension at its first value), none proposed before. Returns how many. */
static size_t initial_design(struct surrogate *g, size_t *picks, size_t want, struct rng *r)
{
	const struct space *s = g->p.s;
	size_t nd = g->p.ndims, n = 0;
	size_t *col = xcalloc(want + 1, sizeof(*col));

	for (size_t d = 0; d < nd; d++) {
		size_t nv = s->dims[d].nvalues;

		for (size_t i = 0; i < want; i++)
			col[i] = i % nv;
		for (size_t i = want; i > 1; i--) {
			size_t j = (size_t)rng_below(r, i), t = col[i - 1];

			col[i - 1] = col[j];
			col[j] = t;
		}
		/* The first row is the baseline: a 0 of the column (row 0
		 * holds one, i % nv) swapped into it keeps the column's counts. */
		for (size_t i = 0; i < want; i++)
			if (!col[i]) {
				col[i] = col[0];
				col[0] = 0;
				break;
			}
		for (size_t i = 0; i < want; i++)
			picks[i * nd + d] = col[i];
	}
	free(col);
	/* Repeats get a dimension redrawn until new. */
	for (size_t i = 0; i < want; i++) {
		size_t *pk = picks + n * nd;

		if (pk != picks + i * nd)
			memcpy(pk, picks + i * nd, nd * sizeof(*pk));
		for (int tries = 0; strategy_pickset_has(&g->seen, pk, nd); tries++) {
			if (tries > 64 || !nd) {
				strategy_random_pick(pk, s, r);
			} else {
				size_t d = (size_t)rng_below(r, nd);

				pk[d] = (size_t)rng_below(r, s->dims[d].nvalues);
			}
		}
		strategy_pickset_add(&g->seen, pk, nd);
		n++;
	}
	return n;
}

/*
 * The front of the feasible measured means (a configuration measured
 * more than once: the mean of its measurements): the observations into
 * front, their means into frontv (in pareto_hypervolume_order()); and
 * the reference point into ref (strategy_measured_ref()). Returns the front's size.
 */
static size_t measured_front(size_t *front, double *frontv, double *ref, const struct problem *p,
			     const struct measured *ms)
{
	size_t m = p->nobjs, nfront = 0;
	const double *ym = ms->ymean;
	char *on = xcalloc(ms->nobs + 1, sizeof(*on));

	strategy_measured_on_front(on, p, ms);
	for (size_t i = 0; i < ms->nobs; i++)
		if (on[i]) {
			memcpy(frontv + nfront * m, ym + i * m, m * sizeof(*ym));
			front[nfront++] = i;
		}
	free(on);
	strategy_measured_ref(ref, p, ms);
	pareto_hypervolume_order(frontv, nfront, m);
	return nfront;
}

/* ---- Racing: measuring again what may be on the front by luck ---- */

/*
 * Point 6: up to strategy_race_quota() of the batch, by strategy_race(); until
 * configurations measured again give a noise estimate of their own, the
 * noise is the relative spread of the observations around the model's
 * predictions, which holds the model's misfit too and so overstates it
 * (more racing early, never less); a call whose expected loss is below
 * gain (the best candidate's expected hypervolume improvement) does not
 * race. Writes the picks at picks[0..] and returns how many.
 */
static size_t race(struct surrogate *g, size_t *picks, size_t want, const struct model *mdl,
		   const struct strategy_obs *obs, const struct measured *ms, double gain)
{
	const struct problem *p = &g->p;
	size_t m = p->nobjs, n;
	double *sigma = xcalloc(m + 1, sizeof(*sigma)), *pm = xcalloc(m + 1, sizeof(*pm));

	if (want < 2 || p->budget - g->proposed < 2) {
		free(sigma);
		free(pm);
		return 0;
	}
	for (size_t j = 0; j < ms->nrows; j++) {
		size_t i = ms->rows[j];

		surrogate_predict_mean(pm, mdl, p, obs[i].pick);
		for (size_t k = 0; k < m; k++) {
			double r = (ms->y[i * m + k] - pm[k]) / (fabs(pm[k]) + 1e-300);

			sigma[k] += r * r;
		}
	}
	for (size_t k = 0; k < m && ms->nrows; k++)
		sigma[k] = sqrt(sigma[k] / (double)ms->nrows);
	n = strategy_race(picks, strategy_race_quota(g->proposed, p->budget, want, ms), p, obs, ms,
			  sigma, gain);
	free(sigma);
	free(pm);
	return n;
}

/* ---- Near the front: the hedge against the model ---- */

/*
 * Point 5a: LOCAL_SHARE of the rest of the batch (at least one when two
 * or more are left) are configurations one value away from a member of
 * the measured front, not proposed before, drawn at random: what the
 * model's fit gets wrong (an interaction it lacks, an effect it averages
 * over levels that change everything) cannot keep the search from the
 * front's neighbourhood, where the few flags that matter are. The member
 * is drawn first, with odds in proportion to the hypervolume it holds
 * alone (strategy_front_stakes()), so that a cluster of near-twins on the front,
 * each holding almost nothing, does not take the hedge; then one of its
 * neighbours. Writes at picks[n..] and returns the new n.
 */
static size_t near_front(struct surrogate *g, size_t *picks, size_t n, size_t want,
			 const size_t *front, size_t nfront, const struct strategy_obs *obs,
			 const struct measured *ms, struct rng *r)
{
	const struct space *s = g->p.s;
	size_t nd = g->p.ndims, left = want - n, take;
	size_t *pick = xcalloc(nd + 1, sizeof(*pick)), *near = NULL, nalloc = 0;
	double *stake = xcalloc(ms->nobs + 1, sizeof(*stake));
	double *wt = xcalloc(nfront + 1, sizeof(*wt));
	char *on = xcalloc(ms->nobs + 1, sizeof(*on));

	take = (size_t)ceil((double)left / LOCAL_SHARE);
	if (left < 2 || !nfront)
		take = 0;
	if (take) {
		/* front[] is strategy_measured_on_front()'s set, in order */
		for (size_t f = 0; f < nfront; f++)
			on[front[f]] = 1;
		strategy_front_stakes(stake, &g->p, ms, on);
	}
	for (size_t f = 0; f < nfront; f++)
		wt[f] = stake[front[f]];
	while (take) {
		double sum = 0, u;
		size_t f, nn = 0;

		for (f = 0; f < nfront; f++)
			sum += wt[f] > 0 ? wt[f] : 0;
		if (!(sum > 0)) {
			/* no member holds anything alone (or all are spent):
			 * every one with a neighbour left, alike */
			for (f = 0; f < nfront; f++)
				wt[f] = wt[f] < 0 ? wt[f] : 1;
			for (f = 0, sum = 0; f < nfront; f++)
				sum += wt[f] > 0 ? wt[f] : 0;
			if (!(sum > 0))
				break;
		}
		u = rng_double(r) * sum;
		for (f = 0; f + 1 < nfront && (wt[f] <= 0 || u >= wt[f]); f++)
			u -= wt[f] > 0 ? wt[f] : 0;
		for (size_t d = 0; d < nd; d++)
			for (size_t v = 0; v < s->dims[d].nvalues; v++) {
				memcpy(pick, obs[front[f]].pick, nd * sizeof(*pick));
				if (v == pick[d])
					continue;
				pick[d] = v;
				if (strategy_pickset_has(&g->seen, pick, nd))
					continue;
				ALLOC_GROW(near, (nn + 1) * nd, nalloc);
				memcpy(near + nn++ * nd, pick, nd * sizeof(*pick));
			}
		if (!nn) {
			wt[f] = -1; /* every neighbour proposed */
			continue;
		}
		memcpy(picks + n * nd, near + rng_below(r, nn) * nd, nd * sizeof(*pick));
		strategy_pickset_add(&g->seen, picks + n * nd, nd);
		n++;
		take--;
	}
	free(near);
	free(pick);
	free(stake);
	free(wt);
	free(on);
	return n;
}

static long surrogate_ask(void *state, size_t *picks, size_t max,
			  const struct strategy_obs *obs, size_t nobs)
{
	struct surrogate *g = state;
	const struct problem *p = &g->p;
	size_t m = p->nobjs, want, n = 0, nfront, *front;
	struct rng r;
	struct model mdl = { 0 };
	struct cand_pool pl = { 0 };
	struct measured ms;
	double *frontv, *ref;

	if (strategy_check_obs("surrogate", nobs, g->proposed) < 0)
		return -1;
	if (g->proposed >= p->budget)
		return 0;
	rng_seed(&r, mix64(p->seed ^ 0x7375727267617465ULL) + nobs);
	if (nobs == 0) {
		want = g->n0 < max ? g->n0 : max;
		n = initial_design(g, picks, want, &r);
		g->proposed += n;
		return (long)n;
	}
	want = g->batch;
	if (want > max)
		want = max;
	if (want > p->budget - g->proposed)
		want = (size_t)(p->budget - g->proposed);

	strategy_measured_init(&ms, p, obs, nobs);
	surrogate_model_fit(&mdl, p, obs, ms.rows, ms.nrows, &r);
	front = xcalloc(nobs + 1, sizeof(*front));
	frontv = xcalloc((nobs + want + 1) * m + 1, sizeof(*frontv));
	ref = xcalloc(m + 1, sizeof(*ref));
	nfront = measured_front(front, frontv, ref, p, &ms);
	surrogate_candidates(&pl, p, &g->seen, &mdl, front, nfront, obs, &r);
	pl.pok = surrogate_success_odds(p, obs, nobs, ms.usable, pl.picks, pl.n, &r);
	surrogate_predict_pool(&pl.pred, &pl.spread, &mdl, p, pl.picks, pl.n);
	/* a call is raced when a wrong one would cost more than the best new
	 * configuration is expected to add */
	if (p->repeats && isfinite(ref[0]))
		n = race(g, picks, want, &mdl, obs, &ms,
			 surrogate_best_gain(p, &pl, frontv, nfront, ref));
	surrogate_pool_ref(ref, &pl, m);
	n = near_front(g, picks, n, want, front, nfront, obs, &ms, &r);
	n = surrogate_acquire(picks, n, want, &g->seen, p, &pl, frontv, nfront, ref);
	g->proposed += n;
	strategy_measured_release(&ms);
	free(front);
	free(frontv);
	free(ref);
	surrogate_cand_pool_release(&pl);
	surrogate_model_release(&mdl);
	return (long)n;
}

/* One dimension's place in an objective's line. */
struct effect {
	size_t d, v;
	double coef, score;
};

static int by_score(const void *a, const void *b)
{
	const struct effect *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->d < y->d ? -1 : x->d > y->d;
}

/*
 * What matters, by the model fitted on every observation: per objective,
 * the dimensions that pass the screening (point 3), the clearest first
 * (at most 12), each with its value of largest effect against the
 * dimension's first value (surrogate_model_effects(): a fit of the dimensions that
 * matter alone), as a relative change (log models) or a difference.
 */
static char *surrogate_describe(void *state, const char *const *names,
				const struct strategy_obs *obs, size_t nobs)
{
	struct surrogate *g = state;
	const struct problem *p = &g->p;
	const struct space *s = p->s;
	size_t m = p->nobjs, nd = p->ndims, nrows;
	size_t *rows = xcalloc(nobs + 1, sizeof(*rows));
	int *usable = xcalloc(nobs + 1, sizeof(*usable));
	struct effect *eff = xcalloc(nd + 1, sizeof(*eff));
	struct model mdl = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct rng r;
	double *coef;

	nrows = strategy_usable_rows(rows, usable, obs, nobs, m);
	if (nrows < 3) {
		free(rows);
		free(usable);
		free(eff);
		return NULL;
	}
	rng_seed(&r, mix64(p->seed ^ 0x7375727267617465ULL) + nobs);
	surrogate_model_fit(&mdl, p, obs, rows, nrows, &r);
	coef = xcalloc(surrogate_main_params(s), sizeof(*coef));
	for (size_t k = 0; k < m; k++) {
		size_t ne = 0;

		surrogate_model_effects(coef, &mdl, p, obs, rows, nrows, k);
		for (size_t d = 0, col = 0; d < nd; col += s->dims[d].nvalues - 1, d++) {
			double best = 0;
			size_t bestv = 0;

			if (!(mdl.clear[k * nd + d] > 1))
				continue;
			for (size_t v = 1; v < s->dims[d].nvalues; v++)
				if (fabs(coef[col + v - 1]) > fabs(best)) {
					best = coef[col + v - 1];
					bestv = v;
				}
			eff[ne++] = (struct effect){ d, bestv, best, mdl.clear[k * nd + d] };
		}
		qsort(eff, ne, sizeof(*eff), by_score);
		strbuf_addf(&sb, "%s%s: ", k ? "\n" : "", names[k]);
		if (!ne)
			strbuf_addstr(&sb, "no dimension clearly matters");
		for (size_t i = 0; i < ne && i < 12; i++) {
			const char *v = s->dims[eff[i].d].values[eff[i].v];

			if (mdl.logged[k])
				strbuf_addf(&sb, "%s%s %+.1f%%", i ? ", " : "", *v ? v : "\"\"",
					    (exp(eff[i].coef) - 1) * 100);
			else
				strbuf_addf(&sb, "%s%s %+.4g", i ? ", " : "", *v ? v : "\"\"",
					    eff[i].coef);
		}
		strbuf_addf(&sb, " (%zu of %zu dimensions matter, by %zu measurements)", ne,
			    p->ndims, nrows);
	}
	surrogate_model_release(&mdl);
	free(coef);
	free(rows);
	free(usable);
	free(eff);
	return strbuf_detach(&sb);
}

static void surrogate_free(void *state)
{
	struct surrogate *g = state;

	if (!g)
		return;
	strategy_problem_release(&g->p);
	strategy_pickset_release(&g->seen);
	free(g);
}

const struct strategy_ops surrogate_strategy = {
	"surrogate", 1, surrogate_init, surrogate_ask, surrogate_free, surrogate_describe,
};
