/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner compare: B against A on each objective, and --fail-on (cmd_compare.h). */
#include <math.h>
#include <string.h>

#include "cmd_compare.h"
#include "tuner/stats.h"
#include "tuner/study.h"

/* One measured objective's comparison into *c. */
static void compare_objective(struct cmp_obj *c, const struct config_result *A,
			      const struct config_result *B, size_t i,
			      const struct compare_opts *o)
{
	const struct run_samples *a = &A->samples[i], *b = &B->samples[i];
	struct stats_test *t = &c->t;
	int significant, separable = 1;

	c->ma = A->obj[i].mean;
	c->mb = B->obj[i].mean;
	c->lsd = c->band = NAN;
	stats_compare_clustered(t, a->x, a->layout_seed, a->n, b->x, b->layout_seed, b->n, 0.95);
	if (!t->layout_unreplicated) {
		c->how = "Welch's t on the layout seeds' means";
		c->lsd = stats_pooled_sd(A->spread[i].between_sd, B->spread[i].between_sd) /
			 fabs(c->ma);
		if (!isfinite(c->lsd) && a->n == A->spread[i].clusters &&
		    b->n == B->spread[i].clusters) {
			/* One run per layout seed (a deterministic target):
			 * the seeds' spread is the layout's plus any run
			 * noise, which cannot be told apart. */
			struct summary sa, sb;

			stats_summarize(&sa, a->x, a->n);
			stats_summarize(&sb, b->x, b->n);
			c->lsd = stats_pooled_sd(sa.stddev, sb.stddev) / fabs(c->ma);
			c->lsd_with_runs = 1;
		}
	} else if (o->has_layout_sd) {
		/* Each side's mean carries its one layout's offset: add their
		 * variance, 2 (sd |mean a|)^2, to the run noise's. */
		double q = stats_t_quantile(0.975, t->df);
		double se = (t->diff_hi - t->diff) / q;
		double extra = o->layout_sd * fabs(c->ma);

		se = sqrt(se * se + 2 * extra * extra);
		if (isfinite(se) && se > 0) {
			t->statistic = t->diff / se;
			t->p = 2 * stats_t_cdf(-fabs(t->statistic), t->df);
			t->diff_lo = t->diff - q * se;
			t->diff_hi = t->diff + q * se;
			t->rel_lo = t->diff_lo / fabs(c->ma);
			t->rel_hi = t->diff_hi / fabs(c->ma);
		}
		c->how = "Welch's t over runs, widened by the assumed layout sd";
		c->lsd = o->layout_sd;
		c->lsd_assumed = 1;
	} else {
		c->how = "Welch's t over runs only: one layout seed a side";
		separable = 0;
	}
	if (isfinite(c->lsd))
		c->band = 1.96 * sqrt(2.0) * c->lsd;
	c->beyond = fabs(t->rel) > c->band;
	c->diff = t->diff;
	c->rel = t->rel;
	c->run_sd = stats_pooled_sd(A->spread[i].within_sd, B->spread[i].within_sd) / fabs(c->ma);
	significant = separable && stats_significant(t, 0.05);
	c->outcome = OUT_NONE;
	if (!separable) {
		c->verdict = "cannot separate from layout noise (use --layout K >= 2, or --layout-sd)";
		c->outcome = OUT_UNSEPARABLE;
	} else if (!significant && t->p < 0.05) {
		c->verdict = "no significant difference (Welch's p < 0.05, but the rank test disagrees)";
	} else if (!significant) {
		c->verdict = "no significant difference";
	} else if ((t->diff > 0) == (c->ob->maximize != 0)) {
		c->verdict = "B is better";
		c->outcome = OUT_BETTER;
	} else {
		c->verdict = "B is worse";
		c->outcome = OUT_WORSE;
	}
}

/* A size: exact. */
static void compare_size(struct cmp_obj *c, const struct config_result *A,
			 const struct config_result *B, size_t i)
{
	c->exact = 1;
	c->ma = A->value[i];
	c->mb = B->value[i];
	c->diff = c->mb - c->ma;
	c->rel = c->diff / fabs(c->ma);
	if (c->ma == c->mb) {
		c->verdict = "equal";
		c->outcome = OUT_NONE;
	} else if ((c->mb > c->ma) == (c->ob->maximize != 0)) {
		c->verdict = "B is better";
		c->outcome = OUT_BETTER;
	} else {
		c->verdict = "B is worse";
		c->outcome = OUT_WORSE;
	}
}

void compare_judge(struct cmp_obj *c, const struct study *d, const struct config_result *A,
		   const struct config_result *B, size_t i, const struct compare_opts *o,
		   const struct cmp_same *same)
{
	memset(c, 0, sizeof(*c));
	c->ob = &d->objectives[i];
	c->sda = A->obj[i].stddev;
	c->sdb = B->obj[i].stddev;
	c->na = A->obj[i].n;
	c->nb = B->obj[i].n;
	c->run_sd = c->lsd = c->band = NAN;
	if (c->ob->from_size)
		compare_size(c, A, B, i);
	else
		compare_objective(c, A, B, i, o);
	if (same->one && !c->exact) {
		/* B's samples are A's: a test of them against themselves
		 * answers nothing (compare_print_same() says why). */
		c->verdict = "not compared: A and B are one program (the same code, measured once)";
		c->outcome = OUT_SAME;
	}
}

/* How many builds of X are twins of configuration `other`'s. */
static size_t twins_of(const struct config_result *X, size_t other)
{
	size_t n = 0;

	for (size_t k = 0; k < X->nbuilds; k++)
		n += X->build_lead[k] == other;
	return n;
}

void compare_same(struct cmp_same *out, const struct run_result *res)
{
	const struct config_result *A = &res->configs[0], *B = &res->configs[1];
	size_t ta = twins_of(A, 1), tb = twins_of(B, 0), k;

	memset(out, 0, sizeof(*out));
	out->builds = B->nbuilds;
	out->shared = ta + tb;
	out->one = (B->nbuilds && tb == B->nbuilds) || (A->nbuilds && ta == A->nbuilds);
	for (k = 0; !out->code && k < A->nbuilds && k < B->nbuilds; k++)
		if (A->build_code[k][0] && !strcmp(A->build_code[k], B->build_code[k]))
			out->code = A->build_code[k];
	out->alike = out->code && !out->shared;
	for (k = 0; out->alike && k < A->nbuilds; k++)
		out->alike = k < B->nbuilds && A->build_code[k][0] &&
			     !strcmp(A->build_code[k], B->build_code[k]);
	/* A twin across layout seeds (a layout seed that changes nothing):
	 * name the code of one of the pairs. */
	for (k = 0; !out->code && k < B->nbuilds; k++)
		if (B->build_lead[k] == 0 && B->build_code[k][0])
			out->code = B->build_code[k];
	for (k = 0; !out->code && k < A->nbuilds; k++)
		if (A->build_lead[k] == 1 && A->build_code[k][0])
			out->code = A->build_code[k];
}

const char *const compare_fail_on_names[] = { "never", "worse", "change" };

int compare_fails(const struct compare_opts *o, const struct cmp_obj *c)
{
	return (o->fail_on == FAIL_WORSE && c->outcome == OUT_WORSE) ||
	       (o->fail_on == FAIL_CHANGE && (c->outcome == OUT_WORSE ||
					      c->outcome == OUT_BETTER));
}
