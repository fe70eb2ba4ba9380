/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strategy: see include/tuner/strategy.h; what every strategy shares is
 * here (hypervolume, domination, ranks, the set of picks), the fixed orders
 * of search.h as strategies, and the table of them. */
#include "tuner/strategy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "strategy_priv.h"

uint64_t pick_hash(const size_t *pick, size_t ndims)
{
	uint64_t h = HASH64_INIT;

	for (size_t d = 0; d < ndims; d++) {
		uint64_t v = pick[d];

		h = hash64(h, &v, sizeof(v));
	}
	return mix64(h) | 1;
}

static size_t pickset_find(const struct pickset *set, uint64_t h)
{
	size_t i = (size_t)(h >> 1) & (set->cap - 1);

	while (set->slot[i] && set->slot[i] != h)
		i = (i + 1) & (set->cap - 1);
	return i;
}

int pickset_has(const struct pickset *set, const size_t *pick, size_t ndims)
{
	if (!set->cap)
		return 0;
	return set->slot[pickset_find(set, pick_hash(pick, ndims))] != 0;
}

int pickset_add(struct pickset *set, const size_t *pick, size_t ndims)
{
	uint64_t h = pick_hash(pick, ndims);
	size_t i;

	if (2 * (set->n + 1) > set->cap) {
		struct pickset grown = { NULL, set->cap ? 2 * set->cap : 64, 0 };

		grown.slot = xcalloc(grown.cap, sizeof(*grown.slot));
		for (size_t k = 0; k < set->cap; k++)
			if (set->slot[k]) {
				grown.slot[pickset_find(&grown, set->slot[k])] = set->slot[k];
				grown.n++;
			}
		free(set->slot);
		*set = grown;
	}
	i = pickset_find(set, h);
	if (set->slot[i])
		return 0;
	set->slot[i] = h;
	set->n++;
	return 1;
}

void pickset_release(struct pickset *set)
{
	free(set->slot);
	memset(set, 0, sizeof(*set));
}

void problem_copy(struct problem *out, const struct strategy_problem *p)
{
	uint64_t size = space_size(p->s);

	out->s = p->s;
	out->nobjs = p->nobjs;
	out->ndims = p->s->ndims;
	out->objs = xcalloc(p->nobjs ? p->nobjs : 1, sizeof(*out->objs));
	memcpy(out->objs, p->objs, p->nobjs * sizeof(*out->objs));
	out->budget = p->budget && p->budget < size ? p->budget : size;
	out->seed = p->seed;
	out->repeats = p->repeats;
}

void problem_release(struct problem *p)
{
	free(p->objs);
	memset(p, 0, sizeof(*p));
}

int strategy_check_obs(const char *name, size_t nobs, uint64_t proposed)
{
	if (nobs == proposed)
		return 0;
	return tn_error("strategy %s: asked with %zu observations after %llu proposals (every "
			"proposal must be observed before the next batch)", name, nobs,
			(unsigned long long)proposed);
}

void random_pick(size_t *pick, const struct space *s, struct rng *r)
{
	for (size_t d = 0; d < s->ndims; d++)
		pick[d] = (size_t)rng_below(r, s->dims[d].nvalues);
}

/* ---- Points, domination, ranks ---- */

void strategy_points(double *out, int *feasible, const struct pareto_obj *objs, size_t nobjs,
		     const struct strategy_obs *obs, size_t nobs)
{
	for (size_t i = 0; i < nobs; i++) {
		int ok = !obs[i].failed;

		for (size_t k = 0; k < nobjs; k++) {
			double v = obs[i].failed ? NAN : obs[i].value[k];

			out[i * nobjs + k] = objs[k].maximize ? -v : v;
			if (!isfinite(v))
				ok = 0;
			else if (objs[k].has_limit &&
				 (objs[k].maximize ? v < objs[k].limit : v > objs[k].limit))
				ok = 0;
		}
		feasible[i] = ok;
	}
}

