/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfunc: see tuner/formats/cgfunc.h */
#include "cgfunc.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/util.h"

/* Event names on the events: line; the second is valgrind < 3.6's. */
static const char *const event_names[CG_NEV][2] = {
	[CG_IR] = { "Ir", NULL },     [CG_I1MR] = { "I1mr", NULL },
	[CG_ILMR] = { "ILmr", "I2mr" }, [CG_D1MR] = { "D1mr", NULL },
	[CG_D1MW] = { "D1mw", NULL }, [CG_DLMR] = { "DLmr", "D2mr" },
	[CG_DLMW] = { "DLmw", "D2mw" },
};

/* The counts of one function in one counted file. */
struct piece {
	char *fn, *fl; /* malloced */
	double ev[CG_NEV];
};

struct parser {
	const struct cg_model *m;
	struct cg_profile *out;
	size_t lineno;
	size_t ncols;         /* columns on the events: line; 0 before it */
	size_t col[CG_NEV];   /* column of each model event */
	uint64_t *sum;        /* per column, over every file */
	uint64_t *counts;     /* per column, the current line's */
	int has_summary;
	char *fl, *fn;        /* current file and function; malloced */
	int counted;          /* fl matches the model's files */
	struct piece *pieces; /* one per (fl, fn) run in counted files */
	size_t npieces, apieces;
	int open_piece;       /* the last piece is (fl, fn) */
};

static int fail(struct parser *p, const char *fmt, const char *arg)
{
	return tn_error("cachegrind: line %zu: %s%s%s", p->lineno, fmt, arg ? arg : "",
			arg ? "'" : "");
}

