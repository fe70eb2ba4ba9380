/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * surrogate: tuner's model-based multi-objective strategy; see
 * include/tuner/strategy.h and docs/search.md.
 *
 * What it assumes about flag spaces: most flags do nothing for a given
 * program, a few matter a lot, interactions are sparse and between flags
 * that matter, and every measurement is noisy (run and layout noise).
 *
 *  1. A balanced initial design: n0 = 1 + sum(values - 1) + 2 (the main
 *     effects' parameters and two), at least 8 and at most a third of
 *     the budget. Each dimension's column cycles through its values in
 *     random order and is shuffled on its own, so every value is measured
 *     about equally often and the columns are close to orthogonal.
 *  2. Per objective, a ridge regression of the log values (the raw values
 *     when one is not positive) on one-hot main effects, fitted as a
 *     Bayesian-bootstrap ensemble (16 fits with Exp(1) weights on the
 *     observations): the ensemble's spread is the model's uncertainty,
 *     and the measurement noise is in it.
 *  3. Screening: a dimension matters to an objective when its effect
 *     range (the largest minus the smallest value coefficient) is more
 *     than twice its spread over the ensemble. Pairwise interaction terms
 *     are added among the (at most 5) dimensions that matter most, once
 *     the observations outnumber the terms by 5.
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
 *  6. Racing (when the caller can measure a configuration again): up to
 *     a quarter of a batch measures again a configuration whose place on
 *     the front may be luck (race()); a configuration's observations are
 *     averaged for the front, and each is a row for the model.
 *
 * The RNG is reseeded from the seed and the number of observations at
 * each ask: a replay with the same observations gives the same batches.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strategy_priv.h"

#define ENSEMBLE 16
#define MAX_INTER_DIMS 5
#define RIDGE 0.5
#define ENUM_MAX 30000
#define POOL_RANDOM 3000
#define POOL_MUTANTS 1000
/* Racing: at most this many measurements of a configuration; a mean
 * this many standard errors from the model's prediction; up to
 * RACE_SHARE/8 of a batch once RACE_RAMP times the budget's spent share
 * reaches 1 (chosen on a synthetic oracle, not on bench/search's data). */
#define RACE_MAX 4
#define RACE_Z 1
#define RACE_RAMP 2
#define RACE_SHARE 4

struct surrogate {
	struct problem p;
	uint64_t proposed;
	size_t n0, batch;
	struct pickset seen;
};

/* The model's terms: main effects (dim, value >= 1) and interactions
 * (dims d1 < d2, values >= 1 each). */
struct term {
	size_t d1, v1, d2, v2; /* d2 == SIZE_MAX: a main effect */
};

struct model {
	struct term *terms;
	size_t nterms;                 /* columns 1.. (0 is the intercept) */
	double *beta;                  /* ENSEMBLE x nobjs x (1 + nterms) */
	int *logged;                   /* nobjs: modelled the log */
	int *matters;                  /* ndims: matters to some objective */
	double *score;                 /* ndims: effect range / spread, max over objectives */
};

static size_t main_params(const struct space *s)
{
	size_t p = 1;

	for (size_t d = 0; d < s->ndims; d++)
		p += s->dims[d].nvalues - 1;
	return p;
}

static int surrogate_init(void **out, const struct strategy_problem *sp)
{
	struct surrogate *g = xcalloc(1, sizeof(*g));
	size_t n0 = main_params(sp->s) + 2;

	problem_copy(&g->p, sp);
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
		for (size_t i = 0; i < want; i++)
			picks[i * nd + d] = col[i];
	}
	free(col);
	/* Repeats get a dimension redrawn until new. */
	for (size_t i = 0; i < want; i++) {
		size_t *pk = picks + n * nd;

		if (pk != picks + i * nd)
			memcpy(pk, picks + i * nd, nd * sizeof(*pk));
		for (int tries = 0; pickset_has(&g->seen, pk, nd); tries++) {
			if (tries > 64 || !nd) {
				random_pick(pk, s, r);
			} else {
				size_t d = (size_t)rng_below(r, nd);

				pk[d] = (size_t)rng_below(r, s->dims[d].nvalues);
			}
		}
		pickset_add(&g->seen, pk, nd);
		n++;
	}
	return n;
}

/* ---- The model ---- */

static double term_x(const struct term *t, const size_t *pick)
{
	if (pick[t->d1] != t->v1)
		return 0;
	if (t->d2 != SIZE_MAX && pick[t->d2] != t->v2)
		return 0;
	return 1;
}

/* Cholesky solve of a (p x p, symmetric positive definite, overwritten)
 * with b (overwritten by x). 0, or -1 when not positive definite. */
