/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for stats, part two: the distributions of tuner/analysis/stats_dist.c
 * against t tables and 50-digit evaluations of the integrals; then the
 * sampling behaviour of the intervals and tests in seeded simulations
 * (coverage, false-positive rates, power, layout noise). Seeded, so every
 * figure printed is the same on every run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "tuner/stats.h"
#include "tuner/util.h"

/* cmocka's assert_near works in float; these values need double. */
static void check_near(double got, double want, double eps, int line)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("line %d: got %.17g, want %.17g", line, got, want);
}
#define assert_near(got, want, eps) check_near((got), (want), (eps), __LINE__)

/* Relative comparison for values that span many magnitudes. */
#define assert_rel(got, want, rel) \
	check_near((got), (want), (rel) * fabs(want), __LINE__)

static void test_stats_dist__t_quantile_table(void **state)
{
	/* Two-sided 95% critical values, as in every t table (more digits
	 * from a 50-digit evaluation of the integral). */
	assert_rel(stats_t_quantile(0.975, 1), 12.7062047361747, 1e-12);
	assert_rel(stats_t_quantile(0.975, 2), 4.30265272974946, 1e-12);
	assert_rel(stats_t_quantile(0.975, 3), 3.18244630528371, 1e-11);
	assert_rel(stats_t_quantile(0.975, 10), 2.22813885198627, 1e-11);
	assert_rel(stats_t_quantile(0.975, 30), 2.04227245630124, 1e-11);
	assert_rel(stats_t_quantile(0.975, 1000), 1.96233908082641, 1e-11);
	/* Non-integer df, as Welch's test produces. */
	assert_rel(stats_t_quantile(0.975, 1.5), 6.01666310442793, 1e-11);
	assert_rel(stats_t_quantile(0.975, 4.7), 2.62072607535317, 1e-11);
	assert_rel(stats_t_quantile(0.975, 0.3), 6582.03569940077, 1e-10);
	/* Far tails. */
	assert_rel(stats_t_quantile(1e-12, 10), -40.5320961786626, 1e-10);
	assert_rel(stats_t_quantile(1e-12, 1), -318309886183.791, 1e-10);
	assert_rel(stats_t_quantile(1e-6, 1e9), -4.75342433686221, 1e-8);
	/* Large df tends to the normal. */
	assert_rel(stats_t_quantile(0.975, 1e9), 1.95996398691233, 1e-9);
	assert_rel(stats_t_quantile(0.975, INFINITY), 1.95996398454005, 1e-12);
	/* Symmetry and the edges. */
	assert_rel(stats_t_quantile(0.025, 7.5), -stats_t_quantile(0.975, 7.5), 1e-13);
	assert_true(stats_t_quantile(0.5, 3) == 0);
	assert_true(isinf(stats_t_quantile(1, 3)) && stats_t_quantile(1, 3) > 0);
	assert_true(isinf(stats_t_quantile(0, 3)) && stats_t_quantile(0, 3) < 0);
	assert_true(isnan(stats_t_quantile(0.5, 0)));
	assert_true(isnan(stats_t_quantile(1.5, 3)));
	assert_true(isnan(stats_t_quantile(NAN, 3)));
}

static void test_stats_dist__t_cdf(void **state)
{
	double dfs[] = { 0.3, 1, 1.5, 2, 3, 4.7, 10, 29.5, 100, 1e4, 1e6, 1e8 };
	double ts[] = { -50, -7, -2.5, -1, -0.1, 0, 0.3, 1.7, 4, 12 };

	/* 50-digit references. */
	assert_rel(stats_t_cdf(-1.96, 10), 0.039218120123849856, 1e-12);
	assert_rel(stats_t_cdf(-40, 3), 1.7190340394579264e-5, 1e-11);
	assert_rel(stats_t_cdf(-3, 0.3), 0.25066884484380977, 1e-12);
	assert_rel(stats_t_cdf(1.5, 4.7), 0.90122924956860109, 1e-12);
	assert_rel(stats_t_cdf(0.5, 2.5), 0.67115104006514266, 1e-12);
	assert_rel(stats_t_cdf(-8, 1e6), 6.2275317166012598e-16, 1e-10);
	assert_rel(stats_t_cdf(-1e6, 1), 3.1830988618368457e-7, 1e-12);
	assert_rel(stats_t_cdf(1, INFINITY), 0.84134474606854295, 1e-14);
	assert_true(stats_t_cdf(0, 5) == 0.5);
	assert_true(isnan(stats_t_cdf(1, -1)));
	assert_true(isnan(stats_t_cdf(NAN, 1)));

	/* Symmetric, increasing, and the quantile inverts it. */
	for (size_t i = 0; i < ARRAY_SIZE(dfs); i++) {
		double prev = 0;

		for (size_t j = 0; j < ARRAY_SIZE(ts); j++) {
			double t = ts[j], p = stats_t_cdf(t, dfs[i]);

			assert_near(p + stats_t_cdf(-t, dfs[i]), 1, 1e-14);
			assert_true(p >= prev);
			prev = p;
			if (p > 1e-300 && p < 1 - 1e-9)
				assert_near(stats_t_quantile(p, dfs[i]), t,
					    1e-9 * (1 + fabs(t)));
		}
	}
}