/* Splits s in place into whitespace-separated words; returns the count. */
static size_t split(char **words, size_t max, char *s)
{
	size_t n = 0;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || n == max)
			return n;
		words[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static int decimal(uint64_t *out, const char *w)
{
	char *end;

	if (!isdigit((unsigned char)*w))
		return -1;
	errno = 0;
	*out = strtoull(w, &end, 10);
	return errno || *end ? -1 : 0;
}

static int on_events(struct parser *p, char *rest)
{
	char *words[64];
	size_t n = split(words, ARRAY_SIZE(words), rest);
	unsigned seen = 0;

	if (p->ncols)
		return fail(p, "a second 'events:' line (two outputs mixed?)", NULL);
	if (!n)
		return fail(p, "'events:' names no event", NULL);
	for (size_t c = 0; c < n; c++)
		for (int e = 0; e < CG_NEV; e++)
			for (int alt = 0; alt < 2; alt++)
				if (event_names[e][alt] && !strcmp(words[c], event_names[e][alt])) {
					p->col[e] = c;
					seen |= 1u << e;
				}
	for (int e = 0; e < CG_NEV; e++)
		if (!(seen & (1u << e)))
			return tn_error("cachegrind: no '%s' event: run cachegrind with "
					"--cache-sim=yes", event_names[e][0]);
	p->ncols = n;
	p->sum = xcalloc(n, sizeof(*p->sum));
	p->counts = xcalloc(n, sizeof(*p->counts));
	return 0;
}

/* "c1 c2 ..." into p->counts; fewer than the columns is fine. */
static int read_counts(struct parser *p, char **words, size_t n)
{
	if (n > p->ncols)
		return fail(p, "more counts than events", NULL);
	memset(p->counts, 0, p->ncols * sizeof(*p->counts));
	for (size_t c = 0; c < n; c++)
		if (decimal(&p->counts[c], words[c]) < 0)
			return fail(p, "not a count: '", words[c]);
	return 0;
}

static void on_file(struct parser *p, const char *name)
{
	const char *base = strrchr(name, '/');

	free(p->fl);
	p->fl = xstrdup(name);
	p->counted = fnmatch(p->m->files, base ? base + 1 : name, 0) == 0;
	p->open_piece = 0;
}

static void on_function(struct parser *p, const char *name)
{
	free(p->fn);
	p->fn = xstrdup(name);
	p->open_piece = 0;
}

static int on_count_line(struct parser *p, char *s)
{
	char *words[66];
	size_t n = split(words, ARRAY_SIZE(words), s);
	uint64_t lineno;
	struct piece *pc;

	if (decimal(&lineno, words[0]) < 0)
		return fail(p, "not a count line", NULL);
	if (!p->fl || !p->fn)
		return fail(p, "counts before 'fl=' and 'fn='", NULL);
	if (read_counts(p, words + 1, n - 1) < 0)
		return -1;
	for (size_t c = 0; c < p->ncols; c++) {
		if (p->sum[c] > UINT64_MAX - p->counts[c])
			return fail(p, "counts overflow", NULL);
		p->sum[c] += p->counts[c];
	}
	if (!p->counted)
		return 0;
	if (!p->open_piece) {
		ALLOC_GROW(p->pieces, p->npieces + 1, p->apieces);
		pc = &p->pieces[p->npieces++];
		memset(pc, 0, sizeof(*pc));
		pc->fn = xstrdup(p->fn);
		pc->fl = xstrdup(p->fl);
		p->open_piece = 1;
	}
	pc = &p->pieces[p->npieces - 1];
	for (int e = 0; e < CG_NEV; e++)
		pc->ev[e] += (double)p->counts[p->col[e]];
	return 0;
}

/* summary: (or totals:) must equal the sum of every count line. */
static int on_summary(struct parser *p, char *rest)
{
	char *words[64];
	size_t n = split(words, ARRAY_SIZE(words), rest);

	if (read_counts(p, words, n) < 0)
		return -1;
	for (size_t c = 0; c < p->ncols; c++)
		if (p->counts[c] != p->sum[c])
			return tn_error("cachegrind: line %zu: the counts add up to %llu, "
					"the summary says %llu (event %zu): truncated, or two "
					"outputs mixed?", p->lineno,
					(unsigned long long)p->sum[c],
					(unsigned long long)p->counts[c], c + 1);
	p->has_summary = 1;
	return 0;
}

static void on_desc(struct parser *p, const char *rest)
{
	struct cg_geometry g;

	if (sscanf(rest, " I1 cache: %u B, %u B, %u-way", &g.size, &g.line, &g.assoc) == 3 &&
	    g.size && g.line && g.assoc)
		p->out->i1 = g;
}

static int has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int on_line(struct parser *p, char *s)
{
	if (!*s || *s == '#')
		return 0;
	if (p->has_summary)
		return fail(p, "text after the summary line (two outputs mixed?)", NULL);
	if (has_prefix(s, "desc:")) {
		on_desc(p, s + 5);
		return 0;
	}
	if (has_prefix(s, "cmd:")) {
		if (!p->out->cmd)
			p->out->cmd = xstrdup(s + 4 + strspn(s + 4, " \t"));
		return 0;
	}
	if (has_prefix(s, "events:"))
		return on_events(p, s + 7);
	if (!p->ncols) {
		/* Header lines a later valgrind may add ("version: 1"). */
		if (isalpha((unsigned char)*s) && strchr(s, ':') && !strchr(s, '='))
			return 0;
		return fail(p, "no 'events:' line before this: not a cachegrind output file",
			    NULL);
	}
	if (has_prefix(s, "fl=")) {
		on_file(p, s + 3);
		return 0;
	}
	if (has_prefix(s, "fn=")) {
		on_function(p, s + 3);
		return 0;
	}
	if (has_prefix(s, "summary:"))
		return on_summary(p, s + 8);
	if (has_prefix(s, "totals:"))
		return on_summary(p, s + 7);
	if (isdigit((unsigned char)*s))
		return on_count_line(p, s);
	return fail(p, "unexpected line", NULL);
}

static int by_name(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	return strcmp(x->fn, y->fn);
}

static int by_cycles(const void *a, const void *b)
{
	const struct cg_func *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles < y->cycles ? 1 : -1;
	return strcmp(x->name, y->name);
}

static double model_cycles(const struct cg_model *m, const double *ev)
{
	return ev[CG_IR] + m->l1_miss * (ev[CG_I1MR] + ev[CG_D1MR] + ev[CG_D1MW]) +
	       m->ll_miss * (ev[CG_ILMR] + ev[CG_DLMR] + ev[CG_DLMW]);
}

/* The pieces, sorted by function, become the functions. */
static void merge_pieces(struct parser *p)
{
	struct cg_profile *out = p->out;

	if (p->npieces)
		qsort(p->pieces, p->npieces, sizeof(*p->pieces), by_name);
	out->funcs = xcalloc(p->npieces ? p->npieces : 1, sizeof(*out->funcs));
	for (size_t i = 0; i < p->npieces;) {
		struct cg_func *f = &out->funcs[out->nfuncs++];
		double best_ir = -1;
		size_t j = i;

		f->name = xstrdup(p->pieces[i].fn);
		for (; j < p->npieces && !strcmp(p->pieces[j].fn, f->name); j++) {
			for (int e = 0; e < CG_NEV; e++)
				f->ev[e] += p->pieces[j].ev[e];
			if (p->pieces[j].ev[CG_IR] > best_ir) {
				best_ir = p->pieces[j].ev[CG_IR];
				free(f->file);
				f->file = xstrdup(p->pieces[j].fl);
			}
		}
		i = j;
	}
	for (size_t k = 0; k < out->nfuncs; k++) {
		out->funcs[k].cycles = model_cycles(p->m, out->funcs[k].ev);
		for (int e = 0; e < CG_NEV; e++)
			out->total[e] += out->funcs[k].ev[e];
	}
	out->cycles = model_cycles(p->m, out->total);
	if (out->nfuncs)
		qsort(out->funcs, out->nfuncs, sizeof(*out->funcs), by_cycles);
}

int cgfunc_parse(struct cg_profile *out, const struct cg_model *m, const char *text, size_t len)
{
	struct parser p;
	struct strbuf line = STRBUF_INIT;
	size_t pos = 0;
	int ret = -1;

	memset(&p, 0, sizeof(p));
	memset(out, 0, sizeof(*out));
	p.m = m;
	p.out = out;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		p.lineno++;
		strbuf_reset(&line);
		strbuf_add(&line, text + pos, end - pos);
		while (line.len && isspace((unsigned char)line.buf[line.len - 1]))
			line.buf[--line.len] = '\0';
		if (memchr(line.buf, '\0', line.len)) {
			fail(&p, "a NUL byte: not a text file", NULL);
			goto out;
		}
		if (on_line(&p, line.buf) < 0)
			goto out;
		pos = end + 1;
	}
	if (!p.ncols) {
		tn_error("cachegrind: no 'events:' line: not a cachegrind output file");
		goto out;
	}
	if (!p.has_summary) {
		tn_error("cachegrind: no 'summary:' line: the file is truncated");
		goto out;
	}
	merge_pieces(&p);
	ret = 0;
out:
	for (size_t i = 0; i < p.npieces; i++) {
		free(p.pieces[i].fn);
		free(p.pieces[i].fl);
	}
	free(p.pieces);
	free(p.sum);
	free(p.counts);
	free(p.fl);
	free(p.fn);
	strbuf_release(&line);
	if (ret < 0)
		cg_profile_release(out);
	return ret;
}

