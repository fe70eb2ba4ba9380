/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * defaults: one default for several targets, or one each? Given the
 * configurations of several targets (one study each, over the same flag
 * space; a configuration is matched across targets by its id: its flags
 * and PGO mode), each target's best configuration under its own limits,
 * every configuration's regret on every target, and the common default
 * that minimises the worst regret. Pure: no I/O (results.h:
 * results_defaults_target() makes a target from a results directory).
 *
 * Best: of a target's feasible configurations with a value, the highest
 * (goal max) or lowest (goal min) value; ties go to fewer flags, then to
 * the smaller id.
 *
 * Regret of configuration c (value v, standard error se_v) on target t
 * (best b, se_b): the relative loss against t's own best,
 *   max: r = (b - v) / |b|      min: r = (v - b) / |b|
 * (>= 0 as the best is the best), with the delta-method standard error
 *   se_r = sqrt(se_v^2 + (v/b)^2 se_b^2) / |b|
 * (0 for the best itself) and the interval r +- 1.96 se_r (the standard
 * errors come from all the samples and are taken as known). The lower
 * bound may be below 0: within noise, c may be as good as the best.
 *
 * Common default: of the configurations feasible, with a value, on every
 * target (the candidates), the one whose worst regret over the targets is
 * smallest; ties go to the smaller mean regret, then to fewer flags, then
 * PGO off, then the smaller id.
 */
#ifndef TUNER_DEFAULTS_H
#define TUNER_DEFAULTS_H

#include <stddef.h>

/* One configuration of one target: the caller's, borrowed. */
struct defaults_config {
	const char *id;    /* the configuration id (its flags and PGO mode) */
	const char *flags; /* as the study wrote them */
	int pgo;           /* 1: PGO on */
	int feasible;      /* within the target's limits */
	double value, se;  /* the objective; value NaN: unknown (failed); se NaN: 0 */
};

/* One target: the caller's, borrowed. */
struct defaults_target {
	const char *name;
	int maximize;                   /* the objective's goal */
	struct defaults_config *configs;
	size_t nconfigs;
};

enum defaults_state {
	DEFAULTS_OK,         /* feasible, with a value: regret known when the target has a best */
	DEFAULTS_MISSING,    /* the target has no such configuration */
	DEFAULTS_UNKNOWN,    /* no value (failed, not measured) */
	DEFAULTS_INFEASIBLE, /* past one of the target's limits */
};

struct defaults_cell {
	enum defaults_state state;
	double regret, lo, hi; /* fractions (0.02 = 2%); NaN unless known */
};

/* One configuration across the targets. */
struct defaults_row {
	const char *id, *flags;   /* borrowed from the first target that has it */
	int pgo;
	size_t nflags;            /* whitespace-separated words of flags */
	int candidate;            /* every cell's regret known */
	struct defaults_cell *cells; /* per target */
	double worst, mean;       /* regret over the targets; NaN unless candidate */
	size_t worst_target;      /* where worst is (the first of equals) */
};

struct defaults {
	size_t ntargets;
	long *best;               /* per target: index in its configs, -1: none feasible */
	/* Every configuration of any target: the candidates first, best first
	 * (the common default's order above), then the others by id. */
	struct defaults_row *rows;
	size_t nrows;
	long common;              /* the common default (0) or -1: no candidate */
};
#define DEFAULTS_INIT { 0 }

/*
 * Computes out over targets t[0..n). A configuration id given twice in one
 * target counts once (the first). The strings of out are t's: they live as
 * long as t does. Caller releases out with defaults_release().
 */
void defaults_compute(struct defaults *out, const struct defaults_target *t, size_t n);
void defaults_release(struct defaults *d);

/*
 * The verdict, given the threshold within (a fraction):
 *   "one default serves all within X% (worst regret, on T)" when the
 *   common default's worst regret X is below within, else
 *   "per-target defaults gain Y% on T" (Y: that worst regret, T: its target);
 *   "no common default: ..." with the reason when there is none.
 * Caller frees with free().
 */
char *defaults_verdict(const struct defaults *d, const struct defaults_target *t, double within);

/* 1 when the verdict is "one default serves all" (d->common >= 0 and
 * its worst regret below within), else 0. */
int defaults_serves_all(const struct defaults *d, double within);

#endif
