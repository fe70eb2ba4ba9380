/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * surrogate_acquire: the surrogate's candidates and the choice among them
 * (points 4 and 5 of surrogate.c; surrogate_priv.h has the interface):
 * the pool of configurations not yet proposed, and the batch drawn from it
 * by expected hypervolume improvement over the model's ensemble.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "surrogate_priv.h"

#define ENUM_MAX 30000
#define POOL_RANDOM 3000
#define POOL_MUTANTS 1000

/* ---- Candidates ---- */

static void pool_add(struct cand_pool *pl, const struct pickset *seen, const size_t *pick)
{
	if (strategy_pickset_has(seen, pick, pl->nd) ||
	    !strategy_pickset_add(&pl->in, pick, pl->nd))
		return;
	ALLOC_GROW(pl->picks, (pl->n + 1) * (pl->nd ? pl->nd : 1), pl->alloc);
	memcpy(pl->picks + pl->n * pl->nd, pick, pl->nd * sizeof(*pick));
	pl->n++;
}

void surrogate_candidates(struct cand_pool *pl, const struct problem *p, const struct pickset *seen,
			  const struct model *mdl, const size_t *front, size_t nfront,
			  const struct strategy_obs *obs, struct rng *r)
{
	const struct space *s = p->s;
	size_t nd = p->ndims;
	uint64_t size = space_size(s);
	size_t *pick = xcalloc(nd + 1, sizeof(*pick)), nmatter = 0, *matter;

	pl->nd = nd;
	if (!space_beyond_u64(s) && size - seen->n <= ENUM_MAX) {
		for (uint64_t i = 0; i < size; i++) {
			space_index_pick(pick, s, i);
			pool_add(pl, seen, pick);
		}
		free(pick);
		return;
	}
	matter = xcalloc(nd + 1, sizeof(*matter));
	for (size_t d = 0; d < nd; d++)
		if (mdl->matters[d] && s->dims[d].nvalues > 1)
			matter[nmatter++] = d;
	for (size_t i = 0; i < POOL_RANDOM; i++) {
		strategy_random_pick(pick, s, r);
		pool_add(pl, seen, pick);
	}
	for (size_t f = 0; f < nfront; f++) {
		const size_t *base = obs[front[f]].pick;

		for (size_t d = 0; d < nd; d++)
			for (size_t v = 0; v < s->dims[d].nvalues; v++) {
				if (v == base[d])
					continue;
				memcpy(pick, base, nd * sizeof(*pick));
				pick[d] = v;
				pool_add(pl, seen, pick);
			}
	}
	for (size_t i = 0; nfront && i < POOL_MUTANTS; i++) {
		size_t changes = 2 + (size_t)rng_below(r, 2);

		memcpy(pick, obs[front[rng_below(r, nfront)]].pick, nd * sizeof(*pick));
		for (size_t c = 0; c < changes; c++) {
			size_t d = nmatter ? matter[rng_below(r, nmatter)]
					   : (size_t)rng_below(r, nd);

			pick[d] = (size_t)rng_below(r, s->dims[d].nvalues);
		}
		pool_add(pl, seen, pick);
	}
	free(matter);
	free(pick);
}

void surrogate_cand_pool_release(struct cand_pool *pl)
{
	free(pl->picks);
	strategy_pickset_release(&pl->in);
	free(pl->pred);
	free(pl->spread);
	free(pl->pok);
	memset(pl, 0, sizeof(*pl));
}

/* ---- Acquisition ---- */

/*
 * The candidate of the pool not yet taken with the largest expected
 * hypervolume improvement over the front frontv[0..nfront) (with room for
 * one more), times its odds of building: its index, that value into
 * *gain; SIZE_MAX and 0 when none improves it.
 */
static size_t best_candidate(double *gain, const struct problem *p, const struct cand_pool *pl,
			     const char *taken, double *frontv, size_t nfront, const double *ref)
{
	size_t m = p->nobjs, best = SIZE_MAX;
	const double *pok = pl->pok;
	double base;

	pareto_hypervolume_order(frontv, nfront, m);
	base = pareto_hypervolume(frontv, nfront, m, ref);
	*gain = 0;
	for (size_t c = 0; c < pl->n; c++) {
		double sum = 0;

		for (size_t b = 0; !taken[c] && b < ENSEMBLE; b++) {
			const double *yp = pl->pred + (c * ENSEMBLE + b) * m;

			if (strategy_feasible(p, yp))
				sum += pareto_hypervolume_gain(frontv, nfront, yp, m, ref, base);
		}
		sum = sum / ENSEMBLE * (pok ? pok[c] : 1);
		if (sum > *gain) {
			*gain = sum;
			best = c;
		}
	}
	return best;
}

double surrogate_best_gain(const struct problem *p, const struct cand_pool *pl, double *frontv,
			   size_t nfront, const double *ref)
{
	char *none = xcalloc(pl->n + 1, sizeof(*none));
	double gain;

	best_candidate(&gain, p, pl, none, frontv, nfront, ref);
	free(none);
	return gain;
}

void surrogate_pool_ref(double *ref, const struct cand_pool *pl, size_t m)
{
	if (isfinite(ref[0]))
		return;
	for (size_t k = 0; k < m; k++) {
		ref[k] = -HUGE_VAL;
		for (size_t c = 0; c < pl->n * ENSEMBLE; c++)
			ref[k] = fmax(ref[k], pl->pred[c * m + k]);
		ref[k] += 1;
	}
}

size_t surrogate_acquire(size_t *picks, size_t n, size_t want, struct pickset *seen,
			 const struct problem *p, const struct cand_pool *pl, double *frontv,
			 size_t nfront, const double *ref)
{
	size_t nd = p->ndims, m = p->nobjs;
	const double *pred = pl->pred, *sdv = pl->spread, *pok = pl->pok;
	char *taken = xcalloc(pl->n + 1, sizeof(*taken));

	for (size_t c = 0; c < pl->n; c++)
		taken[c] = strategy_pickset_has(seen, pl->picks + c * nd, nd);
	while (n < want && pl->n) {
		double gain;
		size_t best = best_candidate(&gain, p, pl, taken, frontv, nfront, ref);

		if (best == SIZE_MAX) {
			/* Nothing improves the front: the least certain. */
			for (size_t c = 0; c < pl->n; c++)
				if (!taken[c] &&
				    (best == SIZE_MAX || sdv[c] * (pok ? pok[c] : 1) >
							      sdv[best] * (pok ? pok[best] : 1)))
					best = c;
			if (best == SIZE_MAX)
				break;
		}
		memcpy(picks + n * nd, pl->picks + best * nd, nd * sizeof(*picks));
		strategy_pickset_add(seen, picks + n * nd, nd);
		n++;
		taken[best] = 1;
		/* The believer: the mean prediction joins the front. */
		for (size_t k = 0; k < m; k++) {
			double sum = 0;

			for (size_t b = 0; b < ENSEMBLE; b++)
				sum += pred[(best * ENSEMBLE + b) * m + k];
			frontv[nfront * m + k] = sum / ENSEMBLE;
		}
		nfront++;
	}
	free(taken);
	return n;
}
