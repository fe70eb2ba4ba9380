/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outfmt: the output formats of the commands that print tables (effects,
 * defaults): aligned text for a terminal, GitHub Markdown for a mailing
 * list or a pull request, JSON for programs (which the commands build
 * with jansson; this module names the format and lays out tables); and
 * the escaping of a CSV field, for the files that the runs write.
 *
 * A table is cells added row by row (the first row is the header); it
 * prints as text columns padded to their widest cell (counted in UTF-8
 * characters) and two spaces apart, or as a Markdown table: a header
 * row, a separator row, then every row with the same number of cells,
 * '|' escaped as '\|' and line breaks as spaces. Pure but for printing to
 * the caller's FILE.
 */
#ifndef TUNER_OUTFMT_H
#define TUNER_OUTFMT_H

#include <stddef.h>
#include <stdio.h>

enum outfmt { OUTFMT_TABLE, OUTFMT_MD, OUTFMT_JSON };

/* "table", "md" (or "markdown"), "json" into *out: 0, or -1 (no message). */
int outfmt_parse(enum outfmt *out, const char *name);

struct outfmt_table {
	size_t ncols;
	char **cells;  /* row after row, ncols each; malloced */
	size_t ncells, alloc;
};

/* An empty table of ncols columns (>= 1). Release with outfmt_table_release(). */
void outfmt_table_init(struct outfmt_table *t, size_t ncols);
/* Appends one cell (printf format) to the last row, or starts a row when
 * that one is full. */
void outfmt_cell(struct outfmt_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prints t as text (OUTFMT_TABLE) or Markdown (OUTFMT_MD); a last row
 * short of cells is completed with empty ones. */
void outfmt_table_print(FILE *f, const struct outfmt_table *t, enum outfmt fmt);
void outfmt_table_release(struct outfmt_table *t);

/* Appends v to sb as one CSV field (RFC 4180: quoted, with its quotes
 * doubled, when it holds a comma, a quote or a line break). */
struct strbuf;
void outfmt_csv_field(struct strbuf *sb, const char *v);

/* The number of characters of UTF-8 text s (its bytes less continuation
 * bytes). */
size_t outfmt_width(const char *s);

#endif
