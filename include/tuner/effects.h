/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * effects: what each value of each dimension of a flag space does to one
 * objective, against the dimension's first value (the reference),
 * averaged over the other dimensions, with 95% intervals; and where the
 * effect depends on another dimension's value (interactions). Pure: no
 * I/O; the caller gives each configuration's pick (its value index per
 * dimension), value and standard error (results.h: results_effects()).
 *
 * Pairs. A configuration with value v > 0 of dimension d is paired with
 * the one identical in every other dimension but holding d's reference
 * value 0, when both have a value. Each pair gives the relative effect
 *   e = (b - a) / |a|               (b: with v, a: the reference; 0.031 = +3.1%)
 * and its standard error by the delta method,
 *   s = sqrt(se_b^2 + (b/a)^2 se_a^2) / |a|
 * (0 when both share one measurement: the same code, measured once).
 *
 * The estimate over n pairs is their mean, with the variance
 *   var = max(S^2, s2) / n,   S^2 = sum (e_i - mean)^2 / (n - 1),   s2 = mean s_i^2
 * which is the random-effects variance of an equally weighted mean by the
 * method of moments: the pairs' effects vary by tau^2 (the effect differs
 * from one context to another) plus their noise s2, so tau^2 = max(0, S^2
 * - s2) and var = (tau^2 + s2) / n (the moment estimator of DerSimonian &
 * Laird, "Meta-analysis in clinical trials", Controlled Clinical Trials 7,
 * 1986, with equal weights). So the interval is the t interval over the
 * pairs, never narrower than their measurement noise allows: one pair, or
 * pairs that agree by chance, get the interval their standard errors give.
 * The 95% interval is mean +- q sqrt(var), q = t(0.975, n - 1) when S^2
 * sets var, and 1.96 when s2 does (the per-configuration standard errors
 * come from all of their samples and are taken as known; so with n = 1).
 * An effect is clear when its interval excludes 0.
 *
 * Interactions. For value v of d and another dimension e, the conditional
 * effect of v at each value w of e is the estimate over the pairs whose
 * configurations hold w. An interaction is flagged when v has a clearly
 * positive effect at one value of e and a clearly negative one at another
 * (-fno-reorder-blocks helps at -O2, hurts at -Os). Nothing corrects for
 * the number of estimates: of 20 effects without truth, about one is
 * "clear" at 95% by chance; a flagged interaction needs two intervals to
 * exclude 0 in opposite directions, which chance rarely gives.
 */
#ifndef TUNER_EFFECTS_H
#define TUNER_EFFECTS_H

#include <stddef.h>

/* One estimate (main or conditional effect). */
struct effect_est {
	size_t n;        /* pairs */
	double mean;     /* relative effect, a fraction; NaN when n == 0 */
	double lo, hi;   /* the 95% interval; NaN when n == 0 */
	int sign;        /* +1: interval above 0; -1: below 0; 0: neither, or n == 0 */
};

/* One configuration: the caller's, borrowed for the call. */
struct effects_obs {
	const size_t *pick; /* value index per dimension; NULL: left out */
	double value;       /* the objective; NaN: unknown (left out) */
	double se;          /* its standard error; NaN is taken as 0 */
	/* Which measurement it has: two observations with the same non-NULL
	 * code share one (the same code, measured once), and their pair's
	 * standard error is 0. NULL: its own. */
	const char *code;
};

/* One non-reference value of a dimension. */
struct effects_value {
	size_t dim, value;      /* value >= 1 */
	struct effect_est main; /* averaged over the other dimensions */
	/* The conditional effects: at value w of dimension e, cond[cond_off[e]
	 * + w] (struct effects); the entries of dim itself have n = 0. */
	struct effect_est *cond;
};

/* v of d (values[value]) clearly positive at pos, negative at neg (values
 * of dimension other): of each sign, the one with the largest effect. */
struct effects_interaction {
	size_t value;           /* index into struct effects.values */
	size_t other, pos, neg;
};

struct effects {
	size_t ndims;
	size_t *nvalues;        /* per dimension (a copy) */
	size_t *cond_off;       /* per dimension, into each cond[] */
	size_t ncond;           /* the sum of nvalues: the length of each cond[] */
	struct effects_value *values; /* dimension by dimension, values 1.. in order */
	size_t nvals;
	struct effects_interaction *inter; /* in the order of values, then other */
	size_t ninter;
};
#define EFFECTS_INIT { 0 }

/*
 * The effects of every non-reference value of the ndims dimensions
 * (nvalues[d] values each) over obs[0..nobs). Observations with the same
 * pick count once (the first). Caller releases out with effects_release().
 * 0, or -1 with a message when a pick is outside its dimension.
 */
int effects_compute(struct effects *out, const size_t *nvalues, size_t ndims,
		    const struct effects_obs *obs, size_t nobs);
void effects_release(struct effects *e);

/* The estimate over n pairs' effects e[] with standard errors s[] (NaN
 * taken as 0), as above, into out. */
void effects_estimate(struct effect_est *out, const double *e, const double *s, size_t n);

/* What an estimate says of an objective with goal max (maximize) or min:
 * "helps", "hurts", "no clear effect", or "no pairs" when n == 0. Static
 * strings. */
const char *effects_word(const struct effect_est *e, int maximize);

/* 1 when a and b (one value's effect on two targets) are both clear and
 * of opposite signs, else 0. */
int effects_sign_change(const struct effect_est *a, const struct effect_est *b);

#endif
