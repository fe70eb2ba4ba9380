/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for pareto: hand-made fronts and a randomized cross-check;
 * hypervolume, its gain, and the ranks of minimised points. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pareto.h"
#include "tuner/util.h"

static const struct pareto_obj max_min[] = {
	{ .maximize = 1 }, /* throughput */
	{ .maximize = 0 }, /* size */
};

static void check_front(const int *got, const int *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("point %zu: front %d, want %d", i, got[i], want[i]);
}

static void test_pareto__two_objectives(void **state)
{
	/* throughput (max), size (min) */
	const double v[] = {
		100, 50, /* 0: front */
		 90, 40, /* 1: front: smaller */
		 80, 45, /* 2: dominated by 1 */
		120, 70, /* 3: front: fastest */
		100, 60, /* 4: dominated by 0 (equal speed, bigger) */
		 50, 10, /* 5: front: smallest */
	};
	const int want[] = { 1, 1, 0, 1, 0, 1 };
	int front[6], feas[6];

	assert_int_equal(pareto_front(front, feas, v, 6, max_min, 2), 4);
	check_front(front, want, 6);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(feas[i], 1);
}

static void test_pareto__direction_matters(void **state)
{
	/* Same points, both minimized: now the slow small one wins more. */
	const struct pareto_obj both_min[] = { { .maximize = 0 }, { .maximize = 0 } };
	const double v[] = { 100, 50, 90, 40, 50, 10 };
	const int want[] = { 0, 0, 1 };
	int front[3];

	assert_int_equal(pareto_front(front, NULL, v, 3, both_min, 2), 1);
	check_front(front, want, 3);
}

static void test_pareto__three_objectives(void **state)
{
	/* latency (min), throughput (max), size (min) */
	const struct pareto_obj objs[] = {
		{ .maximize = 0 }, { .maximize = 1 }, { .maximize = 0 },
	};
	const double v[] = {
		10, 100, 500, /* 0: front */
		10, 100, 400, /* 1: front, dominates 0 ... */
		 5,  80, 600, /* 2: front: lowest latency */
		12, 100, 400, /* 3: dominated by 1 */
		20, 200, 900, /* 4: front: fastest */
		 5,  80, 601, /* 5: dominated by 2 by size only */
	};
	const int want[] = { 0, 1, 1, 0, 1, 0 };
	int front[6];

	assert_int_equal(pareto_front(front, NULL, v, 6, objs, 3), 3);
	check_front(front, want, 6);
}

static void test_pareto__ties_all_on_front(void **state)
{
	const double v[] = {
		100, 50,
		100, 50, /* equal to 0: neither dominates */
		 90, 60, /* dominated by both copies */
		100, 50,
	};
	const int want[] = { 1, 1, 0, 1 };
	int front[4];

	assert_int_equal(pareto_front(front, NULL, v, 4, max_min, 2), 3);
	check_front(front, want, 4);
}

static void test_pareto__nan_infeasible(void **state)
{
	/*
	 * Point 0 has a NaN throughput and the smallest size. Compared
	 * naively (NaN < 100 is false, so "not worse") it would dominate
	 * point 1 and push it off the front; being infeasible it dominates
	 * nothing, so point 1 stays.
	 */
	const double v[] = {
		NAN, 1,
		100, 50,
		 90, 60, /* dominated by 1 */
		200, NAN,
	};
	const int want[] = { 0, 1, 0, 0 };
	const int want_feas[] = { 0, 1, 1, 0 };
	int front[4], feas[4];

	assert_int_equal(pareto_front(front, feas, v, 4, max_min, 2), 1);
	check_front(front, want, 4);
	check_front(feas, want_feas, 4);
}

static void test_pareto__limits(void **state)
{
	/*
	 * Limits are thresholds of "good enough", so a point that dominates a
	 * feasible point is feasible itself: a limit can only remove points
	 * from the front, never let a dominated one in. Here size <= 55
	 * (inclusive) and throughput >= 100 (inclusive).
	 */
	const struct pareto_obj objs[] = {
		{ .maximize = 1, .has_limit = 1, .limit = 100 },
		{ .maximize = 0, .has_limit = 1, .limit = 55 },
	};
	const double v[] = {
		200, 60, /* 0: fastest, too big */
		150, 55, /* 1: on the size limit: feasible, front */
		100, 30, /* 2: on the throughput limit: front */
		 99, 10, /* 3: too slow */
		140, 55, /* 4: dominated by 1 */
		300, 56, /* 5: too big, would dominate 1 and 4 */
	};
	const int want[] = { 0, 1, 1, 0, 0, 0 };
	const int want_feas[] = { 0, 1, 1, 0, 1, 0 };
	int front[6], feas[6];

	assert_int_equal(pareto_front(front, feas, v, 6, objs, 2), 2);
	check_front(front, want, 6);
	check_front(feas, want_feas, 6);
}