static void test_stats_dist__normal_quantile(void **state)
{
	assert_rel(stats_normal_quantile(0.975), 1.9599639845400539, 1e-14);
	assert_rel(stats_normal_quantile(0.3), -0.52440051270804082, 1e-14);
	assert_rel(stats_normal_quantile(0.02425), -1.9729610513118848, 1e-14);
	assert_rel(stats_normal_quantile(0.001), -3.0902323061678135, 1e-14);
	assert_rel(stats_normal_quantile(0.999), 3.0902323061678133, 1e-12);
	assert_rel(stats_normal_quantile(1e-20), -9.2623400897984076, 1e-14);
	assert_rel(stats_normal_quantile(1e-300), -37.047096299361199, 1e-14);
	assert_true(stats_normal_quantile(0.5) == 0);
	assert_true(isinf(stats_normal_quantile(0)));
	assert_true(isnan(stats_normal_quantile(-0.1)));
	assert_rel(stats_normal_cdf(-10), 7.6198530241605261e-24, 1e-13);
	assert_near(stats_normal_cdf(stats_normal_quantile(0.8)), 0.8, 1e-15);
}

static void test_stats_dist__normal_variates(void **state)
{
	struct rng r, r2;
	double sum = 0, ss = 0, x;
	size_t n = 100000, beyond = 0;

	rng_seed(&r, 7);
	rng_seed(&r2, 7);
	for (size_t i = 0; i < n; i++) {
		x = stats_normal(&r);
		assert_true(x == stats_normal(&r2)); /* same seed, same draws */
		sum += x;
		ss += x * x;
		beyond += fabs(x) > 1.959964;
	}
	/* Standard errors: mean 0.003, variance 0.0045, tail share 0.0007. */
	assert_near(sum / n, 0, 0.015);
	assert_near(ss / n - (sum / n) * (sum / n), 1, 0.025);
	assert_near((double)beyond / n, 0.05, 0.004);
}

/* ---- Seeded simulations ---- */

/* x[0..n) = mean + sd * (standard normal draws from r). */
static void normals(double *x, size_t n, double mean, double sd, struct rng *r)
{
	for (size_t i = 0; i < n; i++)
		x[i] = mean + sd * stats_normal(r);
}

static void test_stats_dist__ci_coverage(void **state)
{
	/*
	 * 1000 seeded samples of 10 draws of N(941.2, 4.7): the 95% t
	 * interval holds 941.2 in about 95% of them. 300 samples of 20
	 * draws, 1000 resamples each: the percentile bootstrap interval of
	 * the trimmed mean is a little narrow, so its bounds are wider.
	 */
	struct rng r;
	struct stats_ci ci;
	double x[20];
	int t_in = 0, boot_in = 0;

	rng_seed(&r, 2024);
	for (int s = 0; s < 1000; s++) {
		normals(x, 10, 941.2, 4.7, &r);
		stats_ci_t(&ci, x, 10, 0.95);
		t_in += ci.lo <= 941.2 && 941.2 <= ci.hi;
	}
	rng_seed(&r, 99);
	for (int s = 0; s < 300; s++) {
		normals(x, 20, 0, 1, &r);
		stats_ci_bootstrap(&ci, x, 20, 0.95, 1000, &r);
		boot_in += ci.lo <= 0 && 0 <= ci.hi;
	}
	print_message("coverage: t %d/1000, bootstrap %d/300\n", t_in, boot_in);
	assert_in_range(t_in, 930, 970);
	assert_in_range(boot_in, 264, 294); /* 88% .. 98% */
}

static void test_stats_dist__welch_false_positives(void **state)
{
	/*
	 * A/A: 2000 seeded pairs of 10 runs of one config at 0.5% run noise
	 * (941.2 Mbit/s, sd 4.7): p < 0.05 in about 5%, and the 95%
	 * interval of the difference misses 0 exactly as often.
	 */
	struct rng r;
	struct stats_test w;
	double a[10], b[10];
	int fp = 0, missed = 0, power = 0;

	rng_seed(&r, 5);
	for (int s = 0; s < 2000; s++) {
		normals(a, 10, 941.2, 4.7, &r);
		normals(b, 10, 941.2, 4.7, &r);
		stats_welch(&w, a, 10, b, 10, 0.95);
		fp += w.p < 0.05;
		missed += w.diff_lo > 0 || w.diff_hi < 0;
		/* Power: b 2% faster, detected nearly always (200 times). */
		normals(b, 10, 941.2 * 1.02, 4.7, &r);
		stats_welch(&w, a, 10, b, 10, 0.95);
		power += s < 200 && w.p < 0.05 && w.rel_lo > 0;
	}
	print_message("Welch A/A false positives: %d/2000; power at 2%%: %d/200\n",
		      fp, power);
	assert_in_range(fp, 80, 120); /* 4% .. 6% */
	assert_int_equal(missed, fp);
	assert_in_range(power, 190, 200);
}

