/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nsga2: NSGA-II (Deb, Pratap, Agarwal & Meyarivan, "A fast and elitist
 * multiobjective genetic algorithm: NSGA-II", IEEE TEC 6(2), 2002) on a
 * space of categorical dimensions; see include/tuner/strategy.h.
 *
 * Population N = 2 sqrt(budget), between 8 and 100: about sqrt(budget)/2
 * generations at any budget. Generation 0 is the baseline (every
 * dimension at its first value, the study's own setting, as the
 * surrogate's first proposal) and N - 1 distinct random configurations. Each later one: parents by binary tournament (lower
 * rank, then larger crowding distance), uniform crossover with
 * probability 0.9, then each dimension takes another value with
 * probability 1/ndims; a child already proposed is mutated again (up to
 * 64 times, then drawn at random), so every proposal is new. Survivors: the
 * best N of parents and children by rank and crowding. Hard limits by
 * Deb's constraint domination (a failed build or measurement is the most
 * infeasible); the measured means are compared under noise: a difference
 * within twice the standard error of the difference is no difference
 * (pareto_dominates()). When the caller can measure a configuration again
 * (strategy_problem.repeats), up to half of a generation (less early on)
 * measures again configurations whose place on the measured front is in
 * doubt (strategy_race(), as the surrogate does); a configuration is then
 * one member of the population, ranked by the mean of its measurements.
 *
 * The state is the population (indices of observations) and the RNG, both
 * driven only by the observations passed to ask: a replay gives the same
 * generations.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strategy_priv.h"

struct nsga2 {
	struct problem p;
	struct rng rng;
	uint64_t proposed;
	size_t npop;        /* N */
	size_t *pop;        /* the survivors: indices into obs, npop or fewer */
	size_t npopnow;
	size_t gen_start;   /* the observations of the last generation start here */
	struct pickset seen;
};

static int nsga2_init(void **out, const struct strategy_problem *sp)
{
	struct nsga2 *g = xcalloc(1, sizeof(*g));
	double n;

	strategy_problem_copy(&g->p, sp);
	rng_seed(&g->rng, sp->seed ^ 0x6e736761322d7475ULL);
	n = 2.0 * sqrt((double)g->p.budget);
	g->npop = n < 8 ? 8 : n > 100 ? 100 : (size_t)n;
	g->pop = xcalloc(2 * g->npop + 1, sizeof(*g->pop));
	*out = g;
	return 0;
}

/* Objective values, errors and violations of the observations. */
struct view {
	double *y, *se, *viol;
};

/* An observation of a configuration measured more than once reads as
 * the mean of its measurements (ms). */
static void view_fill(struct view *v, const struct problem *p, const struct strategy_obs *obs,
		      size_t nobs, const struct measured *ms)
{
	size_t m = p->nobjs;

	v->y = xcalloc(nobs * m + 1, sizeof(*v->y));
	v->se = xcalloc(nobs * m + 1, sizeof(*v->se));
	v->viol = xcalloc(nobs + 1, sizeof(*v->viol));
	memcpy(v->y, ms->y, nobs * m * sizeof(*v->y));
	for (size_t i = 0; i < nobs; i++) {
		size_t f = ms->first[i];

		v->viol[i] = strategy_violation(p, &obs[i]);
		for (size_t k = 0; k < m; k++) {
			v->se[i * m + k] = obs[i].se && !obs[i].failed ? obs[i].se[k] : 0;
			if (ms->cnt[f] > 1)
				v->y[i * m + k] = ms->ymean[f * m + k];
		}
	}
}

static void view_release(struct view *v)
{
	free(v->y);
	free(v->se);
	free(v->viol);
}

