/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for stats: summaries checked against values worked by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tuner/stats.h"
#include "tuner/util.h"

#define EPS 1e-9

/* cmocka's assert_near works in float; these values need double. */
static void check_near(double got, double want, double eps, int line)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("line %d: got %.17g, want %.17g", line, got, want);
}
#define assert_near(got, want, eps) check_near((got), (want), (eps), __LINE__)

static void test_stats__empty(void **state)
{
	struct summary s;

	stats_summarize(&s, NULL, 0);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.median));
	assert_true(isnan(s.mean));
	assert_true(isnan(s.trimmed_mean));
	assert_true(isnan(s.min));
	assert_true(isnan(s.max));
	assert_true(s.stddev == 0);
}

static void test_stats__single(void **state)
{
	double x[] = { 42.5 };
	struct summary s;

	stats_summarize(&s, x, 1);
	assert_int_equal(s.n, 1);
	assert_true(s.median == 42.5);
	assert_true(s.mean == 42.5);
	assert_true(s.trimmed_mean == 42.5);
	assert_true(s.stddev == 0);
	assert_true(s.min == 42.5 && s.max == 42.5);
}

static void test_stats__two(void **state)
{
	/* n = 2: nothing is trimmed; stddev = |a-b|/sqrt(2). */
	double x[] = { 3, 1 };
	struct summary s;

	stats_summarize(&s, x, 2);
	assert_int_equal(s.n, 2);
	assert_near(s.median, 2, EPS);
	assert_near(s.mean, 2, EPS);
	assert_near(s.trimmed_mean, 2, EPS);
	assert_near(s.stddev, sqrt(2), EPS);
	assert_true(s.min == 1 && s.max == 3);
}

static void test_stats__odd_unsorted(void **state)
{
	/*
	 * 2 4 4 4 5 5 7 9 -> take 9 4 2 5 4 (5 samples): sorted 2 4 4 5 9,
	 * median 4, mean 24/5 = 4.8, trimmed (4+4+5)/3 = 13/3,
	 * squares of deviations: 7.84 0.64 0.64 0.04 17.64 = 26.8,
	 * sample variance 26.8/4 = 6.7.
	 */
	double x[] = { 9, 4, 2, 5, 4 };
	double copy[5];
	struct summary s;

	memcpy(copy, x, sizeof(x));
	stats_summarize(&s, x, 5);
	assert_memory_equal(copy, x, sizeof(x)); /* input left alone */
	assert_int_equal(s.n, 5);
	assert_near(s.median, 4, EPS);
	assert_near(s.mean, 4.8, EPS);
	assert_near(s.trimmed_mean, 13.0 / 3, EPS);
	assert_near(s.stddev, sqrt(6.7), EPS);
	assert_true(s.min == 2 && s.max == 9);
}

static void test_stats__even(void **state)
{
	/* sorted 1 2 10 100: median 6, mean 28.25, trimmed 6. */
	double x[] = { 100, 2, 10, 1 };
	double var = (pow(1 - 28.25, 2) + pow(2 - 28.25, 2) +
		      pow(10 - 28.25, 2) + pow(100 - 28.25, 2)) / 3;
	struct summary s;

	stats_summarize(&s, x, 4);
	assert_near(s.median, 6, EPS);
	assert_near(s.mean, 28.25, EPS);
	assert_near(s.trimmed_mean, 6, EPS);
	assert_near(s.stddev, sqrt(var), EPS);
}

static void test_stats__trim_drops_one_of_each(void **state)
{
	/* Repeated extremes: only one min and one max go. sorted 1 1 5 9 9,
	 * trimmed (1+5+9)/3 = 5. */
	double x[] = { 1, 9, 1, 9, 5 };
	struct summary s;

	stats_summarize(&s, x, 5);
	assert_near(s.trimmed_mean, 5, EPS);
	assert_near(s.median, 5, EPS);
}

