/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * strategy: search strategies that learn from what was measured, behind one
 * ask/tell interface; the fixed orders of search.h (exhaustive, random) fit
 * it too, ignoring what they are told. Pure: a seeded RNG, no I/O, no
 * clock.
 *
 *   nsga2      NSGA-II (Deb, Pratap, Agarwal & Meyarivan, IEEE TEC 6(2),
 *              2002) on categorical dimensions: the baseline in the first
 *              generation, tournament on rank and crowding, uniform
 *              crossover, one-value mutation, Deb's constraint domination
 *              for hard limits (nsga2.c)
 *   surrogate  tuner's model-based strategy (surrogate.c, its model in
 *              surrogate_model.c and surrogate_screen.c; docs/search.md):
 *              a balanced initial design with the baseline first, then
 *              per objective a sparse additive model of the log values
 *              (main effects, flags screened against a permutation null,
 *              interactions only among the flags that matter) with a
 *              bootstrap ensemble for its uncertainty; proposals by
 *              Monte Carlo expected hypervolume improvement times the
 *              probability of meeting the hard limits, a batch at a time,
 *              a quarter of each from the measured front's one-value
 *              neighbours at random (a hedge against the model)
 *
 * With repeats allowed, both learners race (strategy_race.c): up to half
 * of a batch (none at first, 37.5% of a whole search) measures again
 * configurations whose place on the measured front is within two
 * standard errors of the difference of changing.
 *
 * The contract that makes a run resumable (docs/search.md): a strategy's
 * proposals are a function of the problem (space, objectives, budget,
 * seed) and of the observations passed to each ask, and of nothing else.
 * The caller observes every proposal of a batch before it asks again, and
 * passes every observation so far, in proposal order. So after a crash,
 * asking again batch by batch with what the journal holds gives the same
 * proposals, and the first batch the journal lacks is the one the crashed
 * run was working on.
 */
#ifndef TUNER_STRATEGY_H
#define TUNER_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/pareto.h"
#include "tuner/space.h"

struct strategy_problem {
	const struct space *s;           /* outlives the strategy */
	const struct pareto_obj *objs;   /* nobjs; copied by init */
	size_t nobjs;
	uint64_t budget;                 /* proposals in all; 0: the whole space */
	uint64_t seed;
	/* 1: the caller can measure a configuration again (another layout
	 * seed, another run), so a proposal may repeat an earlier one
	 * (racing); 0: every proposal is a new configuration. */
	int repeats;
};

/* What was measured for one proposal. */
struct strategy_obs {
	const size_t *pick;   /* s->ndims value indices */
	const double *value;  /* nobjs means (NaN: not measured); unused if failed */
	const double *se;     /* nobjs standard errors of the means, 0 when
	                         unknown (one sample); may be NULL: all unknown */
	int failed;           /* the build or the measurement failed */
};

struct strategy_ops {
	const char *name;
	int adaptive; /* 1: its proposals depend on the observations */
	/* Creates a strategy for p; caller frees with ops->free. 0, or -1
	 * with a message (tn_error()); *out is then NULL. */
	int (*init)(void **out, const struct strategy_problem *p);
	/*
	 * The next batch: up to max proposals into picks (max rows of
	 * s->ndims value indices), each distinct from the others and, unless
	 * p->repeats, from every earlier proposal (one that repeats an
	 * earlier one asks for another measurement of it, observed on its
	 * own). obs[0 .. nobs) are the observations of
	 * every earlier proposal, in proposal order (nobs must equal the
	 * number proposed so far). Returns the batch's size; 0 when the
	 * strategy is done (budget spent, space exhausted), -1 on a misuse
	 * (nobs wrong) with a message.
	 */
	long (*ask)(void *state, size_t *picks, size_t max, const struct strategy_obs *obs,
		    size_t nobs);
	void (*free)(void *state);
	/*
	 * What the strategy learnt from obs[0 .. nobs) (every observation
	 * so far), for people: one line per objective (names[k] its name),
	 * or NULL when it has nothing to say; may be NULL itself. Caller
	 * frees the text with free().
	 */
	char *(*describe)(void *state, const char *const *names, const struct strategy_obs *obs,
			  size_t nobs);
};

/* The strategy called name (exhaustive, random, nsga2, surrogate), or NULL. */
const struct strategy_ops *strategy_find(const char *name);
/* Comma-separated names for messages. Static string. */
const char *strategy_names(void);

/* The largest batch a strategy proposes at once. */
#define STRATEGY_MAX_BATCH 4096

/*
 * The observations as points to minimise, for pareto_hypervolume(): out (nobs
 * rows of nobjs, caller's) gets each value negated where its objective is
 * maximised; feasible[i] (caller's) is 1 when observation i did not fail,
 * has every value finite and meets every hard limit.
 */
void strategy_points(double *out, int *feasible, const struct pareto_obj *objs, size_t nobjs,
		     const struct strategy_obs *obs, size_t nobs);

/*
 * Every proposal of a search and what was measured for it, as the callers
 * of ask keep them. strategy_trail_init(), then strategy_trail_add() per
 * proposal (its values NaN and se 0 until the caller fills value[i *
 * nobjs + k], se[...] and failed[i]); strategy_trail_obs() gives the n
 * observations to pass to ask (valid until the next add). Release with
 * strategy_trail_release().
 */
struct strategy_trail {
	size_t ndims, nobjs, n, alloc;
	size_t *picks;
	double *value, *se;
	int *failed;
	struct strategy_obs *obs;
};
void strategy_trail_init(struct strategy_trail *t, size_t ndims, size_t nobjs);
size_t strategy_trail_add(struct strategy_trail *t, const size_t *pick);
const struct strategy_obs *strategy_trail_obs(struct strategy_trail *t);
void strategy_trail_release(struct strategy_trail *t);

/* first[i] (n, the caller's) = the first j <= i whose pick equals
 * picks[i] (each ndims value indices): which proposals measured the same
 * configuration. */
void strategy_first_picks(size_t *first, const size_t *const *picks, size_t n, size_t ndims);

/*
 * The hypervolume shown on progress lines: of the feasible observations'
 * front, in a box fixed by the first call (the worst feasible value of
 * each objective then, plus 10% of its range), in units of that call's
 * ranges (so the first batch's front reads about 1 and a better front
 * more). Start from STRATEGY_HV_INIT; release with strategy_hv_release().
 * NaN until something feasible was observed.
 */
struct strategy_hv {
	double *ref, *unit;
	int set;
};
#define STRATEGY_HV_INIT { NULL, NULL, 0 }
double strategy_hv_progress(struct strategy_hv *h, const struct pareto_obj *objs, size_t nobjs,
			    const struct strategy_obs *obs, size_t nobs);
void strategy_hv_release(struct strategy_hv *h);

#endif