/* Crowding distance of the members idx[0..n) (Deb et al. 2002, III.B). */
static void crowding(double *dist, const size_t *idx, size_t n, const struct view *v, size_t m)
{
	size_t *ord = xcalloc(n + 1, sizeof(*ord));

	for (size_t i = 0; i < n; i++)
		dist[i] = 0;
	for (size_t k = 0; k < m; k++) {
		double lo, hi;

		for (size_t i = 0; i < n; i++)
			ord[i] = i;
		/* insertion sort: populations are small */
		for (size_t i = 1; i < n; i++) {
			size_t t = ord[i], j = i;

			while (j > 0 && v->y[idx[ord[j - 1]] * m + k] > v->y[idx[t] * m + k]) {
				ord[j] = ord[j - 1];
				j--;
			}
			ord[j] = t;
		}
		if (n < 3) {
			for (size_t i = 0; i < n; i++)
				dist[i] = HUGE_VAL;
			break;
		}
		lo = v->y[idx[ord[0]] * m + k];
		hi = v->y[idx[ord[n - 1]] * m + k];
		dist[ord[0]] = dist[ord[n - 1]] = HUGE_VAL;
		if (!(hi > lo) || !isfinite(hi - lo))
			continue;
		for (size_t i = 1; i + 1 < n; i++)
			dist[ord[i]] += (v->y[idx[ord[i + 1]] * m + k] -
					 v->y[idx[ord[i - 1]] * m + k]) / (hi - lo);
	}
	free(ord);
}

struct member {
	size_t obs;
	int rank;
	double crowd;
};

static int by_rank_crowd(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->crowd != y->crowd)
		return x->crowd > y->crowd ? -1 : 1;
	return x->obs < y->obs ? -1 : x->obs > y->obs;
}

/*
 * Survivors of pop + the last generation (each configuration once, by its
 * first observation: first[]): the best npop by rank, then crowding; fills
 * mem (the survivors with their rank and crowding, for the tournaments)
 * and g->pop.
 */
static size_t select_survivors(struct nsga2 *g, struct member *mem, const struct view *v,
			       size_t nobs, const size_t *first)
{
	size_t m = g->p.nobjs, n = 0, kept;
	size_t *idx = xcalloc(g->npopnow + nobs + 1, sizeof(*idx));
	char *in = xcalloc(nobs + 1, sizeof(*in));
	double *y, *se, *viol, *dist;
	int *rank;

	for (size_t i = 0; i < g->npopnow; i++) {
		idx[n++] = g->pop[i];
		in[g->pop[i]] = 1;
	}
	for (size_t i = g->gen_start; i < nobs; i++)
		if (!in[first[i]]) {
			in[first[i]] = 1;
			idx[n++] = first[i];
		}
	free(in);
	y = xcalloc(n * m + 1, sizeof(*y));
	se = xcalloc(n * m + 1, sizeof(*se));
	viol = xcalloc(n + 1, sizeof(*viol));
	rank = xcalloc(n + 1, sizeof(*rank));
	dist = xcalloc(n + 1, sizeof(*dist));
	for (size_t i = 0; i < n; i++) {
		memcpy(y + i * m, v->y + idx[i] * m, m * sizeof(*y));
		memcpy(se + i * m, v->se + idx[i] * m, m * sizeof(*se));
		viol[i] = v->viol[idx[i]];
	}
	pareto_rank(rank, y, se, viol, n, m);
	/* Crowding within each rank. */
	for (int r = 0;; r++) {
		size_t *fr = xcalloc(n + 1, sizeof(*fr)), nf = 0;
		double *d;

		for (size_t i = 0; i < n; i++)
			if (rank[i] == r)
				fr[nf++] = idx[i];
		if (!nf) {
			free(fr);
			break;
		}
		d = xcalloc(nf, sizeof(*d));
		crowding(d, fr, nf, v, m);
		for (size_t i = 0, j = 0; i < n; i++)
			if (rank[i] == r)
				dist[i] = d[j++];
		free(d);
		free(fr);
	}
	for (size_t i = 0; i < n; i++) {
		mem[i].obs = idx[i];
		mem[i].rank = rank[i];
		mem[i].crowd = dist[i];
	}
	qsort(mem, n, sizeof(*mem), by_rank_crowd);
	kept = n < g->npop ? n : g->npop;
	for (size_t i = 0; i < kept; i++)
		g->pop[i] = mem[i].obs;
	g->npopnow = kept;
	free(idx);
	free(y);
	free(se);
	free(viol);
	free(rank);
	free(dist);
	return kept;
}

