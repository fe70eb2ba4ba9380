/* SPDX-License-Identifier: GPL-2.0-or-later */
/* defaults: see include/tuner/defaults.h */
#include "tuner/defaults.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/stats.h"
#include "tuner/util.h"

static size_t count_words(const char *s)
{
	size_t n = 0;

	while (*s) {
		s += strspn(s, " \t\n");
		if (!*s)
			break;
		n++;
		s += strcspn(s, " \t\n");
	}
	return n;
}

static int usable(const struct defaults_config *c)
{
	return c->feasible && isfinite(c->value);
}

/* a better than b by value, then fewer flags, then id. */
static int better(const struct defaults_config *a, const struct defaults_config *b,
		  int maximize)
{
	size_t fa, fb;

	if (a->value != b->value)
		return maximize ? a->value > b->value : a->value < b->value;
	fa = count_words(a->flags);
	fb = count_words(b->flags);
	if (fa != fb)
		return fa < fb;
	return strcmp(a->id, b->id) < 0;
}

static long best_of(const struct defaults_target *t)
{
	long best = -1;

	for (size_t i = 0; i < t->nconfigs; i++)
		if (usable(&t->configs[i]) &&
		    (best < 0 || better(&t->configs[i], &t->configs[best], t->maximize)))
			best = (long)i;
	return best;
}

static void regret(struct defaults_cell *out, const struct defaults_config *c,
		   const struct defaults_config *b, int maximize)
{
	double sv = isnan(c->se) ? 0 : c->se, sb = isnan(b->se) ? 0 : b->se, r, se;

	out->state = DEFAULTS_OK;
	out->regret = out->lo = out->hi = NAN;
	if (!b->value)
		return;
	if (c == b) {
		out->regret = out->lo = out->hi = 0;
		return;
	}
	r = (maximize ? b->value - c->value : c->value - b->value) / fabs(b->value);
	se = sqrt(sv * sv + (c->value / b->value) * (c->value / b->value) * sb * sb) /
	     fabs(b->value);
	out->regret = r;
	out->lo = r - stats_normal_quantile(0.975) * se;
	out->hi = r + stats_normal_quantile(0.975) * se;
}

/* (target, index) of one configuration, sorted by id to match targets. */
struct entry {
	const char *id;
	size_t t, i;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c)
		return c;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct defaults_row *x = a, *y = b;

	if (x->candidate != y->candidate)
		return y->candidate - x->candidate;
	if (x->candidate) {
		if (x->worst != y->worst)
			return x->worst < y->worst ? -1 : 1;
		if (x->mean != y->mean)
			return x->mean < y->mean ? -1 : 1;
		if (x->nflags != y->nflags)
			return x->nflags < y->nflags ? -1 : 1;
		if (x->pgo != y->pgo)
			return x->pgo - y->pgo;
	}
	return strcmp(x->id, y->id);
}

/* The row of the entries e[0..n) (one id; the first per target counts). */
static void fill_row(struct defaults_row *row, const struct defaults_target *t, size_t nt,
		     const long *best, const struct entry *e, size_t n)
{
	const struct defaults_config *first = &t[e[0].t].configs[e[0].i];

	row->id = first->id;
	row->flags = first->flags;
	row->pgo = first->pgo;
	row->nflags = count_words(first->flags);
	row->cells = xcalloc(nt ? nt : 1, sizeof(*row->cells));
	for (size_t k = 0; k < nt; k++)
		row->cells[k] = (struct defaults_cell){ DEFAULTS_MISSING, NAN, NAN, NAN };
	for (size_t k = 0; k < n; k++) {
		const struct defaults_config *c = &t[e[k].t].configs[e[k].i];
		struct defaults_cell *cell = &row->cells[e[k].t];

		if (k && e[k].t == e[k - 1].t)
			continue;
		if (!isfinite(c->value))
			cell->state = DEFAULTS_UNKNOWN;
		else if (!c->feasible)
			cell->state = DEFAULTS_INFEASIBLE;
		else if (best[e[k].t] >= 0)
			regret(cell, c, &t[e[k].t].configs[best[e[k].t]], t[e[k].t].maximize);
		else
			cell->state = DEFAULTS_OK;
	}
	row->candidate = nt > 0;
	row->worst = row->mean = NAN;
	for (size_t k = 0; k < nt; k++)
		row->candidate &= row->cells[k].state == DEFAULTS_OK &&
				  isfinite(row->cells[k].regret);
	if (!row->candidate)
		return;
	row->worst = -INFINITY;
	row->mean = 0;
	for (size_t k = 0; k < nt; k++) {
		double r = row->cells[k].regret;

		row->mean += r / (double)nt;
		if (r > row->worst) {
			row->worst = r;
			row->worst_target = k;
		}
	}
}

void defaults_compute(struct defaults *out, const struct defaults_target *t, size_t n)
{
	struct entry *e;
	size_t ne = 0, k = 0;

	memset(out, 0, sizeof(*out));
	out->ntargets = n;
	out->common = -1;
	out->best = xcalloc(n ? n : 1, sizeof(*out->best));
	for (size_t i = 0; i < n; i++) {
		out->best[i] = best_of(&t[i]);
		ne += t[i].nconfigs;
	}
	e = xcalloc(ne ? ne : 1, sizeof(*e));
	ne = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < t[i].nconfigs; c++)
			e[ne++] = (struct entry){ t[i].configs[c].id, i, c };
	qsort(e, ne, sizeof(*e), cmp_entry);
	out->rows = xcalloc(ne ? ne : 1, sizeof(*out->rows));
	while (k < ne) {
		size_t end = k + 1;

		while (end < ne && !strcmp(e[end].id, e[k].id))
			end++;
		fill_row(&out->rows[out->nrows++], t, n, out->best, e + k, end - k);
		k = end;
	}
	free(e);
	qsort(out->rows, out->nrows, sizeof(*out->rows), cmp_rows);
	if (out->nrows && out->rows[0].candidate)
		out->common = 0;
}

void defaults_release(struct defaults *d)
{
	for (size_t i = 0; i < d->nrows; i++)
		free(d->rows[i].cells);
	free(d->rows);
	free(d->best);
	memset(d, 0, sizeof(*d));
}

int defaults_serves_all(const struct defaults *d, double within)
{
	return d->common >= 0 && d->rows[d->common].worst < within;
}

char *defaults_verdict(const struct defaults *d, const struct defaults_target *t, double within)
{
	const struct defaults_row *row;

	for (size_t i = 0; i < d->ntargets; i++)
		if (d->best[i] < 0)
			return xasprintf("no common default: %s has no feasible configuration with a value",
					 t[i].name);
	if (d->common < 0)
		return xasprintf("no common default: no configuration is feasible, with a value, on every target");
	row = &d->rows[d->common];
	if (defaults_serves_all(d, within))
		return xasprintf("one default serves all within %.3g%% (worst regret, on %s)",
				 100 * row->worst, t[row->worst_target].name);
	return xasprintf("per-target defaults gain %.3g%% on %s", 100 * row->worst,
			 t[row->worst_target].name);
}
