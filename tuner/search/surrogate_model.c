/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * surrogate_model: the surrogate strategy's model (surrogate.c has the
 * strategy, surrogate_priv.h the interface, docs/search.md the why):
 * per objective, a ridge regression of the log values (the raw values
 * when one is not positive) on one-hot main effects, fitted as a
 * Bayesian-bootstrap ensemble; the screening of the dimensions that
 * matter (surrogate_screen.c); the interactions of the one that matters
 * most with every other; predictions; the odds that a configuration
 * builds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/linalg.h"
#include "surrogate_priv.h"

size_t surrogate_main_params(const struct space *s)
{
	size_t p = 1;

	for (size_t d = 0; d < s->ndims; d++)
		p += s->dims[d].nvalues - 1;
	return p;
}

void surrogate_main_terms(struct term **out, size_t *n, const struct space *s)
{
	*out = xcalloc(surrogate_main_params(s), sizeof(**out));
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

void surrogate_ridge_fit(double *beta, const struct term *terms, size_t nterms, const size_t *rows,
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
	if (linalg_chol_factor(a, p) == 0)
		linalg_chol_solve(a, beta, p);
	else
		memset(beta, 0, p * sizeof(*beta));
	free(a);
	free(x);
}

double surrogate_predict(const double *beta, const struct term *terms, size_t nterms,
			 const size_t *pick)
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
			surrogate_ridge_fit(mdl->beta + (b * m + k) * np, mdl->terms, mdl->nterms,
					    rows, tk, w + b * n, n, obs);
	}
	free(tk);
}

/*
 * Adds the interactions of the dimension that matters most (the highest
 * score) with every other dimension, whether they matter or not, once the
 * observations are at least the terms: each of its values gets the others'
 * effects of its own, partly pooled (a main effect plus an interaction,
 * both shrunk). A dimension like -Os that takes the others' effects away
 * (alignment costs size at -O2 and nothing at -Os) is then fitted as it
 * is; main effects alone carry what they learn at -O2 over to -Os, and the
 * screening, which tests main effects, can miss a flag whose effect the
 * -Os observations dilute.
 */
static void add_interactions(struct model *mdl, const struct problem *p, size_t nobs)
{
	const struct space *s = p->s;
	size_t top = SIZE_MAX, extra = 0;

	for (size_t d = 0; d < p->ndims; d++)
		if (mdl->matters[d] && (top == SIZE_MAX || mdl->score[d] > mdl->score[top]))
			top = d;
	if (top == SIZE_MAX)
		return;
	for (size_t d = 0; d < p->ndims; d++)
		if (d != top)
			extra += (s->dims[top].nvalues - 1) * (s->dims[d].nvalues - 1);
	if (!extra || nobs < mdl->nterms + 1 + extra)
		return;
	mdl->terms = xrealloc(mdl->terms, (mdl->nterms + extra) * sizeof(*mdl->terms));
	for (size_t d = 0; d < p->ndims; d++) {
		size_t d1 = d < top ? d : top, d2 = d < top ? top : d;

		if (d == top)
			continue;
		for (size_t v1 = 1; v1 < s->dims[d1].nvalues; v1++)
			for (size_t v2 = 1; v2 < s->dims[d2].nvalues; v2++)
				mdl->terms[mdl->nterms++] = (struct term){ d1, v1, d2, v2 };
	}
}

void surrogate_model_release(struct model *mdl)
{
	free(mdl->terms);
	free(mdl->beta);
	free(mdl->logged);
	free(mdl->clear);
	free(mdl->matters);
	free(mdl->score);
	memset(mdl, 0, sizeof(*mdl));
}

void surrogate_predict_all(double *out, const struct model *mdl, const struct problem *p,
			   const size_t *pick)
{
	size_t m = p->nobjs, np = mdl->nterms + 1;

	for (size_t b = 0; b < ENSEMBLE; b++)
		for (size_t k = 0; k < m; k++) {
			double v = surrogate_predict(mdl->beta + (b * m + k) * np, mdl->terms,
						     mdl->nterms, pick);

			if (mdl->logged[k])
				v = exp(v);
			out[b * m + k] = p->objs[k].maximize ? -v : v;
		}
}

void surrogate_predict_mean(double *out, const struct model *mdl, const struct problem *p,
			    const size_t *pick)
{
	double *all = xcalloc(ENSEMBLE * p->nobjs, sizeof(*all));

	surrogate_predict_all(all, mdl, p, pick);
	for (size_t k = 0; k < p->nobjs; k++) {
		out[k] = 0;
		for (size_t b = 0; b < ENSEMBLE; b++)
			out[k] += all[b * p->nobjs + k] / ENSEMBLE;
	}
	free(all);
}

void surrogate_predict_pool(double **pred, double **spread, const struct model *mdl,
			    const struct problem *p, const size_t *picks, size_t n)
{
	size_t m = p->nobjs;
	double *pr = xcalloc(n * ENSEMBLE * m + 1, sizeof(*pr));
	double *sd = xcalloc(n + 1, sizeof(*sd));

	for (size_t c = 0; c < n; c++) {
		surrogate_predict_all(pr + c * ENSEMBLE * m, mdl, p, picks + c * p->ndims);
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

void surrogate_model_fit(struct model *mdl, const struct problem *p, const struct strategy_obs *obs,
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
	surrogate_main_terms(&mdl->terms, &mdl->nterms, p->s);
	surrogate_screen(mdl, p, obs, rows, nrows, t, r);
	add_interactions(mdl, p, nrows);
	fit_ensemble(mdl, p, rows, t, w, nrows, obs);
	free(t);
	free(w);
}

void surrogate_model_effects(double *coef, const struct model *mdl, const struct problem *p,
			     const struct strategy_obs *obs, const size_t *rows, size_t nrows,
			     size_t k)
{
	const struct space *s = p->s;
	size_t nd = p->ndims, nt = 0, np = surrogate_main_params(s) - 1;
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
	surrogate_ridge_fit(beta, terms, nt, rows, t, w, nrows, obs);
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

double *surrogate_success_odds(const struct problem *p, const struct strategy_obs *obs, size_t nobs,
			       const int *usable, const size_t *picks, size_t npicks, struct rng *r)
{
	struct term *mt;
	size_t nmt, nok = 0, *all;
	double *tok, *w, *beta, *pok;

	for (size_t i = 0; i < nobs; i++)
		nok += usable[i] != 0;
	if (nok == nobs)
		return NULL;
	surrogate_main_terms(&mt, &nmt, p->s);
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
		surrogate_ridge_fit(beta + b * (nmt + 1), mt, nmt, all, tok, w, nobs, obs);
	}
	pok = xcalloc(npicks + 1, sizeof(*pok));
	for (size_t c = 0; c < npicks; c++) {
		for (size_t b = 0; b < ENSEMBLE; b++)
			pok[c] += fmin(1, fmax(0, surrogate_predict(beta + b * (nmt + 1), mt, nmt,
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
