/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgmodel: see include/tuner/cgmodel.h */
#include "tuner/cgmodel.h"

#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/util.h"

#define NAME "cachegrind-model"

/* The events the model reads. */
enum ev { EV_IR, EV_I1MR, EV_ILMR, EV_D1MR, EV_D1MW, EV_DLMR, EV_DLMW, NEV };

/* Names in cachegrind's events: line; valgrind before 3.6 said I2mr for the
 * last-level misses, the second name. */
static const char *const ev_names[NEV][2] = {
	{ "Ir", NULL },
	{ "I1mr", NULL },
	{ "ILmr", "I2mr" },
	{ "D1mr", NULL },
	{ "D1mw", NULL },
	{ "DLmr", "D2mr" },
	{ "DLmw", "D2mw" },
};

/* Parser names and the score field each selects. */
static const struct {
	const char *name;
	size_t offset;
} parsers[] = {
	{ NAME, offsetof(struct cg_score, mbps) },
	{ NAME ":cycles", offsetof(struct cg_score, cycles_per_packet) },
	{ NAME ":ir", offsetof(struct cg_score, ir_per_packet) },
	{ NAME ":i1-misses", offsetof(struct cg_score, i1_misses_per_packet) },
};

struct line {
	const char *s;
	size_t len;
	size_t no; /* 1-based */
};

struct scan {
	const struct cg_model *m;
	size_t nevents;      /* on the events: line; 0 until it is seen */
	size_t col[NEV];     /* column of each model event */
	uint64_t *all;       /* per event: the sum over every file */
	uint64_t *summary;   /* per event: the summary: line */
	int has_summary;
	uint64_t mine[NEV];  /* the sum over counted files */
	int in_file;         /* an fl= line was seen */
	int counted;         /* the current fl= file matches m->files */
	size_t nmatched;     /* fl= lines that matched */
	int has_packets;
	double packets, bytes;
};

static int starts(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !memcmp(l->s, prefix, n);
}

/* Next whitespace-separated token of l from *pos; 0 at the end. */
static int next_token(const char **tok, size_t *toklen, const struct line *l, size_t *pos)
{
	size_t i = *pos, start;

	while (i < l->len && isspace((unsigned char)l->s[i]))
		i++;
	if (i == l->len)
		return 0;
	start = i;
	while (i < l->len && !isspace((unsigned char)l->s[i]))
		i++;
	*tok = l->s + start;
	*toklen = i - start;
	*pos = i;
	return 1;
}

/* A token of decimal digits, as cachegrind writes counts. */
static int parse_count(uint64_t *out, const char *tok, size_t len)
{
	uint64_t v = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned char)tok[i] - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int bad_line(const struct line *l, const char *what)
{
	return tn_error_line(NAME, l->no, what, l->s, l->len);
}

/* Fills counts (nevents entries) from the tokens of l after *pos; missing
 * trailing counts are 0. */
static int parse_counts(uint64_t *counts, const struct scan *sc, const struct line *l,
			size_t pos, const char *what)
{
	const char *tok;
	size_t len, k = 0;

	memset(counts, 0, sc->nevents * sizeof(*counts));
	while (next_token(&tok, &len, l, &pos)) {
		if (k == sc->nevents)
			return bad_line(l, "more counts than events");
		if (parse_count(&counts[k++], tok, len) < 0)
			return bad_line(l, what);
	}
	return 0;
}

static int parse_events(struct scan *sc, const struct line *l)
{
	const char *tok;
	size_t len, pos = strlen("events:"), n = 0;
	int seen[NEV] = { 0 };

	if (sc->nevents)
		return tn_error(NAME ": line %zu: a second 'events:' line "
				"(more than one cachegrind output?)", l->no);
	while (next_token(&tok, &len, l, &pos)) {
		for (size_t e = 0; e < NEV; e++) {
			for (size_t a = 0; a < 2 && ev_names[e][a]; a++) {
				if (strlen(ev_names[e][a]) != len ||
				    memcmp(ev_names[e][a], tok, len))
					continue;
				if (seen[e])
					return bad_line(l, "an event listed twice");
				seen[e] = 1;
				sc->col[e] = n;
			}
		}
		n++;
	}
	for (size_t e = 0; e < NEV; e++)
		if (!seen[e])
			return tn_error(NAME ": no '%s' event on the 'events:' line "
					"(run cachegrind with --cache-sim=yes)", ev_names[e][0]);
	sc->nevents = n;
	sc->all = xcalloc(n, sizeof(*sc->all));
	sc->summary = xcalloc(n, sizeof(*sc->summary));
	return 0;
}

