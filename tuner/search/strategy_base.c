/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strategy_base: what every strategy shares (strategy_priv.h): the set of
 * its picks, the problem as it keeps it, the observations as points. */
#include "tuner/strategy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strategy_priv.h"

uint64_t strategy_pick_hash(const size_t *pick, size_t ndims)
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

int strategy_pickset_has(const struct pickset *set, const size_t *pick, size_t ndims)
{
	if (!set->cap)
		return 0;
	return set->slot[pickset_find(set, strategy_pick_hash(pick, ndims))] != 0;
}

int strategy_pickset_add(struct pickset *set, const size_t *pick, size_t ndims)
{
	uint64_t h = strategy_pick_hash(pick, ndims);
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

void strategy_pickset_release(struct pickset *set)
{
	free(set->slot);
	memset(set, 0, sizeof(*set));
}

void strategy_problem_copy(struct problem *out, const struct strategy_problem *p)
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

void strategy_problem_release(struct problem *p)
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

void strategy_random_pick(size_t *pick, const struct space *s, struct rng *r)
{
	for (size_t d = 0; d < s->ndims; d++)
		pick[d] = (size_t)rng_below(r, s->dims[d].nvalues);
}

/* ---- The observations as points ---- */

void strategy_points(double *out, int *feasible, const struct pareto_obj *objs, size_t nobjs,
		     const struct strategy_obs *obs, size_t nobs)
{
	for (size_t i = 0; i < nobs; i++) {
		int ok = !obs[i].failed;

		for (size_t k = 0; k < nobjs; k++) {
			double v = obs[i].failed ? NAN : obs[i].value[k];

			out[i * nobjs + k] = objs[k].maximize ? -v : v;
			if (!isfinite(v) || pareto_breaks_limit(&objs[k], v))
				ok = 0;
		}
		feasible[i] = ok;
	}
}

double strategy_violation(const struct problem *p, const struct strategy_obs *o)
{
	double v = 0;

	if (o->failed)
		return HUGE_VAL;
	for (size_t k = 0; k < p->nobjs; k++) {
		const struct pareto_obj *ob = &p->objs[k];
		double x = o->value[k], scale;

		if (!isfinite(x))
			return HUGE_VAL;
		scale = fabs(ob->limit) > 0 ? fabs(ob->limit) : 1;
		if (pareto_breaks_limit(ob, x))
			v += fabs(x - ob->limit) / scale;
	}
	return v;
}

int strategy_feasible(const struct problem *p, const double *y)
{
	for (size_t k = 0; k < p->nobjs; k++) {
		const struct pareto_obj *o = &p->objs[k];

		if (pareto_breaks_limit(o, o->maximize ? -y[k] : y[k]))
			return 0;
	}
	return 1;
}

size_t strategy_usable_rows(size_t *rows, int *usable, const struct strategy_obs *obs,
			    size_t nobs, size_t m)
{
	size_t n = 0;

	for (size_t i = 0; i < nobs; i++) {
		size_t k;

		if (obs[i].failed)
			continue;
		for (k = 0; k < m; k++)
			if (!isfinite(obs[i].value[k]))
				break;
		if (k == m) {
			rows[n++] = i;
			usable[i] = 1;
		}
	}
	return n;
}

void strategy_first_picks(size_t *first, const size_t *const *picks, size_t n, size_t ndims)
{
	size_t cap = 16, *slot;

	while (cap < 2 * n + 2)
		cap *= 2;
	slot = xcalloc(cap, sizeof(*slot)); /* 1 + first proposal; 0: empty */
	for (size_t i = 0; i < n; i++) {
		size_t h = (size_t)(strategy_pick_hash(picks[i], ndims) >> 1) & (cap - 1);

		while (slot[h] && memcmp(picks[slot[h] - 1], picks[i], ndims * sizeof(size_t)))
			h = (h + 1) & (cap - 1);
		if (!slot[h])
			slot[h] = i + 1;
		first[i] = slot[h] - 1;
	}
	free(slot);
}
