/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for search: orders, budgets, determinism, huge spaces. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tuner/search.h"
#include "tuner/space.h"
#include "tuner/util.h"

/* A space of ndims dimensions of nvalues values each ("-fd<i>v<j>"). */
static void make_space(struct space *s, size_t ndims, size_t nvalues)
{
	char **values = xcalloc(nvalues, sizeof(*values));

	for (size_t d = 0; d < ndims; d++) {
		char name[32];

		snprintf(name, sizeof(name), "d%zu", d);
		for (size_t v = 0; v < nvalues; v++)
			values[v] = xasprintf("-fd%zuv%zu", d, v);
		assert_int_equal(space_add_dimension(s, name,
				(const char *const *)values, nvalues), 0);
		for (size_t v = 0; v < nvalues; v++)
			free(values[v]);
	}
	free(values);
}

/* Runs a strategy to the end (at most max proposals); returns the count. */
static size_t drain(uint64_t *out, size_t max, const char *name,
		    const struct space *s, uint64_t budget, uint64_t seed)
{
	const struct search_ops *ops = search_find(name);
	void *st = NULL;
	uint64_t idx;
	size_t n = 0;

	assert_non_null(ops);
	assert_int_equal(ops->init(&st, s, budget, seed), 0);
	while (ops->next(st, &idx)) {
		if (n == max)
			fail_msg("%s proposed more than %zu", name, max);
		out[n++] = idx;
	}
	/* Done stays done. */
	assert_int_equal(ops->next(st, &idx), 0);
	ops->free(st);
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Every index below size, none twice. */
static void check_distinct(const uint64_t *idx, size_t n, uint64_t size)
{
	uint64_t *sorted = xmalloc((n ? n : 1) * sizeof(*sorted));

	memcpy(sorted, idx, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	for (size_t i = 0; i < n; i++) {
		if (sorted[i] >= size)
			fail_msg("index %llu outside a space of %llu",
				 (unsigned long long)sorted[i],
				 (unsigned long long)size);
		if (i && sorted[i] == sorted[i - 1])
			fail_msg("index %llu proposed twice",
				 (unsigned long long)sorted[i]);
	}
	free(sorted);
}

static void test_search__find(void **state)
{
	assert_non_null(search_find("exhaustive"));
	assert_non_null(search_find("random"));
	assert_string_equal(search_find("random")->name, "random");
	assert_null(search_find("nope"));
	assert_null(search_find(""));
	assert_non_null(strstr(search_names(), "exhaustive"));
	assert_non_null(strstr(search_names(), "random"));
}

static void test_search__exhaustive_in_order(void **state)
{
	struct space s = SPACE_INIT;
	const uint64_t budgets[] = { 0, 24, 25, 1000 };
	uint64_t idx[32];

	/* 3 x 2 x 4 = 24 */
	{
		const char *a[] = { "-O2", "-Os", "-O3" };
		const char *b[] = { "", "-fno-tree-ch" };
		const char *c[] = { "", "-falign-functions=16",
				    "-falign-functions=32", "-falign-functions=64" };

		assert_int_equal(space_add_dimension(&s, "opt", a, 3), 0);
		assert_int_equal(space_add_dimension(&s, "ch", b, 2), 0);
		assert_int_equal(space_add_dimension(&s, "align", c, 4), 0);
	}
	for (size_t k = 0; k < ARRAY_SIZE(budgets); k++) {
		size_t n = drain(idx, ARRAY_SIZE(idx), "exhaustive", &s, budgets[k], 7);

		assert_int_equal(n, 24);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(idx[i], i);
	}
	space_release(&s);
}

static void test_search__exhaustive_budget_subset(void **state)
{
	struct space s = SPACE_INIT;
	uint64_t a[16], b[16];
	size_t n;

	make_space(&s, 2, 10); /* 100 */
	n = drain(a, ARRAY_SIZE(a), "exhaustive", &s, 10, 1);
	assert_int_equal(n, 10);
	check_distinct(a, n, 100);
	/* A uniform sample, not the first ten in order. */
	for (n = 0; n < 10 && a[n] == n; n++)
		;
	assert_true(n < 10);
	/* Same seed, same sample. */
	assert_int_equal(drain(b, ARRAY_SIZE(b), "exhaustive", &s, 10, 1), 10);
	assert_memory_equal(a, b, sizeof(*a) * 10);
	space_release(&s);
}

static void test_search__random_covers_all(void **state)
{
	struct space s = SPACE_INIT;
	uint64_t idx[300];
	size_t n, in_place = 0;

	make_space(&s, 1, 6);
	{
		const char *v[] = { "a", "b", "c", "d", "e" };
		const char *w[] = { "x", "y", "z", "w", "u", "t", "s", "r", "q", "p" };

		assert_int_equal(space_add_dimension(&s, "v", v, 5), 0);
		assert_int_equal(space_add_dimension(&s, "w", w, 10), 0);
	}
	/* 6 x 5 x 10 = 300, every one exactly once, shuffled. */
	n = drain(idx, ARRAY_SIZE(idx), "random", &s, 0, 42);
	assert_int_equal(n, 300);
	check_distinct(idx, n, 300);
	for (size_t i = 0; i < n; i++)
		in_place += idx[i] == i;
	assert_true(in_place < 20); /* about 1 expected */

	/* A budget above the space is the whole space. */
	assert_int_equal(drain(idx, ARRAY_SIZE(idx), "random", &s, 5000, 42), 300);
	check_distinct(idx, 300, 300);
	space_release(&s);
}

static void test_search__seeds(void **state)
{
	struct space s = SPACE_INIT;
	uint64_t a[1000], b[1000];
	const uint64_t budgets[] = { 0, 5, 100, 999 };

	make_space(&s, 3, 10); /* 1000: both the shuffle and Floyd paths */
	for (size_t k = 0; k < ARRAY_SIZE(budgets); k++) {
		size_t n = drain(a, 1000, "random", &s, budgets[k], 3);
		size_t m = drain(b, 1000, "random", &s, budgets[k], 3);

		assert_int_equal(n, budgets[k] ? budgets[k] : 1000);
		assert_int_equal(m, n);
		check_distinct(a, n, 1000);
		assert_memory_equal(a, b, n * sizeof(*a));

		assert_int_equal(drain(b, 1000, "random", &s, budgets[k], 4), n);
		check_distinct(b, n, 1000);
		assert_memory_not_equal(a, b, n * sizeof(*a));
	}
	space_release(&s);
}

static void test_search__huge_space(void **state)
{
	struct space s = SPACE_INIT;
	const struct search_ops *ops = search_find("random");
	uint64_t *a = xmalloc(1000 * sizeof(*a));
	uint64_t *b = xmalloc(1000 * sizeof(*b));
	void *st = NULL;
	double t0;
	size_t n;

	make_space(&s, 10, 10); /* 1e10 */
	assert_int_equal(space_size(&s), 10000000000ULL);

	t0 = now_seconds();
	n = drain(a, 1000, "random", &s, 1000, 99);
	assert_int_equal(n, 1000);
	check_distinct(a, n, 10000000000ULL);
	/* Milliseconds of work; the bound only catches listing the space. */
	assert_true(now_seconds() - t0 < 10);
	assert_int_equal(drain(b, 1000, "exhaustive", &s, 1000, 99), 1000);
	check_distinct(b, n, 10000000000ULL);

	/* Indices spread over the whole range, not clustered at one end. */
	{
		int low = 0, high = 0;

		for (size_t i = 0; i < n; i++) {
			low += a[i] < 5000000000ULL;
			high += a[i] >= 5000000000ULL;
		}
		assert_true(low > 300 && high > 300);
	}

	/* Every one of 1e10 in random order cannot be listed: an error, not
	 * an allocation of 80 GB. */
	assert_int_equal(ops->init(&st, &s, 0, 1), -1);
	assert_null(st);
	assert_non_null(strstr(tn_errmsg(), "budget"));

	/* Exhaustive needs no memory for it: in order. */
	ops = search_find("exhaustive");
	assert_int_equal(ops->init(&st, &s, 0, 1), 0);
	for (uint64_t i = 0; i < 5; i++) {
		uint64_t idx;

		assert_int_equal(ops->next(st, &idx), 1);
		assert_int_equal(idx, i);
	}
	ops->free(st);

	space_release(&s);
	free(a);
	free(b);
}

static void test_search__beyond_shuffle(void **state)
{
	/* 126^3 = 2000376 configurations: too many to shuffle in place, few
	 * enough to sample whole with Floyd's algorithm. */
	struct space s = SPACE_INIT;
	const size_t n = 2000376;
	uint64_t *idx = xmalloc(n * sizeof(*idx));

	make_space(&s, 3, 126);
	assert_int_equal(space_size(&s), n);
	assert_int_equal(drain(idx, n, "random", &s, 0, 11), n);
	check_distinct(idx, n, n);
	space_release(&s);
	free(idx);
}

static void test_search__uniform(void **state)
{
	/*
	 * Over many seeds, each of 100 configurations should come first
	 * about equally often. Floyd's sample unshuffled would never put
	 * 96..99 first with a budget of 5 (its first pick is from 0..95);
	 * membership must be uniform too. Deterministic seeds: no flakes.
	 */
	struct space s = SPACE_INIT;
	int first[10] = { 0 }, member[10] = { 0 };
	const int trials = 20000;
	uint64_t idx[5];

	make_space(&s, 2, 10);
	for (int t = 0; t < trials; t++) {
		assert_int_equal(drain(idx, 5, "random", &s, 5, (uint64_t)t), 5);
		first[idx[0] / 10]++;
		for (size_t i = 0; i < 5; i++)
			member[idx[i] / 10]++;
	}
	for (size_t d = 0; d < 10; d++) {
		/* expected 2000 (sd 42) and 10000 (sd ~95) */
		if (first[d] < 1700 || first[d] > 2300)
			fail_msg("decile %zu came first %d times of %d", d, first[d], trials);
		if (member[d] < 9400 || member[d] > 10600)
			fail_msg("decile %zu sampled %d times", d, member[d]);
	}
	space_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_search__find),
		cmocka_unit_test(test_search__exhaustive_in_order),
		cmocka_unit_test(test_search__exhaustive_budget_subset),
		cmocka_unit_test(test_search__random_covers_all),
		cmocka_unit_test(test_search__seeds),
		cmocka_unit_test(test_search__huge_space),
		cmocka_unit_test(test_search__beyond_shuffle),
		cmocka_unit_test(test_search__uniform),
	};

	return cmocka_run_group_tests_name("search", tests, NULL, NULL);
}
