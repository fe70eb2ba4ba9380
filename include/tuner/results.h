/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results: a finished (or interrupted) run's results, read back from its
 * results directory (pareto.json, which every run writes) and placed in
 * the study's space, for the commands that look at results without
 * measuring anything: effects, defaults, report, diff.
 *
 * Each configuration of pareto.json is matched to the study's space by
 * its configuration id (space_config() of each configuration of the
 * space, at most STUDY_MAX_CONFIGS of them), which gives its value index
 * in every dimension (pick). A configuration of the file that the space
 * does not hold (the study was edited since) keeps pick NULL and is left
 * out of the per-dimension analyses. Two configurations of the space
 * with one id (values GCC reads alike) are the first of them. A space of
 * more configurations than STUDY_MAX_CONFIGS is not enumerated: a
 * configuration's flags are read as its values instead (the study's
 * values, joined in dimension order: one value per dimension, "" for
 * none), and the pick taken when its configuration has the file's id.
 */
#ifndef TUNER_RESULTS_H
#define TUNER_RESULTS_H

#include <stddef.h>

#include "tuner/defaults.h"
#include "tuner/effects.h"
#include "tuner/study.h"

/* One objective of one configuration, as pareto.json has it. */
struct results_value {
	int known;          /* 0: no value (failed, not measured) */
	double value;       /* the trimmed mean the front used */
	double sd;          /* of all samples; NaN when unknown */
	double run_sd;      /* within layout seeds; NaN when unknown */
	double layout_sd;   /* between layout seeds; NaN when unknown */
	size_t n;           /* samples */
	unsigned layout_seeds;
	/* The standard error of value: with several layout seeds, the
	 * layout seeds are the unit (sqrt(layout_sd^2 / L + run_sd^2 / n)),
	 * else sd / sqrt(n); 0 when n == 1 and nothing else is known. */
	double se;
};

struct results_config {
	char id[17];
	char *flags;        /* malloced */
	int pgo;            /* 1: PGO on */
	char *status;       /* "ok", a build status, "measure-failed", ... */
	int on_front, feasible, tied;
	char *same_code_as; /* id, or NULL */
	size_t *pick;       /* per dimension of the study's space, its value
	                       index; NULL when the space does not hold it */
	struct results_value *obj; /* one per objective of struct results */
	char **build_dirs;  /* nbuilds malloced strings */
	size_t nbuilds;
};

struct results_objective {
	char *name, *unit;  /* malloced; unit "" when none */
	int maximize;
	int has_limit;
	double limit;
	int modelled;       /* the value is a model's, not a measurement */
	int noisy;          /* compared under noise */
};

struct results {
	char *dir;          /* the results directory, malloced */
	char *study;        /* the study's name as the file says */
	char study_hash[17];
	char *tuner;        /* version that wrote it */
	char commit[41], tree[41];
	/* Where and when the run was made (report.h: report_json()), each
	 * malloced, NULL when the file does not say (an older tuner's):
	 * "compiler", the first line of $CC --version; "host" {name, machine}
	 * as "NAME (MACHINE)"; "date", the run's end, ISO 8601 UTC. */
	char *compiler, *host, *date;
	int dirty, complete;
	double confidence;
	struct results_objective *objectives;
	size_t nobjectives;
	struct results_config *configs;
	size_t nconfigs;
};

/*
 * Reads dir/pareto.json (dir NULL: results/<s->name>) and places its
 * configurations in s's space. 0, or -1 with a message naming the file
 * (missing: "run the study first"; not a tuner results file; a field of
 * the wrong type; one configuration id twice, with the line of the second;
 * another study's). Caller releases out with results_release().
 */
int results_load(struct results *out, const struct study *s, const char *dir);
void results_release(struct results *r);

/* The index of the objective called name, or -1. */
int results_objective(const struct results *r, const char *name);

/*
 * Several studies and their results, one target each (tuner effects,
 * defaults): target i is the study file studies[i] and the results in
 * dirs[i] (dirs NULL, or dirs[i] NULL: results/<study>), named after the
 * study ("NAME#2" for a second study of one name). *out is malloced;
 * release with results_targets_free(). 0, or -1 with the first error's
 * message (the study file's, or the results').
 */
struct results_target {
	char *name;         /* malloced */
	struct study study;
	struct results res;
	size_t unplaced;    /* configurations the study's space does not hold */
};
int results_targets_load(struct results_target **out, const char *const *studies,
			 const char *const *dirs, size_t n);
void results_targets_free(struct results_target *t, size_t n);

/*
 * The non-reference values of the dimensions of targets t[0..n), matched
 * across targets by dimension name, reference (first) value and value, in
 * the order they are first met (target by target, dimension by dimension):
 * the rows of a side-by-side effects table. *nrows gets their number; the
 * strings are the first target's that has the value, valid while t is.
 * Caller frees with results_effect_rows_free().
 */
struct results_effect_row {
	const char *dim, *ref, *value;
	long *at;      /* per target: the index in its struct effects' values, or -1 */
	size_t *d;     /* per target: the dimension's index in its space */
};
struct results_effect_row *results_effect_rows(const struct results_target *t, size_t n,
					       size_t *nrows);
void results_effect_rows_free(struct results_effect_row *rows, size_t nrows);

/* A dimension's value for people: the flags, "(no DIM)" for "", or
 * "pgo=on" / "pgo=off". Returns buf. */
const char *results_value_label(char *buf, size_t len, const struct dimension *dim,
				const char *value);

/*
 * The effects of each value of each dimension of sp (the space r was
 * loaded with) on objective obj (an index of r->objectives): every
 * configuration with a pick and a value, its standard error, and the
 * code it shares (same_code_as) as effects_compute() takes them. Caller
 * releases out with effects_release(). 0, or -1 with a message.
 */
int results_effects(struct effects *out, const struct results *r, const struct space *sp,
		    size_t obj);

/*
 * r as one target of defaults_compute(), named name, by objective obj:
 * each configuration's id, flags, PGO, value and standard error, feasible
 * when pareto.json says so and its status is "ok". out->configs is
 * malloced (the caller frees it with free(), and may change feasible
 * first: more limits); the strings are name's and r's, valid while they
 * are.
 */
void results_defaults_target(struct defaults_target *out, const struct results *r,
			     const char *name, size_t obj);

#endif
