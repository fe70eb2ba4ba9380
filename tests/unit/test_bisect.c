/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for bisect: the search against an oracle that knows the
 * first bad commit, on lines, with unchanged and skipped commits, and on a
 * graph with merges; and the classification rule.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/bisect.h"
#include "tuner/util.h"

/* A range of n commits; parents[i] lists up to 2 parents (-1: none,
 * -2: outside the range). */
static void make_range(struct gitsrc_range *r, size_t n, const int (*parents)[2],
		       const int *unchanged)
{
	memset(r, 0, sizeof(*r));
	r->n = n;
	r->commits = xcalloc(n, sizeof(*r->commits));
	for (size_t i = 0; i < n; i++) {
		struct gitsrc_commit *c = &r->commits[i];

		c->parents = xcalloc(2, sizeof(*c->parents));
		for (int k = 0; k < 2; k++) {
			int p = parents ? parents[i][k] : k == 0 ? (int)i - 1 : -1;
			if (p == -1 || (p < 0 && k > 0))
				continue;
			c->parents[c->nparents++] = p < 0 ? GITSRC_OUTSIDE : (size_t)p;
		}
		c->unchanged = unchanged ? unchanged[i] : 0;
	}
}

static void free_range(struct gitsrc_range *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->commits[i].parents);
	free(r->commits);
}

/* Runs the search with an oracle: commit i is bad iff bad[i]; commits
 * with skip[i] cannot be measured. Returns the measured count; *left gets
 * the candidates at the end (room for n). */
static size_t search(size_t *left, size_t *nleft, const struct gitsrc_range *r,
		     const int *bad, const int *skip)
{
	struct bisect b = BISECT_INIT;
	size_t m, steps = 0;

	assert_int_equal(bisect_init(&b, r), 0);
	while (bisect_next(&b, &m, NULL)) {
		/* Never an unchanged commit, never twice. */
		assert_false(r->commits[m].unchanged);
		assert_int_equal(b.mark[m], BISECT_UNKNOWN);
		steps++;
		assert_true(steps <= r->n);
		if (skip && skip[m])
			bisect_set(&b, m, BISECT_SKIP);
		else
			bisect_set(&b, m, bad[m] ? BISECT_BAD : BISECT_GOOD);
	}
	*nleft = bisect_candidates(&b, left);
	bisect_release(&b);
	return steps;
}

static void test_bisect__line(void **state)
{
	struct gitsrc_range r;
	size_t n = 31, left[31], nleft, worst = 0;
	int bad[31];

	/* Commit 0's parent is good (outside). */
	make_range(&r, n, NULL, NULL);
	r.commits[0].parents[0] = GITSRC_OUTSIDE;
	r.commits[0].nparents = 1;
	for (size_t t = 0; t < n; t++) {
		size_t steps;

		for (size_t i = 0; i < n; i++)
			bad[i] = i >= t;
		steps = search(left, &nleft, &r, bad, NULL);
		assert_int_equal(nleft, 1);
		assert_int_equal(left[0], t);
		if (steps > worst)
			worst = steps;
	}
	/* Binary search: ceil(log2(31)) = 5 measured commits at most. */
	assert_int_equal(worst, 5);
	free_range(&r);
}

static void test_bisect__first_pick_halves(void **state)
{
	struct gitsrc_range r;
	struct bisect b = BISECT_INIT;
	size_t m, below;

	make_range(&r, 30, NULL, NULL);
	assert_int_equal(bisect_init(&b, &r), 0);
	assert_int_equal(bisect_next(&b, &m, &below), 1);
	assert_int_equal(m, 14);
	assert_int_equal(below, 15);
	bisect_set(&b, m, BISECT_GOOD);
	assert_int_equal(bisect_next(&b, &m, &below), 1);
	assert_int_equal(m, 21);
	bisect_release(&b);
	free_range(&r);
}

