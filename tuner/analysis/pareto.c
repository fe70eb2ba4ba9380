/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pareto: see tuner/analysis/pareto.h */
#include "pareto.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/stats.h"
#include "tuner/util.h"

int pareto_breaks_limit(const struct pareto_obj *o, double v)
{
	return o->has_limit && (o->maximize ? v < o->limit : v > o->limit);
}

static int feasible(const double *v, const struct pareto_obj *objs, size_t nobjs)
{
	for (size_t k = 0; k < nobjs; k++)
		if (isnan(v[k]) || pareto_breaks_limit(&objs[k], v[k]))
			return 0;
	return 1;
}

/* 1 if a dominates b; both feasible, so no NaN reaches the comparisons. */
static int dominates(const double *a, const double *b,
		     const struct pareto_obj *objs, size_t nobjs)
{
	int strictly = 0;

	for (size_t k = 0; k < nobjs; k++) {
		/* Compare rather than subtract: inf - inf would be NaN. */
		if (objs[k].maximize ? a[k] < b[k] : a[k] > b[k])
			return 0;
		if (objs[k].maximize ? a[k] > b[k] : a[k] < b[k])
			strictly = 1;
	}
	return strictly;
}

size_t pareto_front(int *out_front, int *out_feasible, const double *values,
		    size_t npoints, const struct pareto_obj *objs, size_t nobjs)
{
	int *ok = xmalloc(npoints * sizeof(*ok));
	size_t count = 0;

	for (size_t i = 0; i < npoints; i++) {
		ok[i] = feasible(values + i * nobjs, objs, nobjs);
		if (out_feasible)
			out_feasible[i] = ok[i];
	}

	/*
	 * The plain pairwise check, O(n^2 m): a study has at most a few
	 * thousand evaluated points, where this takes milliseconds and is
	 * obviously right; Kung's or Jensen's algorithms would not pay back
	 * their subtlety.
	 */
	for (size_t i = 0; i < npoints; i++) {
		out_front[i] = ok[i];
		for (size_t j = 0; j < npoints && out_front[i]; j++) {
			if (j == i || !ok[j])
				continue;
			if (dominates(values + j * nobjs, values + i * nobjs, objs, nobjs))
				out_front[i] = 0;
		}
		count += (size_t)out_front[i];
	}
	free(ok);
	return count;
}

/* Some point has two different finite samples of objective k. */
static int noise_seen(const struct pareto_samples *samples, size_t npoints,
		      size_t nobjs, size_t k)
{
	for (size_t i = 0; i < npoints; i++) {
		const struct pareto_samples *ps = &samples[i * nobjs + k];
		double first = NAN;

		for (size_t q = 0; q < ps->n; q++) {
			if (!isfinite(ps->x[q]))
				continue;
			if (isnan(first))
				first = ps->x[q];
			else if (ps->x[q] != first)
				return 1;
		}
	}
	return 0;
}

static enum pareto_rel rel_exact(double vj, double vi, int maximize)
{
	if (vj == vi)
		return PARETO_EQUAL;
	if (maximize ? vj > vi : vj < vi)
		return PARETO_BETTER;
	return PARETO_WORSE;
}

/* j against i under noise: the interval of mean j - mean i. */
static enum pareto_rel rel_noisy(const struct pareto_samples *i,
				 const struct pareto_samples *j, int maximize, double level)
{
	struct stats_test t;

	if (i->cluster && j->cluster)
		stats_compare_clustered(&t, i->x, i->cluster, i->n, j->x, j->cluster, j->n, level);
	else
		stats_welch(&t, i->x, i->n, j->x, j->n, level);
	if (isnan(t.diff_lo) || isnan(t.diff_hi))
		return PARETO_UNRESOLVED;
	/* Constant samples on both sides give the interval [diff, diff]. */
	if (t.diff_lo == 0 && t.diff_hi == 0)
		return PARETO_EQUAL;
	if (t.diff_lo > 0)
		return maximize ? PARETO_BETTER : PARETO_WORSE;
	if (t.diff_hi < 0)
		return maximize ? PARETO_WORSE : PARETO_BETTER;
	return PARETO_UNRESOLVED;
}

