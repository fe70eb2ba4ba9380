/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * surrogate_screen: which dimensions matter to the surrogate's model
 * (point 3 of surrogate.c; surrogate_screen() in surrogate_priv.h; the why in
 * docs/search.md): forward selection, each round against a permutation
 * null of the residual (Freedman-Lane), so that it holds when the
 * dimensions outnumber the observations.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/linalg.h"
#include "surrogate_priv.h"

/* Permutations of the null per round, the rank of the null's maxima that
 * sets the threshold (the 2nd of 39: a level of 2/40 = 5%), at most this
 * many rounds. */
#define NULL_PERMS 39
#define NULL_RANK 2
#define SCREEN_ROUNDS 8

/*
 * One objective's screening state. The reduced model holds the intercept
 * and the dimensions found to matter so far (in[]). Every other
 * dimension's one-hot columns (values 1..) are centred and kept orthogonal
 * to the reduced model's (Gram-Schmidt as dimensions join it), and e is
 * the targets' residual on it: so a dimension's effects fitted to e on its
 * own columns are its effects given the reduced model (Frisch-Waugh-Lovell).
 */
struct screen {
	size_t n, nd, q;    /* rows, dimensions, the reduced model's columns */
	size_t *col;        /* nd + 1: dimension d's columns col[d] .. col[d + 1) */
	double *x, *norm0;  /* column c at x + c * n; its squared norm once centred */
	char *dead, *in;    /* a column the reduced model explains; nd: in it */
	double *ainv, *var; /* per dimension, k x k at at[d]: stat_prepare() */
	size_t *at;
	double *e;
};

static void screen_init(struct screen *sc, const struct space *s, const struct strategy_obs *obs,
			const size_t *rows, size_t n, const double *y)
{
	size_t nd = s->ndims, ncol, nat = 0;
	double mean = 0;

	*sc = (struct screen){ .n = n, .nd = nd, .q = 1 };
	sc->col = xcalloc(nd + 1, sizeof(*sc->col));
	sc->at = xcalloc(nd + 1, sizeof(*sc->at));
	for (size_t d = 0; d < nd; d++) {
		size_t k = s->dims[d].nvalues - 1;

		sc->col[d + 1] = sc->col[d] + k;
		sc->at[d] = nat;
		nat += k * k;
	}
	ncol = sc->col[nd];
	sc->x = xcalloc(ncol * n + 1, sizeof(*sc->x));
	sc->norm0 = xcalloc(ncol + 1, sizeof(*sc->norm0));
	sc->dead = xcalloc(ncol + 1, sizeof(*sc->dead));
	sc->in = xcalloc(nd + 1, sizeof(*sc->in));
	sc->ainv = xcalloc(nat + 1, sizeof(*sc->ainv));
	sc->var = xcalloc(nat + 1, sizeof(*sc->var));
	sc->e = xcalloc(n + 1, sizeof(*sc->e));
	for (size_t i = 0; i < n; i++) {
		const size_t *pick = obs[rows[i]].pick;

		for (size_t d = 0; d < nd; d++)
			if (pick[d])
				sc->x[(sc->col[d] + pick[d] - 1) * n + i] = 1;
		mean += y[i] / (double)n;
	}
	for (size_t c = 0; c < ncol; c++) {
		double *xc = sc->x + c * n, ones = 0;

		for (size_t i = 0; i < n; i++)
			ones += xc[i];
		for (size_t i = 0; i < n; i++)
			xc[i] -= ones / (double)n;
		sc->norm0[c] = ones * (1 - ones / (double)n);
	}
	for (size_t i = 0; i < n; i++)
		sc->e[i] = y[i] - mean;
}

static void screen_release(struct screen *sc)
{
	free(sc->col);
	free(sc->at);
	free(sc->x);
	free(sc->norm0);
	free(sc->dead);
	free(sc->in);
	free(sc->ainv);
	free(sc->var);
	free(sc->e);
}

static double dot(const double *a, const double *b, size_t n)
{
	double v = 0;

	for (size_t i = 0; i < n; i++)
		v += a[i] * b[i];
	return v;
}

static void project_out(double *v, const double *u, size_t n)
{
	double f = dot(u, v, n);

	for (size_t i = 0; i < n; i++)
		v[i] -= f * u[i];
}

/*
 * Dimension d's fit on its k columns X: b = A^-1 X'v with A = X'X + RIDGE
 * I (solvable when two of its columns are nearly alike). For v of unit
 * noise per row, b's covariance is C = A^-1 X'X A^-1 = A^-1 - RIDGE A^-2;
 * var[i * k + i] is the variance of b_i (against the first value, 0), var[i
 * * k + j] of b_i - b_j. A column the reduced model explains (less than
 * 1e-8 of its centred norm left) is dead: zeroed, its value no longer told
 * from the others.
 */