static void test_stats__nan_skipped(void **state)
{
	double x[] = { NAN, 3, INFINITY, 1, NAN, 2, -INFINITY };
	struct summary s;

	stats_summarize(&s, x, ARRAY_SIZE(x));
	assert_int_equal(s.n, 3);
	assert_near(s.median, 2, EPS);
	assert_near(s.mean, 2, EPS);
	assert_near(s.trimmed_mean, 2, EPS);
	assert_near(s.stddev, 1, EPS);
	assert_true(s.min == 1 && s.max == 3);
}

static void test_stats__all_nan(void **state)
{
	double x[] = { NAN, NAN };
	struct summary s;

	stats_summarize(&s, x, 2);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.median));
	assert_true(s.stddev == 0);
}

static void test_stats__constant_large(void **state)
{
	/* Close samples of a large value: the two-pass stddev stays exact
	 * where a naive sum of squares would cancel to garbage. */
	double x[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };
	double y[] = { 941.2, 941.2, 941.2, 941.2 };
	struct summary s;

	stats_summarize(&s, x, 3);
	assert_near(s.stddev, 1, 1e-6);
	assert_near(s.mean, 1e9 + 2, 1e-6);
	stats_summarize(&s, y, 4);
	assert_true(s.stddev == 0);
	assert_true(s.median == 941.2);
}

/* ---- Confidence intervals ---- */

static void test_stats__ci_t(void **state)
{
	/*
	 * 9 4 2 5 4: mean 4.8, s^2 = 6.7 (see odd_unsorted);
	 * t(0.975, 4) = 2.7764451052, half width 2.7764451052 * sqrt(6.7/5)
	 * = 3.2139675707.
	 */
	double x[] = { 9, 4, NAN, 2, 5, 4 };
	struct stats_ci ci;

	stats_ci_t(&ci, x, ARRAY_SIZE(x), 0.95);
	assert_int_equal(ci.n, 5);
	assert_near(ci.estimate, 4.8, EPS);
	assert_near(ci.lo, 4.8 - 3.2139675707320, 1e-10);
	assert_near(ci.hi, 4.8 + 3.2139675707320, 1e-10);

	stats_ci_t(&ci, x, 1, 0.95);
	assert_true(ci.n == 1 && ci.estimate == 9);
	assert_true(isnan(ci.lo) && isnan(ci.hi));
	stats_ci_t(&ci, x, 2, 1.5);
	assert_true(isnan(ci.lo) && isnan(ci.hi));
}

static void test_stats__ci_bootstrap(void **state)
{
	double x[] = { 941.0, 943.5, 939.8, 940.2, 960.0, 941.7, 942.3, 938.9 };
	double same[] = { 5, 5, 5, 5 };
	struct stats_ci a, b, c;
	struct rng r;

	/* The same seed gives the same interval, another seed another. */
	rng_seed(&r, 11);
	stats_ci_bootstrap(&a, x, ARRAY_SIZE(x), 0.95, 0, &r);
	rng_seed(&r, 11);
	stats_ci_bootstrap(&b, x, ARRAY_SIZE(x), 0.95, 0, &r);
	assert_true(a.lo == b.lo && a.hi == b.hi);
	rng_seed(&r, 12);
	stats_ci_bootstrap(&c, x, ARRAY_SIZE(x), 0.95, 0, &r);
	assert_true(a.lo != c.lo || a.hi != c.hi);

	/* The estimate is the trimmed mean: 960.0 and 938.9 dropped. */
	assert_int_equal(a.n, 8);
	assert_near(a.estimate, (941.0 + 943.5 + 939.8 + 940.2 + 941.7 + 942.3) / 6,
		    1e-9);
	assert_true(a.lo < a.estimate && a.estimate < a.hi);
	/* No resampled trimmed mean leaves the sample's range. */
	assert_true(a.lo >= 938.9 && a.hi <= 960.0);

	/* Close samples of a large value keep their digits. */
	rng_seed(&r, 2);
	stats_ci_bootstrap(&a, (double[]){ 1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4,
					   1e9 + 5 }, 5, 0.95, 500, &r);
	assert_near(a.estimate, 1e9 + 3, 1e-6);
	assert_true(a.lo >= 1e9 + 1 && a.hi <= 1e9 + 5 && a.lo < a.hi);
	/* Each resampled trimmed mean is 1e9 + (an integer) / 3. */
	assert_near(3 * (a.lo - 1e9), round(3 * (a.lo - 1e9)), 1e-5);
	assert_near(3 * (a.hi - 1e9), round(3 * (a.hi - 1e9)), 1e-5);

	rng_seed(&r, 1);
	stats_ci_bootstrap(&a, same, ARRAY_SIZE(same), 0.9, 100, &r);
	assert_true(a.lo == 5 && a.hi == 5 && a.estimate == 5);
	stats_ci_bootstrap(&a, same, 1, 0.9, 100, &r);
	assert_true(isnan(a.lo) && isnan(a.hi) && a.estimate == 5);
}

