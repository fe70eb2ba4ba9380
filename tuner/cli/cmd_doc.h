/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the commands share for --format md and json: their facts as JSON
 * (jansson) and as Markdown cells, a document printed, a child's JSON
 * read back (watch). With md or json, stdout holds the document only;
 * progress and notes stay on stderr.
 */
#ifndef TUNER_CMD_DOC_H
#define TUNER_CMD_DOC_H

#include <jansson.h>
#include <stddef.h>

#include "tuner/outfmt.h"
#include "tuner/stats.h"

/* Prints root (a reference it takes) to stdout as indented JSON with a
 * newline; keeps every digit. */
void cmd_print_json(json_t *root);

/* v, or null when not finite (JSON has no NaN). A new reference. */
json_t *cmd_json_num(double v);
/* The number at key in object o (a child's JSON read back), NaN when
 * there is none. */
double cmd_json_get_num(json_t *o, const char *key);

/*
 * A comparison b - a (stats.h) as JSON: diff, diff_lo, diff_hi (the
 * objective's unit), rel, rel_lo, rel_hi (fractions of |mean a|: 0.02 is
 * +2%), p, p_rank, units_a, units_b (the test's units: layout seeds'
 * means, or runs) and significant (as given: the caller's rule). A new
 * reference.
 */
json_t *cmd_test_json(const struct stats_test *t, int significant);

/* Flags for people: "`FLAGS`" in Markdown, FLAGS in text, "(no flags)"
 * for none. Caller frees. */
char *cmd_flags_text(const char *flags, enum outfmt fmt);
/* s on one line, its line breaks spaces (a name in a shell comment: a
 * line break would start a command). Caller frees with free(). */
char *cmd_one_line(const char *s);
/* An objective for a heading: "NAME [UNIT] (max)", as text of fmt
 * (outfmt_text()). Caller frees with free(). */
char *cmd_objective_label(const char *name, const char *unit, int maximize, enum outfmt fmt);
/* The same as a table's cell (a code cell: outfmt_code_cell()), with
 * " + PGO" after the flags when pgo. */
struct outfmt_table;
void cmd_flags_cell(struct outfmt_table *tb, const char *flags, int pgo);

/* The prefix of a line that is a note or a fact: "- " in Markdown (a
 * bullet), "" in text. */
const char *cmd_bullet(enum outfmt fmt);

#endif
