/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner layout's pieces shared by cmd_layout.c and cmd_layout_print.c. */
#ifndef TUNER_CMD_LAYOUT_H
#define TUNER_CMD_LAYOUT_H

#include <stdio.h>

#include "tuner/layout.h"

struct study;

/* The builds of a study's results directory that tuner layout can use. */
struct layout_set {
	const char *results;       /* the directory, as given */
	const char *objective;     /* its name; points into the journal or argv */
	struct layout_build **builds; /* with cachegrind data; each malloced */
	double *values;            /* the objective per build; NaN if unmeasured */
	size_t n, alloc;
	size_t total;              /* builds of the journal found in builds/ */
	size_t failed;             /* ... that failed */
	size_t nodata;             /* ... without usable cachegrind data */
	size_t duplicates;         /* ... of the same code as another: merged */
	size_t *merged;            /* per build: builds merged into it */
	size_t nflags;             /* distinct flag strings among the builds */
	char **flags;              /* them; malloced */
	char *first_error;         /* why the first of those was skipped */
};

void layout_set_release(struct layout_set *set);

/* The one directory in builds whose name starts with prefix (malloced
 * "builds/NAME"), or NULL when none or several do. */
char *layout_find_key(const char *builds, const char *prefix);

/* "costs: MODELLED ..." and the geometry, for both modes. */
void layout_print_model(FILE *f, const struct layout_build *b, const struct cg_model *m);

/* The two-build report: totals, symbols moved, the top rows of d. */
void layout_print_diff(FILE *f, const struct layout_build *a, const struct layout_build *b,
		       const struct layout_diff *d, const struct cg_model *m, size_t top);

/* The study report: one row per pattern of offsets, details of the first. */
void layout_print_study(FILE *f, const struct layout_set *set,
			const struct layout_effect *e, size_t n,
			const struct layout_study_opts *so, const struct cg_model *m,
			const struct study *s);

#endif