/* ---- Two-sample tests ---- */

static void test_stats__welch_by_hand(void **state)
{
	/*
	 * a = 1 2 3 4: mean 2.5, var 5/3; b = 3 5 7: mean 5, var 4.
	 * va/na = 5/12, vb/nb = 16/12, se^2 = 21/12, se = 1.3228756555,
	 * t = 2.5 / se = 1.8898223650,
	 * df = (21/12)^2 / ((5/12)^2/3 + (16/12)^2/2) = 1323/409 = 3.2347188,
	 * p = 2 P(T_df < -t) = 0.14847134703 (50-digit evaluation),
	 * t(0.975, df) = 3.0557127104, interval 2.5 +- 4.0423279549.
	 */
	double a[] = { 1, 2, 3, 4 };
	double b[] = { 3, NAN, 5, 7 };
	struct stats_test w;

	stats_welch(&w, a, ARRAY_SIZE(a), b, ARRAY_SIZE(b), 0.95);
	assert_int_equal(w.na, 4);
	assert_int_equal(w.nb, 3);
	assert_near(w.diff, 2.5, EPS);
	assert_near(w.statistic, 1.8898223650461361, 1e-12);
	assert_near(w.df, 1323.0 / 409, 1e-12);
	assert_near(w.p, 0.14847134702688532, 1e-10);
	assert_near(w.diff_lo, -1.5423279549230255, 1e-9);
	assert_near(w.diff_hi, 6.5423279549230255, 1e-9);
	/* Relative to mean a = 2.5. */
	assert_near(w.rel, 1, EPS);
	assert_near(w.rel_lo, -1.5423279549230255 / 2.5, 1e-9);
	assert_true(isnan(w.u));
	assert_int_equal(w.layout_unreplicated, 0);

	/* Swapping the sides negates the difference, keeps p. */
	stats_welch(&w, b, ARRAY_SIZE(b), a, ARRAY_SIZE(a), 0.95);
	assert_near(w.diff, -2.5, EPS);
	assert_near(w.p, 0.14847134702688532, 1e-10);
}

static void test_stats__welch_degenerate(void **state)
{
	double five[] = { 5, 5, 5 }, six[] = { 6, 6 }, one[] = { 1 };
	struct stats_test w;

	stats_welch(&w, five, 3, five, 2, 0.95);
	assert_true(w.p == 1 && w.statistic == 0 && w.diff == 0);
	assert_true(w.diff_lo == 0 && w.diff_hi == 0);
	stats_welch(&w, five, 3, six, 2, 0.95);
	assert_true(w.p == 0 && isinf(w.statistic) && w.statistic > 0);
	assert_true(w.diff_lo == 1 && w.diff_hi == 1);
	assert_near(w.rel, 0.2, EPS);
	assert_near(w.df, 3, EPS);
	/* One constant side: df is the other side's n - 1. */
	stats_welch(&w, five, 3, (double[]){ 4, 6, 8 }, 3, 0.95);
	assert_near(w.df, 2, 1e-12);
	assert_near(w.diff, 1, EPS);
	/* Fewer than 2 samples a side: nothing to say. */
	stats_welch(&w, one, 1, six, 2, 0.95);
	assert_int_equal(w.na, 1);
	assert_true(isnan(w.p) && isnan(w.diff) && isnan(w.diff_lo));
	stats_welch(&w, NULL, 0, NULL, 0, 0.95);
	assert_true(isnan(w.p));
	/* Mean a of 0: no relative difference. */
	stats_welch(&w, (double[]){ -1, 1 }, 2, six, 2, 0.95);
	assert_true(isnan(w.rel) && !isnan(w.diff));
}

