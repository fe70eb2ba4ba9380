/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tuner blame's private parts: the session (cmd_blame.c) and what it
 * prints (cmd_blame_print.c): the steps as they come (--format table), or
 * the whole document at the end (md, json).
 */
#ifndef TUNER_CMD_BLAME_H
#define TUNER_CMD_BLAME_H

#include <stddef.h>

#include "cmd.h"
#include "cmd_options.h"
#include "tuner/ddmin.h"
#include "tuner/flagdiff.h"
#include "tuner/outfmt.h"
#include "tuner/probe.h"
#include "tuner/stats.h"

struct study;

struct blame_opts {
	struct cmd_measure_opts m; /* also --good, --bad, --max-layout */
};

/* A tested variant and its verdict, kept so no subset is judged twice. */
struct tested {
	char *flags;
	char id[17];
	enum dd_outcome outcome;
	struct stats_test vs_good, vs_bad;
	unsigned k; /* layout seeds it was judged on */
};

/* One line of the steps, kept for --format md and json. */
struct step {
	size_t *set, n;   /* the differences applied (malloced) */
	struct stats_test vs_good, vs_bad;
	unsigned k;
	enum dd_outcome outcome;
};

struct blame {
	const struct blame_opts *o;
	struct flagdiff d;
	struct probe p;
	char *good, *bad; /* as flagdiff sees them: good with none / all applied */
	int dir;          /* probe_judge(bad vs good): +1 better, -1 worse */
	unsigned kmax;    /* the most layout seeds any variant got */
	struct tested *t;
	size_t nt, alloc;
	int interrupted;
	/* What the document says (--format md, json). */
	struct step *steps;
	size_t nsteps, steps_alloc;
	struct stats_test ends;     /* bad vs good */
	size_t *culprit, nculprit;  /* NULL: none named */
	struct stats_test effect, rest;
	int has_rest;
};

/* "fails", "passes" or "unresolved". */
const char *blame_outcome_name(enum dd_outcome o);
/* "{add -fz, -O2 -> -O3}": the differences set[0..n). Caller frees. */
char *blame_subset_text(const struct blame *b, const size_t *set, size_t n);
/* "LI LABEL: -2.31% [-2.9%, -1.72%], p = 0.001, ranks p = 0.002" and
 * ", not significant" when it is not (compare's rule). */
void blame_print_effect(const char *li, const char *label, const struct stats_test *t);
/* What is printed when good and bad do not differ. */
extern const char blame_nothing[];
/* The heading (study, objective, good, bad, the differences), the
 * culprit and its effects, and the spent and results lines, as text or
 * Markdown. */
void blame_print_head(const struct blame *b, const struct study *s, enum outfmt fmt);
void blame_print_culprit(const struct blame *b, enum outfmt fmt);
void blame_print_tail(const struct blame *b, enum outfmt fmt, const char *dir);
/* --format md or json: the whole document (results in dir), at the end. */
void blame_print_doc(const struct blame *b, const struct study *s, const char *dir);

#endif