static void test_pareto__all_infeasible(void **state)
{
	const struct pareto_obj objs[] = {
		{ .maximize = 1, .has_limit = 1, .limit = 1000 },
		{ .maximize = 0 },
	};
	const double v[] = { 100, 50, 999, 1, NAN, NAN };
	const int none[] = { 0, 0, 0 };
	int front[3], feas[3];

	assert_int_equal(pareto_front(front, feas, v, 3, objs, 2), 0);
	check_front(front, none, 3);
	check_front(feas, none, 3);
}

static void test_pareto__single_and_empty(void **state)
{
	const double v[] = { 7, 7 };
	int front[1] = { -1 }, feas[1] = { -1 };

	assert_int_equal(pareto_front(front, feas, v, 1, max_min, 2), 1);
	assert_int_equal(front[0], 1);
	assert_int_equal(feas[0], 1);
	assert_int_equal(pareto_front(front, feas, NULL, 0, max_min, 2), 0);
}

static void test_pareto__infinities(void **state)
{
	/* Infinite values compare fine: -inf size beats every finite one. */
	const double v[] = { 100, 50, 100, -INFINITY, INFINITY, 60 };
	const int want[] = { 0, 1, 1 };
	int front[3];

	assert_int_equal(pareto_front(front, NULL, v, 3, max_min, 2), 2);
	check_front(front, want, 3);
}

/*
 * The definition, written separately from the library: turn every objective
 * into "smaller is better" by negating the maximized ones, then point i is on
 * the front iff it is feasible and no feasible j has w_j <= w_i everywhere
 * and w_j != w_i somewhere.
 */
static int brute_on_front(const double *v, size_t n, size_t m,
			  const struct pareto_obj *objs, size_t i)
{
	double wi[4], wj[4];

	for (size_t j = 0; j < n; j++) {
		int feas_j = 1, le = 1, ne = 0;

		for (size_t k = 0; k < m; k++) {
			double x = v[j * m + k];

			if (x != x)
				feas_j = 0;
			else if (objs[k].has_limit &&
				 (objs[k].maximize ? !(x >= objs[k].limit)
						   : !(x <= objs[k].limit)))
				feas_j = 0;
			wj[k] = objs[k].maximize ? -x : x;
			wi[k] = objs[k].maximize ? -v[i * m + k] : v[i * m + k];
		}
		if (j == i) {
			if (!feas_j)
				return 0;
			continue;
		}
		if (!feas_j)
			continue;
		for (size_t k = 0; k < m; k++) {
			le &= wj[k] <= wi[k];
			ne |= wj[k] != wi[k];
		}
		if (le && ne)
			return 0;
	}
	return 1;
}

static void test_pareto__random_vs_brute_force(void **state)
{
	struct rng r;

	rng_seed(&r, 20240607);
	for (int round = 0; round < 300; round++) {
		size_t n = 1 + rng_below(&r, 60);
		size_t m = 1 + rng_below(&r, 4);
		struct pareto_obj objs[4];
		double *v = xmalloc(n * m * sizeof(*v));
		int *front = xmalloc(n * sizeof(*front));
		int *front_nolimit = xmalloc(n * sizeof(*front));
		int *feas = xmalloc(n * sizeof(*feas));
		size_t count, want_count = 0;

		for (size_t k = 0; k < m; k++) {
			objs[k].maximize = (int)rng_below(&r, 2);
			objs[k].has_limit = rng_below(&r, 3) == 0;
			objs[k].limit = (double)rng_below(&r, 8);
		}
		/* Few distinct values, so ties and equal points are common. */
		for (size_t i = 0; i < n * m; i++)
			v[i] = rng_below(&r, 40) == 0 ? NAN : (double)rng_below(&r, 8);

		count = pareto_front(front, feas, v, n, objs, m);
		for (size_t i = 0; i < n; i++) {
			int want = brute_on_front(v, n, m, objs, i);

			if (front[i] != want)
				fail_msg("round %d point %zu: front %d, want %d",
					 round, i, front[i], want);
			want_count += (size_t)want;
		}
		assert_int_equal(count, want_count);

		/* Limits only filter: the constrained front is the
		 * unconstrained front minus the infeasible points. */
		for (size_t k = 0; k < m; k++)
			objs[k].has_limit = 0;
		pareto_front(front_nolimit, NULL, v, n, objs, m);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(front[i], front_nolimit[i] && feas[i]);

		free(v);
		free(front);
		free(front_nolimit);
		free(feas);
	}
}

