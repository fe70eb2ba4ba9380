/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strategy: see include/tuner/strategy.h; the fixed orders of search.h as
 * strategies, the table of them, the hypervolume of progress lines and the
 * trail of a search (what every strategy shares is in strategy_base.c). */
#include "tuner/strategy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "strategy_priv.h"

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
		v = pareto_hypervolume(pts, n, nobjs, h->ref) / scale;
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