static enum pareto_rel flip(enum pareto_rel r)
{
	if (r == PARETO_BETTER)
		return PARETO_WORSE;
	if (r == PARETO_WORSE)
		return PARETO_BETTER;
	return r;
}

struct noisy_ctx {
	size_t n, m;
	const int *feasible;
	unsigned char *rel; /* rel[(k * n + i) * n + j]: j seen against i on k */
};

static enum pareto_rel rel_at(const struct noisy_ctx *c, size_t k, size_t i, size_t j)
{
	return (enum pareto_rel)c->rel[(k * c->n + i) * c->n + j];
}

/* j significantly dominates i. */
static int sig_dominates(const struct noisy_ctx *c, size_t j, size_t i)
{
	int better = 0;

	if (j == i || !c->feasible[j])
		return 0;
	for (size_t k = 0; k < c->m; k++) {
		enum pareto_rel r = rel_at(c, k, i, j);
		if (r != PARETO_BETTER && r != PARETO_EQUAL)
			return 0;
		better |= r == PARETO_BETTER;
	}
	return better;
}

/* j could still come to dominate i with more samples: it is worse in no
 * objective and within noise in some. */
static int could_dominate(const struct noisy_ctx *c, size_t j, size_t i)
{
	int open = 0;

	if (j == i || !c->feasible[j])
		return 0;
	for (size_t k = 0; k < c->m; k++) {
		enum pareto_rel r = rel_at(c, k, i, j);
		if (r == PARETO_WORSE)
			return 0;
		open |= r == PARETO_UNRESOLVED;
	}
	return open;
}

static void fill_relations(struct noisy_ctx *c, const int *noisy, const double *values,
			   const struct pareto_samples *samples,
			   const struct pareto_obj *objs, double level)
{
	size_t n = c->n, m = c->m;

	for (size_t k = 0; k < m; k++)
		for (size_t i = 0; i < n; i++)
			for (size_t j = i + 1; j < n; j++) {
				enum pareto_rel r = PARETO_UNRESOLVED;

				/* Infeasible points neither dominate nor are
				 * on the front: their relations never count. */
				if (c->feasible[i] && c->feasible[j])
					r = noisy[k] ? rel_noisy(&samples[i * m + k], &samples[j * m + k],
								 objs[k].maximize, level)
						     : rel_exact(values[j * m + k], values[i * m + k],
								 objs[k].maximize);
				c->rel[(k * n + i) * n + j] = (unsigned char)r;
				c->rel[(k * n + j) * n + i] = (unsigned char)flip(r);
			}
}

size_t pareto_front_noisy(struct pareto_verdict *out, int *out_noisy,
			  const double *values, const struct pareto_samples *samples,
			  size_t npoints, const struct pareto_obj *objs, size_t nobjs,
			  double level)
{
	struct noisy_ctx c = { npoints, nobjs, NULL, NULL };
	int *feas = xcalloc(npoints ? npoints : 1, sizeof(*feas));
	int *noisy = xcalloc(nobjs ? nobjs : 1, sizeof(*noisy));
	size_t count = 0;

	memset(out, 0, npoints * sizeof(*out));
	for (size_t i = 0; i < npoints; i++)
		feas[i] = out[i].feasible = feasible(values + i * nobjs, objs, nobjs);
	for (size_t k = 0; k < nobjs; k++) {
		noisy[k] = !objs[k].exact && noise_seen(samples, npoints, nobjs, k);
		if (out_noisy)
			out_noisy[k] = noisy[k];
	}
	c.feasible = feas;
	c.rel = xcalloc(npoints * npoints * nobjs + 1, 1);
	fill_relations(&c, noisy, values, samples, objs, level);

	for (size_t i = 0; i < npoints; i++) {
		struct pareto_verdict *v = &out[i];
		size_t alloc = 0;

		v->on_front = feas[i];
		for (size_t j = 0; j < npoints && v->on_front; j++)
			if (sig_dominates(&c, j, i))
				v->on_front = 0;
		count += (size_t)v->on_front;
		if (!v->on_front)
			continue;
		for (size_t j = 0; j < npoints; j++) {
			if (j == i || !feas[j] ||
			    !dominates(values + j * nobjs, values + i * nobjs, objs, nobjs))
				continue;
			ALLOC_GROW(v->tied_with, v->ntied + 1, alloc);
			v->tied_with[v->ntied++] = j;
		}
		v->tied = v->ntied > 0;
	}
	/* Settled needs every on_front first: (2) looks at the others. */
	for (size_t i = 0; i < npoints; i++) {
		struct pareto_verdict *v = &out[i];
		int open = 0;

		if (!v->on_front) {
			v->settled = 1;
			continue;
		}
		for (size_t j = 0; j < npoints && !open; j++)
			open = could_dominate(&c, j, i) ||
			       (out[j].on_front && could_dominate(&c, i, j));
		v->settled = !open;
	}
	free(c.rel);
	free(feas);
	free(noisy);
	return count;
}