static int chol_solve(double *a, double *b, size_t p)
{
	for (size_t j = 0; j < p; j++) {
		double s = a[j * p + j];

		for (size_t k = 0; k < j; k++)
			s -= a[j * p + k] * a[j * p + k];
		if (!(s > 0))
			return -1;
		a[j * p + j] = sqrt(s);
		for (size_t i = j + 1; i < p; i++) {
			double t = a[i * p + j];

			for (size_t k = 0; k < j; k++)
				t -= a[i * p + k] * a[j * p + k];
			a[i * p + j] = t / a[j * p + j];
		}
	}
	for (size_t i = 0; i < p; i++) {
		double t = b[i];

		for (size_t k = 0; k < i; k++)
			t -= a[i * p + k] * b[k];
		b[i] = t / a[i * p + i];
	}
	for (size_t i = p; i-- > 0;) {
		double t = b[i];

		for (size_t k = i + 1; k < p; k++)
			t -= a[k * p + i] * b[k];
		b[i] = t / a[i * p + i];
	}
	return 0;
}

/* Weighted ridge fit of t on the terms (intercept not penalised). */
static void ridge_fit(double *beta, const struct term *terms, size_t nterms, const size_t *rows,
		      const double *t, const double *w, size_t n, size_t nd,
		      const struct strategy_obs *obs)
{
	size_t p = nterms + 1;
	double *a = xcalloc(p * p, sizeof(*a)), *x = xcalloc(p, sizeof(*x));

	memset(beta, 0, p * sizeof(*beta));
	for (size_t i = 0; i < n; i++) {
		const size_t *pick = obs[rows[i]].pick;

		x[0] = 1;
		for (size_t k = 0; k < nterms; k++)
			x[k + 1] = term_x(&terms[k], pick);
		for (size_t r = 0; r < p; r++) {
			if (!x[r])
				continue;
			beta[r] += w[i] * x[r] * t[i];
			for (size_t c = 0; c <= r; c++)
				a[r * p + c] += w[i] * x[r] * x[c];
		}
	}
	for (size_t r = 0; r < p; r++) {
		for (size_t c = r + 1; c < p; c++)
			a[r * p + c] = a[c * p + r];
		if (r)
			a[r * p + r] += RIDGE;
		else
			a[0] += 1e-9;
	}
	if (chol_solve(a, beta, p) < 0)
		memset(beta, 0, p * sizeof(*beta));
	(void)nd;
	free(a);
	free(x);
}

static double predict(const double *beta, const struct term *terms, size_t nterms,
		      const size_t *pick)
{
	double v = beta[0];

	for (size_t k = 0; k < nterms; k++)
		if (term_x(&terms[k], pick))
			v += beta[k + 1];
	return v;
}

static void main_terms(struct term **out, size_t *n, const struct space *s)
{
	*out = xcalloc(main_params(s), sizeof(**out));
	*n = 0;
	for (size_t d = 0; d < s->ndims; d++)
		for (size_t v = 1; v < s->dims[d].nvalues; v++)
			(*out)[(*n)++] = (struct term){ d, v, SIZE_MAX, 0 };
}

/*
 * Fits the ensemble on the usable observations rows[0..n) with targets
 * t (n x nobjs) and weights w (ENSEMBLE x n) into mdl->beta.
 */
static void fit_ensemble(struct model *mdl, const struct problem *p, const size_t *rows,
			 const double *t, const double *w, size_t n,
			 const struct strategy_obs *obs)
{
	size_t m = p->nobjs, np = mdl->nterms + 1;
	double *tk = xcalloc(n + 1, sizeof(*tk));

	free(mdl->beta);
	mdl->beta = xcalloc(ENSEMBLE * m * np, sizeof(*mdl->beta));
	for (size_t k = 0; k < m; k++) {
		for (size_t i = 0; i < n; i++)
			tk[i] = t[i * m + k];
		for (size_t b = 0; b < ENSEMBLE; b++)
			ridge_fit(mdl->beta + (b * m + k) * np, mdl->terms, mdl->nterms, rows, tk,
				  w + b * n, n, p->ndims, obs);
	}
	free(tk);
}

/* Screening (point 3): mdl->matters and mdl->score from a main-effects
 * ensemble. */
