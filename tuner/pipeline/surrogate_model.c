/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * surrogate_model: the surrogate strategy's model (surrogate.c has the
 * strategy, surrogate_priv.h the interface, docs/search.md the why):
 * per objective, a ridge regression of the log values (the raw values
 * when one is not positive) on one-hot main effects, fitted as a
 * Bayesian-bootstrap ensemble; the screening of the dimensions that
 * matter against a permutation null; interaction terms among the ones
 * that matter most; predictions; the odds that a configuration builds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "surrogate_priv.h"

#define MAX_INTER_DIMS 5
#define RIDGE 0.5
/* Screening (screen()): permutations of the null per round, the rank of
 * the null's maxima that sets the threshold (the 2nd of 39: a level of
 * 2/40 = 5%), at most this many rounds. */
#define NULL_PERMS 39
#define NULL_RANK 2
#define SCREEN_ROUNDS 8

size_t main_params(const struct space *s)
{
	size_t p = 1;

	for (size_t d = 0; d < s->ndims; d++)
		p += s->dims[d].nvalues - 1;
	return p;
}

void main_terms(struct term **out, size_t *n, const struct space *s)
{
	*out = xcalloc(main_params(s), sizeof(**out));
	*n = 0;
	for (size_t d = 0; d < s->ndims; d++)
		for (size_t v = 1; v < s->dims[d].nvalues; v++)
			(*out)[(*n)++] = (struct term){ d, v, SIZE_MAX, 0 };
}

static double term_x(const struct term *t, const size_t *pick)
{
	if (pick[t->d1] != t->v1)
		return 0;
	if (t->d2 != SIZE_MAX && pick[t->d2] != t->v2)
		return 0;
	return 1;
}

/* Cholesky factor of a (p x p, symmetric positive definite) in place: its
 * lower triangle becomes L (a = L L'). 0, or -1 when not positive definite. */
static int chol_factor(double *a, size_t p)
{
	for (size_t j = 0; j < p; j++) {
		double s = a[j * p + j];

		for (size_t k = 0; k < j; k++)
			s -= a[j * p + k] * a[j * p + k];
		if (!(s > 0))
			return -1;
		a[j * p + j] = sqrt(s);
		for (size_t i = j + 1; i < p; i++) {
			double t = a[i * p + j];

			for (size_t k = 0; k < j; k++)
				t -= a[i * p + k] * a[j * p + k];
			a[i * p + j] = t / a[j * p + j];
		}
	}
	return 0;
}

/* Solves L L' x = b with chol_factor()'s L; b becomes x. */
static void chol_apply(const double *l, double *b, size_t p)
{
	for (size_t i = 0; i < p; i++) {
		double t = b[i];

		for (size_t k = 0; k < i; k++)
			t -= l[i * p + k] * b[k];
		b[i] = t / l[i * p + i];
	}
	for (size_t i = p; i-- > 0;) {
		double t = b[i];

		for (size_t k = i + 1; k < p; k++)
			t -= l[k * p + i] * b[k];
		b[i] = t / l[i * p + i];
	}
}

void ridge_fit(double *beta, const struct term *terms, size_t nterms, const size_t *rows,
	       const double *t, const double *w, size_t n, const struct strategy_obs *obs)
{
	size_t p = nterms + 1;
	double *a = xcalloc(p * p, sizeof(*a)), *x = xcalloc(p, sizeof(*x));

	memset(beta, 0, p * sizeof(*beta));
	for (size_t i = 0; i < n; i++) {
		const size_t *pick = obs[rows[i]].pick;

		x[0] = 1;
		for (size_t k = 0; k < nterms; k++)
			x[k + 1] = term_x(&terms[k], pick);
		for (size_t r = 0; r < p; r++) {
			if (!x[r])
				continue;
			beta[r] += w[i] * x[r] * t[i];
			for (size_t c = 0; c <= r; c++)
				a[r * p + c] += w[i] * x[r] * x[c];
		}
	}
	for (size_t r = 0; r < p; r++) { /* the intercept is not penalised */
		for (size_t c = r + 1; c < p; c++)
			a[r * p + c] = a[c * p + r];
		a[r * p + r] += r ? RIDGE : 1e-9;
	}
	if (chol_factor(a, p) == 0)
		chol_apply(a, beta, p);
	else
		memset(beta, 0, p * sizeof(*beta));
	free(a);
	free(x);
}

double predict(const double *beta, const struct term *terms, size_t nterms, const size_t *pick)
{
	double v = beta[0];

	for (size_t k = 0; k < nterms; k++)
		if (term_x(&terms[k], pick))
			v += beta[k + 1];
	return v;
}

/*
 * Fits the ensemble on the usable observations rows[0..n) with targets
 * t (n x nobjs) and weights w (ENSEMBLE x n) into mdl->beta.
 */