/* ---- Under noise ---- */

/* n samples around mean: mean + sd * a fixed zero-mean pattern. */
static void around(double *x, size_t n, double mean, double sd)
{
	static const double pat[] = { -1.2, 0.8, -0.3, 1.1, 0.1, -0.6, 0.4, -0.3 };

	for (size_t i = 0; i < n; i++)
		x[i] = mean + sd * pat[i % 8];
}

static void test_pareto__noisy_separated(void **state)
{
	/* One objective (max): 105 is clearly above 100 at 0.5 noise. */
	const struct pareto_obj obj = { .maximize = 1 };
	double a[5], b[5];
	const double v[] = { 100, 105 };
	struct pareto_samples smp[2] = { { a, NULL, 5 }, { b, NULL, 5 } };
	struct pareto_verdict out[2];
	int noisy = -1;

	around(a, 5, 100, 0.5);
	around(b, 5, 105, 0.5);
	assert_int_equal(pareto_front_noisy(out, &noisy, v, smp, 2, &obj, 1, 0.95), 1);
	assert_int_equal(noisy, 1);
	assert_int_equal(out[0].on_front, 0);
	assert_int_equal(out[1].on_front, 1);
	assert_int_equal(out[1].tied, 0);
	assert_int_equal(out[0].settled, 1);
	assert_int_equal(out[1].settled, 1);
	pareto_verdicts_release(out, 2);
}

static void test_pareto__noisy_tie(void **state)
{
	/* 100.2 against 100 with sd 1 and 3 samples: within noise, so both
	 * stay on the front, 100 tied with 100.2, and neither is settled. */
	const struct pareto_obj obj = { .maximize = 1 };
	double a[3], b[3];
	const double v[] = { 100, 100.2 };
	struct pareto_samples smp[2] = { { a, NULL, 3 }, { b, NULL, 3 } };
	struct pareto_verdict out[2];

	around(a, 3, 100, 1);
	around(b, 3, 100.2, 1);
	assert_int_equal(pareto_front_noisy(out, NULL, v, smp, 2, &obj, 1, 0.95), 2);
	assert_int_equal(out[0].tied, 1);
	assert_int_equal(out[0].ntied, 1);
	assert_int_equal(out[0].tied_with[0], 1);
	assert_int_equal(out[1].tied, 0);
	assert_null(out[1].tied_with);
	assert_int_equal(out[0].settled, 0);
	assert_int_equal(out[1].settled, 0);
	pareto_verdicts_release(out, 2);
	assert_null(out[0].tied_with);
}