static void parse_file(struct scan *sc, const struct line *l)
{
	char *name = xstrndup(l->s + 3, l->len - 3);
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	sc->in_file = 1;
	sc->counted = fnmatch(sc->m->files, base, 0) == 0;
	sc->nmatched += sc->counted;
	free(name);
}

/* "LINE c1 c2 ...": adds the counts to the totals. */
static int parse_count_line(struct scan *sc, const struct line *l)
{
	uint64_t *counts = xcalloc(sc->nevents, sizeof(*counts));
	const char *tok;
	size_t len, pos = 0;
	uint64_t lineno;
	int ret = -1;

	if (!sc->in_file) {
		tn_error(NAME ": line %zu: counts before any 'fl=' line", l->no);
		goto out;
	}
	next_token(&tok, &len, l, &pos);
	if (parse_count(&lineno, tok, len) < 0) {
		bad_line(l, "not a count line");
		goto out;
	}
	if (parse_counts(counts, sc, l, pos, "not a count line") < 0)
		goto out;
	for (size_t k = 0; k < sc->nevents; k++) {
		if (sc->all[k] + counts[k] < sc->all[k]) {
			bad_line(l, "counts overflow");
			goto out;
		}
		sc->all[k] += counts[k];
	}
	if (sc->counted)
		for (size_t e = 0; e < NEV; e++)
			sc->mine[e] += counts[sc->col[e]];
	ret = 0;
out:
	free(counts);
	return ret;
}

static int parse_summary(struct scan *sc, const struct line *l, size_t skip)
{
	uint64_t *counts = xcalloc(sc->nevents, sizeof(*counts));
	int ret = -1;

	if (parse_counts(counts, sc, l, skip, "bad summary") < 0)
		goto out;
	/* summary: and totals: may both be there; both must agree. */
	if (sc->has_summary && memcmp(counts, sc->summary, sc->nevents * sizeof(*counts))) {
		bad_line(l, "disagrees with the earlier summary");
		goto out;
	}
	memcpy(sc->summary, counts, sc->nevents * sizeof(*counts));
	sc->has_summary = 1;
	ret = 0;
out:
	free(counts);
	return ret;
}

/* The value of the token "key=V" in l: 1 if found, 0 if not, -1 if V is not
 * a number. */
static int token_value(double *out, const struct line *l, const char *key)
{
	size_t klen = strlen(key), len, pos = 0;
	const char *tok;

	while (next_token(&tok, &len, l, &pos)) {
		char *v;
		int r;

		if (len < klen || memcmp(tok, key, klen))
			continue;
		v = xstrndup(tok + klen, len - klen);
		r = parse_double(out, v);
		free(v);
		return r < 0 ? -1 : 1;
	}
	return 0;
}

/* The workload's line "... packets=N ... bytes=B ...": the first counts. */
static int parse_packets(struct scan *sc, const struct line *l)
{
	double p, b;
	int rp, rb;

	if (sc->has_packets)
		return 0;
	rp = token_value(&p, l, "packets=");
	rb = token_value(&b, l, "bytes=");
	if (rp == 0 || rb == 0)
		return 0;
	if (rp < 0 || rb < 0)
		return bad_line(l, "packets= and bytes= want numbers");
	if (p <= 0 || b <= 0)
		return tn_error(NAME ": line %zu: packets=%g bytes=%g: the workload "
				"forwarded nothing", l->no, p, b);
	sc->has_packets = 1;
	sc->packets = p;
	sc->bytes = b;
	return 0;
}

/*
 * One line. Before the events: line everything but the packets line is
 * ignored (the workload may print what it likes); after it, a line that
 * starts with a digit must be a count line, so that the file is never
 * silently misread.
 */
static int scan_line(struct scan *sc, const struct line *l)
{
	static const char *const needs_events[] = { "fl=", "summary:", "totals:" };

	if (starts(l, "events:"))
		return parse_events(sc, l);
	if (starts(l, "desc:") || starts(l, "cmd:") || starts(l, "fn="))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(needs_events); i++) {
		const char *kw = needs_events[i];

		if (!starts(l, kw))
			continue;
		if (!sc->nevents)
			return tn_error(NAME ": line %zu: '%s' before the 'events:' line",
					l->no, kw);
		if (i == 0) {
			parse_file(sc, l);
			return 0;
		}
		return parse_summary(sc, l, strlen(kw));
	}
	if (sc->nevents && l->len && isdigit((unsigned char)l->s[0]))
		return parse_count_line(sc, l);
	return parse_packets(sc, l);
}

