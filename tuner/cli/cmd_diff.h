/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tuner diff's parts (cmd_diff.c: options, loading, matching;
 * cmd_diff_print.c: text, Markdown and JSON).
 */
#ifndef TUNER_CMD_DIFF_H
#define TUNER_CMD_DIFF_H

#include <stddef.h>

#include "cmd_targets.h"
#include "tuner/diff.h"
#include "tuner/results.h"

#define CMD_DIFF_LEVEL 0.95

/* A configuration in both: its comparison per objective shown. */
struct cmd_diff_row {
	const struct results_config *a, *b;
	struct diff_item *it; /* per objective */
};

struct cmd_diff {
	struct cmd_targets ct; /* t[0]: A, t[1]: B */
	int all;
	size_t nobjs;
	size_t *oa, *ob;       /* per objective shown: its index in A's, B's results */
	int *exact;
	struct cmd_diff_row *rows;
	size_t nrows;
	const struct results_config **only[2]; /* only in A, only in B */
	size_t nonly[2];
	struct diff_summary *sum; /* per objective */
};

/* A's (side 0) or B's (1) results. */
static inline const struct results *cmd_diff_res(const struct cmd_diff *x, int side)
{
	return &x->ct.t[side].res;
}

/* x as text (OUTFMT_TABLE) or Markdown, or as one JSON object, on stdout. */
void cmd_diff_print_text(const struct cmd_diff *x, enum outfmt fmt);
void cmd_diff_print_json(const struct cmd_diff *x);

#endif