static void test_stats__mann_whitney_by_hand(void **state)
{
	/*
	 * a = 1 2 2 4, b = 2 3 5 6 7. Sorted: 1a 2a 2a 2b 3b 4a 5b 6b 7b,
	 * mid ranks 1 3 3 3 5 6 7 8 9; rank sum of b = 3+5+7+8+9 = 32,
	 * U = 32 - 5*6/2 = 17 (pairs: 2+3+4+4+4). Mean 4*5/2 = 10; one
	 * tie of 3: var = 20/12 * (10 - 24/(9*8)) = 145/9; with the
	 * continuity correction z = 6.5 / sqrt(145/9) = 1.6193868571,
	 * p = erfc(z / sqrt 2) = 0.10536405287.
	 *
	 * The 20 differences b - a sorted: -2 -1 0 0 1 1 1 1 2 2 3 3 3 4 4
	 * 4 5 5 5 6; Hodges-Lehmann = (2 + 3) / 2 = 2.5. Null counts of U
	 * (4 x 5 box partitions) start 1, 1, 2, of C(9,4) = 126: P(U <= 1) =
	 * 2/126 <= 0.025 < P(U <= 2), so C = 2 and the interval is
	 * [D(2), D(19)] = [-1, 5] (achieved level 1 - 4/126 = 0.968).
	 */
	double a[] = { 1, 2, 2, 4 };
	double b[] = { 2, 3, 5, 6, 7 };
	struct stats_test m;

	stats_mann_whitney(&m, a, ARRAY_SIZE(a), b, ARRAY_SIZE(b), 0.95);
	assert_near(m.u, 17, EPS);
	assert_near(m.statistic, 1.6193868571479294, 1e-12);
	assert_near(m.p, 0.10536405286983042, 1e-12);
	assert_true(isinf(m.df));
	assert_near(m.diff, 2.5, EPS);
	assert_near(m.diff_lo, -1, EPS);
	assert_near(m.diff_hi, 5, EPS);
	assert_near(m.rel, 2.5 / 2.25, EPS); /* mean a = 9/4 */

	/* Swapped: U becomes 20 - 17, z and the shift change sign. */
	stats_mann_whitney(&m, b, ARRAY_SIZE(b), a, ARRAY_SIZE(a), 0.95);
	assert_near(m.u, 3, EPS);
	assert_near(m.statistic, -1.6193868571479294, 1e-12);
	assert_near(m.diff, -2.5, EPS);
	assert_near(m.diff_lo, -5, EPS);
}