void pareto_verdicts_release(struct pareto_verdict *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].tied_with);
		v[i].tied_with = NULL;
		v[i].ntied = 0;
	}
}

/* ---- Dominance and ranks of minimised points under noise ---- */

int pareto_dominates(const double *ya, const double *sea, double viola, const double *yb,
		     const double *seb, double violb, size_t m)
{
	int a_better = 0, b_better = 0;

	if (viola > 0 || violb > 0) {
		if (viola < violb)
			return 1;
		if (violb < viola)
			return -1;
		return 0;
	}
	for (size_t k = 0; k < m; k++) {
		double e = 0;

		if (sea && seb)
			e = 2.0 * sqrt(sea[k] * sea[k] + seb[k] * seb[k]);
		if (ya[k] + e < yb[k])
			a_better = 1;
		else if (yb[k] + e < ya[k])
			b_better = 1;
	}
	if (a_better && !b_better)
		return 1;
	if (b_better && !a_better)
		return -1;
	return 0;
}

void pareto_rank(int *rank, const double *y, const double *se, const double *viol, size_t n,
		 size_t m)
{
	size_t *count = xcalloc(n + 1, sizeof(*count)); /* how many dominate i */
	size_t *cur = xcalloc(n + 1, sizeof(*cur)), *next = xcalloc(n + 1, sizeof(*next));
	size_t ncur = 0;
	int r = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			int d = pareto_dominates(y + i * m, se ? se + i * m : NULL, viol[i],
						 y + j * m, se ? se + j * m : NULL, viol[j], m);

			if (d > 0)
				count[j]++;
			else if (d < 0)
				count[i]++;
		}
	for (size_t i = 0; i < n; i++)
		if (!count[i]) {
			rank[i] = 0;
			cur[ncur++] = i;
		}
	/* Peel fronts: O(m n^2) per front at worst, simple and enough for
	 * populations of a few hundred. */
	while (ncur) {
		size_t nnext = 0;

		r++;
		for (size_t c = 0; c < ncur; c++) {
			size_t i = cur[c];

			for (size_t j = 0; j < n; j++) {
				if (j == i || !count[j])
					continue;
				if (pareto_dominates(y + i * m, se ? se + i * m : NULL, viol[i],
						     y + j * m, se ? se + j * m : NULL, viol[j],
						     m) > 0 && !--count[j]) {
					rank[j] = r;
					next[nnext++] = j;
				}
			}
		}
		memcpy(cur, next, nnext * sizeof(*cur));
		ncur = nnext;
	}
	free(count);
	free(cur);
	free(next);
}

/* ---- Hypervolume of minimised points ---- */

struct hv_order {
	const double *rows;
	size_t stride, key, m;
};

/* By objective key, then the others after it (qsort_r). */
static int by_key(const void *a, const void *b, void *arg)
{
	const struct hv_order *o = arg;
	const double *x = o->rows + *(const size_t *)a * o->stride,
		     *y = o->rows + *(const size_t *)b * o->stride;

	for (size_t k = 0; k < o->m; k++) {
		size_t c = (o->key + k) % o->m;

		if (x[c] != y[c])
			return x[c] < y[c] ? -1 : 1;
	}
	return 0;
}

