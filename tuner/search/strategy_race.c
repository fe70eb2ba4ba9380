/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * strategy_race: what the adaptive strategies (nsga2.c, surrogate.c) share
 * about what was measured: the observations grouped by configuration with
 * their means, and racing, the rule that chooses which configurations to
 * measure again when the caller allows it (strategy_problem.repeats);
 * see strategy_priv.h and docs/search.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strategy_priv.h"

/* Racing: at most RACE_MAX measurements of a configuration; its place on
 * the front in doubt within RACE_Z standard errors of the difference (the
 * 2-SE rule of pareto_dominates()); the noise pooled from repeated
 * measurements once they give RACE_DF degrees of freedom; up to
 * RACE_SHARE/8 of a batch once RACE_RAMP times the budget's spent share
 * reaches 1 (RACE_MAX and the share were chosen on a synthetic oracle,
 * RACE_Z and RACE_DF from the rules named; none on bench/search's data).
 * Which calls go first (the expected loss, strategy_race()) came from
 * reading bench/search's traces; it has no constant of its own. */
#define RACE_MAX 4
#define RACE_Z 2
#define RACE_DF 4
#define RACE_RAMP 2
#define RACE_SHARE 4

void strategy_measured_init(struct measured *ms, const struct problem *p,
			    const struct strategy_obs *obs, size_t nobs)
{
	size_t m = p->nobjs;
	const size_t **picks = xcalloc(nobs + 1, sizeof(*picks));

	ms->nobs = nobs;
	ms->y = xcalloc(nobs * m + 1, sizeof(*ms->y));
	ms->ymean = xcalloc(nobs * m + 1, sizeof(*ms->ymean));
	ms->rows = xcalloc(nobs + 1, sizeof(*ms->rows));
	ms->first = xcalloc(nobs + 1, sizeof(*ms->first));
	ms->cnt = xcalloc(nobs + 1, sizeof(*ms->cnt));
	ms->feas = xcalloc(nobs + 1, sizeof(*ms->feas));
	ms->usable = xcalloc(nobs + 1, sizeof(*ms->usable));
	strategy_points(ms->y, ms->feas, p->objs, m, obs, nobs);
	ms->nrows = strategy_usable_rows(ms->rows, ms->usable, obs, nobs, m);
	for (size_t i = 0; i < nobs; i++)
		picks[i] = obs[i].pick;
	strategy_first_picks(ms->first, picks, nobs, p->ndims);
	free(picks);
	for (size_t i = 0; i < nobs; i++) {
		if (!ms->usable[i])
			continue;
		ms->cnt[ms->first[i]]++;
		for (size_t k = 0; k < m; k++)
			ms->ymean[ms->first[i] * m + k] += ms->y[i * m + k];
	}
	for (size_t i = 0; i < nobs; i++)
		for (size_t k = 0; ms->first[i] == i && ms->cnt[i] && k < m; k++)
			ms->ymean[i * m + k] /= (double)ms->cnt[i];
}

void strategy_measured_release(struct measured *ms)
{
	free(ms->y);
	free(ms->ymean);
	free(ms->rows);
	free(ms->first);
	free(ms->cnt);
	free(ms->feas);
	free(ms->usable);
}

/* 1 when observation i is the first of a configuration with a usable
 * measurement whose mean keeps the hard limits. */
static int candidate(const struct problem *p, const struct measured *ms, size_t i)
{
	return ms->first[i] == i && ms->cnt[i] && strategy_feasible(p, ms->ymean + i * p->nobjs);
}

/* The proposals that may have raced once spent of the budget is
 * proposed: the integral of the share RACE_SHARE/8 * min(1, RACE_RAMP *
 * spent) over the budget. */
static double race_allowed(double spent, double budget)
{
	double share = RACE_SHARE / 8.0, knee = 1.0 / RACE_RAMP;

	if (spent <= knee)
		return budget * share * RACE_RAMP * spent * spent / 2;
	return budget * share * (knee / 2 + (spent - knee));
}

size_t strategy_race_quota(uint64_t proposed, uint64_t budget, size_t want,
			   const struct measured *ms)
{
	size_t raced = 0;
	double allowed;

	if (!budget)
		return 0;
	for (size_t i = 0; i < ms->nobs; i++)
		raced += ms->first[i] != i;
	allowed = floor(race_allowed((double)(proposed + want) / (double)budget, (double)budget));
	if (allowed <= (double)raced)
		return 0;
	return allowed - (double)raced >= (double)want ? want : (size_t)(allowed - (double)raced);
}