static void screen(struct model *mdl, const struct problem *p)
{
	size_t m = p->nobjs, np = mdl->nterms + 1;

	mdl->matters = xcalloc(p->ndims + 1, sizeof(*mdl->matters));
	mdl->score = xcalloc(p->ndims + 1, sizeof(*mdl->score));
	for (size_t k = 0; k < m; k++) {
		for (size_t d = 0, col = 1; d < p->ndims; d++) {
			size_t nv = p->s->dims[d].nvalues;
			double sum = 0, sq = 0, mean, sd;

			if (nv < 2)
				continue;
			for (size_t b = 0; b < ENSEMBLE; b++) {
				const double *beta = mdl->beta + (b * m + k) * np;
				double lo = 0, hi = 0, r;

				for (size_t v = 1; v < nv; v++) {
					double c = beta[col + v - 1];

					lo = c < lo ? c : lo;
					hi = c > hi ? c : hi;
				}
				r = hi - lo;
				sum += r;
				sq += r * r;
			}
			mean = sum / ENSEMBLE;
			sd = sqrt(fmax(0, sq / ENSEMBLE - mean * mean));
			if (mean > 2 * sd && mean > 0) {
				double sc = sd > 0 ? mean / sd : HUGE_VAL;

				mdl->matters[d] = 1;
				if (sc > mdl->score[d])
					mdl->score[d] = sc;
			}
			col += nv - 1;
		}
	}
}

/* Adds interaction terms among the dimensions that matter most. */
static void add_interactions(struct model *mdl, const struct problem *p, size_t nobs)
{
	size_t top[MAX_INTER_DIMS], ntop = 0, extra = 0;
	const struct space *s = p->s;

	for (size_t d = 0; d < p->ndims; d++) {
		size_t i;

		if (!mdl->matters[d])
			continue;
		for (i = ntop; i > 0 && mdl->score[top[i - 1]] < mdl->score[d]; i--)
			if (i < MAX_INTER_DIMS)
				top[i] = top[i - 1];
		if (i < MAX_INTER_DIMS) {
			top[i] = d;
			if (ntop < MAX_INTER_DIMS)
				ntop++;
		}
	}
	for (size_t a = 0; a < ntop; a++)
		for (size_t b = a + 1; b < ntop; b++)
			extra += (s->dims[top[a]].nvalues - 1) * (s->dims[top[b]].nvalues - 1);
	if (!extra || nobs < mdl->nterms + 1 + extra + 5)
		return;
	mdl->terms = xrealloc(mdl->terms, (mdl->nterms + extra) * sizeof(*mdl->terms));
	for (size_t a = 0; a < ntop; a++)
		for (size_t b = a + 1; b < ntop; b++) {
			size_t d1 = top[a] < top[b] ? top[a] : top[b];
			size_t d2 = top[a] < top[b] ? top[b] : top[a];

			for (size_t v1 = 1; v1 < s->dims[d1].nvalues; v1++)
				for (size_t v2 = 1; v2 < s->dims[d2].nvalues; v2++)
					mdl->terms[mdl->nterms++] = (struct term){ d1, v1, d2, v2 };
		}
}

static void model_release(struct model *mdl)
{
	free(mdl->terms);
	free(mdl->beta);
	free(mdl->logged);
	free(mdl->matters);
	free(mdl->score);
	memset(mdl, 0, sizeof(*mdl));
}

/* The ensemble's predictions of pick as minimised values: out[b * m + k]. */
static void predict_all(double *out, const struct model *mdl, const struct problem *p,
			const size_t *pick)
{
	size_t m = p->nobjs, np = mdl->nterms + 1;

	for (size_t b = 0; b < ENSEMBLE; b++)
		for (size_t k = 0; k < m; k++) {
			double v = predict(mdl->beta + (b * m + k) * np, mdl->terms, mdl->nterms, pick);

			if (mdl->logged[k])
				v = exp(v);
			out[b * m + k] = p->objs[k].maximize ? -v : v;
		}
}

/* ---- Fitting ---- */

/* The observations a model can learn from (not failed, every value
 * finite): their indices into rows, usable[i] 1 for them. Returns how many. */
static size_t usable_rows(size_t *rows, int *usable, const struct strategy_obs *obs, size_t nobs,
			  size_t m)
{
	size_t n = 0;

	for (size_t i = 0; i < nobs; i++) {
		size_t k;

		if (obs[i].failed)
			continue;
		for (k = 0; k < m; k++)
			if (!isfinite(obs[i].value[k]))
				break;
		if (k == m) {
			rows[n++] = i;
			usable[i] = 1;
		}
	}
	return n;
}

/* Points 2 and 3: the ensemble on the observations rows[0..nrows), the
 * screening, the interactions. Caller releases mdl with model_release(). */
