/* SPDX-License-Identifier: GPL-2.0-or-later */
/* layout: see include/tuner/layout.h (statistics over a study's builds) */
#include "tuner/layout.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/stats.h"
#include "tuner/util.h"


/* ---- A study ---- */

struct hot {
	const char *name;
	double mean;
};

static int by_mean(const void *a, const void *b)
{
	const struct hot *x = a, *y = b;

	if (x->mean != y->mean)
		return x->mean < y->mean ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Every costed function of the builds with its mean cycles, hottest first. */
static struct hot *hot_functions(size_t *n, const struct layout_build *const *builds, size_t nb)
{
	struct hot *h = NULL;
	size_t count = 0, alloc = 0;

	for (size_t b = 0; b < nb; b++)
		for (size_t i = 0; i < builds[b]->nfuncs; i++) {
			const char *name = builds[b]->funcs[i].name;
			size_t have = 0;
			double sum = 0;
			int seen = 0;

			for (size_t c = 0; c < count && !seen; c++)
				seen = !strcmp(h[c].name, name);
			if (seen)
				continue;
			for (size_t c = 0; c < nb; c++) {
				const struct layout_func *f = layout_build_find(builds[c], name);

				if (f) {
					sum += f->cycles;
					have++;
				}
			}
			ALLOC_GROW(h, count + 1, alloc);
			h[count++] = (struct hot){ name, sum / (double)have };
		}
	if (count)
		qsort(h, count, sizeof(*h), by_mean);
	*n = count;
	return h;
}

/*
 * One function: its class of every build (SIZE_MAX where it has no symbol
 * or the build no value), numbered in order of first appearance so that
 * two functions splitting the builds alike get the same labels.
 */
static void examine(struct layout_effect *e, size_t *labels, const char *name,
		    const struct layout_build *const *builds, const double *values, size_t nb,
		    unsigned modulus)
{
	double *y = xcalloc(nb + 1, sizeof(*y)), *own = xcalloc(nb + 1, sizeof(*own));
	size_t *grp = xcalloc(nb + 1, sizeof(*grp));
	size_t used = 0;
	double lo = INFINITY, hi = -INFINITY, cost = 0;

	e->name = xstrdup(name);
	e->classes = xcalloc(nb + 1, sizeof(*e->classes));
	for (size_t b = 0; b < nb; b++) {
		const struct layout_func *f = layout_build_find(builds[b], name);
		uint64_t off;
		size_t c;

		labels[b] = SIZE_MAX;
		if (!f || !f->sym || !isfinite(values[b]))
			continue;
		off = f->addr % modulus;
		for (c = 0; c < e->nclasses && e->classes[c].offset != off; c++)
			;
		if (c == e->nclasses)
			e->classes[e->nclasses++].offset = off;
		e->classes[c].n++;
		e->classes[c].objective += values[b];
		e->classes[c].cost += f->cycles;
		if (f->lines > e->classes[c].lines)
			e->classes[c].lines = f->lines;
		labels[b] = c;
		y[used] = values[b];
		own[used] = f->cycles;
		grp[used++] = c;
		cost += f->cycles;
	}
	e->nbuilds = used;
	e->mean_cost = used ? cost / (double)used : NAN;
	for (size_t c = 0; c < e->nclasses; c++) {
		struct layout_class *k = &e->classes[c];

		k->objective /= (double)k->n;
		k->cost /= (double)k->n;
		lo = fmin(lo, k->cost);
		hi = fmax(hi, k->cost);
	}
	e->cost_range = e->nclasses ? hi - lo : 0;
	stats_anova(&e->obj, y, grp, used);
	stats_anova(&e->own, own, grp, used);
	free(y);
	free(own);
	free(grp);
}

static int by_offset(const void *a, const void *b)
{
	const struct layout_class *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int by_evidence(const void *a, const void *b)
{
	const struct layout_effect *x = a, *y = b;
	int tx = isfinite(x->obj.p), ty = isfinite(y->obj.p);

	if (tx != ty)
		return tx ? -1 : 1;
	if (tx && x->obj.p != y->obj.p)
		return x->obj.p < y->obj.p ? -1 : 1;
	if (x->cost_range != y->cost_range)
		return x->cost_range > y->cost_range ? -1 : 1;
	return strcmp(x->name, y->name);
}

int layout_study(struct layout_effect **out, size_t *n, const struct layout_build *const *builds,
		 const double *values, size_t nb, const struct layout_study_opts *o)
{
	struct hot *hot;
	struct layout_effect *e;
	size_t nhot, m, *labels;
	double *p, *q;
	size_t valued = 0;

	*out = NULL;
	*n = 0;
	for (size_t b = 0; b < nb; b++)
		valued += isfinite(values[b]) && builds[b]->nfuncs;
	if (!valued)
		return tn_error("no build has both a value of the objective and cachegrind costs");
	hot = hot_functions(&nhot, builds, nb);
	m = nhot < o->top ? nhot : o->top;
	e = xcalloc(m + 1, sizeof(*e));
	labels = xcalloc((m + 1) * (nb + 1), sizeof(*labels));
	p = xcalloc(m + 1, sizeof(*p));
	q = xcalloc(m + 1, sizeof(*q));
	for (size_t i = 0; i < m; i++) {
		examine(&e[i], labels + i * nb, hot[i].name, builds, values, nb, o->modulus);
		/* Confounded functions split the builds alike: one test. */
		e[i].pattern = i;
		for (size_t j = 0; j < i; j++)
			if (!memcmp(labels + i * nb, labels + j * nb, nb * sizeof(*labels))) {
				e[i].pattern = e[j].pattern;
				break;
			}
		p[i] = e[i].pattern == i ? e[i].obj.p : NAN;
	}
	stats_bh(q, p, m);
	for (size_t i = 0; i < m; i++) {
		e[i].q = q[e[i].pattern];
		for (size_t j = 0; j < m; j++)
			e[i].same += j != i && e[j].pattern == e[i].pattern;
		qsort(e[i].classes, e[i].nclasses, sizeof(*e[i].classes), by_offset);
	}
	qsort(e, m, sizeof(*e), by_evidence);
	free(hot);
	free(labels);
	free(p);
	free(q);
	*out = e;
	*n = m;
	return 0;
}

void layout_effects_free(struct layout_effect *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].classes);
	}
	free(e);
}
