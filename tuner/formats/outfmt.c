/* SPDX-License-Identifier: GPL-2.0-or-later */
/* outfmt: see include/tuner/outfmt.h */
#include "tuner/outfmt.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/util.h"

int outfmt_parse(enum outfmt *out, const char *name)
{
	if (!strcmp(name, "table"))
		*out = OUTFMT_TABLE;
	else if (!strcmp(name, "md") || !strcmp(name, "markdown"))
		*out = OUTFMT_MD;
	else if (!strcmp(name, "json"))
		*out = OUTFMT_JSON;
	else
		return -1;
	return 0;
}

void outfmt_table_init(struct outfmt_table *t, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols ? ncols : 1;
}

/* Appends s (malloced, now t's); code: 0, or 1 + the length of its code
 * part. */
static void add_cell(struct outfmt_table *t, char *s, size_t code)
{
	size_t had = t->alloc;

	ALLOC_GROW(t->cells, t->ncells + 1, t->alloc);
	if (t->alloc != had)
		t->code = xrealloc(t->code, t->alloc * sizeof(*t->code));
	t->code[t->ncells] = code;
	t->cells[t->ncells++] = s;
}

void outfmt_cell(struct outfmt_table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc((size_t)(n < 0 ? 0 : n) + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
	va_end(ap);
	add_cell(t, s, 0);
}

void outfmt_code_cell(struct outfmt_table *t, const char *code, const char *after)
{
	add_cell(t, xasprintf("%s%s", code, after ? after : ""), 1 + strlen(code));
}

size_t outfmt_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static const char *cell(const struct outfmt_table *t, size_t row, size_t col)
{
	size_t i = row * t->ncols + col;

	return i < t->ncells ? t->cells[i] : "";
}

/* 0 if cell (row, col) of t is text, else 1 + its code part's length. */
static size_t code_part(const struct outfmt_table *t, size_t row, size_t col)
{
	size_t i = row * t->ncols + col;

	return i < t->ncells ? t->code[i] : 0;
}

/* A cell as Markdown: its code part a span, the rest escaped text. */
static void print_md_cell(FILE *f, const char *cell, size_t code)
{
	char *esc;

	if (code > 1) {
		char *c = xstrndup(cell, code - 1), *span = outfmt_md_code(c);
		char *text = outfmt_md_text(cell + code - 1);

		esc = xasprintf("%s%s", span, text);
		free(c);
		free(span);
		free(text);
	} else {
		esc = outfmt_md_text(cell + (code ? code - 1 : 0));
	}

	fputs("| ", f);
	for (const char *s = esc; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s, f);
	}
	fputc(' ', f);
	free(esc);
}

void outfmt_table_print(FILE *f, const struct outfmt_table *t, enum outfmt fmt)
{
	size_t rows = (t->ncells + t->ncols - 1) / t->ncols;
	size_t *w;

	if (!rows)
		return;
	if (fmt == OUTFMT_MD) {
		for (size_t r = 0; r < rows; r++) {
			for (size_t c = 0; c < t->ncols; c++)
				print_md_cell(f, cell(t, r, c), code_part(t, r, c));
			fputs("|\n", f);
			if (r)
				continue;
			for (size_t c = 0; c < t->ncols; c++)
				fputs("| --- ", f);
			fputs("|\n", f);
		}
		return;
	}
	w = xcalloc(t->ncols, sizeof(*w));
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t n = outfmt_width(cell(t, r, c));
			if (n > w[c])
				w[c] = n;
		}
	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = cell(t, r, c);

			fputs(s, f);
			if (c + 1 == t->ncols)
				break;
			for (size_t k = outfmt_width(s); k < w[c] + 2; k++)
				fputc(' ', f);
		}
		fputc('\n', f);
	}
	free(w);
}

void outfmt_table_release(struct outfmt_table *t)
{
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->code);
	memset(t, 0, sizeof(*t));
}

