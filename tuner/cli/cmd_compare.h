/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner compare's private parts, shared by cmd_compare.c, _judge.c and _print.c. */
#ifndef TUNER_CMD_COMPARE_H
#define TUNER_CMD_COMPARE_H

/*
 * The session (cmd_compare.c: options, the derived study, the run), the
 * comparison of each objective and the --fail-on rule
 * (cmd_compare_judge.c), and what it prints as text, Markdown or JSON
 * (cmd_compare_print.c).
 */

#include <stddef.h>

#include "tuner/outfmt.h"
#include "tuner/run.h"
#include "tuner/space.h"
#include "tuner/stats.h"

struct study;
struct objective;

enum fail_on { FAIL_NEVER, FAIL_WORSE, FAIL_CHANGE };

struct compare_opts {
	const char *a, *b, *a_rev, *b_rev, *flags, *results;
	enum pgo_mode a_pgo, b_pgo;
	unsigned repeats, layout;
	int has_layout_sd;
	double layout_sd; /* fraction */
	enum outfmt fmt;
	enum fail_on fail_on;
	const char *objective; /* --objective, or NULL: the first */
	size_t primary;        /* its index in the study's objectives */
};

/* What compare found on one objective. OUT_SAME: A and B built the same
 * code and were measured once (struct cmp_same), so not compared. */
enum outcome { OUT_NONE, OUT_BETTER, OUT_WORSE, OUT_UNSEPARABLE, OUT_SAME };

/*
 * Whether A and B built the same code (codeid.h). Under measure.same_code:
 * share a build of one side whose code is the other's is that one's twin:
 * measured once, its samples shared. one: every build of a side is a twin
 * of the other's, so A and B are one program and their measurements the
 * same; shared: how many builds are twins (0 < shared, !one: a part of the
 * samples is common to both). Under separate (shared 0), alike: every
 * layout seed's A and B builds have the same code, measured each.
 */
struct cmp_same {
	int one, alike;
	size_t shared, builds; /* builds: a side's (the layout seeds) */
	const char *code;      /* the first code the sides share, or NULL;
	                          res's */
};

struct cmp_obj {
	const struct objective *ob;
	int exact;              /* a size: compared exactly, no test */
	double ma, mb, sda, sdb; /* A and B: mean (the value when exact), sd */
	size_t na, nb;          /* measurements */
	double diff, rel;       /* B - A, and as a fraction of |A| */
	struct stats_test t;    /* !exact */
	const char *how;        /* the test */
	double run_sd, lsd, band; /* relative; NaN: unknown */
	int lsd_assumed, lsd_with_runs, beyond;
	enum outcome outcome;
	const char *verdict;
};

/* ---- cmd_compare_judge.c ---- */

/*
 * Objective i of study d, B against A, into *c: exactly for a size, else
 * by the clustered test (the layout seeds as units), its noise and the
 * layout band, and the verdict; a measured objective of one program
 * (same->one) is OUT_SAME. The strings in *c are static or d's.
 */
void compare_judge(struct cmp_obj *c, const struct study *d, const struct config_result *A,
		   const struct config_result *B, size_t i, const struct compare_opts *o,
		   const struct cmp_same *same);
/* Whether A and B (res's configurations 0 and 1) built the same code,
 * into *out (its string is res's). */
void compare_same(struct cmp_same *out, const struct run_result *res);
/* --fail-on: 1 when c (the primary objective) has the outcome refused. */
int compare_fails(const struct compare_opts *o, const struct cmp_obj *c);
/* "never", "worse", "change", by enum fail_on. */
extern const char *const compare_fail_on_names[];

/* ---- cmd_compare_print.c (stdout); K: layout seeds a side ---- */

/* The heading and the two variants, as text or Markdown (o->fmt). */
void compare_print_head(const struct study *d, const struct run_result *res,
			const struct compare_opts *o);
/* What *same found, said first (before any objective; nothing when the
 * builds differ): text or Markdown on stdout, a note on stderr with JSON. */
void compare_print_same(const struct cmp_same *same, const struct compare_opts *o);
/* One objective as text. */
void compare_print_text(const struct cmp_obj *c, unsigned K);
/* The objectives c[0..n) as one Markdown table, then each test and its
 * noise as bullets. */
void compare_print_md(const struct cmp_obj *c, size_t n, unsigned K);
/* The whole comparison as one JSON document (n = 0: the variants did not
 * both measure). */
void compare_print_json(const struct study *d, const struct run_result *res,
			const struct compare_opts *o, const struct cmp_same *same,
			const struct cmp_obj *c, size_t n);

#endif
