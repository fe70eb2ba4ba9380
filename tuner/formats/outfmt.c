/* SPDX-License-Identifier: GPL-2.0-or-later */
/* outfmt: see include/tuner/outfmt.h */
#include "tuner/outfmt.h"

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
	ALLOC_GROW(t->cells, t->ncells + 1, t->alloc);
	t->cells[t->ncells++] = s;
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

static void print_md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc(' ', f);
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
				print_md_cell(f, cell(t, r, c));
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
	memset(t, 0, sizeof(*t));
}

void outfmt_csv_field(struct strbuf *sb, const char *v)
{
	if (!strpbrk(v, ",\"\r\n")) {
		strbuf_addstr(sb, v);
		return;
	}
	strbuf_addch(sb, '"');
	for (; *v; v++) {
		if (*v == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *v);
	}
	strbuf_addch(sb, '"');
}