/* Whether a CSV field that begins with '-' could do something as a
 * formula: call a function ("-1+HYPERLINK(...)": a name then '(') or
 * reach another program (DDE: '|'). Flags and numbers, quotes, '$(' and
 * all, only make a spreadsheet print an error. */
static int formula_shaped(const char *v)
{
	for (size_t i = 0; v[i]; i++)
		if (v[i] == '|' || (v[i] == '(' && i &&
				    (isalnum((unsigned char)v[i - 1]) || strchr("_.", v[i - 1]))))
			return 1;
	return 0;
}

/* The CSV field v, quoted if quote or if it must be. */
static void csv_field(struct strbuf *sb, const char *v, int quote)
{
	int formula = (*v && strchr("=+@\t\r", *v)) || (*v == '-' && formula_shaped(v));

	if (!quote && !formula && !strpbrk(v, ",\"\r\n")) {
		strbuf_addstr(sb, v);
		return;
	}
	strbuf_addch(sb, '"');
	if (formula)
		strbuf_addch(sb, '\'');
	for (; *v; v++) {
		if (*v == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *v);
	}
	strbuf_addch(sb, '"');
}

void outfmt_csv_field(struct strbuf *sb, const char *v)
{
	csv_field(sb, v, 0);
}

void outfmt_csv_quoted(struct strbuf *sb, const char *v)
{
	csv_field(sb, v, 1);
}

static int word_char(unsigned char c)
{
	return isalnum(c) || c >= 0x80;
}

char *outfmt_md_text(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n' || c == '\r') {
			strbuf_addch(&sb, ' ');
			continue;
		}
		/* Intraword _ opens no emphasis (snake_case stays readable);
		 * brackets make a link, an image or a link's definition only
		 * with "](", "][" or "]:" (so "[-12%, -9%]" stays as it is). */
		if (strchr("\\`*<>~", c) || (c == '#' && i == 0) ||
		    (c == ']' && s[i + 1] && strchr("([:", s[i + 1])) ||
		    (c == '_' && !(i && word_char((unsigned char)s[i - 1]) &&
				   word_char((unsigned char)s[i + 1]))))
			strbuf_addch(&sb, '\\');
		strbuf_addch(&sb, (char)c);
	}
	return strbuf_detach(&sb);
}

/* The longest run of backticks in s. */
static size_t backtick_run(const char *s)
{
	size_t run = 0, longest = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	return longest;
}

/* n backticks onto sb (a fence). */
static void add_backticks(struct strbuf *sb, size_t n)
{
	while (n--)
		strbuf_addch(sb, '`');
}

char *outfmt_md_block(const char *info, const char *body)
{
	struct strbuf sb = STRBUF_INIT;
	size_t fence = backtick_run(body) + 1, n = strlen(body);

	if (fence < 3)
		fence = 3;
	add_backticks(&sb, fence);
	strbuf_addf(&sb, "%s\n%s%s", info, body, n && body[n - 1] != '\n' ? "\n" : "");
	add_backticks(&sb, fence);
	strbuf_addch(&sb, '\n');
	return strbuf_detach(&sb);
}

char *outfmt_md_code(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	size_t longest = backtick_run(s), n = strlen(s);
	/* A span that begins or ends with a backtick, or with a space at
	 * both ends, is padded with a space each side (CommonMark strips
	 * exactly one). */
	int pad = n && (s[0] == '`' || s[n - 1] == '`' || (s[0] == ' ' && s[n - 1] == ' '));

	add_backticks(&sb, longest + 1);
	if (pad)
		strbuf_addch(&sb, ' ');
	for (size_t i = 0; i < n; i++)
		strbuf_addch(&sb, s[i] == '\n' || s[i] == '\r' ? ' ' : s[i]);
	if (pad)
		strbuf_addch(&sb, ' ');
	add_backticks(&sb, longest + 1);
	return strbuf_detach(&sb);
}

char *outfmt_text(enum outfmt fmt, const char *s)
{
	return fmt == OUTFMT_MD ? outfmt_md_text(s) : xstrdup(s);
}