double mo_violation(const struct problem *p, const struct strategy_obs *o)
{
	double v = 0;

	if (o->failed)
		return HUGE_VAL;
	for (size_t k = 0; k < p->nobjs; k++) {
		const struct pareto_obj *ob = &p->objs[k];
		double x = o->value[k], scale;

		if (!isfinite(x))
			return HUGE_VAL;
		if (!ob->has_limit)
			continue;
		scale = fabs(ob->limit) > 0 ? fabs(ob->limit) : 1;
		if (ob->maximize ? x < ob->limit : x > ob->limit)
			v += fabs(x - ob->limit) / scale;
	}
	return v;
}

int mo_dominates(const double *ya, const double *sea, double viola, const double *yb,
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

void mo_rank(int *rank, const double *y, const double *se, const double *viol, size_t n,
	     size_t m)
{
	size_t *count = xcalloc(n + 1, sizeof(*count)); /* how many dominate i */
	size_t *cur = xcalloc(n + 1, sizeof(*cur)), *next = xcalloc(n + 1, sizeof(*next));
	size_t ncur = 0;
	int r = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			int d = mo_dominates(y + i * m, se ? se + i * m : NULL, viol[i], y + j * m,
					     se ? se + j * m : NULL, viol[j], m);

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
				if (mo_dominates(y + i * m, se ? se + i * m : NULL, viol[i],
						 y + j * m, se ? se + j * m : NULL, viol[j], m) > 0 &&
				    !--count[j]) {
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

/* ---- Hypervolume ---- */

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

double strategy_hypervolume(const double *pts, size_t n, size_t m, const double *ref)
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

/* ---- The fixed orders of search.h as strategies ---- */

struct fixed {
	const struct search_ops *ops;
	void *st;
	size_t ndims;
	uint64_t proposed;
};

static int fixed_init(void **out, const struct strategy_problem *p, const char *name)
{
	struct fixed *f = xcalloc(1, sizeof(*f));

	*out = NULL;
	f->ops = search_find(name);
	f->ndims = p->s->ndims;
	if (f->ops->init(&f->st, p->s, p->budget, p->seed) < 0) {
		free(f);
		return -1;
	}
	*out = f;
	return 0;
}

static int exhaustive_init(void **out, const struct strategy_problem *p)
{
	return fixed_init(out, p, "exhaustive");
}

static int random_init(void **out, const struct strategy_problem *p)
{
	return fixed_init(out, p, "random");
}

static long fixed_ask(void *state, size_t *picks, size_t max, const struct strategy_obs *obs,
		      size_t nobs)
{
	struct fixed *f = state;
	size_t n = 0;

	(void)obs;
	if (strategy_check_obs(f->ops->name, nobs, f->proposed) < 0)
		return -1;
	while (n < max && f->ops->next(f->st, picks + n * f->ndims) == 1)
		n++;
	f->proposed += n;
	return (long)n;
}

static void fixed_free(void *state)
{
	struct fixed *f = state;

	if (!f)
		return;
	f->ops->free(f->st);
	free(f);
}

static const struct strategy_ops exhaustive_strategy = {
	"exhaustive", 0, exhaustive_init, fixed_ask, fixed_free, NULL,
};
static const struct strategy_ops random_strategy = {
	"random", 0, random_init, fixed_ask, fixed_free, NULL,
};

extern const struct strategy_ops nsga2_strategy;
extern const struct strategy_ops surrogate_strategy;

static const struct strategy_ops *const strategies[] = {
	&exhaustive_strategy,
	&random_strategy,
	&nsga2_strategy,
	&surrogate_strategy,
};

const struct strategy_ops *strategy_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(strategies); i++)
		if (!strcmp(strategies[i]->name, name))
			return strategies[i];
	return NULL;
}

const char *strategy_names(void)
{
	return "exhaustive, random, nsga2, surrogate";
}

/* ---- The hypervolume of progress lines ---- */

double strategy_hv_progress(struct strategy_hv *h, const struct pareto_obj *objs, size_t nobjs,
			    const struct strategy_obs *obs, size_t nobs)
{
	double *y = xcalloc(nobs * nobjs + 1, sizeof(*y)), *pts, v, scale = 1;
	int *feas = xcalloc(nobs + 1, sizeof(*feas));
	size_t n = 0;

	strategy_points(y, feas, objs, nobjs, obs, nobs);
	pts = xcalloc(nobs * nobjs + 1, sizeof(*pts));
	for (size_t i = 0; i < nobs; i++)
		if (feas[i])
			memcpy(pts + n++ * nobjs, y + i * nobjs, nobjs * sizeof(*y));
	if (!h->set && n) {
		h->ref = xcalloc(nobjs + 1, sizeof(*h->ref));
		h->unit = xcalloc(nobjs + 1, sizeof(*h->unit));
		for (size_t k = 0; k < nobjs; k++) {
			double lo = HUGE_VAL, hi = -HUGE_VAL;

			for (size_t i = 0; i < n; i++) {
				lo = fmin(lo, pts[i * nobjs + k]);
				hi = fmax(hi, pts[i * nobjs + k]);
			}
			h->unit[k] = hi > lo ? hi - lo : fabs(hi) > 0 ? fabs(hi) : 1;
			h->ref[k] = hi + 0.1 * h->unit[k];
		}
		h->set = 1;
	}
	if (!h->set) {
		v = NAN;
	} else {
		for (size_t k = 0; k < nobjs; k++)
			scale *= h->unit[k];
		v = strategy_hypervolume(pts, n, nobjs, h->ref) / scale;
	}
	free(y);
	free(feas);
	free(pts);
	return v;
}

void strategy_hv_release(struct strategy_hv *h)
{
	free(h->ref);
	free(h->unit);
	memset(h, 0, sizeof(*h));
}

/* ---- The trail of a search ---- */

void strategy_trail_init(struct strategy_trail *t, size_t ndims, size_t nobjs)
{
	memset(t, 0, sizeof(*t));
	t->ndims = ndims;
	t->nobjs = nobjs;
}

size_t strategy_trail_add(struct strategy_trail *t, const size_t *pick)
{
	size_t i = t->n;

	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 64;
		t->picks = xrealloc(t->picks, t->alloc * (t->ndims ? t->ndims : 1) * sizeof(*t->picks));
		t->value = xrealloc(t->value, t->alloc * (t->nobjs ? t->nobjs : 1) * sizeof(*t->value));
		t->se = xrealloc(t->se, t->alloc * (t->nobjs ? t->nobjs : 1) * sizeof(*t->se));
		t->failed = xrealloc(t->failed, t->alloc * sizeof(*t->failed));
		t->obs = xrealloc(t->obs, t->alloc * sizeof(*t->obs));
	}
	memcpy(t->picks + i * t->ndims, pick, t->ndims * sizeof(*pick));
	for (size_t k = 0; k < t->nobjs; k++) {
		t->value[i * t->nobjs + k] = NAN;
		t->se[i * t->nobjs + k] = 0;
	}
	t->failed[i] = 0;
	t->n++;
	return i;
}