static void test_stats_dist__mann_whitney_simulated(void **state)
{
	/*
	 * 1000 seeded A/A pairs of 8 runs: p < 0.05 at most ~5% (the
	 * continuity correction makes it conservative); and 500 pairs
	 * shifted by 1 sd: the exact Hodges-Lehmann interval (achieved
	 * level 0.95 or above) holds the shift at least ~95% of the time.
	 */
	struct rng r;
	struct stats_test m;
	double a[8], b[8];
	int fp = 0, covered = 0;

	rng_seed(&r, 8);
	for (int s = 0; s < 1000; s++) {
		normals(a, 8, 0, 1, &r);
		normals(b, 8, 0, 1, &r);
		stats_mann_whitney(&m, a, 8, b, 8, 0.95);
		fp += m.p < 0.05;
		normals(b, 8, 1, 1, &r);
		stats_mann_whitney(&m, a, 8, b, 8, 0.95);
		covered += s < 500 && m.diff_lo <= 1 && 1 <= m.diff_hi;
	}
	print_message("Mann-Whitney A/A false positives: %d/1000; "
		      "Hodges-Lehmann coverage: %d/500\n", fp, covered);
	assert_in_range(fp, 20, 60);
	assert_in_range(covered, 460, 495); /* 92% .. 99% */
}

/*
 * One config measured on k layouts (seeds 0..k-1) with reps runs each:
 * true value + per-layout offset (sd layout_sd) + run noise (sd run_sd).
 */
static void simulate(double *x, unsigned *id, struct rng *r, double truth,
		     unsigned k, unsigned reps, double layout_sd, double run_sd)
{
	for (unsigned c = 0; c < k; c++) {
		double offset = layout_sd * stats_normal(r);

		for (unsigned i = 0; i < reps; i++) {
			x[c * reps + i] = truth + offset + run_sd * stats_normal(r);
			id[c * reps + i] = c;
		}
	}
}

static void test_stats_dist__clustered_false_positives(void **state)
{
	/*
	 * Two configs of equal true speed, 4 layouts x 5 runs each, layout
	 * offsets of 2% sd and 0.5% run noise. Welch on the 20 raw runs
	 * takes each layout's luck for an effect; the clustered test,
	 * whose unit is the layout, keeps to its 5%.
	 */
	struct rng r;
	struct stats_test raw, cl;
	double a[20], b[20];
	unsigned ia[20], ib[20];
	int raw_fp = 0, cl_fp = 0, sims = 1000;

	rng_seed(&r, 77);
	for (int s = 0; s < sims; s++) {
		simulate(a, ia, &r, 100, 4, 5, 2, 0.5);
		simulate(b, ib, &r, 100, 4, 5, 2, 0.5);
		stats_welch(&raw, a, 20, b, 20, 0.95);
		stats_compare_clustered(&cl, a, ia, 20, b, ib, 20, 0.95);
		assert_int_equal(cl.na, 4);
		assert_int_equal(cl.layout_unreplicated, 0);
		raw_fp += raw.p < 0.05;
		cl_fp += cl.p < 0.05;
	}
	print_message("layout noise: raw Welch false positives %d/%d, "
		      "clustered %d/%d\n", raw_fp, sims, cl_fp, sims);
	assert_true(raw_fp > 300);
	assert_in_range(cl_fp, 30, 70);
}

static void test_stats_dist__layout_spread_simulated(void **state)
{
	/* 50 layouts x 5 runs at 2% and 0.5%: both found within 25%. */
	struct stats_spread s;
	struct rng r;
	double x[250];
	unsigned id[250];

	rng_seed(&r, 3);
	simulate(x, id, &r, 100, 50, 5, 2, 0.5);
	stats_layout_spread(&s, x, id, 250);
	print_message("layout spread: within %.3f (0.5), between %.3f (2)\n",
		      s.within_sd, s.between_sd);
	assert_near(s.within_sd, 0.5, 0.125);
	assert_near(s.between_sd, 2, 0.5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_dist__t_quantile_table),
		cmocka_unit_test(test_stats_dist__t_cdf),
		cmocka_unit_test(test_stats_dist__normal_quantile),
		cmocka_unit_test(test_stats_dist__normal_variates),
		cmocka_unit_test(test_stats_dist__ci_coverage),
		cmocka_unit_test(test_stats_dist__welch_false_positives),
		cmocka_unit_test(test_stats_dist__mann_whitney_simulated),
		cmocka_unit_test(test_stats_dist__clustered_false_positives),
		cmocka_unit_test(test_stats_dist__layout_spread_simulated),
	};

	return cmocka_run_group_tests_name("stats_dist", tests, NULL, NULL);
}