static void stat_prepare(struct screen *sc, size_t d)
{
	size_t c0 = sc->col[d], k = sc->col[d + 1] - c0, n = sc->n;
	double *ainv = sc->ainv + sc->at[d], *var = sc->var + sc->at[d];
	double *a = xcalloc(k * k, sizeof(*a));

	for (size_t i = 0; i < k; i++) {
		double *xi = sc->x + (c0 + i) * n;

		if (!sc->dead[c0 + i] && !(dot(xi, xi, n) > 1e-8 * sc->norm0[c0 + i])) {
			sc->dead[c0 + i] = 1;
			memset(xi, 0, n * sizeof(*xi));
		}
		for (size_t j = 0; j <= i; j++)
			a[i * k + j] = a[j * k + i] = dot(xi, sc->x + (c0 + j) * n, n) + (i == j) * RIDGE;
	}
	linalg_chol_factor(a, k); /* positive definite: X'X + RIDGE I */
	for (size_t j = 0; j < k; j++) {
		memset(ainv + j * k, 0, k * sizeof(*ainv));
		ainv[j * k + j] = 1;
		linalg_chol_solve(a, ainv + j * k, k); /* column j of A^-1, its row j */
	}
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < k; j++)
			var[i * k + j] = ainv[i * k + j] - RIDGE * dot(ainv + i * k, ainv + j * k, k);
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < k; j++)
			if (i != j)
				var[i * k + j] = var[i * k + i] + var[j * k + j] - 2 * var[i * k + j];
	free(a);
}

/* Dimension d's statistic on v: the largest difference between two of
 * its values' effects (the first value's 0 included), in standard errors
 * for unit noise; -1 when no two values can be told apart. b: k, scratch. */
static double stat(const struct screen *sc, size_t d, const double *v, double *b)
{
	size_t c0 = sc->col[d], k = sc->col[d + 1] - c0, n = sc->n;
	const double *ainv = sc->ainv + sc->at[d], *var = sc->var + sc->at[d];
	double *xv = b + k, t2 = -1;

	for (size_t i = 0; i < k; i++)
		xv[i] = sc->dead[c0 + i] ? 0 : dot(sc->x + (c0 + i) * n, v, n);
	for (size_t i = 0; i < k; i++)
		b[i] = dot(ainv + i * k, xv, k);
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j <= i && !sc->dead[c0 + i]; j++) {
			double diff = b[i] - (i == j ? 0 : b[j]);

			if ((i == j || !sc->dead[c0 + j]) && var[i * k + j] > 0)
				t2 = fmax(t2, diff * diff / var[i * k + j]);
		}
	return t2 < 0 ? -1 : sqrt(t2);
}

/* Dimension d joins the reduced model: its columns, made orthonormal,
 * are projected out of the other candidates' and out of e. */
static void screen_add(struct screen *sc, size_t d)
{
	size_t n = sc->n;

	sc->in[d] = 1;
	for (size_t c = sc->col[d]; c < sc->col[d + 1]; c++) {
		double *u = sc->x + c * n, nu = sqrt(dot(u, u, n));

		if (sc->dead[c] || !(nu * nu > 1e-8 * sc->norm0[c]))
			continue;
		for (size_t i = 0; i < n; i++)
			u[i] /= nu;
		for (size_t o = c + 1; o < sc->col[d + 1]; o++)
			project_out(sc->x + o * n, u, n);
		for (size_t od = 0; od < sc->nd; od++)
			for (size_t o = sc->col[od]; !sc->in[od] && o < sc->col[od + 1]; o++)
				if (!sc->dead[o])
					project_out(sc->x + o * n, u, n);
		project_out(sc->e, u, n);
		sc->q++;
	}
}

/* Every candidate's statistic on e, in units of the residual's standard
 * error (over its degrees of freedom), into z (-1: not a candidate);
 * returns the largest's dimension, or SIZE_MAX. */
static size_t screen_z(struct screen *sc, double *z, double *b)
{
	double s = sqrt(dot(sc->e, sc->e, sc->n) / (double)(sc->n - sc->q));
	size_t best = SIZE_MAX;

	for (size_t d = 0; d < sc->nd; d++) {
		z[d] = -1;
		if (sc->in[d] || sc->col[d + 1] == sc->col[d])
			continue;
		stat_prepare(sc, d);
		z[d] = s > 0 ? stat(sc, d, sc->e, b) / s : -1;
		if (z[d] >= 0 && (best == SIZE_MAX || z[d] > z[best]))
			best = d;
	}
	return best;
}

