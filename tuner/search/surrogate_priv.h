/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * surrogate_priv: the surrogate strategy's model (surrogate_model.c and
 * surrogate_screen.c) and its candidates (surrogate_acquire.c), for the
 * strategy itself (surrogate.c). Not installed. Every function is
 * pure: what it allocates it says who frees, its randomness comes from
 * the caller's RNG.
 */
#ifndef TUNER_SURROGATE_PRIV_H
#define TUNER_SURROGATE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "strategy_priv.h"

/* Fits in the Bayesian-bootstrap ensemble: each fit's prediction is one
 * sample of the model's uncertainty. */
#define ENSEMBLE 16

/* The model's terms: main effects (dim, value >= 1) and interactions
 * (dims d1 < d2, values >= 1 each). */
struct term {
	size_t d1, v1, d2, v2; /* d2 == SIZE_MAX: a main effect */
};

/*
 * A fitted model, by surrogate_model_fit(); release with
 * surrogate_model_release(). Column 0 of each fit is the intercept, column
 * 1 + j term j; the main effects come first, dimension by dimension and
 * value by value (so a dimension's columns are where surrogate_main_terms()
 * puts them), interactions after them.
 */
struct model {
	struct term *terms;
	size_t nterms;  /* columns 1.. (0 is the intercept) */
	double *beta;   /* ENSEMBLE x nobjs x (1 + nterms) */
	int *logged;    /* nobjs: modelled the log */
	/* nobjs x ndims: how clearly each dimension matters to each
	 * objective, its screening statistic (its largest difference between
	 * two values' effects, in standard errors) over the permutation null's
	 * threshold (surrogate_screen.c, screen()): above 1 it matters; 0 when
	 * it could not be told (no value to change, too few observations). */
	double *clear;
	int *matters;   /* ndims: matters to some objective */
	double *score;  /* ndims: the largest clear[k * ndims + d] among those above 1, else 0 */
};

/* 1 + sum over dimensions of (values - 1): the main-effects model's
 * parameters, intercept included. */
size_t surrogate_main_params(const struct space *s);

/* The main-effect terms of s into *out (*n of them); caller frees *out
 * with free(). */
void surrogate_main_terms(struct term **out, size_t *n, const struct space *s);

/* The ridge penalty of every fit (on every column but an intercept). */
#define RIDGE 0.5

/* Weighted ridge fit (penalty RIDGE on every column but the intercept)
 * of t[0..n) on the terms at the picks obs[rows[i]].pick, weights w[0..n);
 * beta: 1 + nterms, the caller's. All zero when the system is singular. */
void surrogate_ridge_fit(double *beta, const struct term *terms, size_t nterms, const size_t *rows,
			 const double *t, const double *w, size_t n,
			 const struct strategy_obs *obs);

/* One fit's prediction at pick. */
double surrogate_predict(const double *beta, const struct term *terms, size_t nterms,
			 const size_t *pick);

/* Fits mdl (zeroed by the caller) on the observations rows[0..nrows):
 * the ensemble, the screening, the interactions among the dimensions that
 * matter. Draws from r. Caller releases mdl with surrogate_model_release(). */
void surrogate_model_fit(struct model *mdl, const struct problem *p, const struct strategy_obs *obs,
			 const size_t *rows, size_t nrows, struct rng *r);
/* The screening (surrogate_screen.c): for every objective (targets t, n
 * rows of nobjs, on the observations rows[0..n)) how clearly each
 * dimension matters, into mdl->clear (nobjs x ndims: its statistic over
 * the null's threshold; above 1: it matters), mdl->matters and mdl->score
 * (ndims), which it allocates (surrogate_model_release() frees them). Fewer than 3
 * observations tell nothing. Draws from r. */
void surrogate_screen(struct model *mdl, const struct problem *p, const struct strategy_obs *obs,
		      const size_t *rows, size_t n, const double *t, struct rng *r);
/* Frees what mdl holds and zeroes it. */
void surrogate_model_release(struct model *mdl);

/* For people: the main effects of the dimensions that matter to objective
 * k (mdl->clear above 1) in a ridge fit of them alone to the observations
 * rows[0..nrows) (log values when mdl->logged[k]), into coef (surrogate_main_params()
 * - 1, the caller's, surrogate_main_terms()'s order); 0 for the other dimensions.
 * Less shrunk than the ensemble's when the dimensions outnumber the
 * observations. */