static void test_bisect__unchanged(void **state)
{
	struct gitsrc_range r;
	size_t n = 12, left[12], nleft;
	/* 3, 4, 8 and the last commit changed nothing below the path. */
	int unchanged[12] = { 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
	int bad[12];

	make_range(&r, n, NULL, unchanged);
	for (size_t t = 0; t < n; t++) {
		if (unchanged[t])
			continue;
		for (size_t i = 0; i < n; i++)
			bad[i] = i >= t;
		search(left, &nleft, &r, bad, NULL);
		assert_int_equal(nleft, 1);
		assert_int_equal(left[0], t);
	}
	free_range(&r);
}

static void test_bisect__skip(void **state)
{
	struct gitsrc_range r;
	size_t left[16], nleft;
	int bad[16], skip[16] = { 0 };

	make_range(&r, 16, NULL, NULL);
	for (size_t i = 0; i < 16; i++)
		bad[i] = i >= 9;
	/* The first bad commit and the one before cannot be built: the
	 * answer is one of 8, 9 and the lowest bad, 10. */
	skip[8] = skip[9] = 1;
	search(left, &nleft, &r, bad, skip);
	assert_int_equal(nleft, 3);
	assert_int_equal(left[0], 8);
	assert_int_equal(left[1], 9);
	assert_int_equal(left[2], 10);
	/* A skipped commit away from the answer costs nothing. */
	memset(skip, 0, sizeof(skip));
	skip[3] = 1;
	search(left, &nleft, &r, bad, skip);
	assert_int_equal(nleft, 1);
	assert_int_equal(left[0], 9);
	free_range(&r);
}

/*
 *   0 - 1 - 2 ----- 5 - 6
 *    \             /
 *     3 - 4 ------'
 * (5 merges 2 and 4.) Every commit in turn is the first bad one: its
 * descendants are bad.
 */
static void test_bisect__merges(void **state)
{
	static const int parents[7][2] = { { -2, -1 }, { 0, -1 }, { 1, -1 }, { 0, -1 },
					   { 3, -1 }, { 2, 4 }, { 5, -1 } };
	struct gitsrc_range r;
	struct bisect b = BISECT_INIT;
	size_t left[7], nleft;
	int bad[7];

	make_range(&r, 7, parents, NULL);
	assert_int_equal(bisect_init(&b, &r), 0);
	for (size_t t = 0; t < 7; t++) {
		const uint64_t *a;

		for (size_t i = 0; i < 7; i++) {
			a = b.anc + i * b.words;
			bad[i] = (a[0] >> t) & 1;
		}
		search(left, &nleft, &r, bad, NULL);
		assert_int_equal(nleft, 1);
		assert_int_equal(left[0], t);
	}
	/* The ancestors of the merge are all but 6. */
	assert_int_equal(b.anc[5 * b.words], 0x3f);
	bisect_release(&b);
	free_range(&r);
}

static void test_bisect__bad_unchanged(void **state)
{
	struct gitsrc_range r;
	struct bisect b = BISECT_INIT;
	int unchanged[5] = { 0, 0, 0, 1, 1 };
	size_t left[5];

	/* The last two commits changed nothing: commit 2 stands for bad. */
	make_range(&r, 5, NULL, unchanged);
	assert_int_equal(bisect_init(&b, &r), 0);
	assert_int_equal(b.bad, 2);
	assert_int_equal(bisect_candidates(&b, left), 3);
	bisect_release(&b);
	free_range(&r);
}

static void test_bisect__errors(void **state)
{
	struct gitsrc_range r;
	struct bisect b = BISECT_INIT;

	make_range(&r, 0, NULL, NULL);
	assert_int_equal(bisect_init(&b, &r), -1);
	assert_non_null(strstr(tn_errmsg(), "no commits"));
	r.n = BISECT_MAX_COMMITS + 1;
	assert_int_equal(bisect_init(&b, &r), -1);
	assert_non_null(strstr(tn_errmsg(), "first parents"));
	assert_null(b.anc);
	free(r.commits);
}

/* Shorthand: a judgement that is (s)trict, (w)eak (0.05 only) or none. */
#define J(v, strict) ((const int[2]){ (v), (strict) ? (v) : 0 })

static void test_bisect__classify(void **state)
{
	const char *why;

	for (int d = -1; d <= 1; d += 2) {
		assert_int_equal(bisect_classify(&why, J(d, 1), J(0, 0), d), BISECT_BAD);
		assert_null(why);
		assert_int_equal(bisect_classify(&why, J(0, 0), J(-d, 1), d), BISECT_GOOD);
		assert_null(why);
		/* A weak difference from the other endpoint is no contradiction. */
		assert_int_equal(bisect_classify(&why, J(d, 1), J(-d, 0), d), BISECT_BAD);
		assert_int_equal(bisect_classify(&why, J(d, 0), J(-d, 1), d), BISECT_GOOD);
		assert_int_equal(bisect_classify(&why, J(d, 0), J(d, 0), d), BISECT_BAD);
		/* A strict one is. */
		assert_int_equal(bisect_classify(&why, J(d, 1), J(-d, 1), d), BISECT_UNKNOWN);
		assert_non_null(strstr(why, "between"));
		/* Weak both ways: either would do, so neither is said. */
		assert_int_equal(bisect_classify(&why, J(d, 0), J(-d, 0), d), BISECT_UNKNOWN);
		assert_non_null(strstr(why, "between"));
		assert_int_equal(bisect_classify(&why, J(0, 0), J(0, 0), d), BISECT_UNKNOWN);
		assert_non_null(strstr(why, "neither"));
		/* Beyond bad, or better than good. */
		assert_int_equal(bisect_classify(&why, J(d, 1), J(d, 1), d), BISECT_UNKNOWN);
		assert_non_null(strstr(why, "outside"));
		assert_int_equal(bisect_classify(&why, J(-d, 1), J(0, 0), d), BISECT_UNKNOWN);
		assert_non_null(strstr(why, "outside"));
		assert_int_equal(bisect_classify(&why, J(0, 0), J(d, 1), d), BISECT_UNKNOWN);
		assert_non_null(strstr(why, "outside"));
	}
}

static void test_bisect__alphas(void **state)
{
	struct bisect_alpha a;

	bisect_alphas(&a, 0, 1);
	assert_true(fabs(a.differ - 0.05) < 1e-12);
	assert_true(fabs(a.contradict - 0.05) < 1e-12);
	bisect_alphas(&a, 1, 0);
	assert_true(fabs(a.contradict - 0.05) < 1e-12);
	bisect_alphas(&a, 3, 2);
	assert_true(fabs(a.differ - 0.025) < 1e-12);
	assert_true(fabs(a.contradict - 0.0125) < 1e-12);
	/* 25 candidates: 5 steps; K 4, 8, 16, 32: 4 looks. */
	bisect_alphas(&a, 25, 4);
	assert_true(fabs(a.differ - 0.01) < 1e-12);
	assert_true(fabs(a.contradict - 0.0025) < 1e-12);
	bisect_alphas(&a, 31, 1);
	assert_true(fabs(a.differ - 0.01) < 1e-12);
	bisect_alphas(&a, 32, 1);
	assert_true(fabs(a.differ - 0.05 / 6) < 1e-12);
	bisect_alphas(&a, 1000, 1);
	assert_true(fabs(a.differ - 0.005) < 1e-12);
}

static void test_bisect__plan(void **state)
{
	/* stats.h: about 16 (sd / d)^2 + 2 seeds for 80% power at 0.05. */
	assert_int_equal(bisect_plan_layout(0.03, 0.02, 0.05, 0.8, 0), 9);
	assert_int_equal(bisect_plan_layout(-0.03, 0.02, 0.05, 0.8, 0), 9);
	assert_int_equal(bisect_plan_layout(0.02, 0.02, 0.05, 0.8, 0), 18);
	/* More power, a smaller alpha: more seeds; a big change: few. */
	assert_true(bisect_plan_layout(0.03, 0.02, 0.01, 0.9, 0) > 9);
	assert_int_equal(bisect_plan_layout(0.25, 0.02, 0.05, 0.9, 0), 3);
	assert_int_equal(bisect_plan_layout(1, 0, 0.05, 0.9, 0), 2);
	assert_int_equal(bisect_plan_layout(0, 0.02, 0.05, 0.9, 0), UINT32_MAX);
	assert_int_equal(bisect_plan_layout(NAN, 0.02, 0.05, 0.9, 0), UINT32_MAX);
	/* A better-known other side: fewer seeds here, down to what it alone
	 * allows; when it alone is too few, none suffice. */
	assert_true(bisect_plan_layout(0.03, 0.02, 0.05, 0.8, 9) <= 9);
	assert_true(bisect_plan_layout(0.03, 0.02, 0.05, 0.8, 64) < 9);
	assert_true(bisect_plan_layout(0.03, 0.02, 0.05, 0.8, 64) >= 5);
	assert_int_equal(bisect_plan_layout(0.03, 0.02, 0.05, 0.8, 3), UINT32_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bisect__line),
		cmocka_unit_test(test_bisect__first_pick_halves),
		cmocka_unit_test(test_bisect__unchanged),
		cmocka_unit_test(test_bisect__skip),
		cmocka_unit_test(test_bisect__merges),
		cmocka_unit_test(test_bisect__bad_unchanged),
		cmocka_unit_test(test_bisect__errors),
		cmocka_unit_test(test_bisect__classify),
		cmocka_unit_test(test_bisect__alphas),
		cmocka_unit_test(test_bisect__plan),
	};

	return cmocka_run_group_tests_name("bisect", tests, NULL, NULL);
}
