/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for diff: the change of one configuration between two
 * results, by hand and by simulation, and the summary over many. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/diff.h"
#include "tuner/stats.h"
#include "tuner/util.h"

static void close_to(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%.12g, want %.12g (+-%g)", got, want, tol);
}

static void test_diff__formula(void **state)
{
	/* Two terms of one size, 2 df each: Welch-Satterthwaite gives 4. */
	struct diff_side a = { 100, 1, 2 }, b = { 110, 1.1, 2 };
	struct diff_est e;
	double half = 2.776445105 * sqrt(2) * 0.011, df;

	diff_compare(&e, &a, &b, 0, 1, 0.95);
	close_to(e.rel, 0.10, 1e-12);
	close_to(e.df, 4, 1e-9);
	close_to(e.lo, 0.10 - half, 1e-8);
	close_to(e.hi, 0.10 + half, 1e-8);
	assert_int_equal(e.exact, 0);
	assert_int_equal(e.verdict, DIFF_BETTER);
	/* The goal decides which side is better. */
	diff_compare(&e, &a, &b, 0, 0, 0.95);
	assert_int_equal(e.verdict, DIFF_WORSE);
	diff_compare(&e, &b, &a, 0, 0, 0.95);
	assert_int_equal(e.verdict, DIFF_BETTER);
	close_to(e.rel, -10.0 / 110, 1e-12);

	/* Unequal terms: (ca^2 + cb^2)^2 / (ca^4 / 4 + cb^4 / 9). */
	b.se = 3;
	b.df = 9;
	diff_compare(&e, &a, &b, 0, 1, 0.95);
	{
		double ca = 0.011 * 0.011, cb = 0.03 * 0.03;

		df = (ca + cb) * (ca + cb) / (ca * ca / 2 + cb * cb / 9);
		close_to(e.df, df, 1e-9);
		half = stats_t_quantile(0.975, df) * sqrt(ca + cb);
	}
	close_to(e.lo, 0.10 - half, 1e-10);
	close_to(e.hi, 0.10 + half, 1e-10);

	/* An interval over 0: no clear change, whichever the goal. */
	b.value = 101;
	diff_compare(&e, &a, &b, 0, 1, 0.95);
	assert_true(e.lo < 0 && e.hi > 0);
	assert_int_equal(e.verdict, DIFF_UNCLEAR);
	diff_compare(&e, &a, &b, 0, 0, 0.95);
	assert_int_equal(e.verdict, DIFF_UNCLEAR);

	/* A negative A: the change is still relative to |a|. */
	a.value = -100;
	b.value = -90;
	b.se = 1;
	diff_compare(&e, &a, &b, 0, 1, 0.95);
	close_to(e.rel, 0.10, 1e-12);
}

/* Honest where the data cannot tell: one sample, no value, exact. */
static void test_diff__edges(void **state)
{
	struct diff_side a = { 100, 0, 0 }, b = { 120, 2, 3 }, none = { NAN, NAN, 0 };
	struct diff_side zero = { 0, 1, 3 };
	struct diff_est e;

	/* One sample of a noisy objective: a 0 error that knows nothing. */
	diff_compare(&e, &a, &b, 0, 1, 0.95);
	assert_int_equal(e.verdict, DIFF_NO_INTERVAL);
	close_to(e.rel, 0.2, 1e-12);
	assert_true(isnan(e.lo) && isnan(e.hi));
	diff_compare(&e, &b, &a, 0, 1, 0.95);
	assert_int_equal(e.verdict, DIFF_NO_INTERVAL);
	/* The same of an exact objective (a size): the other side's error. */
	diff_compare(&e, &a, &b, 1, 1, 0.95);
	assert_int_equal(e.verdict, DIFF_BETTER);
	close_to(e.df, 3, 1e-12);
	close_to(e.hi - e.rel, 3.182446305 * 0.02, 1e-8);
	/* Exact on both sides: [rel, rel], and no change when equal. */
	b.se = 0;
	b.df = 0;
	diff_compare(&e, &a, &b, 1, 0, 0.95);
	assert_int_equal(e.exact, 1);
	assert_int_equal(e.verdict, DIFF_WORSE);
	close_to(e.lo, 0.2, 1e-12);
	close_to(e.hi, 0.2, 1e-12);
	assert_true(isinf(e.df));
	diff_compare(&e, &a, &a, 1, 0, 0.95);
	assert_int_equal(e.verdict, DIFF_SAME);
	/* Samples that never varied (n >= 2, sd 0) are exact too. */
	a.df = b.df = 2;
	diff_compare(&e, &a, &b, 0, 1, 0.95);
	assert_int_equal(e.exact, 1);
	assert_int_equal(e.verdict, DIFF_BETTER);
	/* No value on a side, or a 0 to be relative to. */
	diff_compare(&e, &none, &b, 0, 1, 0.95);
	assert_int_equal(e.verdict, DIFF_MISSING);
	assert_true(isnan(e.rel));
	diff_compare(&e, &b, &none, 0, 1, 0.95);
	assert_int_equal(e.verdict, DIFF_MISSING);
	diff_compare(&e, &zero, &b, 0, 1, 0.95);
	assert_int_equal(e.verdict, DIFF_MISSING);
	assert_string_equal(diff_verdict_word(DIFF_UNCLEAR), "no clear change");
	assert_string_equal(diff_verdict_key(DIFF_NO_INTERVAL), "no-interval");
}

