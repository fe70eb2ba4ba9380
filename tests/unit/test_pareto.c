/* Unit tests for pareto: hand-made fronts and a randomized cross-check. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/pareto.h"
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
	};

	return cmocka_run_group_tests_name("pareto", tests, NULL, NULL);
}