static void test_stats__mann_whitney_interval(void **state)
{
	/*
	 * 10 against 10, no ties: the tabled two-sided 5% critical value
	 * of U is 23, so C = 24. With a_i = i and b_j = 100 j every
	 * difference 100 j - i is distinct and D(k) = 100 j - (9 - r) for
	 * k - 1 = 10 j + r: D(24) = 194 and D(77) = 697.
	 */
	double a[10], b[10], big_a[40], big_b[40];
	struct stats_test m;

	for (int i = 0; i < 40; i++) {
		big_a[i] = i;
		big_b[i] = i + 0.5;
		if (i < 10) {
			a[i] = i;
			b[i] = 100 * i;
		}
	}
	stats_mann_whitney(&m, a, 10, b, 10, 0.95);
	assert_near(m.diff_lo, 194, EPS);
	assert_near(m.diff_hi, 697, EPS);
	/* Pairs b > a: b = 0 ties a = 0 (1/2); every other b beats all 10. */
	assert_near(m.u, 90.5, EPS);

	/* 3 against 3 cannot reach 95%: 2/C(6,3) = 0.1. */
	stats_mann_whitney(&m, a, 3, b + 5, 3, 0.95);
	assert_true(isinf(m.diff_lo) && m.diff_lo < 0);
	assert_true(isinf(m.diff_hi) && m.diff_hi > 0);
	assert_true(m.p > 0.05);

	/* 40 against 40 uses the normal approximation of the counts: the
	 * shift 0.5 is inside, the interval narrower than the range. */
	stats_mann_whitney(&m, big_a, 40, big_b, 40, 0.95);
	assert_near(m.diff, 0.5, EPS);
	assert_true(m.diff_lo < 0.5 && m.diff_hi > 0.5);
	assert_true(m.diff_lo > -20 && m.diff_hi < 20);
	assert_true(m.p > 0.5);

	/* All tied: no evidence. */
	stats_mann_whitney(&m, (double[]){ 3, 3 }, 2, (double[]){ 3, 3, 3 }, 3, 0.95);
	assert_true(m.p == 1 && m.statistic == 0 && m.diff == 0);
	stats_mann_whitney(&m, NULL, 0, b, 3, 0.95);
	assert_true(isnan(m.p) && isnan(m.diff));
}

/* ---- Layout noise ---- */

static void test_stats__clustered_by_hand(void **state)
{
	/*
	 * a: layout 0 runs 10 12, layout 1 runs 20 -> cluster means 11, 20;
	 * b: layout 3 runs 14 16 18, layout 0 run 30 -> means 16, 30.
	 * Welch on (11, 20) against (16, 30): diff 7.5, var a 40.5, var b
	 * 98, se^2 = 20.25 + 49 = 69.25.
	 */
	double a[] = { 10, 20, 12, NAN };
	unsigned ia[] = { 0, 1, 0, 2 };
	double b[] = { 14, 30, 16, 18 };
	unsigned ib[] = { 3, 0, 3, 3 };
	struct stats_test t;

	stats_compare_clustered(&t, a, ia, 4, b, ib, 4, 0.95);
	assert_int_equal(t.na, 2);
	assert_int_equal(t.nb, 2);
	assert_int_equal(t.layout_unreplicated, 0);
	assert_near(t.diff, 7.5, EPS);
	assert_near(t.statistic, 7.5 / sqrt(69.25), 1e-12);
	assert_near(t.rel, 7.5 / 15.5, EPS);

	/* One layout for b: raw Welch, flagged. */
	stats_compare_clustered(&t, a, ia, 4, b, (unsigned[]){ 5, 5, 5, 5 }, 4, 0.95);
	assert_int_equal(t.layout_unreplicated, 1);
	assert_int_equal(t.na, 3);
	assert_int_equal(t.nb, 4);
	assert_near(t.diff, 19.5 - 14, EPS);
}

static void test_stats__clustered_rank_p(void **state)
{
	/*
	 * p_rank is Mann-Whitney on the same units as p: cluster means 11,
	 * 20 against 16, 30 (as above), or the raw samples in the fallback.
	 */
	double a[] = { 10, 20, 12 };
	unsigned ia[] = { 0, 1, 0 };
	double b[] = { 14, 30, 16, 18 };
	unsigned ib[] = { 3, 0, 3, 3 };
	double ma[] = { 11, 20 }, mb[] = { 16, 30 };
	struct stats_test t, mw;

	(void)state;
	stats_compare_clustered(&t, a, ia, 3, b, ib, 4, 0.95);
	stats_mann_whitney(&mw, ma, 2, mb, 2, 0.95);
	assert_near(t.p_rank, mw.p, EPS);
	stats_compare_clustered(&t, a, ia, 3, b, (unsigned[]){ 5, 5, 5, 5 }, 4, 0.95);
	stats_mann_whitney(&mw, a, 3, b, 4, 0.95);
	assert_near(t.p_rank, mw.p, EPS);
	/* Welch alone leaves it NaN. */
	stats_welch(&t, a, 3, b, 4, 0.95);
	assert_true(isnan(t.p_rank));
}