/*
 * Huge values and errors, finite all: no square (or square of a square,
 * Welch-Satterthwaite's) may overflow into an infinite or NaN interval
 * and a wrong "no clear change". 62 -> 1e100 is as clear as 62 -> 70.
 */
static void test_diff__huge(void **state)
{
	struct diff_side a = { 62, 0.5, 4 }, b = { 1e100, 0.6, 4 };
	struct diff_est e;
	const double bs[] = { 70, 1e50, 1e77, 1e100, 1e200, 1e300, DBL_MAX };

	for (size_t i = 0; i < sizeof(bs) / sizeof(bs[0]); i++) {
		b.value = bs[i];
		diff_compare(&e, &a, &b, 0, 0, 0.95);
		if (e.verdict != DIFF_WORSE)
			fail_msg("62 -> %g: %s, want worse", bs[i], diff_verdict_word(e.verdict));
		if (!(e.lo > 0 && e.lo <= e.rel && e.rel <= e.hi && isfinite(e.rel)))
			fail_msg("62 -> %g: %g [%g, %g]", bs[i], e.rel, e.lo, e.hi);
		/* With B's error as large as its value, 1% of it: still clear. */
		b.se = bs[i] / 100;
		diff_compare(&e, &a, &b, 0, 1, 0.95);
		if (e.verdict != DIFF_BETTER || !(e.lo > 0) || !isfinite(e.df))
			fail_msg("62 -> %g ±%g: %s [%g, %g] df %g", bs[i], b.se,
				 diff_verdict_word(e.verdict), e.lo, e.hi, e.df);
		/* Welch's df does not depend on the scale: the terms' ratio is
		 * (b/a se_a/a) / (b/100/a) whatever b. */
		{
			double r = pow(0.5 * 100 / 62, 2);

			close_to(e.df, 4 * (1 + r) * (1 + r) / (1 + r * r), 1e-6);
		}
		/* ... and down: 1e100 -> 62 is 100% lower, clearly. */
		diff_compare(&e, &b, &a, 0, 0, 0.95);
		if (e.verdict != DIFF_BETTER || !(e.hi < 0) || !isfinite(e.lo))
			fail_msg("%g -> 62: %s [%g, %g]", bs[i], diff_verdict_word(e.verdict), e.lo,
				 e.hi);
		b.se = 0.6;
	}
	/* The formula's figures at 1e100, by hand: rel = (b - a) / a, its
	 * error sqrt(se_b^2 + (b/a)^2 se_a^2) / a, 4 + 4 df by Welch. */
	b.value = 1e100;
	diff_compare(&e, &a, &b, 0, 0, 0.95);
	close_to(e.rel / ((1e100 - 62) / 62), 1, 1e-12);
	{
		double sd = 1e100 / 62 * 0.5 / 62, q = stats_t_quantile(0.975, 4);

		close_to((e.hi - e.rel) / (q * sd), 1, 1e-9);
	}
	/* An error that dwarfs both values: no clear change, a finite one. */
	b.value = 1e300;
	b.se = 1e305;
	diff_compare(&e, &a, &b, 0, 0, 0.95);
	assert_int_equal(e.verdict, DIFF_UNCLEAR);
	assert_true(e.lo < 0 && e.hi > 0);
	/* An error beyond a double relative to its value: an infinite
	 * interval, no clear change, nothing NaN. */
	a = (struct diff_side){ 1e-10, 1e300, 4 };
	b = (struct diff_side){ 1, 0.1, 4 };
	diff_compare(&e, &a, &b, 0, 0, 0.95);
	assert_int_equal(e.verdict, DIFF_UNCLEAR);
	assert_true(isinf(e.lo) && e.lo < 0 && isinf(e.hi) && e.hi > 0);
	/* A tiny A, a huge B: a ratio beyond any double. The change is
	 * infinite, and clearly worse. */
	a = (struct diff_side){ 1e-300, 1e-302, 4 };
	b = (struct diff_side){ 1e300, 1e298, 4 };
	diff_compare(&e, &a, &b, 0, 0, 0.95);
	assert_int_equal(e.verdict, DIFF_WORSE);
	diff_compare(&e, &b, &a, 0, 0, 0.95);
	assert_int_equal(e.verdict, DIFF_BETTER);
	close_to(e.rel, -1, 1e-12);
	/* Huge and exact (a size of 1e300 bytes): exact, worse. */
	a = (struct diff_side){ 1e300, 0, 0 };
	b = (struct diff_side){ 1.5e300, 0, 0 };
	diff_compare(&e, &a, &b, 1, 0, 0.95);
	assert_int_equal(e.exact, 1);
	assert_int_equal(e.verdict, DIFF_WORSE);
	close_to(e.rel, 0.5, 1e-12);
}

