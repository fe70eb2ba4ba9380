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
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