int cgfunc_load(struct cg_profile *out, const struct cg_model *m, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	if (read_file(&text, &len, path) < 0)
		return -1;
	ret = cgfunc_parse(out, m, text, len);
	free(text);
	if (ret < 0) {
		char *msg = xstrdup(tn_errmsg());

		tn_error("%s: %s", path, msg);
		free(msg);
	}
	return ret;
}

const struct cg_func *cg_profile_find(const struct cg_profile *p, const char *name)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].name, name))
			return &p->funcs[i];
	return NULL;
}

void cg_profile_add(struct cg_profile *a, const struct cg_profile *b)
{
	for (size_t i = 0; i < b->nfuncs; i++) {
		const struct cg_func *fb = &b->funcs[i];
		struct cg_func *fa = (struct cg_func *)cg_profile_find(a, fb->name);

		if (!fa) {
			a->funcs = xrealloc(a->funcs, (a->nfuncs + 1) * sizeof(*a->funcs));
			fa = &a->funcs[a->nfuncs++];
			memset(fa, 0, sizeof(*fa));
			fa->name = xstrdup(fb->name);
			fa->file = xstrdup(fb->file);
		}
		for (int e = 0; e < CG_NEV; e++)
			fa->ev[e] += fb->ev[e];
		fa->cycles += fb->cycles;
	}
	for (int e = 0; e < CG_NEV; e++)
		a->total[e] += b->total[e];
	a->cycles += b->cycles;
	if (a->nfuncs)
		qsort(a->funcs, a->nfuncs, sizeof(*a->funcs), by_cycles);
}

void cg_profile_scale(struct cg_profile *p, double k)
{
	for (size_t i = 0; i < p->nfuncs; i++) {
		for (int e = 0; e < CG_NEV; e++)
			p->funcs[i].ev[e] *= k;
		p->funcs[i].cycles *= k;
	}
	for (int e = 0; e < CG_NEV; e++)
		p->total[e] *= k;
	p->cycles *= k;
}

void cg_profile_release(struct cg_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nfuncs; i++) {
		free(p->funcs[i].name);
		free(p->funcs[i].file);
	}
	free(p->funcs);
	free(p->cmd);
	memset(p, 0, sizeof(*p));
}