/* The summary of huge values: a geometric mean and a finite interval. */
static void test_diff__huge_summary(void **state)
{
	struct diff_item it[2];
	struct diff_summary s;

	memset(it, 0, sizeof(it));
	it[0].a = (struct diff_side){ 62, 0.5, 4 };
	it[0].b = (struct diff_side){ 1e100, 1e98, 4 };
	it[1].a = (struct diff_side){ 1e-200, 1e-202, 4 };
	it[1].b = (struct diff_side){ 1e200, 1e198, 4 };
	for (size_t i = 0; i < 2; i++)
		diff_compare(&it[i].est, &it[i].a, &it[i].b, 0, 0, 0.95);
	diff_summarize(&s, it, 2, 0.95);
	assert_int_equal(s.count[DIFF_WORSE], 2);
	assert_int_equal(s.ngeo, 2);
	/* exp((ln(1e100/62) + ln(1e400)) / 2) - 1: too large for a double,
	 * but not NaN; the interval around it not NaN either. */
	assert_true(s.geo > 1e200 && !isnan(s.geo_lo) && !isnan(s.geo_hi));
	assert_true(s.geo_lo <= s.geo && s.geo <= s.geo_hi);
	/* One of them: ln(1e100/62) exactly, its interval finite. */
	diff_summarize(&s, it, 1, 0.95);
	close_to(log1p(s.geo) / log(1e100 / 62), 1, 1e-12);
	assert_true(isfinite(s.geo_lo) && s.geo_lo > 1e90 && isfinite(s.geo_hi));
}

/*
 * The interval covers the true change about 95% of the time, from the
 * summaries of 3 samples a side (2 df) with unequal noise, and a change of
 * 0 looks changed about 5% of the time.
 */