int strategy_race_noise(double *sigma, const struct problem *p, const struct measured *ms)
{
	size_t m = p->nobjs, rows = 0, groups = 0, df;

	for (size_t k = 0; k < m; k++)
		sigma[k] = 0;
	for (size_t j = 0; j < ms->nrows; j++) {
		size_t i = ms->rows[j], f = ms->first[i];

		if (ms->cnt[f] < 2)
			continue;
		rows++;
		groups += f == i;
		for (size_t k = 0; k < m; k++) {
			double r = (ms->y[i * m + k] - ms->ymean[f * m + k]) /
				   (fabs(ms->ymean[f * m + k]) + 1e-300);

			sigma[k] += r * r;
		}
	}
	/* each configuration measured c times gives c - 1 */
	df = rows - groups;
	for (size_t k = 0; k < m; k++)
		sigma[k] = df ? sqrt(sigma[k] / (double)df) : 0;
	return df >= RACE_DF;
}

/*
 * How many standard errors of the difference a must move (towards b, in
 * every objective where b is worse) to be dominated by b: the largest over
 * those objectives of (b - a) / se; 0 when b dominates a as measured,
 * HUGE_VAL when an objective without noise keeps them apart.
 */
static double shift_to_dominated(const double *a, const double *sa, const double *b,
				 const double *sb, size_t m)
{
	double need = 0;

	for (size_t k = 0; k < m; k++) {
		double d = b[k] - a[k], se = sqrt(sa[k] * sa[k] + sb[k] * sb[k]);

		if (d > 0)
			need = fmax(need, se > 0 ? d / se : HUGE_VAL);
	}
	return need;
}

/* How many standard errors of the difference free a from b (which
 * dominates it): the smallest over the objectives where b is better. */
static double shift_to_free(const double *a, const double *sa, const double *b,
			    const double *sb, size_t m)
{
	double need = HUGE_VAL;

	for (size_t k = 0; k < m; k++) {
		double d = a[k] - b[k], se = sqrt(sa[k] * sa[k] + sb[k] * sb[k]);

		if (d > 0)
			need = fmin(need, se > 0 ? d / se : HUGE_VAL);
	}
	return need;
}

void strategy_measured_ref(double *ref, const struct problem *p, const struct measured *ms)
{
	size_t m = p->nobjs;
	double *lo = xcalloc(m + 1, sizeof(*lo));
	int any = 0;

	for (size_t i = 0; i < ms->nobs; i++) {
		if (!candidate(p, ms, i))
			continue;
		for (size_t k = 0; k < m; k++) {
			double v = ms->ymean[i * m + k];

			ref[k] = !any || v > ref[k] ? v : ref[k];
			lo[k] = !any || v < lo[k] ? v : lo[k];
		}
		any = 1;
	}
	for (size_t k = 0; k < m; k++)
		ref[k] = any ? ref[k] + (0.1 * (ref[k] - lo[k]) + 1e-9 * fabs(ref[k])) : HUGE_VAL;
	free(lo);
}

/* pareto_front() of the candidates' means: every objective minimised, the
 * hard limits already kept. */
size_t strategy_measured_on_front(char *on, const struct problem *p, const struct measured *ms)
{
	size_t m = p->nobjs, nobs = ms->nobs, nc = 0, n;
	size_t *at = xcalloc(nobs + 1, sizeof(*at));
	double *pts = xcalloc(nobs * m + 1, sizeof(*pts));
	struct pareto_obj *minimise = xcalloc(m + 1, sizeof(*minimise));
	int *front = xcalloc(nobs + 1, sizeof(*front));

	for (size_t i = 0; i < nobs; i++) {
		on[i] = 0;
		if (!candidate(p, ms, i))
			continue;
		memcpy(pts + nc * m, ms->ymean + i * m, m * sizeof(*pts));
		at[nc++] = i;
	}
	n = pareto_front(front, NULL, pts, nc, minimise, m);
	for (size_t c = 0; c < nc; c++)
		on[at[c]] = (char)front[c];
	free(at);
	free(pts);
	free(minimise);
	free(front);
	return n;
}

/*
 * strategy_front_stakes() (strategy_priv.h): only the front and the configurations
 * one front member alone dominates can change the hypervolume of all but
 * a member, so only they are counted.
 */
