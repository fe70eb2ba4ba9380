/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diff: see include/tuner/diff.h */
#include "tuner/diff.h"

#include <math.h>
#include <string.h>

#include "tuner/stats.h"

/* A side's error is known: it came from more than one unit, or the
 * objective has no noise. */
static int se_known(const struct diff_side *s, int exact)
{
	return isfinite(s->se) && s->se >= 0 && (exact || s->df >= 1);
}

/*
 * A sum of variance terms, each given as its standard deviation, and its
 * degrees of freedom by Welch and Satterthwaite, (sum v)^2 / sum (v^2 /
 * df); a term of 0 counts for nothing, and one from a single unit (an
 * exact objective's) is taken as known. The terms are kept relative to the
 * largest sd so far (scale): no square, nor the square of a square, can
 * overflow or underflow for finite terms (62 -> 1e100 is a change like any
 * other), and the df does not depend on the scale at all.
 */
struct var_sum {
	double scale;     /* the largest sd added; 0 before any */
	double sum, den;  /* of v / scale^2, and of (v / scale^2)^2 / df */
};

static void var_add(struct var_sum *v, double sd, double df)
{
	double u;

	sd = fabs(sd);
	if (!(sd > 0) || isinf(v->scale))
		return;
	if (isinf(sd)) {
		/* A term beyond a double (an error 1e300 times its value):
		 * the sum is infinite, the others nothing beside it. */
		v->scale = INFINITY;
		v->sum = 1;
		v->den = 0;
		return;
	}
	if (sd > v->scale) {
		double r = v->scale / sd;

		v->sum *= r * r;
		v->den *= r * r * r * r;
		v->scale = sd;
	}
	u = sd / v->scale;
	u *= u;
	v->sum += u;
	if (df >= 1)
		v->den += u * u / df;
}

/* The sd of the sum: inf only when it is beyond a double. */
static double var_sd(const struct var_sum *v)
{
	return v->scale * sqrt(v->sum);
}

/* +inf when no term has degrees of freedom. */
static double var_df(const struct var_sum *v)
{
	return v->den > 0 ? v->sum * v->sum / v->den : INFINITY;
}

static double quantile(double level, double df)
{
	double p = 1 - (1 - level) / 2;

	return isinf(df) ? stats_normal_quantile(p) : stats_t_quantile(p, df);
}

static enum diff_verdict verdict_of(double lo, double hi, int maximize)
{
	int sign = lo > 0 ? 1 : hi < 0 ? -1 : 0;

	if (!sign)
		return DIFF_UNCLEAR;
	return (sign > 0) == !!maximize ? DIFF_BETTER : DIFF_WORSE;
}

/*
 * B against A with both values divided by the larger of |a| and |b| (so
 * at most 1; A's error taken relative to A, se_a / |a|, B's to the same
 * scale): the test of d = (b - a) / m against its error, whose terms are
 * (b / m)(se_a / |a|) and se_b / m (the delta method's times |a| / m),
 * overflows nowhere, so the verdict is right however large the values or
 * their ratio. rel and its interval are d and its error over |a| / m:
 * infinite only where they are beyond a double.
 */
void diff_compare(struct diff_est *out, const struct diff_side *a, const struct diff_side *b,
		  int exact, int maximize, double level)
{
	struct var_sum v = { 0, 0, 0 };
	double m, sa, sb, d, sd, q;

	out->rel = out->lo = out->hi = out->df = NAN;
	out->exact = 0;
	out->verdict = DIFF_MISSING;
	if (!isfinite(a->value) || !isfinite(b->value) || a->value == 0)
		return;
	m = fmax(fabs(a->value), fabs(b->value));
	sa = a->value / m;
	sb = b->value / m;
	d = sb - sa;
	out->rel = d / fabs(sa);
	if (!se_known(a, exact) || !se_known(b, exact)) {
		out->verdict = DIFF_NO_INTERVAL;
		return;
	}
	if ((a->se == 0 || b->value == 0) && b->se == 0) {
		out->exact = 1;
		out->lo = out->hi = out->rel;
		out->df = INFINITY;
		out->verdict = out->rel == 0 ? DIFF_SAME : verdict_of(out->rel, out->rel, maximize);
		return;
	}
	var_add(&v, sb * (a->se / fabs(a->value)), a->df);
	var_add(&v, b->se / m, b->df);
	out->df = var_df(&v);
	q = quantile(level, out->df);
	sd = var_sd(&v);
	out->verdict = verdict_of(d - q * sd, d + q * sd, maximize);
	sd /= fabs(sa);
	out->lo = out->rel - q * sd;
	out->hi = out->rel + q * sd;
}

void diff_summarize(struct diff_summary *out, const struct diff_item *items, size_t n,
		    double level)
{
	struct var_sum v = { 0, 0, 0 };
	double sum = 0, half;
	size_t noisy = 0;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->geo = out->geo_lo = out->geo_hi = NAN;
	for (size_t i = 0; i < n; i++) {
		const struct diff_item *it = &items[i];
		const struct diff_est *e = &it->est;

		out->count[e->verdict]++;
		if ((e->verdict == DIFF_BETTER || e->verdict == DIFF_WORSE ||
		     e->verdict == DIFF_UNCLEAR) && !e->exact)
			noisy++;
		if (it->shared || e->verdict == DIFF_MISSING || !(it->a.value > 0) ||
		    !(it->b.value > 0))
			continue;
		out->ngeo++;
		/* Not log(b / a), which a huge ratio overflows. */
		sum += log(it->b.value) - log(it->a.value);
		if (e->verdict == DIFF_NO_INTERVAL) {
			out->geo_no_interval++;
			continue;
		}
		var_add(&v, it->a.se / it->a.value, it->a.df);
		var_add(&v, it->b.se / it->b.value, it->b.df);
	}
	out->chance = (double)noisy * (1 - level);
	if (!out->ngeo)
		return;
	sum /= (double)out->ngeo;
	out->geo = expm1(sum);
	if (out->geo_no_interval)
		return;
	if (!(v.sum > 0)) {
		out->geo_lo = out->geo_hi = out->geo;
		return;
	}
	half = var_sd(&v) / (double)out->ngeo * quantile(level, var_df(&v));
	out->geo_lo = expm1(sum - half);
	out->geo_hi = expm1(sum + half);
}

const char *diff_verdict_word(enum diff_verdict v)
{
	static const char *const w[] = { "better", "worse", "no clear change", "no change",
					 "no interval", "missing" };

	return w[v];
}

const char *diff_verdict_key(enum diff_verdict v)
{
	static const char *const k[] = { "better", "worse", "unclear", "same", "no-interval",
					 "missing" };

	return k[v];
}