static void test_pareto__noisy_with_exact_size(void **state)
{
	/*
	 * throughput (max, noisy, sd 0.4, 6 samples) and size (min, exact):
	 *   0: 100,   50  front: smallest
	 *   1: 110,   60  front: fastest
	 *   2: 105.2, 70  dominated by 1 (faster and smaller)
	 *   3: 100.1, 55  front: bigger than 0, faster within noise
	 *   4:  99.9, 55  front, but tied with 0: slower within noise, bigger
	 */
	const struct pareto_obj objs[] = { { .maximize = 1 }, { .maximize = 0, .exact = 1 } };
	const double v[] = { 100, 50, 110, 60, 105.2, 70, 100.1, 55, 99.9, 55 };
	double t[5][6], sz[5][6];
	struct pareto_samples smp[10];
	struct pareto_verdict out[5];
	int noisy[2];

	for (size_t i = 0; i < 5; i++) {
		around(t[i], 6, v[2 * i], 0.4);
		for (size_t q = 0; q < 6; q++)
			sz[i][q] = v[2 * i + 1];
		smp[2 * i] = (struct pareto_samples){ t[i], NULL, 6 };
		smp[2 * i + 1] = (struct pareto_samples){ sz[i], NULL, 6 };
	}
	assert_int_equal(pareto_front_noisy(out, noisy, v, smp, 5, objs, 2, 0.95), 4);
	assert_int_equal(noisy[0], 1);
	assert_int_equal(noisy[1], 0);
	assert_int_equal(out[0].on_front, 1);
	assert_int_equal(out[1].on_front, 1);
	assert_int_equal(out[2].on_front, 0);
	assert_int_equal(out[3].on_front, 1);
	assert_int_equal(out[3].tied, 0);
	assert_int_equal(out[4].on_front, 1);
	assert_int_equal(out[4].tied, 1);
	assert_int_equal(out[4].tied_with[0], 0);
	/* 1 is settled: everything smaller is significantly slower. 3 and 4
	 * are open: 0 could still come to dominate them. 0 itself cannot be
	 * dominated (it is the smallest), but its samples are still needed to
	 * settle 3 and 4. */
	assert_int_equal(out[1].settled, 1);
	assert_int_equal(out[2].settled, 1);
	assert_int_equal(out[0].settled, 0);
	assert_int_equal(out[3].settled, 0);
	assert_int_equal(out[4].settled, 0);
	pareto_verdicts_release(out, 5);
}

static void test_pareto__noisy_layout_clusters(void **state)
{
	/*
	 * Three layout seeds a side, 4 tight runs each, layout offsets of
	 * +-4: b is 5 above a. Taken as 12 independent samples a side, that
	 * looks certain (t = 3.6); the layout-seed means, the real
	 * replicates, say 3 a side cannot tell (t = 1.5).
	 */
	const struct pareto_obj obj = { .maximize = 1 };
	const double off[] = { 0, 4, -4 };
	double a[12], b[12];
	unsigned cl[12];
	const double v[] = { 100, 105 };
	struct pareto_samples smp[2] = { { a, cl, 12 }, { b, cl, 12 } };
	struct pareto_verdict out[2];

	for (size_t i = 0; i < 12; i++) {
		cl[i] = (unsigned)(i / 4);
		a[i] = 100 + off[i / 4] + 0.05 * (double)(i % 4);
		b[i] = 105 + off[(i / 4 + 1) % 3] + 0.05 * (double)(i % 4);
	}
	assert_int_equal(pareto_front_noisy(out, NULL, v, smp, 2, &obj, 1, 0.95), 2);
	assert_int_equal(out[0].tied, 1);
	pareto_verdicts_release(out, 2);

	smp[0].cluster = smp[1].cluster = NULL;
	assert_int_equal(pareto_front_noisy(out, NULL, v, smp, 2, &obj, 1, 0.95), 1);
	assert_int_equal(out[1].on_front, 1);
	pareto_verdicts_release(out, 2);
}

static void test_pareto__noisy_single_samples_exact(void **state)
{
	/* One sample each: no noise can be estimated, so the values are
	 * compared exactly, as pareto_front() does. */
	const double v[] = { 100, 50, 90, 40, 80, 45 };
	const int want[] = { 1, 1, 0 };
	struct pareto_samples smp[6];
	struct pareto_verdict out[3];
	int noisy[2] = { -1, -1 };

	for (size_t i = 0; i < 6; i++)
		smp[i] = (struct pareto_samples){ &v[i], NULL, 1 };
	assert_int_equal(pareto_front_noisy(out, noisy, v, smp, 3, max_min, 2, 0.95), 2);
	assert_int_equal(noisy[0], 0);
	assert_int_equal(noisy[1], 0);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(out[i].on_front, want[i]);
		assert_int_equal(out[i].settled, 1);
		assert_int_equal(out[i].tied, 0);
	}
	pareto_verdicts_release(out, 3);
}

