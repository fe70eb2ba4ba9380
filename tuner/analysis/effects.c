/* SPDX-License-Identifier: GPL-2.0-or-later */
/* effects: see include/tuner/effects.h */
#include "tuner/effects.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/stats.h"
#include "tuner/util.h"

void effects_estimate(struct effect_est *out, const double *e, const double *s, size_t n)
{
	double mean = 0, ss = 0, s2 = 0, var, q;

	out->n = n;
	out->sign = 0;
	if (!n) {
		out->mean = out->lo = out->hi = NAN;
		return;
	}
	for (size_t i = 0; i < n; i++)
		mean += e[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double si = isnan(s[i]) ? 0 : s[i];

		ss += (e[i] - mean) * (e[i] - mean);
		s2 += si * si;
	}
	s2 /= (double)n;
	/* Random effects by moments: var = (tau^2 + s2) / n with tau^2 =
	 * max(0, S^2 - s2); the quantile follows the term that sets it. */
	if (n >= 2 && ss / (double)(n - 1) > s2) {
		var = ss / (double)(n - 1) / (double)n;
		q = stats_t_quantile(0.975, (double)(n - 1));
	} else {
		var = s2 / (double)n;
		q = stats_normal_quantile(0.975);
	}
	out->mean = mean;
	out->lo = mean - q * sqrt(var);
	out->hi = mean + q * sqrt(var);
	if (out->lo > 0)
		out->sign = 1;
	else if (out->hi < 0)
		out->sign = -1;
}

const char *effects_word(const struct effect_est *e, int maximize)
{
	if (!e->n)
		return "no pairs";
	if (!e->sign)
		return "no clear effect";
	return (e->sign > 0) == (maximize != 0) ? "helps" : "hurts";
}

int effects_sign_change(const struct effect_est *a, const struct effect_est *b)
{
	return a->sign && b->sign && a->sign != b->sign;
}

struct ctx {
	const size_t *nvalues;
	size_t ndims;
	const struct effects_obs *obs;
	size_t *order; /* the usable observations, by pick */
	size_t norder;
};

static _Thread_local const struct ctx *sort_ctx;

static int cmp_picks(const size_t *a, const size_t *b, size_t ndims)
{
	for (size_t d = 0; d < ndims; d++)
		if (a[d] != b[d])
			return a[d] < b[d] ? -1 : 1;
	return 0;
}

static int cmp_obs(const void *a, const void *b)
{
	const struct effects_obs *x = &sort_ctx->obs[*(const size_t *)a];
	const struct effects_obs *y = &sort_ctx->obs[*(const size_t *)b];
	int c = cmp_picks(x->pick, y->pick, sort_ctx->ndims);

	if (c)
		return c;
	/* The first of equal picks comes first (and counts). */
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* The observation with pick, or -1. */
static long find(const struct ctx *c, const size_t *pick)
{
	size_t lo = 0, hi = c->norder;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = cmp_picks(c->obs[c->order[mid]].pick, pick, c->ndims);

		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->norder && !cmp_picks(c->obs[c->order[lo]].pick, pick, c->ndims))
		return (long)c->order[lo];
	return -1;
}

static int usable(const struct effects_obs *o)
{
	return o->pick && isfinite(o->value);
}

/* One pair: b holds the value, a the reference. 0 when it gives none. */
static int pair_effect(double *e, double *s, const struct effects_obs *a,
		       const struct effects_obs *b)
{
	double sa = isnan(a->se) ? 0 : a->se, sb = isnan(b->se) ? 0 : b->se;
	double r;

	if (a->value == 0)
		return 0;
	*e = (b->value - a->value) / fabs(a->value);
	r = b->value / a->value;
	if (a->code && b->code && !strcmp(a->code, b->code))
		*s = 0;
	else
		*s = sqrt(sb * sb + r * r * sa * sa) / fabs(a->value);
	return 1;
}

/* The pairs of value v of dimension d: effects e[], errors s[], and the
 * observation holding v of each (with[]). Returns how many. */
static size_t pairs_of(const struct ctx *c, size_t d, size_t v, double *e, double *s,
		       size_t *with, size_t *pick)
{
	size_t n = 0;

	for (size_t k = 0; k < c->norder; k++) {
		const struct effects_obs *b = &c->obs[c->order[k]];
		long a;

		if (b->pick[d] != v || (k && !cmp_picks(c->obs[c->order[k - 1]].pick, b->pick,
							  c->ndims)))
			continue;
		memcpy(pick, b->pick, c->ndims * sizeof(*pick));
		pick[d] = 0;
		a = find(c, pick);
		if (a < 0 || !pair_effect(&e[n], &s[n], &c->obs[a], b))
			continue;
		with[n++] = c->order[k];
	}
	return n;
}