static void test_stats__significant_rule(void **state)
{
	struct stats_test t = { .na = 5, .nb = 5, .p = 0.01, .p_rank = 0.01 };

	(void)state;
	assert_int_equal(stats_significant(&t, 0.05), 1);
	t.p_rank = 0.2; /* the ranks disagree */
	assert_int_equal(stats_significant(&t, 0.05), 0);
	t.p_rank = 0.01;
	t.p = 0.06;
	assert_int_equal(stats_significant(&t, 0.05), 0);
	t.p = NAN;
	assert_int_equal(stats_significant(&t, 0.05), 0);
	/* 3 against 3: separation gives rank p 0.081 at best; Welch decides. */
	t.na = t.nb = 3;
	t.p = 0.01;
	t.p_rank = 0.081;
	assert_int_equal(stats_significant(&t, 0.05), 1);
	/* 4 against 4 can reach 0.03: the ranks vote again. */
	t.na = t.nb = 4;
	assert_int_equal(stats_significant(&t, 0.05), 0);
}

/*
 * The rule's size and power by simulation, 10 against 10 normal samples
 * in clusters of one (so p is Welch's on raw values): 20,000 null trials
 * must reject no more often than Welch alone and stay under 5% by more
 * than the simulation's error (sd 0.15%); a 2 sd shift must still be
 * found nearly always (power 98.9% for Welch in theory).
 */
static void test_stats__significant_size_and_power(void **state)
{
	enum { N = 10, TRIALS = 20000 };
	double a[N], b[N];
	unsigned ia[N], ib[N];
	unsigned long welch = 0, both = 0, found = 0;
	struct rng r;
	struct stats_test t;

	(void)state;
	rng_seed(&r, 20261130);
	for (unsigned i = 0; i < N; i++) {
		ia[i] = i;
		ib[i] = N + i;
	}
	for (unsigned k = 0; k < TRIALS; k++) {
		for (unsigned i = 0; i < N; i++) {
			a[i] = stats_normal(&r);
			b[i] = stats_normal(&r);
		}
		stats_compare_clustered(&t, a, ia, N, b, ib, N, 0.95);
		welch += t.p < 0.05;
		both += stats_significant(&t, 0.05);
		for (unsigned i = 0; i < N; i++)
			b[i] += 2;
		stats_compare_clustered(&t, a, ia, N, b, ib, N, 0.95);
		found += stats_significant(&t, 0.05);
	}
	assert_true(both <= welch);
	assert_true(both < TRIALS * 0.045);
	assert_true(both > TRIALS * 0.025); /* not a test that never rejects */
	assert_true(found > TRIALS * 0.95);
}