static void model_fit(struct model *mdl, const struct problem *p, const struct strategy_obs *obs,
		      const size_t *rows, size_t nrows, struct rng *r)
{
	size_t m = p->nobjs;
	double *t, *w;

	mdl->logged = xcalloc(m + 1, sizeof(*mdl->logged));
	for (size_t k = 0; k < m; k++) {
		mdl->logged[k] = 1;
		for (size_t i = 0; i < nrows; i++)
			if (!(obs[rows[i]].value[k] > 0))
				mdl->logged[k] = 0;
	}
	t = xcalloc(nrows * m + 1, sizeof(*t));
	for (size_t i = 0; i < nrows; i++)
		for (size_t k = 0; k < m; k++) {
			double v = obs[rows[i]].value[k];

			t[i * m + k] = mdl->logged[k] ? log(v) : v;
		}
	w = xcalloc(ENSEMBLE * nrows + 1, sizeof(*w));
	for (size_t i = 0; i < ENSEMBLE * nrows; i++)
		w[i] = -log(1.0 - rng_double(r));
	main_terms(&mdl->terms, &mdl->nterms, p->s);
	fit_ensemble(mdl, p, rows, t, w, nrows, obs);
	screen(mdl, p);
	add_interactions(mdl, p, nrows);
	if (mdl->nterms > main_params(p->s) - 1)
		fit_ensemble(mdl, p, rows, t, w, nrows, obs);
	free(t);
	free(w);
}

/* ---- Candidates ---- */

struct pool {
	size_t *picks;
	size_t n, alloc, nd;
	struct pickset in;
};

static void pool_add(struct pool *pl, const struct pickset *seen, const size_t *pick)
{
	if (pickset_has(seen, pick, pl->nd) || !pickset_add(&pl->in, pick, pl->nd))
		return;
	ALLOC_GROW(pl->picks, (pl->n + 1) * (pl->nd ? pl->nd : 1), pl->alloc);
	memcpy(pl->picks + pl->n * pl->nd, pick, pl->nd * sizeof(*pick));
	pl->n++;
}

static void candidates(struct pool *pl, struct surrogate *g, const struct model *mdl,
		       const size_t *front, size_t nfront, const struct strategy_obs *obs,
		       struct rng *r)
{
	const struct space *s = g->p.s;
	size_t nd = g->p.ndims;
	uint64_t size = space_size(s);
	size_t *pick = xcalloc(nd + 1, sizeof(*pick)), nmatter = 0, *matter;

	pl->nd = nd;
	if (!space_beyond_u64(s) && size - g->seen.n <= ENUM_MAX) {
		for (uint64_t i = 0; i < size; i++) {
			space_index_pick(pick, s, i);
			pool_add(pl, &g->seen, pick);
		}
		free(pick);
		return;
	}
	matter = xcalloc(nd + 1, sizeof(*matter));
	for (size_t d = 0; d < nd; d++)
		if (mdl->matters[d] && s->dims[d].nvalues > 1)
			matter[nmatter++] = d;
	for (size_t i = 0; i < POOL_RANDOM; i++) {
		random_pick(pick, s, r);
		pool_add(pl, &g->seen, pick);
	}
	for (size_t f = 0; f < nfront; f++) {
		const size_t *base = obs[front[f]].pick;

		for (size_t d = 0; d < nd; d++)
			for (size_t v = 0; v < s->dims[d].nvalues; v++) {
				if (v == base[d])
					continue;
				memcpy(pick, base, nd * sizeof(*pick));
				pick[d] = v;
				pool_add(pl, &g->seen, pick);
			}
	}
	for (size_t i = 0; nfront && i < POOL_MUTANTS; i++) {
		size_t changes = 2 + (size_t)rng_below(r, 2);

		memcpy(pick, obs[front[rng_below(r, nfront)]].pick, nd * sizeof(*pick));
		for (size_t c = 0; c < changes; c++) {
			size_t d = nmatter ? matter[rng_below(r, nmatter)] : (size_t)rng_below(r, nd);

			pick[d] = (size_t)rng_below(r, s->dims[d].nvalues);
		}
		pool_add(pl, &g->seen, pick);
	}
	free(matter);
	free(pick);
}

/* ---- Acquisition ---- */

/* 2-D hypervolume of the front (nf rows sorted by objective 0, then 1)
 * with y among it, in one sweep. */
static double hv2_with(const double *front, size_t nf, const double *y, const double *ref)
{
	double v = 0, best1 = ref[1];
	int placed = !(y[0] < ref[0] && y[1] < ref[1]);

	for (size_t i = 0;;) {
		const double *q;

		if (!placed && (i == nf || y[0] < front[i * 2] ||
				(y[0] == front[i * 2] && y[1] <= front[i * 2 + 1]))) {
			q = y;
			placed = 1;
		} else if (i < nf) {
			q = front + i++ * 2;
		} else {
			break;
		}
		if (q[0] < ref[0] && q[1] < best1) {
			v += (ref[0] - q[0]) * (best1 - q[1]);
			best1 = q[1];
		}
	}
	return v;
}

