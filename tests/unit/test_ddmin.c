/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for ddmin: delta debugging against oracles with known culprits. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "tuner/ddmin.h"

/* Fails when the subset holds every change of `need`; unresolved when
 * it holds `odd` (if set) without failing. */
struct oracle {
	unsigned long need, odd;
	unsigned calls, sets;
	unsigned abort_after; /* 0: never */
};

static int test_fn(void *ctx, const size_t *const *sets, const size_t *sizes, size_t nsets,
		   enum dd_outcome *results)
{
	struct oracle *o = ctx;

	if (o->abort_after && o->calls >= o->abort_after)
		return -1;
	o->calls++;
	for (size_t i = 0; i < nsets; i++) {
		unsigned long m = 0;

		for (size_t j = 0; j < sizes[i]; j++) {
			if (j)
				assert_true(sets[i][j] > sets[i][j - 1]);
			m |= 1UL << sets[i][j];
		}
		o->sets++;
		if ((m & o->need) == o->need)
			results[i] = DD_FAIL;
		else if (o->odd && (m & o->odd) == o->odd)
			results[i] = DD_UNRESOLVED;
		else
			results[i] = DD_PASS;
	}
	return 0;
}

static unsigned long run(size_t n, struct oracle *o)
{
	size_t *set, k;
	unsigned long m = 0;

	assert_int_equal(ddmin(&set, &k, n, test_fn, o), 0);
	for (size_t i = 0; i < k; i++)
		m |= 1UL << set[i];
	free(set);
	return m;
}

static void test_ddmin__single_culprit(void **state)
{
	(void)state;
	for (size_t n = 1; n <= 20; n++) {
		for (size_t c = 0; c < n; c++) {
			struct oracle o = { .need = 1UL << c };

			assert_int_equal(run(n, &o), 1UL << c);
			/* Binary search: about 2 log2(n) batches, not n. */
			assert_true(o.calls <= 2 * (unsigned)n);
		}
	}
}

static void test_ddmin__two_culprits(void **state)
{
	(void)state;
	for (size_t n = 2; n <= 12; n++)
		for (size_t a = 0; a < n; a++)
			for (size_t b = a + 1; b < n; b++) {
				struct oracle o = { .need = (1UL << a) | (1UL << b) };

				assert_int_equal(run(n, &o), o.need);
			}
}

static void test_ddmin__unresolved_is_not_failing(void **state)
{
	/* 8 changes, culprits 2 and 5; subsets holding 2 alone are
	 * unresolved. Still the pair. */
	struct oracle o = { .need = (1UL << 2) | (1UL << 5), .odd = 1UL << 2 };

	(void)state;
	assert_int_equal(run(8, &o), o.need);
}

static void test_ddmin__abort(void **state)
{
	struct oracle o = { .need = 1UL << 3, .abort_after = 1 };
	size_t *set = (size_t *)&o, k = 7;

	(void)state;
	assert_int_equal(ddmin(&set, &k, 8, test_fn, &o), -1);
	assert_null(set);
	assert_int_equal(k, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ddmin__single_culprit),
		cmocka_unit_test(test_ddmin__two_culprits),
		cmocka_unit_test(test_ddmin__unresolved_is_not_failing),
		cmocka_unit_test(test_ddmin__abort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
