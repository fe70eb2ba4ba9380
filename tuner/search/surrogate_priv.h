/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * surrogate_priv: the surrogate strategy's model (surrogate_model.c and
 * surrogate_screen.c), for
 * the strategy itself (surrogate.c). Not installed. Every function is
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
 * A fitted model, by model_fit(); release with model_release(). Column 0
 * of each fit is the intercept, column 1 + j term j; the main effects come
 * first, dimension by dimension and value by value (so a dimension's
 * columns are where main_terms() puts them), interactions after them.
 */
struct model {
	struct term *terms;
	size_t nterms;  /* columns 1.. (0 is the intercept) */
	double *beta;   /* ENSEMBLE x nobjs x (1 + nterms) */
	int *logged;    /* nobjs: modelled the log */
	/* nobjs x ndims: how clearly each dimension matters to each
	 * objective, its screening statistic (its largest difference between
	 * two values' effects, in standard errors) over the permutation null's
	 * threshold (surrogate_model.c, screen()): above 1 it matters; 0 when
	 * it could not be told (no value to change, too few observations). */
	double *clear;
	int *matters;   /* ndims: matters to some objective */
	double *score;  /* ndims: the largest clear[k * ndims + d] among those above 1, else 0 */
};

/* 1 + sum over dimensions of (values - 1): the main-effects model's
 * parameters, intercept included. */
size_t main_params(const struct space *s);

/* The main-effect terms of s into *out (*n of them); caller frees *out
 * with free(). */
void main_terms(struct term **out, size_t *n, const struct space *s);

/* The ridge penalty of every fit (on every column but an intercept). */
#define RIDGE 0.5

/* Cholesky factor of a (p x p, symmetric positive definite) in place: its
 * lower triangle becomes L (a = L L'). 0, or -1 when not positive definite. */
int chol_factor(double *a, size_t p);
/* Solves L L' x = b with chol_factor()'s L; b becomes x. */
void chol_apply(const double *l, double *b, size_t p);

/* Weighted ridge fit (penalty RIDGE on every column but the intercept)
 * of t[0..n) on the terms at the picks obs[rows[i]].pick, weights w[0..n);
 * beta: 1 + nterms, the caller's. All zero when the system is singular. */
void ridge_fit(double *beta, const struct term *terms, size_t nterms, const size_t *rows,
	       const double *t, const double *w, size_t n, const struct strategy_obs *obs);

/* One fit's prediction at pick. */
double predict(const double *beta, const struct term *terms, size_t nterms, const size_t *pick);

/* Fits mdl (zeroed by the caller) on the observations rows[0..nrows):
 * the ensemble, the screening, the interactions among the dimensions that
 * matter. Draws from r. Caller releases mdl with model_release(). */
void model_fit(struct model *mdl, const struct problem *p, const struct strategy_obs *obs,
	       const size_t *rows, size_t nrows, struct rng *r);
/* The screening (surrogate_screen.c): for every objective (targets t, n
 * rows of nobjs, on the observations rows[0..n)) how clearly each
 * dimension matters, into mdl->clear (nobjs x ndims: its statistic over
 * the null's threshold; above 1: it matters), mdl->matters and mdl->score
 * (ndims), which it allocates (model_release() frees them). Fewer than 3
 * observations tell nothing. Draws from r. */
void model_screen(struct model *mdl, const struct problem *p, const struct strategy_obs *obs,
		  const size_t *rows, size_t n, const double *t, struct rng *r);
/* Frees what mdl holds and zeroes it. */
void model_release(struct model *mdl);

/* For people: the main effects of the dimensions that matter to objective
 * k (mdl->clear above 1) in a ridge fit of them alone to the observations
 * rows[0..nrows) (log values when mdl->logged[k]), into coef (main_params()
 * - 1, the caller's, main_terms()'s order); 0 for the other dimensions.
 * Less shrunk than the ensemble's when the dimensions outnumber the
 * observations. */
void model_effects(double *coef, const struct model *mdl, const struct problem *p,
		   const struct strategy_obs *obs, const size_t *rows, size_t nrows, size_t k);

/* The ensemble's predictions of pick as minimised values (maximised
 * objectives negated, logs undone): out[b * nobjs + k], the caller's. */
void predict_all(double *out, const struct model *mdl, const struct problem *p,
		 const size_t *pick);
/* Their mean over the ensemble: out[k] (nobjs, the caller's). */
void predict_mean(double *out, const struct model *mdl, const struct problem *p,
		  const size_t *pick);
/* The ensemble's predictions of the n picks (rows of ndims) into *pred
 * (n x ENSEMBLE x nobjs: predict_all()'s rows one after the other) and
 * their uncertainty into *spread (n: the ensemble's standard deviation
 * over its mean's magnitude, summed over the objectives). Caller frees
 * both with free(). */
void predict_pool(double **pred, double **spread, const struct model *mdl,
		  const struct problem *p, const size_t *picks, size_t n);

/*
 * When some of obs[0..nobs) failed (usable[i] 0): the probability that
 * each of the npicks candidates (rows of ndims) works, from a main-effects
 * ensemble of the 0/1 outcome, clamped to [0, 1]. NULL when none failed.
 * Draws from r. Caller frees with free().
 */
double *success_odds(const struct problem *p, const struct strategy_obs *obs, size_t nobs,
		     const int *usable, const size_t *picks, size_t npicks, struct rng *r);

#endif
