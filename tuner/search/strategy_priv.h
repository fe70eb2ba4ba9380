/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strategy_priv: what the strategies (strategy.c, nsga2.c, surrogate*.c)
 * share: strategy_base.c (the set of picks, the problem, the observations
 * as points) and strategy_race.c (what was measured, racing). Not
 * installed. */
#ifndef TUNER_STRATEGY_PRIV_H
#define TUNER_STRATEGY_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "tuner/strategy.h"
#include "tuner/util.h"

/* ---- What every strategy shares (strategy_base.c) ---- */

/* A set of picks by their 64-bit hash (odds of two picks sharing one:
 * about n^2 / 2^65, nil at the budgets here). */
struct pickset {
	uint64_t *slot; /* 0: empty; else hash | 1 */
	size_t cap, n;
};
#define PICKSET_INIT { NULL, 0, 0 }

uint64_t strategy_pick_hash(const size_t *pick, size_t ndims);
/* 1 if pick is in the set. */
int strategy_pickset_has(const struct pickset *set, const size_t *pick, size_t ndims);
/* Adds pick: 1 if it was new, 0 if it was there. */
int strategy_pickset_add(struct pickset *set, const size_t *pick, size_t ndims);
void strategy_pickset_release(struct pickset *set);

/* The problem as a strategy keeps it: objs copied. */
struct problem {
	const struct space *s;
	struct pareto_obj *objs;
	size_t nobjs, ndims;
	uint64_t budget; /* the whole space when 0 was asked, capped at UINT64_MAX */
	uint64_t seed;
	int repeats;
};
void strategy_problem_copy(struct problem *out, const struct strategy_problem *p);
void strategy_problem_release(struct problem *p);

/* Checks the caller kept the contract: nobs == proposed. -1 with a
 * message if not. */
int strategy_check_obs(const char *name, size_t nobs, uint64_t proposed);

/* A uniformly random pick into pick. */
void strategy_random_pick(size_t *pick, const struct space *s, struct rng *r);

/* How far observation values y (minimised, objectives' order) are from
 * the hard limits: 0 when within every one; the sum of relative
 * excesses otherwise; failed: HUGE_VAL. */
double strategy_violation(const struct problem *p, const struct strategy_obs *o);

/* 1 when the minimised values y keep p's hard limits. */
int strategy_feasible(const struct problem *p, const double *y);

/* The observations a model can learn from (not failed, every one of the
 * m values finite): their indices into rows (nobs, the caller's), and
 * usable[i] set to 1 for them (the caller zeroes usable). Returns how many. */
size_t strategy_usable_rows(size_t *rows, int *usable, const struct strategy_obs *obs, size_t nobs,
			    size_t m);

/* ---- What was measured, and racing (strategy_race.c) ---- */

/*
 * The observations as a strategy reads them: y (nobs x m) minimised
 * values (strategy_points()); rows[0..nrows) the usable ones (usable[i]
 * 1); first[i] the first observation of obs[i]'s configuration, and at
 * first observations cnt[f] and ymean[f * m ..]: how many of its
 * observations are usable and their mean. Filled by strategy_measured_init();
 * release with strategy_measured_release().
 */
struct measured {
	size_t nobs, nrows;
	double *y, *ymean;
	size_t *rows, *first, *cnt;
	int *feas, *usable;
};
void strategy_measured_init(struct measured *ms, const struct problem *p,
			    const struct strategy_obs *obs, size_t nobs);
void strategy_measured_release(struct measured *ms);

/* The hypervolume's reference point over what was measured, into ref (m):
 * per objective, 10% of the range beyond the worst mean of a configuration
 * that keeps the hard limits (HUGE_VAL when there is none). */
void strategy_measured_ref(double *ref, const struct problem *p, const struct measured *ms);

/* The measured front: on[i] (nobs of them, the caller's) set to 1 for the
 * first observation of each configuration whose usable mean keeps the
 * hard limits and no other such mean dominates, 0 for every other
 * observation. Returns how many are on it. */
size_t strategy_measured_on_front(char *on, const struct problem *p, const struct measured *ms);

/* What each member of the measured front (on[i], strategy_measured_on_front())
 * holds alone: the hypervolume of the candidates' means less that of them
 * all but it, into stake[i] (nobs of them; 0 off the front), against
 * strategy_measured_ref()'s reference point. */
void strategy_front_stakes(double *stake, const struct problem *p, const struct measured *ms,
			   const char *on);

/* How many of a batch of want, after proposed of budget (ms: what those
 * measured), may race: a share of the proposals growing with the budget
 * spent, from none to half (explore first, then settle the front), kept
 * over the whole search (what earlier batches raced counts), so that it
 * holds for batches of two as for batches of fifty. */
size_t strategy_race_quota(uint64_t proposed, uint64_t budget, size_t want,
			   const struct measured *ms);

/* The measurement noise per objective relative to the value, pooled over
 * the configurations measured more than once (each measurement against
 * its configuration's mean), into sigma (m). 1 when that has enough
 * degrees of freedom to be used, 0 when not. */
int strategy_race_noise(double *sigma, const struct problem *p, const struct measured *ms);

/*
 * Racing: up to quota configurations to measure again, into picks (rows
 * of ndims), chosen by a Welch-like rule on the configurations' measured
 * means and standard errors (strategy_race_noise()'s noise over the square root of
 * the configuration's measurements; sigma0, when strategy_race_noise() has too few
 * degrees of freedom, or NULL): one on the measured front that a shift of
 * fewer than 2 standard errors of the difference would put under another
 * configuration, or one off it that such a shift would free from every
 * configuration that dominates it. Of the configuration and the one that
 * decides its place, the one measured fewer times is measured again (it
 * narrows the difference most); none more than 4 times. The calls with the
 * most to lose first: the odds that the call is wrong (the normal tail
 * beyond the shift) times the hypervolume that the front member of the two
 * holds alone (what a lucky configuration would take from the front). With
 * no noise estimate at all (sigma0 NULL), the front's members, the one
 * holding most alone first. A call whose expected loss is below min_loss
 * (the surrogate: what its best new configuration is expected to add; 0:
 * every call) does not race. Returns how many.
 */
size_t strategy_race(size_t *picks, size_t quota, const struct problem *p,
		     const struct strategy_obs *obs, const struct measured *ms,
		     const double *sigma0, double min_loss);

#endif