static void test_pareto__noisy_infeasible(void **state)
{
	/* An infeasible point is settled off the front and dominates none. */
	const struct pareto_obj objs[] = {
		{ .maximize = 1 }, { .maximize = 0, .has_limit = 1, .limit = 60, .exact = 1 },
	};
	const double v[] = { 200, 70, 100, 50 };
	double t0[4], t1[4], s0[4] = { 70, 70, 70, 70 }, s1[4] = { 50, 50, 50, 50 };
	struct pareto_samples smp[4] = { { t0, NULL, 4 }, { s0, NULL, 4 },
					 { t1, NULL, 4 }, { s1, NULL, 4 } };
	struct pareto_verdict out[2];

	around(t0, 4, 200, 1);
	around(t1, 4, 100, 1);
	assert_int_equal(pareto_front_noisy(out, NULL, v, smp, 2, objs, 2, 0.95), 1);
	assert_int_equal(out[0].feasible, 0);
	assert_int_equal(out[0].settled, 1);
	assert_int_equal(out[1].on_front, 1);
	assert_int_equal(out[1].settled, 1);
	pareto_verdicts_release(out, 2);
}

/* With noise far below the gaps between values, the noisy front is the
 * exact one, and every point is settled. */
static void test_pareto__noisy_matches_exact_when_separated(void **state)
{
	struct rng r;

	rng_seed(&r, 77);
	for (int round = 0; round < 100; round++) {
		size_t n = 2 + rng_below(&r, 30), m = 1 + rng_below(&r, 3);
		struct pareto_obj objs[3] = { { 0 } };
		double *v = xmalloc(n * m * sizeof(*v));
		double *x = xmalloc(n * m * 4 * sizeof(*x));
		struct pareto_samples *smp = xmalloc(n * m * sizeof(*smp));
		struct pareto_verdict *out = xmalloc(n * sizeof(*out));
		int *front = xmalloc(n * sizeof(*front));

		for (size_t k = 0; k < m; k++)
			objs[k].maximize = (int)rng_below(&r, 2);
		/* Distinct values per objective: a random permutation. */
		for (size_t k = 0; k < m; k++) {
			for (size_t i = 0; i < n; i++)
				v[i * m + k] = (double)(10 * i);
			for (size_t i = n - 1; i > 0; i--) {
				size_t j = rng_below(&r, i + 1);
				double tmp = v[i * m + k];
				v[i * m + k] = v[j * m + k];
				v[j * m + k] = tmp;
			}
		}
		for (size_t q = 0; q < n * m; q++) {
			around(x + 4 * q, 4, v[q], 0.01);
			smp[q] = (struct pareto_samples){ x + 4 * q, NULL, 4 };
		}
		pareto_front(front, NULL, v, n, objs, m);
		pareto_front_noisy(out, NULL, v, smp, n, objs, m, 0.95);
		for (size_t i = 0; i < n; i++) {
			if (out[i].on_front != front[i])
				fail_msg("round %d point %zu: noisy %d, exact %d", round, i,
					 out[i].on_front, front[i]);
			assert_int_equal(out[i].settled, 1);
			assert_int_equal(out[i].tied, 0);
		}
		pareto_verdicts_release(out, n);
		free(v);
		free(x);
		free(smp);
		free(out);
		free(front);
	}
}

static void test_pareto__hypervolume(void **state)
{
	const double p2[] = { 1, 3, 2, 2, 3, 1 }, r2[] = { 4, 4 };
	const double p2d[] = { 1, 3, 2, 2, 3, 1, 3, 3, 5, 0 }, r3[] = { 2, 3, 4 };
	const double p3[] = { 1, 1, 1 }, q3[] = { 0, 0, 1, 1, 1, 0 }, rq[] = { 2, 2, 2 };
	const double p1[] = { 3, 1, 2 }, r1[] = { 5 };

	(void)state;
	assert_true(fabs(pareto_hypervolume(p2, 3, 2, r2) - 6) < 1e-12);
	/* A dominated point and one outside the box add nothing. */
	assert_true(fabs(pareto_hypervolume(p2d, 5, 2, r2) - 6) < 1e-12);
	assert_true(fabs(pareto_hypervolume(p3, 1, 3, r3) - 6) < 1e-12);
	/* Two boxes of 4 and 2 that share 1. */
	assert_true(fabs(pareto_hypervolume(q3, 2, 3, rq) - 5) < 1e-12);
	assert_true(fabs(pareto_hypervolume(p1, 3, 1, r1) - 4) < 1e-12);
	assert_true(pareto_hypervolume(p1, 0, 1, r1) == 0);
}