static void fit_ensemble(struct model *mdl, const struct problem *p, const size_t *rows,
			 const double *t, const double *w, size_t n,
			 const struct strategy_obs *obs)
{
	size_t m = p->nobjs, np = mdl->nterms + 1;
	double *tk = xcalloc(n + 1, sizeof(*tk));

	mdl->beta = xcalloc(ENSEMBLE * m * np, sizeof(*mdl->beta));
	for (size_t k = 0; k < m; k++) {
		for (size_t i = 0; i < n; i++)
			tk[i] = t[i * m + k];
		for (size_t b = 0; b < ENSEMBLE; b++)
			ridge_fit(mdl->beta + (b * m + k) * np, mdl->terms, mdl->nterms, rows, tk,
				  w + b * n, n, obs);
	}
	free(tk);
}

/* ---- Screening (point 3 of surrogate.c) ---- */

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
	chol_factor(a, k); /* positive definite: X'X + RIDGE I */
	for (size_t j = 0; j < k; j++) {
		memset(ainv + j * k, 0, k * sizeof(*ainv));
		ainv[j * k + j] = 1;
		chol_apply(a, ainv + j * k, k); /* column j of A^-1, its row j */
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

/* Screens every objective (targets t, n x nobjs) into mdl->clear,
 * mdl->matters and mdl->score. Fewer than 3 observations tell nothing. */
static void screen_all(struct model *mdl, const struct problem *p, const struct strategy_obs *obs,
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

/* Adds interaction terms among the dimensions that matter most. */
static void add_interactions(struct model *mdl, const struct problem *p, size_t nobs)
{
	size_t top[MAX_INTER_DIMS], ntop = 0, extra = 0;
	const struct space *s = p->s;

	for (size_t d = 0; d < p->ndims; d++) {
		size_t i;

		if (!mdl->matters[d])
			continue;
		for (i = ntop; i > 0 && mdl->score[top[i - 1]] < mdl->score[d]; i--)
			if (i < MAX_INTER_DIMS)
				top[i] = top[i - 1];
		if (i < MAX_INTER_DIMS) {
			top[i] = d;
			if (ntop < MAX_INTER_DIMS)
				ntop++;
		}
	}
	for (size_t a = 0; a < ntop; a++)
		for (size_t b = a + 1; b < ntop; b++)
			extra += (s->dims[top[a]].nvalues - 1) * (s->dims[top[b]].nvalues - 1);
	if (!extra || nobs < mdl->nterms + 1 + extra + 5)
		return;
	mdl->terms = xrealloc(mdl->terms, (mdl->nterms + extra) * sizeof(*mdl->terms));
	for (size_t a = 0; a < ntop; a++)
		for (size_t b = a + 1; b < ntop; b++) {
			size_t d1 = top[a] < top[b] ? top[a] : top[b];
			size_t d2 = top[a] < top[b] ? top[b] : top[a];

			for (size_t v1 = 1; v1 < s->dims[d1].nvalues; v1++)
				for (size_t v2 = 1; v2 < s->dims[d2].nvalues; v2++)
					mdl->terms[mdl->nterms++] = (struct term){ d1, v1, d2, v2 };
		}
}

void model_release(struct model *mdl)
{
	free(mdl->terms);
	free(mdl->beta);
	free(mdl->logged);
	free(mdl->clear);
	free(mdl->matters);
	free(mdl->score);
	memset(mdl, 0, sizeof(*mdl));
}

void predict_all(double *out, const struct model *mdl, const struct problem *p,
		 const size_t *pick)
{
	size_t m = p->nobjs, np = mdl->nterms + 1;

	for (size_t b = 0; b < ENSEMBLE; b++)
		for (size_t k = 0; k < m; k++) {
			double v = predict(mdl->beta + (b * m + k) * np, mdl->terms, mdl->nterms, pick);

			if (mdl->logged[k])
				v = exp(v);
			out[b * m + k] = p->objs[k].maximize ? -v : v;
		}
}

void predict_mean(double *out, const struct model *mdl, const struct problem *p,
		  const size_t *pick)
{
	double *all = xcalloc(ENSEMBLE * p->nobjs, sizeof(*all));

	predict_all(all, mdl, p, pick);
	for (size_t k = 0; k < p->nobjs; k++) {
		out[k] = 0;
		for (size_t b = 0; b < ENSEMBLE; b++)
			out[k] += all[b * p->nobjs + k] / ENSEMBLE;
	}
	free(all);
}

void predict_pool(double **pred, double **spread, const struct model *mdl,
		  const struct problem *p, const size_t *picks, size_t n)
{
	size_t m = p->nobjs;
	double *pr = xcalloc(n * ENSEMBLE * m + 1, sizeof(*pr));
	double *sd = xcalloc(n + 1, sizeof(*sd));

	for (size_t c = 0; c < n; c++) {
		predict_all(pr + c * ENSEMBLE * m, mdl, p, picks + c * p->ndims);
		for (size_t k = 0; k < m; k++) {
			double sum = 0, sq = 0, mean;

			for (size_t b = 0; b < ENSEMBLE; b++) {
				double v = pr[(c * ENSEMBLE + b) * m + k];

				sum += v;
				sq += v * v;
			}
			mean = sum / ENSEMBLE;
			sd[c] += sqrt(fmax(0, sq / ENSEMBLE - mean * mean)) / (fabs(mean) + 1e-300);
		}
	}
	*pred = pr;
	*spread = sd;
}

/* ---- Fitting ---- */

size_t usable_rows(size_t *rows, int *usable, const struct strategy_obs *obs, size_t nobs,
		   size_t m)
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

void model_fit(struct model *mdl, const struct problem *p, const struct strategy_obs *obs,
	       const size_t *rows, size_t nrows, struct rng *r)
{
	size_t m = p->nobjs;
	double *t, *w;

	mdl->logged = xcalloc(m + 1, sizeof(*mdl->logged));
	for (size_t k = 0; k < m; k++) {
		mdl->logged[k] = 1;
		for (size_t i = 0; i < nrows; i++)
			if (!(obs[rows[i]].value[k] > 0))
				mdl->logged[k] = 0;
	}
	t = xcalloc(nrows * m + 1, sizeof(*t));
	for (size_t i = 0; i < nrows; i++)
		for (size_t k = 0; k < m; k++) {
			double v = obs[rows[i]].value[k];

			t[i * m + k] = mdl->logged[k] ? log(v) : v;
		}
	w = xcalloc(ENSEMBLE * nrows + 1, sizeof(*w));
	for (size_t i = 0; i < ENSEMBLE * nrows; i++)
		w[i] = -log(1.0 - rng_double(r));
	main_terms(&mdl->terms, &mdl->nterms, p->s);
	screen_all(mdl, p, obs, rows, nrows, t, r);
	add_interactions(mdl, p, nrows);
	fit_ensemble(mdl, p, rows, t, w, nrows, obs);
	free(t);
	free(w);
}

void model_effects(double *coef, const struct model *mdl, const struct problem *p,
		   const struct strategy_obs *obs, const size_t *rows, size_t nrows, size_t k)
{
	const struct space *s = p->s;
	size_t nd = p->ndims, nt = 0, np = main_params(s) - 1;
	struct term *terms = xcalloc(np + 1, sizeof(*terms));
	double *t = xcalloc(nrows + 1, sizeof(*t)), *w = xcalloc(nrows + 1, sizeof(*w));
	double *beta = xcalloc(np + 1, sizeof(*beta));

	for (size_t d = 0; d < nd; d++)
		for (size_t v = 1; mdl->clear[k * nd + d] > 1 && v < s->dims[d].nvalues; v++)
			terms[nt++] = (struct term){ d, v, SIZE_MAX, 0 };
	for (size_t i = 0; i < nrows; i++) {
		double v = obs[rows[i]].value[k];

		t[i] = mdl->logged[k] ? log(v) : v;
		w[i] = 1;
	}
	ridge_fit(beta, terms, nt, rows, t, w, nrows, obs);
	memset(coef, 0, np * sizeof(*coef));
	for (size_t i = 0, c = 0, d = 0; i < nt; i++) {
		for (; d < terms[i].d1; d++)
			c += s->dims[d].nvalues - 1;
		coef[c + terms[i].v1 - 1] = beta[i + 1];
	}
	free(terms);
	free(t);
	free(w);
	free(beta);
}

double *success_odds(const struct problem *p, const struct strategy_obs *obs, size_t nobs,
		     const int *usable, const size_t *picks, size_t npicks, struct rng *r)
{
	struct term *mt;
	size_t nmt, nok = 0, *all;
	double *tok, *w, *beta, *pok;

	for (size_t i = 0; i < nobs; i++)
		nok += usable[i] != 0;
	if (nok == nobs)
		return NULL;
	main_terms(&mt, &nmt, p->s);
	all = xcalloc(nobs, sizeof(*all));
	tok = xcalloc(nobs, sizeof(*tok));
	w = xcalloc(nobs, sizeof(*w));
	beta = xcalloc(ENSEMBLE * (nmt + 1), sizeof(*beta));
	for (size_t i = 0; i < nobs; i++) {
		all[i] = i;
		tok[i] = usable[i] ? 1 : 0;
	}
	for (size_t b = 0; b < ENSEMBLE; b++) {
		for (size_t i = 0; i < nobs; i++)
			w[i] = -log(1.0 - rng_double(r));
		ridge_fit(beta + b * (nmt + 1), mt, nmt, all, tok, w, nobs, obs);
	}
	pok = xcalloc(npicks + 1, sizeof(*pok));
	for (size_t c = 0; c < npicks; c++) {
		for (size_t b = 0; b < ENSEMBLE; b++)
			pok[c] += fmin(1, fmax(0, predict(beta + b * (nmt + 1), mt, nmt,
							  picks + c * p->ndims)));
		pok[c] /= ENSEMBLE;
	}
	free(mt);
	free(all);
	free(tok);
	free(w);
	free(beta);
	return pok;
}
