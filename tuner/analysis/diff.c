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
 * A sum of variance terms and its degrees of freedom by Welch and
 * Satterthwaite, (sum c)^2 / sum (c^2 / df); a term of 0 counts for
 * nothing, and one from a single unit (an exact objective's) is taken as
 * known. +inf when no term has degrees of freedom.
 */
struct var_sum {
	double sum, den;
};

static void var_add(struct var_sum *v, double c, double df)
{
	v->sum += c;
	if (c > 0 && df >= 1)
		v->den += c * c / df;
}

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

void diff_compare(struct diff_est *out, const struct diff_side *a, const struct diff_side *b,
		  int exact, int maximize, double level)
{
	struct var_sum v = { 0, 0 };
	double ca, cb, m, s;

	out->rel = out->lo = out->hi = out->df = NAN;
	out->exact = 0;
	out->verdict = DIFF_MISSING;
	if (!isfinite(a->value) || !isfinite(b->value) || a->value == 0)
		return;
	out->rel = (b->value - a->value) / fabs(a->value);
	if (!se_known(a, exact) || !se_known(b, exact)) {
		out->verdict = DIFF_NO_INTERVAL;
		return;
	}
	ca = fabs(b->value / a->value) * (a->se / fabs(a->value));
	cb = b->se / fabs(a->value);
	/* The terms scaled by the larger, which leaves the degrees of
	 * freedom as they are and keeps their squares and fourth powers
	 * finite (a value of 1e100 against 62); s by hypot(). */
	m = fmax(ca, cb);
	if (m > 0 && isfinite(m)) {
		var_add(&v, (ca / m) * (ca / m), a->df);
		var_add(&v, (cb / m) * (cb / m), b->df);
	}
	s = hypot(ca, cb);
	if (s == 0) {
		out->exact = 1;
		out->lo = out->hi = out->rel;
		out->df = INFINITY;
		out->verdict = out->rel == 0 ? DIFF_SAME : verdict_of(out->rel, out->rel, maximize);
		return;
	}
	out->df = var_df(&v);
	s *= quantile(level, out->df);
	out->lo = out->rel - s;
	out->hi = out->rel + s;
	/* An error too large to be a number says nothing: no interval. */
	if (isnan(out->lo) || isnan(out->hi)) {
		out->lo = out->hi = out->df = NAN;
		out->verdict = DIFF_NO_INTERVAL;
		return;
	}
	out->verdict = verdict_of(out->lo, out->hi, maximize);
}

void diff_summarize(struct diff_summary *out, const struct diff_item *items, size_t n,
		    double level)
{
	struct var_sum v = { 0, 0 };
	double sum = 0, half;
	size_t noisy = 0;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->geo = out->geo_lo = out->geo_hi = NAN;
	for (size_t i = 0; i < n; i++) {
		const struct diff_item *it = &items[i];
		const struct diff_est *e = &it->est;
		double ca, cb;

		out->count[e->verdict]++;
		if ((e->verdict == DIFF_BETTER || e->verdict == DIFF_WORSE ||
		     e->verdict == DIFF_UNCLEAR) && !e->exact)
			noisy++;
		if (it->shared || e->verdict == DIFF_MISSING || !(it->a.value > 0) ||
		    !(it->b.value > 0))
			continue;
		out->ngeo++;
		sum += log(it->b.value / it->a.value);
		if (e->verdict == DIFF_NO_INTERVAL) {
			out->geo_no_interval++;
			continue;
		}
		ca = it->a.se / it->a.value;
		cb = it->b.se / it->b.value;
		var_add(&v, ca * ca, it->a.df);
		var_add(&v, cb * cb, it->b.df);
	}
	out->chance = (double)noisy * (1 - level);
	if (!out->ngeo)
		return;
	sum /= (double)out->ngeo;
	out->geo = expm1(sum);
	if (out->geo_no_interval)
		return;
	if (v.sum <= 0) {
		out->geo_lo = out->geo_hi = out->geo;
		return;
	}
	half = sqrt(v.sum) / (double)out->ngeo * quantile(level, var_df(&v));
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