static int by_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/*
 * Screens one objective (targets y at rows) into clear[d] (ndims): how
 * clearly dimension d matters, its statistic over the null's threshold;
 * above 1 it matters.
 *
 * Forward selection with a permutation null. A dimension's statistic:
 * its largest difference between two values' effects given the reduced
 * model, in standard errors. Its null: the same statistic of the residual
 * permuted NULL_PERMS times (Freedman & Lane 1983: data in which nothing
 * beyond the reduced model matters), in the permuted residual's standard
 * errors. The threshold: the NULL_RANK-th largest of the permutations'
 * maxima over the dimensions under test, the max-statistic test (Westfall
 * & Young 1993) at 5% for the whole family however many dimensions and
 * however correlated the design made them. Then, greedily, the dimension
 * of largest statistic above it joins the reduced model and the others'
 * statistics are recomputed given it (a proxy of one that matters falls
 * back), until none is above; another round draws a null given the larger
 * model (a large effect must not hide a small one), until one adds none.
 *
 * Why not the old rule (effect range beyond twice its spread over the
 * ensemble), nor a null for the effect ranges of a fit of every dimension
 * at once: when the dimensions outnumber the observations, that fit
 * spreads the effects and the noise over every coefficient and shrinks
 * every bootstrap fit alike, so the spread is small everywhere (the old
 * rule: 89 to 134 of 178 switches, 3 of which did, "mattered" by 60
 * observations in test_strategy's screening test) and a
 * real effect drowns in the null (an 8% one read 1.8 null units against a
 * threshold of 3.2). Given the reduced model, a dimension's effect is
 * fitted on its own columns, which few observations can do. When the
 * observations far outnumber the dimensions, this is the old test (an
 * effect beyond about twice its standard error) with room made for the
 * number of dimensions tried.
 */
static void screen(double *clear, const struct space *s, const struct strategy_obs *obs,
		   const size_t *rows, size_t n, const double *y, struct rng *r)
{
	struct screen sc;
	size_t nd = s->ndims, kmax = 1;
	double *z = xcalloc(nd + 1, sizeof(*z)), *ep = xcalloc(n + 1, sizeof(*ep));
	double mx[NULL_PERMS], *b, y0;

	for (size_t d = 0; d < nd; d++)
		kmax = s->dims[d].nvalues > kmax ? s->dims[d].nvalues : kmax;
	b = xcalloc(2 * kmax, sizeof(*b));
	memset(clear, 0, nd * sizeof(*clear));
	screen_init(&sc, s, obs, rows, n, y);
	y0 = dot(sc.e, sc.e, n);
	for (int round = 0; round < SCREEN_ROUNDS && n > sc.q + 1; round++) {
		size_t best = screen_z(&sc, z, b), added = 0;
		double sp = sqrt(dot(sc.e, sc.e, n) / (double)(n - 1)), thr;

		/* Nothing left to explain but rounding: no null to draw. */
		if (best == SIZE_MAX || !(sp * sp * (double)(n - 1) > 1e-20 * y0))
			break;
		memcpy(ep, sc.e, n * sizeof(*ep));
		for (size_t j = 0; j < NULL_PERMS; j++) {
			mx[j] = 0;
			for (size_t i = n; i > 1; i--) {
				size_t k = (size_t)rng_below(r, i);
				double t = ep[i - 1];

				ep[i - 1] = ep[k];
				ep[k] = t;
			}
			for (size_t d = 0; d < nd; d++)
				if (z[d] >= 0)
					mx[j] = fmax(mx[j], stat(&sc, d, ep, b) / sp);
		}
		qsort(mx, NULL_PERMS, sizeof(*mx), by_desc);
		thr = mx[NULL_RANK - 1];
		for (; thr > 0 && best != SIZE_MAX && z[best] > thr && n > sc.q + 2; added++) {
			clear[best] = z[best] / thr;
			screen_add(&sc, best);
			best = screen_z(&sc, z, b);
		}
		for (size_t d = 0; thr > 0 && d < nd; d++)
			if (!sc.in[d])
				clear[d] = z[d] > 0 ? z[d] / thr : 0;
		if (!added)
			break;
	}
	screen_release(&sc);
	free(z);
	free(ep);
	free(b);
}

void surrogate_screen(struct model *mdl, const struct problem *p, const struct strategy_obs *obs,
		      const size_t *rows, size_t n, const double *t, struct rng *r)
{
	size_t m = p->nobjs, nd = p->ndims;
	double *y = xcalloc(n + 1, sizeof(*y));

	mdl->clear = xcalloc(m * nd + 1, sizeof(*mdl->clear));
	mdl->matters = xcalloc(nd + 1, sizeof(*mdl->matters));
	mdl->score = xcalloc(nd + 1, sizeof(*mdl->score));
	for (size_t k = 0; k < m && n >= 3; k++) {
		for (size_t i = 0; i < n; i++)
			y[i] = t[i * m + k];
		screen(mdl->clear + k * nd, p->s, obs, rows, n, y, r);
		for (size_t d = 0; d < nd; d++)
			if (mdl->clear[k * nd + d] > 1) {
				mdl->matters[d] = 1;
				mdl->score[d] = fmax(mdl->score[d], mdl->clear[k * nd + d]);
			}
	}
	free(y);
}