static int by_first(const void *a, const void *b)
{
	const double *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* HV(front + y) - HV(front); front: nf rows of m (sorted by by_first()
 * when m == 2), with room for one more. */
static double hvi(double *front, size_t nf, const double *y, size_t m, const double *ref,
		  double base)
{
	double v;

	if (m == 2) {
		v = hv2_with(front, nf, y, ref) - base;
	} else {
		memcpy(front + nf * m, y, m * sizeof(*y));
		v = strategy_hypervolume(front, nf + 1, m, ref) - base;
	}
	/* Rounding leaves a point on the front a tiny negative gain. */
	return v > 0 ? v : 0;
}

static int feasible_pred(const struct problem *p, const double *y)
{
	for (size_t k = 0; k < p->nobjs; k++) {
		const struct pareto_obj *o = &p->objs[k];
		double v = o->maximize ? -y[k] : y[k];

		if (o->has_limit && (o->maximize ? v < o->limit : v > o->limit))
			return 0;
	}
	return 1;
}

/*
 * When some observations failed (a build or measurement that did not
 * work): the probability that each candidate works, from a main-effects
 * ensemble of the 0/1 outcome (clamped to [0, 1]). NULL when none failed.
 * Caller frees.
 */
static double *success_odds(const struct problem *p, const struct strategy_obs *obs,
			    size_t nobs, const int *usable, const struct pool *pl, struct rng *r)
{
	struct term *mt;
	size_t nmt, nok = 0, *all;
	double *tok, *w, *beta, *pok;

	for (size_t i = 0; i < nobs; i++)
		nok += usable[i] != 0;
	if (nok == nobs)
		return NULL;
	main_terms(&mt, &nmt, p->s);
	all = xcalloc(nobs, sizeof(*all));
	tok = xcalloc(nobs, sizeof(*tok));
	w = xcalloc(nobs, sizeof(*w));
	beta = xcalloc(ENSEMBLE * (nmt + 1), sizeof(*beta));
	for (size_t i = 0; i < nobs; i++) {
		all[i] = i;
		tok[i] = usable[i] ? 1 : 0;
	}
	for (size_t b = 0; b < ENSEMBLE; b++) {
		for (size_t i = 0; i < nobs; i++)
			w[i] = -log(1.0 - rng_double(r));
		ridge_fit(beta + b * (nmt + 1), mt, nmt, all, tok, w, nobs, p->ndims, obs);
	}
	pok = xcalloc(pl->n + 1, sizeof(*pok));
	for (size_t c = 0; c < pl->n; c++) {
		for (size_t b = 0; b < ENSEMBLE; b++)
			pok[c] += fmin(1, fmax(0, predict(beta + b * (nmt + 1), mt, nmt,
							  pl->picks + c * p->ndims)));
		pok[c] /= ENSEMBLE;
	}
	free(mt);
	free(all);
	free(tok);
	free(w);
	free(beta);
	return pok;
}

/* ---- Racing: measuring again what may be on the front by luck ---- */

/*
 * first[i]: the first observation of obs[i]'s configuration; cnt[f] and
 * ymean[f * m ..] (at first observations): how many of its observations
 * are usable and their mean (minimised values).
 */
static void aggregate(size_t *first, size_t *cnt, double *ymean, const double *y,
		      const int *usable, const struct strategy_obs *obs, size_t nobs, size_t nd,
		      size_t m)
{
	size_t cap = 16;
	size_t *slot;

	while (cap < 2 * nobs + 2)
		cap *= 2;
	slot = xcalloc(cap, sizeof(*slot)); /* 1 + first observation; 0: empty */
	for (size_t i = 0; i < nobs; i++) {
		size_t h = (size_t)(pick_hash(obs[i].pick, nd) >> 1) & (cap - 1);

		while (slot[h] && memcmp(obs[slot[h] - 1].pick, obs[i].pick, nd * sizeof(size_t)))
			h = (h + 1) & (cap - 1);
		if (!slot[h])
			slot[h] = i + 1;
		first[i] = slot[h] - 1;
		if (!usable[i])
			continue;
		cnt[first[i]]++;
		for (size_t k = 0; k < m; k++)
			ymean[first[i] * m + k] += y[i * m + k];
	}
	for (size_t i = 0; i < nobs; i++)
		for (size_t k = 0; first[i] == i && cnt[i] && k < m; k++)
			ymean[i * m + k] /= (double)cnt[i];
	free(slot);
}

static int mean_feasible(const struct problem *p, const double *ym)
{
	return feasible_pred(p, ym);
}

/* The ensemble's mean prediction of pick (minimised values) into out. */
static void predict_mean(double *out, const struct model *mdl, const struct problem *p,
			 const size_t *pick)
{
	double *all = xcalloc(ENSEMBLE * p->nobjs, sizeof(*all));

	predict_all(all, mdl, p, pick);
	for (size_t k = 0; k < p->nobjs; k++) {
		out[k] = 0;
		for (size_t b = 0; b < ENSEMBLE; b++)
			out[k] += all[b * p->nobjs + k] / ENSEMBLE;
	}
	free(all);
}

/* How much of a batch may race: a share growing with the budget spent,
 * from none to RACE_SHARE/8 of it (explore first, then settle the front). */
static size_t race_quota(const struct surrogate *g, size_t want)
{
	double spent = (double)g->proposed / (double)g->p.budget;
	size_t q = (size_t)floor((double)want * RACE_SHARE / 8.0 * fmin(1.0, RACE_RAMP * spent) + 0.5);

	return q ? q : 1;
}

struct racer {
	size_t obs;
	double z;
};

static int by_z(const void *a, const void *b)
{
	const struct racer *x = a, *y = b;

	if (x->z != y->z)
		return x->z > y->z ? -1 : 1;
	return x->obs < y->obs ? -1 : x->obs > y->obs;
}

/*
 * Up to a quarter of the batch (at least one) measures again
 * configurations measured fewer than RACE_MAX times whose place on the
 * front may be luck: one on the measured front whose mean is better than
 * the model predicts by more than one standard error of its mean, or one
 * off it whose prediction would be on it and whose mean is worse than
 * predicted by as much. The noise is the relative spread of the
 * observations around the model (misfit included), per objective. Writes
 * the picks at picks[0..] and returns how many.
 */
static size_t race(struct surrogate *g, size_t *picks, size_t want, const struct model *mdl,
		   const struct strategy_obs *obs, size_t nobs, const size_t *first,
		   const size_t *cnt, const double *ymean, const double *y, const int *usable,
		   const size_t *front, size_t nfront, double *frontv, const double *ref)
{
	const struct problem *p = &g->p;
	size_t m = p->nobjs, nd = p->ndims, nr = 0, quota = race_quota(g, want), n = 0;
	double *sigma = xcalloc(m + 1, sizeof(*sigma)), *pm = xcalloc(m + 1, sizeof(*pm));
	double base = strategy_hypervolume(frontv, nfront, m, ref);
	struct racer *rc = xcalloc(nobs + 1, sizeof(*rc));
	char *on = xcalloc(nobs + 1, sizeof(*on));
	size_t nused = 0;

	if (want < 2 || p->budget - g->proposed < 2)
		goto out;
	for (size_t i = 0; i < nfront; i++)
		on[front[i]] = 1;
	for (size_t i = 0; i < nobs; i++) {
		if (!usable[i])
			continue;
		predict_mean(pm, mdl, p, obs[i].pick);
		for (size_t k = 0; k < m; k++) {
			double r = (y[i * m + k] - pm[k]) / (fabs(pm[k]) + 1e-300);

			sigma[k] += r * r;
		}
		nused++;
	}
	for (size_t k = 0; k < m && nused; k++)
		sigma[k] = sqrt(sigma[k] / (double)nused);
	for (size_t i = 0; i < nobs; i++) {
		double z = -HUGE_VAL;

		if (first[i] != i || !cnt[i] || cnt[i] >= RACE_MAX)
			continue;
		predict_mean(pm, mdl, p, obs[i].pick);
		if (!on[i] && !(hvi(frontv, nfront, pm, m, ref, base) > 0))
			continue;
		for (size_t k = 0; k < m; k++) {
			double d = (ymean[i * m + k] - pm[k]) / (fabs(pm[k]) + 1e-300), se;

			if (!(sigma[k] > 0))
				continue;
			se = sigma[k] / sqrt((double)cnt[i]);
			/* on the front: measured better (smaller) than predicted */
			z = fmax(z, (on[i] ? -d : d) / se);
		}
		if (z > RACE_Z)
			rc[nr++] = (struct racer){ i, z };
	}
	qsort(rc, nr, sizeof(*rc), by_z);
	for (size_t i = 0; i < nr && n < quota; i++)
		memcpy(picks + n++ * nd, obs[rc[i].obs].pick, nd * sizeof(*picks));
out:
	free(sigma);
	free(pm);
	free(rc);
	free(on);
	return n;
}

static long surrogate_ask(void *state, size_t *picks, size_t max,
			  const struct strategy_obs *obs, size_t nobs)
{
	struct surrogate *g = state;
	const struct problem *p = &g->p;
	size_t nd = p->ndims, m = p->nobjs, want, n = 0, nrows = 0, nfront = 0;
	struct rng r;
	struct model mdl = { 0 };
	struct pool pl = { 0 };
	double *y, *pred = NULL, *frontv, *ref, *acq, *sdv, *pok, *ymean, base;
	char *taken;
	size_t *rows, *front, *first, *cnt;
	int *feas, *usable;

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

	/* The observations the model learns from: not failed, finite. */
	y = xcalloc(nobs * m + 1, sizeof(*y));
	feas = xcalloc(nobs + 1, sizeof(*feas));
	strategy_points(y, feas, p->objs, m, obs, nobs);
	rows = xcalloc(nobs + 1, sizeof(*rows));
	usable = xcalloc(nobs + 1, sizeof(*usable));
	nrows = usable_rows(rows, usable, obs, nobs, m);
	model_fit(&mdl, p, obs, rows, nrows, &r);

	/* The front of the feasible measured means (a configuration measured
	 * more than once: the mean of its measurements), and the reference
	 * point. */
	first = xcalloc(nobs + 1, sizeof(*first));
	cnt = xcalloc(nobs + 1, sizeof(*cnt));
	ymean = xcalloc(nobs * m + 1, sizeof(*ymean));
	aggregate(first, cnt, ymean, y, usable, obs, nobs, nd, m);
	front = xcalloc(nobs + 1, sizeof(*front));
	frontv = xcalloc((nobs + want + 1) * m + 1, sizeof(*frontv));
	ref = xcalloc(m + 1, sizeof(*ref));
	{
		double *lo = xcalloc(m + 1, sizeof(*lo));
		int any = 0;

		for (size_t i = 0; i < nobs; i++) {
			int dominated = 0;

			if (first[i] != i || !cnt[i] || !mean_feasible(p, ymean + i * m))
				continue;
			for (size_t k = 0; k < m; k++) {
				if (!any || ymean[i * m + k] > ref[k])
					ref[k] = ymean[i * m + k];
				if (!any || ymean[i * m + k] < lo[k])
					lo[k] = ymean[i * m + k];
			}
			any = 1;
			for (size_t j = 0; j < nobs && !dominated; j++)
				dominated = j != i && first[j] == j && cnt[j] &&
					    mean_feasible(p, ymean + j * m) &&
					    mo_dominates(ymean + j * m, NULL, 0, ymean + i * m, NULL, 0,
							 m) > 0;
			if (!dominated) {
				memcpy(frontv + nfront * m, ymean + i * m, m * sizeof(*y));
				front[nfront++] = i;
			}
		}
		if (!any) /* nothing feasible yet: the box of every prediction */
			for (size_t k = 0; k < m; k++)
				ref[k] = HUGE_VAL;
		else
			for (size_t k = 0; k < m; k++)
				ref[k] += 0.1 * (ref[k] - lo[k]) + 1e-9 * fabs(ref[k]);
		free(lo);
	}
	if (m == 2)
		qsort(frontv, nfront, 2 * sizeof(*frontv), by_first);
	if (p->repeats && isfinite(ref[0]))
		n = race(g, picks, want, &mdl, obs, nobs, first, cnt, ymean, y, usable, front,
			 nfront, frontv, ref);

	candidates(&pl, g, &mdl, front, nfront, obs, &r);
	pred = xcalloc(pl.n * ENSEMBLE * m + 1, sizeof(*pred));
	for (size_t c = 0; c < pl.n; c++)
		predict_all(pred + c * ENSEMBLE * m, &mdl, p, pl.picks + c * nd);
	if (!isfinite(ref[0])) {
		/* No feasible point: the worst prediction bounds the box. */
		for (size_t k = 0; k < m; k++) {
			ref[k] = -HUGE_VAL;
			for (size_t c = 0; c < pl.n * ENSEMBLE; c++)
				ref[k] = fmax(ref[k], pred[c * m + k]);
			ref[k] += 1;
		}
	}
	pok = success_odds(p, obs, nobs, usable, &pl, &r);
	acq = xcalloc(pl.n + 1, sizeof(*acq));
	taken = xcalloc(pl.n + 1, sizeof(*taken));
	sdv = xcalloc(pl.n + 1, sizeof(*sdv));
	/* Uncertainty: the ensemble's spread, relative, summed over objectives. */
	for (size_t c = 0; c < pl.n; c++)
		for (size_t k = 0; k < m; k++) {
			double sum = 0, sq = 0, mean;

			for (size_t b = 0; b < ENSEMBLE; b++) {
				double v = pred[(c * ENSEMBLE + b) * m + k];

				sum += v;
				sq += v * v;
			}
			mean = sum / ENSEMBLE;
			sdv[c] += sqrt(fmax(0, sq / ENSEMBLE - mean * mean)) / (fabs(mean) + 1e-300);
		}
	while (n < want && pl.n) {
		size_t best = SIZE_MAX;
		double bestv = 0;

		if (m == 2)
			qsort(frontv, nfront, 2 * sizeof(*frontv), by_first);
		base = strategy_hypervolume(frontv, nfront, m, ref);
		for (size_t c = 0; c < pl.n; c++) {
			double sum = 0;

			if (taken[c])
				continue;
			for (size_t b = 0; b < ENSEMBLE; b++) {
				const double *yp = pred + (c * ENSEMBLE + b) * m;

				if (feasible_pred(p, yp))
					sum += hvi(frontv, nfront, yp, m, ref, base);
			}
			acq[c] = sum / ENSEMBLE * (pok ? pok[c] : 1);
			if (acq[c] > bestv) {
				bestv = acq[c];
				best = c;
			}
		}
		if (best == SIZE_MAX) {
			/* Nothing improves the front: the least certain. */
			for (size_t c = 0; c < pl.n; c++)
				if (!taken[c] &&
				    (best == SIZE_MAX || sdv[c] * (pok ? pok[c] : 1) >
							      sdv[best] * (pok ? pok[best] : 1)))
					best = c;
			if (best == SIZE_MAX)
				break;
		}
		memcpy(picks + n * nd, pl.picks + best * nd, nd * sizeof(*picks));
		pickset_add(&g->seen, picks + n * nd, nd);
		n++;
		taken[best] = 1;
		/* The believer: the mean prediction joins the front. */
		for (size_t k = 0; k < m; k++) {
			double sum = 0;

			for (size_t b = 0; b < ENSEMBLE; b++)
				sum += pred[(best * ENSEMBLE + b) * m + k];
			frontv[nfront * m + k] = sum / ENSEMBLE;
		}
		nfront++;
	}
	g->proposed += n;
	free(y);
	free(feas);
	free(usable);
	free(pok);
	free(rows);
	free(front);
	free(first);
	free(cnt);
	free(ymean);
	free(frontv);
	free(ref);
	free(pred);
	free(acq);
	free(taken);
	free(sdv);
	free(pl.picks);
	pickset_release(&pl.in);
	model_release(&mdl);
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
 * the dimensions whose effect range is more than twice its spread over
 * the ensemble (point 3), most certain first (at most 12), each with its
 * value of largest effect against the dimension's first value, as a
 * relative change (log models) or a difference.
 */
static char *surrogate_describe(void *state, const char *const *names,
				const struct strategy_obs *obs, size_t nobs)
{
	struct surrogate *g = state;
	const struct problem *p = &g->p;
	const struct space *s = p->s;
	size_t m = p->nobjs, nrows, np;
	size_t *rows = xcalloc(nobs + 1, sizeof(*rows));
	int *usable = xcalloc(nobs + 1, sizeof(*usable));
	struct effect *eff = xcalloc(p->ndims + 1, sizeof(*eff));
	struct model mdl = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct rng r;

	nrows = usable_rows(rows, usable, obs, nobs, m);
	if (nrows < 3) {
		free(rows);
		free(usable);
		free(eff);
		return NULL;
	}
	rng_seed(&r, mix64(p->seed ^ 0x7375727267617465ULL) + nobs);
	model_fit(&mdl, p, obs, rows, nrows, &r);
	np = mdl.nterms + 1;
	for (size_t k = 0; k < m; k++) {
		size_t ne = 0;

		for (size_t d = 0, col = 1; d < p->ndims; d++) {
			size_t nv = s->dims[d].nvalues;
			double sum = 0, sq = 0, mean, sd, best = 0;
			size_t bestv = 0;

			for (size_t b = 0; nv > 1 && b < ENSEMBLE; b++) {
				const double *beta = mdl.beta + (b * m + k) * np;
				double lo = 0, hi = 0;

				for (size_t v = 1; v < nv; v++) {
					lo = fmin(lo, beta[col + v - 1]);
					hi = fmax(hi, beta[col + v - 1]);
				}
				sum += hi - lo;
				sq += (hi - lo) * (hi - lo);
			}
			for (size_t v = 1; v < nv; v++) {
				double c = 0;

				for (size_t b = 0; b < ENSEMBLE; b++)
					c += mdl.beta[(b * m + k) * np + col + v - 1] / ENSEMBLE;
				if (fabs(c) > fabs(best)) {
					best = c;
					bestv = v;
				}
			}
			mean = sum / ENSEMBLE;
			sd = sqrt(fmax(0, sq / ENSEMBLE - mean * mean));
			if (nv > 1 && mean > 2 * sd && mean > 0)
				eff[ne++] = (struct effect){ d, bestv, best, sd > 0 ? mean / sd : HUGE_VAL };
			col += nv - 1;
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
	model_release(&mdl);
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
	problem_release(&g->p);
	pickset_release(&g->seen);
	free(g);
}

const struct strategy_ops surrogate_strategy = {
	"surrogate", 1, surrogate_init, surrogate_ask, surrogate_free, surrogate_describe,
};
