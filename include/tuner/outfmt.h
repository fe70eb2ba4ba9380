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
 * each cell's text escaped by outfmt_md_text() (a code cell made a span
 * by outfmt_md_code()), '|' escaped as '\|' and line breaks as spaces:
 * whatever the cells hold, the table renders them as text. Pure but for
 * printing to the caller's FILE.
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
	size_t *code;  /* per cell: 0 text, else 1 + the length of its code part */
	size_t ncells, alloc;
};

/* An empty table of ncols columns (>= 1). Release with outfmt_table_release(). */
void outfmt_table_init(struct outfmt_table *t, size_t ncols);
/* Appends one cell (printf format) to the last row, or starts a row when
 * that one is full. */
void outfmt_cell(struct outfmt_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Appends a cell of code (flags, a commit id) followed by text after
 * (NULL: none): as they are in text; in Markdown one code span (none
 * for empty code) and after escaped as text. */
void outfmt_code_cell(struct outfmt_table *t, const char *code, const char *after);
/* Prints t as text (OUTFMT_TABLE) or Markdown (OUTFMT_MD); a last row
 * short of cells is completed with empty ones. */
void outfmt_table_print(FILE *f, const struct outfmt_table *t, enum outfmt fmt);
void outfmt_table_release(struct outfmt_table *t);

/*
 * Appends v to sb as one CSV field (RFC 4180: quoted, with its quotes
 * doubled, when it holds a comma, a quote or a line break). A field that
 * a spreadsheet would run as a formula is defused with a leading '
 * (and quoted): one beginning with '=', '+', '@', a tab or a carriage
 * return, or with '-' when it calls a function (a name then '(') or holds
 * a '|' (DDE): "-O2 -march=armv7-a", "-1.5" and "-DX='$(cmd)'" stay as
 * they are, "-1+HYPERLINK(...)" does not.
 */
struct strbuf;
void outfmt_csv_field(struct strbuf *sb, const char *v);
/* The same, always quoted (a label column that scripts expect quoted). */
void outfmt_csv_quoted(struct strbuf *sb, const char *v);

/*
 * The one escaping of each Markdown output. outfmt_md_text: s as
 * Markdown text that renders as s and carries no markup of its own:
 * \ ` * _ (at a word's edge) < > ~, a leading # and the ] of "](", "]["
 * and "]:" escaped with a backslash, line breaks made
 * spaces (no raw HTML, link, image, emphasis or heading can come from s;
 * "[-12%, -9%]" stays as it is). outfmt_md_code: s as one code span whose
 * fence is longer than any run of backticks in s (so s cannot end it),
 * line breaks made spaces. In a table cell, '|' is escaped by
 * outfmt_table_print, not here. Both: caller frees with free().
 */
char *outfmt_md_text(const char *s);
char *outfmt_md_code(const char *s);
/* body (lines, each ending in '\n') as one fenced code block with info
 * string info ("sh", or ""): the fence is longer than any run of
 * backticks in body, so no line of it can end the block. Caller frees
 * with free(). */
char *outfmt_md_block(const char *info, const char *body);
/* s as text of format fmt: outfmt_md_text() for OUTFMT_MD, else a copy.
 * Caller frees with free(). */
char *outfmt_text(enum outfmt fmt, const char *s);

/* The number of characters of UTF-8 text s (its bytes less continuation
 * bytes). */
size_t outfmt_width(const char *s);

#endif