static int scan_text(struct scan *sc, const char *text, size_t len)
{
	struct line l = { text, 0, 0 };
	const char *end = text + len;

	while (l.s < end) {
		const char *nl = memchr(l.s, '\n', (size_t)(end - l.s));

		l.len = (size_t)((nl ? nl : end) - l.s);
		l.no++;
		while (l.len && isspace((unsigned char)l.s[l.len - 1]))
			l.len--; /* "\r\n", trailing blanks */
		if (scan_line(sc, &l) < 0)
			return -1;
		l.s = nl ? nl + 1 : end;
	}
	return 0;
}

/* The file is whole: the per-line counts add up to cachegrind's summary. */
static int check_totals(const struct scan *sc)
{
	if (!sc->nevents)
		return tn_error(NAME ": no 'events:' line in output (the cachegrind "
				"output file should follow the workload's output)");
	if (!sc->has_summary)
		return tn_error(NAME ": no 'summary:' line (cachegrind output missing "
				"its end, or truncated)");
	for (size_t k = 0; k < sc->nevents; k++)
		if (sc->all[k] != sc->summary[k])
			return tn_error(NAME ": the counts do not add up to the summary "
					"(event %zu: %llu, summary %llu): truncated or mixed "
					"output?", k + 1, (unsigned long long)sc->all[k],
					(unsigned long long)sc->summary[k]);
	return 0;
}

static void compute(struct cg_score *out, const struct cg_model *m, const struct scan *sc)
{
	memset(out, 0, sizeof(*out));
	out->packets = sc->packets;
	out->bytes = sc->bytes;
	out->ir = (double)sc->mine[EV_IR];
	out->i1mr = (double)sc->mine[EV_I1MR];
	out->ilmr = (double)sc->mine[EV_ILMR];
	out->d1mr = (double)sc->mine[EV_D1MR];
	out->d1mw = (double)sc->mine[EV_D1MW];
	out->dlmr = (double)sc->mine[EV_DLMR];
	out->dlmw = (double)sc->mine[EV_DLMW];
	out->cycles = out->ir + m->l1_miss * (out->i1mr + out->d1mr + out->d1mw) +
		      m->ll_miss * (out->ilmr + out->dlmr + out->dlmw);
	out->cycles_per_packet = out->cycles / out->packets;
	out->ir_per_packet = out->ir / out->packets;
	out->i1_misses_per_packet = out->i1mr / out->packets;
	out->mbps = out->bytes * 8 * m->clock_mhz / out->cycles;
}

int cgmodel_score(struct cg_score *out, const struct cg_model *m, const char *text, size_t len)
{
	struct scan sc;
	int ret = -1;

	memset(&sc, 0, sizeof(sc));
	sc.m = m;
	if (!text) {
		text = "";
		len = 0;
	}
	if (scan_text(&sc, text, len) < 0 || check_totals(&sc) < 0)
		goto out;
	if (!sc.has_packets) {
		tn_error(NAME ": no line with packets= and bytes= (what the workload "
			 "forwarded)");
		goto out;
	}
	if (!sc.nmatched) {
		tn_error(NAME ": no counted code: no file matches '%s'", m->files);
		goto out;
	}
	if (!sc.mine[EV_IR]) {
		tn_error(NAME ": no counted code: the files matching '%s' ran no "
			 "instructions", m->files);
		goto out;
	}
	compute(out, m, &sc);
	ret = 0;
out:
	free(sc.all);
	free(sc.summary);
	return ret;
}

void cg_model_init(struct cg_model *m)
{
	m->l1_miss = CG_MODEL_L1_MISS;
	m->ll_miss = CG_MODEL_LL_MISS;
	m->clock_mhz = CG_MODEL_CLOCK_MHZ;
	m->files = xstrdup(CG_MODEL_FILES);
}

void cg_model_release(struct cg_model *m)
{
	free(m->files);
	m->files = NULL;
}

int cgmodel_parser_valid(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(parsers); i++)
		if (!strcmp(name, parsers[i].name))
			return 1;
	return 0;
}

double cgmodel_value(const struct cg_score *s, const char *parser)
{
	for (size_t i = 0; i < ARRAY_SIZE(parsers); i++)
		if (!strcmp(parser, parsers[i].name))
			return *(const double *)((const char *)s + parsers[i].offset);
	return NAN;
}