/* idx: the points' rows, all strictly below ref. m dims of the first m of
 * each row (rows of stride `stride`). Sorts idx. */
static double hv_rec(const double *pts, size_t stride, size_t *idx, size_t n, size_t m,
		     const double *ref)
{
	struct hv_order order = { pts, stride, m - 1, m };
	double v = 0;

	if (!n)
		return 0;
	if (m == 1) {
		double best = ref[0];

		for (size_t i = 0; i < n; i++)
			if (pts[idx[i] * stride] < best)
				best = pts[idx[i] * stride];
		return ref[0] - best;
	}
	qsort_r(idx, n, sizeof(*idx), by_key, &order);
	if (m == 2) {
		/* Sorted by y1 (then y0): each point adds a strip below the
		 * best y0 so far. */
		double best0 = ref[0];

		for (size_t i = 0; i < n; i++) {
			const double *p = pts + idx[i] * stride;

			if (p[0] < best0) {
				v += (best0 - p[0]) * (ref[1] - p[1]);
				best0 = p[0];
			}
		}
		return v;
	}
	{
		/* Slices along objective m-1: between consecutive values, the
		 * (m-1)-dimensional volume of the points below. */
		size_t *sub = xmalloc(n * sizeof(*sub));

		for (size_t i = 0; i < n; i++) {
			double lo = pts[idx[i] * stride + m - 1];
			double hi = i + 1 < n ? pts[idx[i + 1] * stride + m - 1] : ref[m - 1];

			if (hi > lo) {
				memcpy(sub, idx, (i + 1) * sizeof(*sub));
				v += hv_rec(pts, stride, sub, i + 1, m - 1, ref) * (hi - lo);
			}
		}
		free(sub);
	}
	return v;
}

double pareto_hypervolume(const double *pts, size_t n, size_t m, const double *ref)
{
	size_t *idx = xmalloc((n ? n : 1) * sizeof(*idx)), k = 0;
	double v;

	if (!m) {
		free(idx);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		size_t d;

		for (d = 0; d < m; d++)
			if (!(pts[i * m + d] < ref[d]))
				break;
		if (d == m)
			idx[k++] = i;
	}
	v = hv_rec(pts, m, idx, k, m, ref);
	free(idx);
	return v;
}

/* 2-D hypervolume of the front (nf rows sorted by objective 0, then 1)
 * with y among it, in one sweep. */
static double hv2_with(const double *front, size_t nf, const double *y, const double *ref)
{
	double v = 0, best1 = ref[1];
	int placed = !(y[0] < ref[0] && y[1] < ref[1]);

	for (size_t i = 0;;) {
		const double *q;

		if (!placed && (i == nf || y[0] < front[i * 2] ||
				(y[0] == front[i * 2] && y[1] <= front[i * 2 + 1]))) {
			q = y;
			placed = 1;
		} else if (i < nf) {
			q = front + i++ * 2;
		} else {
			break;
		}
		if (q[0] < ref[0] && q[1] < best1) {
			v += (ref[0] - q[0]) * (best1 - q[1]);
			best1 = q[1];
		}
	}
	return v;
}

static int by_first(const void *a, const void *b)
{
	const double *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

void pareto_hypervolume_order(double *pts, size_t n, size_t m)
{
	if (m == 2)
		qsort(pts, n, 2 * sizeof(*pts), by_first);
}

double pareto_hypervolume_gain(double *front, size_t nf, const double *y, size_t m,
			       const double *ref, double base)
{
	double v;

	if (m == 2) {
		v = hv2_with(front, nf, y, ref) - base;
	} else {
		memcpy(front + nf * m, y, m * sizeof(*y));
		v = pareto_hypervolume(front, nf + 1, m, ref) - base;
	}
	/* Rounding leaves a point on the front a tiny negative gain. */
	return v > 0 ? v : 0;
}