const struct strategy_obs *strategy_trail_obs(struct strategy_trail *t)
{
	for (size_t i = 0; i < t->n; i++) {
		t->obs[i].pick = t->picks + i * t->ndims;
		t->obs[i].value = t->value + i * t->nobjs;
		t->obs[i].se = t->se + i * t->nobjs;
		t->obs[i].failed = t->failed[i];
	}
	return t->obs;
}

void strategy_trail_release(struct strategy_trail *t)
{
	free(t->picks);
	free(t->value);
	free(t->se);
	free(t->failed);
	free(t->obs);
	memset(t, 0, sizeof(*t));
}

void strategy_first_picks(size_t *first, const size_t *const *picks, size_t n, size_t ndims)
{
	size_t cap = 16, *slot;

	while (cap < 2 * n + 2)
		cap *= 2;
	slot = xcalloc(cap, sizeof(*slot)); /* 1 + first proposal; 0: empty */
	for (size_t i = 0; i < n; i++) {
		size_t h = (size_t)(pick_hash(picks[i], ndims) >> 1) & (cap - 1);

		while (slot[h] && memcmp(picks[slot[h] - 1], picks[i], ndims * sizeof(size_t)))
			h = (h + 1) & (cap - 1);
		if (!slot[h])
			slot[h] = i + 1;
		first[i] = slot[h] - 1;
	}
	free(slot);
}