/* The conditional effects of one value, and the interactions they show. */
static void conditional(struct effects *out, size_t vi, const struct ctx *c, const double *e,
			const double *s, const size_t *with, size_t n, double *ce, double *cs)
{
	struct effects_value *ev = &out->values[vi];

	for (size_t d = 0; d < c->ndims; d++) {
		long pos = -1, neg = -1;

		if (d == ev->dim)
			continue;
		for (size_t w = 0; w < c->nvalues[d]; w++) {
			struct effect_est *est = &ev->cond[out->cond_off[d] + w];
			size_t m = 0;

			for (size_t k = 0; k < n; k++) {
				if (c->obs[with[k]].pick[d] != w)
					continue;
				ce[m] = e[k];
				cs[m++] = s[k];
			}
			effects_estimate(est, ce, cs, m);
			if (est->sign > 0 && (pos < 0 ||
			    est->mean > ev->cond[out->cond_off[d] + (size_t)pos].mean))
				pos = (long)w;
			if (est->sign < 0 && (neg < 0 ||
			    est->mean < ev->cond[out->cond_off[d] + (size_t)neg].mean))
				neg = (long)w;
		}
		if (pos >= 0 && neg >= 0) {
			out->inter = xrealloc(out->inter, (out->ninter + 1) * sizeof(*out->inter));
			out->inter[out->ninter++] = (struct effects_interaction){
				.value = vi, .other = d, .pos = (size_t)pos, .neg = (size_t)neg };
		}
	}
}

int effects_compute(struct effects *out, const size_t *nvalues, size_t ndims,
		    const struct effects_obs *obs, size_t nobs)
{
	struct ctx c = { .nvalues = nvalues, .ndims = ndims, .obs = obs };
	double *e, *s, *ce, *cs;
	size_t *with, *pick, vi = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < nobs; i++)
		for (size_t d = 0; obs[i].pick && d < ndims; d++)
			if (obs[i].pick[d] >= nvalues[d])
				return tn_error("configuration %zu: value %zu of dimension %zu, which has %zu",
						i, obs[i].pick[d], d, nvalues[d]);
	out->ndims = ndims;
	out->nvalues = xcalloc(ndims ? ndims : 1, sizeof(*out->nvalues));
	out->cond_off = xcalloc(ndims ? ndims : 1, sizeof(*out->cond_off));
	for (size_t d = 0; d < ndims; d++) {
		out->nvalues[d] = nvalues[d];
		out->cond_off[d] = out->ncond;
		out->ncond += nvalues[d];
		out->nvals += nvalues[d] ? nvalues[d] - 1 : 0;
	}
	out->values = xcalloc(out->nvals ? out->nvals : 1, sizeof(*out->values));

	c.order = xcalloc(nobs ? nobs : 1, sizeof(*c.order));
	for (size_t i = 0; i < nobs; i++)
		if (usable(&obs[i]))
			c.order[c.norder++] = i;
	sort_ctx = &c;
	qsort(c.order, c.norder, sizeof(*c.order), cmp_obs);
	sort_ctx = NULL;

	e = xcalloc(c.norder + 1, sizeof(*e));
	s = xcalloc(c.norder + 1, sizeof(*s));
	ce = xcalloc(c.norder + 1, sizeof(*ce));
	cs = xcalloc(c.norder + 1, sizeof(*cs));
	with = xcalloc(c.norder + 1, sizeof(*with));
	pick = xcalloc(ndims ? ndims : 1, sizeof(*pick));
	for (size_t d = 0; d < ndims; d++) {
		for (size_t v = 1; v < nvalues[d]; v++, vi++) {
			struct effects_value *ev = &out->values[vi];
			size_t n = pairs_of(&c, d, v, e, s, with, pick);

			ev->dim = d;
			ev->value = v;
			ev->cond = xcalloc(out->ncond ? out->ncond : 1, sizeof(*ev->cond));
			for (size_t k = 0; k < out->ncond; k++)
				effects_estimate(&ev->cond[k], NULL, NULL, 0);
			effects_estimate(&ev->main, e, s, n);
			conditional(out, vi, &c, e, s, with, n, ce, cs);
		}
	}
	free(e);
	free(s);
	free(ce);
	free(cs);
	free(with);
	free(pick);
	free(c.order);
	return 0;
}

void effects_release(struct effects *e)
{
	for (size_t i = 0; i < e->nvals; i++)
		free(e->values[i].cond);
	free(e->values);
	free(e->inter);
	free(e->nvalues);
	free(e->cond_off);
	memset(e, 0, sizeof(*e));
}