void strategy_front_stakes(double *stake, const struct problem *p, const struct measured *ms,
			   const char *on)
{
	size_t m = p->nobjs, nobs = ms->nobs, n = 0, *at = xcalloc(nobs + 1, sizeof(*at));
	size_t *by = xcalloc(nobs + 1, sizeof(*by));
	double *pts = xcalloc(nobs * m + 1, sizeof(*pts)), *ref = xcalloc(m + 1, sizeof(*ref));
	double all;
	const double *ym = ms->ymean;

	for (size_t i = 0; i < nobs; i++) {
		size_t doms = 0;

		stake[i] = 0;
		if (!candidate(p, ms, i))
			continue;
		for (size_t j = 0; j < nobs && !on[i] && doms < 2; j++)
			if (on[j] &&
			    pareto_dominates(ym + j * m, NULL, 0, ym + i * m, NULL, 0, m) > 0)
				by[i] = j, doms++;
		if (on[i] || doms == 1)
			at[n++] = i;
	}
	strategy_measured_ref(ref, p, ms);
	for (size_t a = 0; a < n; a++)
		memcpy(pts + a * m, ym + at[a] * m, m * sizeof(*pts));
	all = pareto_hypervolume(pts, n, m, ref);
	for (size_t a = 0; a < n; a++) {
		size_t i = at[a], kept = 0;

		if (!on[i])
			continue;
		for (size_t c = 0; c < n; c++)
			if (c != a && (on[at[c]] || by[at[c]] == i))
				memcpy(pts + kept++ * m, ym + at[c] * m, m * sizeof(*pts));
		stake[i] = fmax(0, all - pareto_hypervolume(pts, kept, m, ref));
	}
	free(at);
	free(by);
	free(pts);
	free(ref);
}

struct racer {
	size_t obs;
	double loss;
	size_t cnt;
};

/* The largest expected loss first, then the fewest measured. */
static int by_loss(const void *a, const void *b)
{
	const struct racer *x = a, *y = b;

	if (x->loss != y->loss)
		return x->loss > y->loss ? -1 : 1;
	if (x->cnt != y->cnt)
		return x->cnt < y->cnt ? -1 : 1;
	return x->obs < y->obs ? -1 : x->obs > y->obs;
}

size_t strategy_race(size_t *picks, size_t quota, const struct problem *p,
		     const struct strategy_obs *obs, const struct measured *ms,
		     const double *sigma0, double min_loss)
{
	size_t m = p->nobjs, nd = p->ndims, nr = 0, n = 0, nobs = ms->nobs;
	double *sigma = xcalloc(m + 1, sizeof(*sigma));
	double *se = xcalloc(nobs * m + 1, sizeof(*se));
	struct racer *rc = xcalloc(nobs + 1, sizeof(*rc));
	double *stake = xcalloc(nobs + 1, sizeof(*stake));
	char *on = xcalloc(nobs + 1, sizeof(*on)), *in = xcalloc(nobs + 1, sizeof(*in));
	const double *ym = ms->ymean;
	int known = strategy_race_noise(sigma, p, ms);

	if (!known && sigma0)
		memcpy(sigma, sigma0, m * sizeof(*sigma));
	known = known || sigma0;
	for (size_t i = 0; i < nobs; i++)
		for (size_t k = 0; candidate(p, ms, i) && k < m; k++)
			se[i * m + k] = sigma[k] * fabs(ym[i * m + k]) / sqrt((double)ms->cnt[i]);
	strategy_measured_on_front(on, p, ms);
	strategy_front_stakes(stake, p, ms, on);
	for (size_t i = 0; i < nobs; i++) {
		/* on the front: the closest configuration that could dominate
		 * it; off it: the dominator hardest to escape */
		double margin = on[i] ? HUGE_VAL : 0;
		size_t by = i, pick;

		if (!candidate(p, ms, i) || (!known && !on[i]))
			continue;
		for (size_t j = 0; known && j < nobs; j++) {
			double d;

			if (j == i || !candidate(p, ms, j))
				continue;
			if (on[i]) {
				d = shift_to_dominated(ym + i * m, se + i * m, ym + j * m, se + j * m, m);
				if (d < margin) {
					margin = d;
					by = j;
				}
			} else if (pareto_dominates(ym + j * m, NULL, 0, ym + i * m, NULL, 0,
						    m) > 0) {
				d = shift_to_free(ym + i * m, se + i * m, ym + j * m, se + j * m, m);
				if (d > margin) {
					margin = d;
					by = j;
				}
			}
		}
		if (!known)
			margin = 0; /* the noise unknown: the front's members, by stake */
		if (!(margin < RACE_Z))
			continue;
		/* of the two, the one measured fewer times narrows the difference most */
		pick = ms->cnt[by] < ms->cnt[i] ? by : i;
		if (ms->cnt[pick] >= RACE_MAX)
			pick = pick == i ? by : i;
		if (ms->cnt[pick] >= RACE_MAX || in[pick])
			continue;
		in[pick] = 1;
		/* the odds that the call is wrong times the hypervolume the
		 * front member of the two holds alone */
		rc[nr++] = (struct racer){ pick, 0.5 * erfc(margin / sqrt(2)) *
							 stake[on[i] ? i : by],
					   ms->cnt[pick] };
	}
	qsort(rc, nr, sizeof(*rc), by_loss);
	for (size_t i = 0; i < nr && n < quota && !(rc[i].loss < min_loss); i++)
		memcpy(picks + n++ * nd, obs[rc[i].obs].pick, nd * sizeof(*picks));
	free(sigma);
	free(se);
	free(rc);
	free(stake);
	free(on);
	free(in);
	return n;
}