void surrogate_model_effects(double *coef, const struct model *mdl, const struct problem *p,
			     const struct strategy_obs *obs, const size_t *rows, size_t nrows,
			     size_t k);

/* The ensemble's predictions of pick as minimised values (maximised
 * objectives negated, logs undone): out[b * nobjs + k], the caller's. */
void surrogate_predict_all(double *out, const struct model *mdl, const struct problem *p,
			   const size_t *pick);
/* Their mean over the ensemble: out[k] (nobjs, the caller's). */
void surrogate_predict_mean(double *out, const struct model *mdl, const struct problem *p,
			    const size_t *pick);
/* The ensemble's predictions of the n picks (rows of ndims) into *pred
 * (n x ENSEMBLE x nobjs: surrogate_predict_all()'s rows one after the other) and
 * their uncertainty into *spread (n: the ensemble's standard deviation
 * over its mean's magnitude, summed over the objectives). Caller frees
 * both with free(). */
void surrogate_predict_pool(double **pred, double **spread, const struct model *mdl,
			    const struct problem *p, const size_t *picks, size_t n);

/*
 * When some of obs[0..nobs) failed (usable[i] 0): the probability that
 * each of the npicks candidates (rows of ndims) works, from a main-effects
 * ensemble of the 0/1 outcome, clamped to [0, 1]. NULL when none failed.
 * Draws from r. Caller frees with free().
 */
double *surrogate_success_odds(const struct problem *p, const struct strategy_obs *obs, size_t nobs,
			       const int *usable, const size_t *picks, size_t npicks,
			       struct rng *r);

/* ---- Candidates and acquisition (surrogate_acquire.c) ---- */

/*
 * The candidates of one ask: picks[0..n) (rows of nd), none proposed
 * before nor twice (in: the set of them); pred and spread, what
 * surrogate_predict_pool() gives for them; pok, surrogate_success_odds()'s
 * (NULL: every one builds). Zero it before surrogate_candidates(); release
 * with surrogate_cand_pool_release().
 */
struct cand_pool {
	size_t *picks;
	size_t n, alloc, nd;
	struct pickset in;
	double *pred, *spread, *pok;
};

/* Point 4: the candidates into pl (zeroed; picks only): every
 * configuration of p not in seen when there are at most 30,000 of them;
 * else 3,000 random ones, every one-value change of a front member
 * (obs[front[0..nfront)]) and 1,000 changes of two or three values of a
 * front member among the dimensions that matter to mdl. Draws from r. */
void surrogate_candidates(struct cand_pool *pl, const struct problem *p, const struct pickset *seen,
			  const struct model *mdl, const size_t *front, size_t nfront,
			  const struct strategy_obs *obs, struct rng *r);
/* Frees what pl holds and zeroes it. */
void surrogate_cand_pool_release(struct cand_pool *pl);

/* The largest expected hypervolume improvement of a candidate of pl over
 * the front frontv[0..nfront) (rows of nobjs, room for one more; sorted
 * in place) against ref, times its odds of building; 0 when none improves
 * it. */
double surrogate_best_gain(const struct problem *p, const struct cand_pool *pl, double *frontv,
			   size_t nfront, const double *ref);

/* With no feasible point measured (ref not finite), the worst of pl's
 * predictions bounds the box: ref (m) becomes it plus 1. */
void surrogate_pool_ref(double *ref, const struct cand_pool *pl, size_t m);

/*
 * Point 5: the rest of the batch, picks[n..want), from the pool pl (a
 * candidate in seen, proposed since the pool was made, is skipped; each
 * taken joins seen), against the front frontv[0..nfront) (room for want
 * more) and the reference point ref: the largest expected hypervolume
 * improvement first, the believer's mean prediction joining the front
 * after each; when none improves it, the least certain. Returns the
 * batch's size.
 */
size_t surrogate_acquire(size_t *picks, size_t n, size_t want, struct pickset *seen,
			 const struct problem *p, const struct cand_pool *pl, double *frontv,
			 size_t nfront, const double *ref);

#endif