static void test_pareto__ranks(void **state)
{
	/* minimised: a=(1,1) dominates b=(2,2) dominates c=(3,3); d=(0,5)
	 * is on the first front; e is infeasible. */
	const double y[] = { 1, 1, 2, 2, 3, 3, 0, 5, 0, 0 };
	const double viol[] = { 0, 0, 0, 0, 1 };
	const double se[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	const double sewide[] = { 1, 1, 1, 1, 0, 0, 0, 0, 0, 0 };
	int rank[5];

	(void)state;
	pareto_rank(rank, y, se, viol, 5, 2);
	assert_int_equal(rank[0], 0);
	assert_int_equal(rank[1], 1);
	assert_int_equal(rank[2], 2);
	assert_int_equal(rank[3], 0);
	assert_int_equal(rank[4], 3);
	/* Within noise (2 sqrt(1 + 1) > 1), a no longer dominates b. */
	pareto_rank(rank, y, sewide, viol, 5, 2);
	assert_int_equal(rank[0], 0);
	assert_int_equal(rank[1], 0);
}

static void test_pareto__hypervolume_gain(void **state)
{
	/* a front of three in 2-D and two in 3-D, each with room for one more */
	double f2[] = { 3, 1, 1, 3, 2, 2, 0, 0 }, r2[] = { 4, 4 };
	double f3[] = { 0, 0, 1, 1, 1, 0, 0, 0, 0 }, r3[] = { 2, 2, 2 };
	const double y2[][2] = { { 1.5, 1.5 }, { 2, 2 }, { 5, 0 }, { 0, 0 } };
	const double y3[][3] = { { 0, 1, 0 }, { 1, 1, 1 }, { 0, 0, 0 } };

	(void)state;
	pareto_hypervolume_order(f2, 3, 2);
	assert_true(f2[0] == 1 && f2[1] == 3 && f2[4] == 3 && f2[5] == 1);
	for (size_t i = 0; i < 4; i++) {
		double with[8], base = pareto_hypervolume(f2, 3, 2, r2);

		memcpy(with, f2, 6 * sizeof(*with));
		memcpy(with + 6, y2[i], sizeof(y2[i]));
		assert_true(fabs(pareto_hypervolume_gain(f2, 3, y2[i], 2, r2, base) -
				 (pareto_hypervolume(with, 4, 2, r2) - base)) < 1e-12);
	}
	/* a point on the front gains nothing; one outside the box nothing */
	assert_true(pareto_hypervolume_gain(f2, 3, y2[1], 2, r2,
					    pareto_hypervolume(f2, 3, 2, r2)) == 0);
	assert_true(pareto_hypervolume_gain(f2, 3, y2[2], 2, r2,
					    pareto_hypervolume(f2, 3, 2, r2)) == 0);
	for (size_t i = 0; i < 3; i++) {
		double base = pareto_hypervolume(f3, 2, 3, r3), with[9];

		memcpy(with, f3, 6 * sizeof(*with));
		memcpy(with + 6, y3[i], sizeof(y3[i]));
		assert_true(fabs(pareto_hypervolume_gain(f3, 2, y3[i], 3, r3, base) -
				 (pareto_hypervolume(with, 3, 3, r3) - base)) < 1e-12);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pareto__two_objectives),
		cmocka_unit_test(test_pareto__direction_matters),
		cmocka_unit_test(test_pareto__three_objectives),
		cmocka_unit_test(test_pareto__ties_all_on_front),
		cmocka_unit_test(test_pareto__nan_infeasible),
		cmocka_unit_test(test_pareto__limits),
		cmocka_unit_test(test_pareto__all_infeasible),
		cmocka_unit_test(test_pareto__single_and_empty),
		cmocka_unit_test(test_pareto__infinities),
		cmocka_unit_test(test_pareto__random_vs_brute_force),
		cmocka_unit_test(test_pareto__noisy_separated),
		cmocka_unit_test(test_pareto__noisy_tie),
		cmocka_unit_test(test_pareto__noisy_with_exact_size),
		cmocka_unit_test(test_pareto__noisy_layout_clusters),
		cmocka_unit_test(test_pareto__noisy_single_samples_exact),
		cmocka_unit_test(test_pareto__noisy_infeasible),
		cmocka_unit_test(test_pareto__noisy_matches_exact_when_separated),
		cmocka_unit_test(test_pareto__hypervolume),
		cmocka_unit_test(test_pareto__ranks),
		cmocka_unit_test(test_pareto__hypervolume_gain),
	};

	return cmocka_run_group_tests_name("pareto", tests, NULL, NULL);
}