static size_t tournament(struct nsga2 *g, const struct member *mem, size_t n)
{
	size_t a = (size_t)rng_below(&g->rng, n), b = (size_t)rng_below(&g->rng, n);

	/* mem is sorted best first */
	return a < b ? a : b;
}

/* A new child into child: crossover and mutation of two tournament
 * winners, mutated again while it was proposed before. */
static void breed(struct nsga2 *g, size_t *child, const struct member *mem, size_t nmem,
		  const struct strategy_obs *obs)
{
	const struct space *s = g->p.s;
	size_t nd = g->p.ndims;
	const size_t *pa = obs[mem[tournament(g, mem, nmem)].obs].pick;
	const size_t *pb = obs[mem[tournament(g, mem, nmem)].obs].pick;
	int cross = rng_double(&g->rng) < 0.9;

	for (size_t d = 0; d < nd; d++)
		child[d] = cross && rng_below(&g->rng, 2) ? pb[d] : pa[d];
	for (size_t d = 0; d < nd; d++)
		if (s->dims[d].nvalues > 1 && rng_below(&g->rng, nd) == 0)
			child[d] = (child[d] + 1 + (size_t)rng_below(&g->rng, s->dims[d].nvalues - 1)) %
				   s->dims[d].nvalues;
	for (int tries = 0; strategy_pickset_has(&g->seen, child, nd); tries++) {
		size_t d;

		if (tries >= 64) {
			strategy_random_pick(child, s, &g->rng);
			continue;
		}
		d = (size_t)rng_below(&g->rng, nd ? nd : 1);
		if (nd && s->dims[d].nvalues > 1)
			child[d] = (child[d] + 1 + (size_t)rng_below(&g->rng, s->dims[d].nvalues - 1)) %
				   s->dims[d].nvalues;
	}
}

static long nsga2_ask(void *state, size_t *picks, size_t max, const struct strategy_obs *obs,
		      size_t nobs)
{
	struct nsga2 *g = state;
	size_t nd = g->p.ndims, want, n = 0;

	if (strategy_check_obs("nsga2", nobs, g->proposed) < 0)
		return -1;
	if (g->proposed >= g->p.budget)
		return 0;
	want = g->npop;
	if (want > max)
		want = max;
	if (want > g->p.budget - g->proposed)
		want = (size_t)(g->p.budget - g->proposed);
	if (!nobs) {
		/* The baseline first: on a space of 200 switches a random
		 * configuration is rarely as good as the compiler's own level. */
		memset(picks, 0, nd * sizeof(*picks));
		if (want && strategy_pickset_add(&g->seen, picks, nd))
			n++;
		while (n < want) {
			strategy_random_pick(picks + n * nd, g->p.s, &g->rng);
			if (strategy_pickset_add(&g->seen, picks + n * nd, nd))
				n++;
		}
	} else {
		struct view v;
		struct member *mem = xcalloc(g->npopnow + nobs + 1, sizeof(*mem));
		struct measured ms;
		size_t nmem;

		strategy_measured_init(&ms, &g->p, obs, nobs);
		view_fill(&v, &g->p, obs, nobs, &ms);
		nmem = select_survivors(g, mem, &v, nobs, ms.first);
		if (g->p.repeats && want >= 2 && g->p.budget - g->proposed >= 2)
			n = strategy_race(picks,
					  strategy_race_quota(g->proposed, g->p.budget, want, &ms),
					  &g->p, obs, &ms, NULL, 0);
		while (n < want) {
			breed(g, picks + n * nd, mem, nmem, obs);
			if (strategy_pickset_add(&g->seen, picks + n * nd, nd))
				n++;
		}
		view_release(&v);
		strategy_measured_release(&ms);
		free(mem);
	}
	g->gen_start = nobs;
	g->proposed += n;
	return (long)n;
}

static void nsga2_free(void *state)
{
	struct nsga2 *g = state;

	if (!g)
		return;
	strategy_problem_release(&g->p);
	free(g->pop);
	strategy_pickset_release(&g->seen);
	free(g);
}

const struct strategy_ops nsga2_strategy = {
	"nsga2", 1, nsga2_init, nsga2_ask, nsga2_free, NULL,
};