static void test_stats__layout_spread(void **state)
{
	/*
	 * Balanced: {1, 3} {5, 7} {9, 11}. Within: each cluster's squares
	 * sum to 2, MSW = 6 / (6 - 3) = 2. Means 2 6 10 around 6: MSB =
	 * 2 (16 + 0 + 16) / 2 = 32, n0 = 2, between = sqrt((32 - 2) / 2).
	 */
	double x[] = { 1, 3, 5, 7, 9, 11 };
	unsigned id[] = { 0, 0, 1, 1, 2, 2 };
	/*
	 * Unbalanced: {1, 2, 3} {10}. MSW = 2 / 2 = 1; grand mean 4, MSB =
	 * 3 (2-4)^2 + (10-4)^2 = 48; n0 = (4 - 10/4) / 1 = 1.5; between =
	 * sqrt(47 / 1.5).
	 */
	double y[] = { 2, 10, 1, 3 };
	unsigned iy[] = { 7, 9, 7, 7 };
	double z[] = { 1, 3, 2, 2 };
	unsigned iz[] = { 0, 0, 1, 1 };
	struct stats_spread s;

	stats_layout_spread(&s, x, id, 6);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.clusters, 3);
	assert_near(s.mean, 6, EPS);
	assert_near(s.within_sd, sqrt(2), EPS);
	assert_near(s.between_sd, sqrt(15), EPS);

	stats_layout_spread(&s, y, iy, 4);
	assert_near(s.within_sd, 1, EPS);
	assert_near(s.between_sd, sqrt(47 / 1.5), 1e-12);
	assert_near(s.mean, 6, EPS); /* of the cluster means 2 and 10 */

	/* Equal cluster means: the estimate would be negative, so 0. */
	stats_layout_spread(&s, z, iz, 4);
	assert_true(s.between_sd == 0);
	assert_near(s.within_sd, sqrt(1), EPS);

	/* One cluster: no layout spread; single runs: no run spread. */
	stats_layout_spread(&s, x, (unsigned[]){ 4, 4, 4, 4, 4, 4 }, 6);
	assert_true(isnan(s.between_sd) && !isnan(s.within_sd));
	stats_layout_spread(&s, x, (unsigned[]){ 0, 1, 2, 3, 4, 5 }, 6);
	assert_true(isnan(s.between_sd) && isnan(s.within_sd));
	assert_int_equal(s.clusters, 6);
	stats_layout_spread(&s, NULL, NULL, 0);
	assert_true(s.n == 0 && isnan(s.mean));
}

static void test_stats__pooled_sd(void **state)
{
	(void)state;
	/* sqrt((9 + 16) / 2) and sqrt((1 + 49) / 2) = 5. */
	assert_near(stats_pooled_sd(3, 4), sqrt(12.5), EPS);
	assert_near(stats_pooled_sd(1, 7), 5, EPS);
	assert_near(stats_pooled_sd(4, 3), stats_pooled_sd(3, 4), EPS);
	assert_near(stats_pooled_sd(2, 2), 2, EPS);
	assert_near(stats_pooled_sd(0, 0), 0, EPS);
	/* A side without a spread: the other one. */
	assert_near(stats_pooled_sd(NAN, 3), 3, EPS);
	assert_near(stats_pooled_sd(3, NAN), 3, EPS);
	assert_true(isnan(stats_pooled_sd(NAN, NAN)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats__empty),
		cmocka_unit_test(test_stats__single),
		cmocka_unit_test(test_stats__two),
		cmocka_unit_test(test_stats__odd_unsorted),
		cmocka_unit_test(test_stats__even),
		cmocka_unit_test(test_stats__trim_drops_one_of_each),
		cmocka_unit_test(test_stats__nan_skipped),
		cmocka_unit_test(test_stats__all_nan),
		cmocka_unit_test(test_stats__constant_large),
		cmocka_unit_test(test_stats__ci_t),
		cmocka_unit_test(test_stats__ci_bootstrap),
		cmocka_unit_test(test_stats__welch_by_hand),
		cmocka_unit_test(test_stats__welch_degenerate),
		cmocka_unit_test(test_stats__mann_whitney_by_hand),
		cmocka_unit_test(test_stats__mann_whitney_interval),
		cmocka_unit_test(test_stats__clustered_by_hand),
		cmocka_unit_test(test_stats__clustered_rank_p),
		cmocka_unit_test(test_stats__significant_rule),
		cmocka_unit_test(test_stats__significant_size_and_power),
		cmocka_unit_test(test_stats__layout_spread),
		cmocka_unit_test(test_stats__pooled_sd),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