static void test_diff__coverage(void **state)
{
	struct rng r;
	const size_t trials = 20000;
	size_t covered = 0, flagged = 0;

	rng_seed(&r, 14);
	for (size_t t = 0; t < trials; t++) {
		double xa[3], xb[3];
		struct summary sa, sb;
		struct diff_side a, b;
		struct diff_est e;

		for (size_t i = 0; i < 3; i++) {
			xa[i] = 1000 * (1 + 0.01 * stats_normal(&r));
			xb[i] = 1050 * (1 + 0.02 * stats_normal(&r));
		}
		stats_summarize(&sa, xa, 3);
		stats_summarize(&sb, xb, 3);
		a = (struct diff_side){ sa.mean, sa.stddev / sqrt(3), 2 };
		b = (struct diff_side){ sb.mean, sb.stddev / sqrt(3), 2 };
		diff_compare(&e, &a, &b, 0, 1, 0.95);
		covered += e.lo <= 0.05 && 0.05 <= e.hi;
		b.value = sb.mean / 1.05;
		b.se /= 1.05;
		diff_compare(&e, &a, &b, 0, 1, 0.95);
		flagged += e.verdict != DIFF_UNCLEAR;
	}
	/* Welch's interval is slightly conservative at 2 df a side. */
	if (covered < 0.94 * trials || covered > 0.985 * trials)
		fail_msg("covered %zu of %zu", covered, trials);
	if (flagged < 0.015 * trials || flagged > 0.06 * trials)
		fail_msg("flagged %zu of %zu without a change", flagged, trials);
}

static void test_diff__summary(void **state)
{
	struct diff_item it[5];
	struct diff_summary s;
	double var;

	memset(it, 0, sizeof(it));
	/* x1.1 and x0.9 exactly; x0.8 noisy; the x0.8 again, shared; and a
	 * failure. */
	it[0].a = (struct diff_side){ 100, 0, 2 };
	it[0].b = (struct diff_side){ 110, 0, 2 };
	it[1].a = (struct diff_side){ 200, 0, 2 };
	it[1].b = (struct diff_side){ 180, 0, 2 };
	it[2].a = (struct diff_side){ 100, 1, 4 };
	it[2].b = (struct diff_side){ 80, 0.8, 4 };
	it[3] = it[2];
	it[3].shared = 1;
	it[4].a = (struct diff_side){ 100, 1, 4 };
	it[4].b = (struct diff_side){ NAN, NAN, 0 };
	for (size_t i = 0; i < 5; i++)
		diff_compare(&it[i].est, &it[i].a, &it[i].b, 0, 1, 0.95);
	diff_summarize(&s, it, 5, 0.95);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.count[DIFF_BETTER], 1);
	assert_int_equal(s.count[DIFF_WORSE], 3);
	assert_int_equal(s.count[DIFF_MISSING], 1);
	assert_int_equal(s.ngeo, 3);
	close_to(s.geo, cbrt(1.1 * 0.9 * 0.8) - 1, 1e-12);
	/* Only the noisy one's terms: 0.01^2 twice, 4 df each -> 8 df. */
	var = sqrt(2e-4) / 3 * stats_t_quantile(0.975, 8);
	close_to(s.geo_lo, exp(log(1.1 * 0.9 * 0.8) / 3 - var) - 1, 1e-10);
	close_to(s.geo_hi, exp(log(1.1 * 0.9 * 0.8) / 3 + var) - 1, 1e-10);
	/* Two noisy items (one shared) could look changed by chance. */
	close_to(s.chance, 0.1, 1e-12);

	/* An item without an interval: the mean, but no interval. */
	it[0].a.df = 0;
	diff_compare(&it[0].est, &it[0].a, &it[0].b, 0, 1, 0.95);
	diff_summarize(&s, it, 5, 0.95);
	assert_int_equal(s.count[DIFF_NO_INTERVAL], 1);
	assert_int_equal(s.geo_no_interval, 1);
	assert_true(isfinite(s.geo) && isnan(s.geo_lo) && isnan(s.geo_hi));

	/* Nothing to average. */
	diff_summarize(&s, it + 4, 1, 0.95);
	assert_int_equal(s.ngeo, 0);
	assert_true(isnan(s.geo));
	diff_summarize(&s, NULL, 0, 0.95);
	assert_int_equal(s.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff__formula),
		cmocka_unit_test(test_diff__edges),
		cmocka_unit_test(test_diff__huge),
		cmocka_unit_test(test_diff__huge_summary),
		cmocka_unit_test(test_diff__coverage),
		cmocka_unit_test(test_diff__summary),
	};
	return cmocka_run_group_tests_name("diff", tests, NULL, NULL);
}
