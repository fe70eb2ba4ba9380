/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for search: orders, budgets, determinism, huge spaces. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "search/search.h"
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

/* The number of the configuration of pick (mixed radix, last dimension
 * fastest), in a space below 2^64. */
static uint64_t pick_index(const struct space *s, const size_t *pick)
{
	uint64_t idx = 0;

	for (size_t d = 0; d < s->ndims; d++) {
		assert_true(pick[d] < s->dims[d].nvalues);
		idx = idx * s->dims[d].nvalues + pick[d];
	}
	return idx;
}

/* Runs a strategy to the end (at most max proposals) and gives the
 * configurations' numbers; returns the count. */
static size_t drain(uint64_t *out, size_t max, const char *name,
		    const struct space *s, uint64_t budget, uint64_t seed)
{
	const struct search_ops *ops = search_find(name);
	size_t *pick = xcalloc(s->ndims + 1, sizeof(*pick));
	void *st = NULL;
	size_t n = 0;

	assert_non_null(ops);
	assert_int_equal(ops->init(&st, s, budget, seed), 0);
	while (ops->next(st, pick)) {
		if (n == max)
			fail_msg("%s proposed more than %zu", name, max);
		out[n++] = pick_index(s, pick);
	}
	/* Done stays done. */
	assert_int_equal(ops->next(st, pick), 0);
	ops->free(st);
	free(pick);
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
		size_t pick[10];

		assert_int_equal(ops->next(st, pick), 1);
		assert_int_equal(pick_index(&s, pick), i);
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

/* The first of a strategy's proposals (at most 6) are these numbers. */
static void expect_first(const char *name, const struct space *s, uint64_t budget,
			 uint64_t seed, size_t count, const uint64_t *want, size_t nwant)
{
	uint64_t got[1000];

	assert_int_equal(drain(got, ARRAY_SIZE(got), name, s, budget, seed), count);
	for (size_t i = 0; i < nwant; i++)
		if (got[i] != want[i])
			fail_msg("%s budget %llu seed %llu: proposal %zu is %llu, was %llu", name,
				 (unsigned long long)budget, (unsigned long long)seed, i,
				 (unsigned long long)got[i], (unsigned long long)want[i]);
}

static void test_search__orders_kept(void **state)
{
	/*
	 * Below 2^64 configurations a seed picks what it picked before
	 * configurations were proposed as picks (the numbers the previous
	 * search.c proposed): each of the shuffle, Floyd's sample and the
	 * in-order walk, and a space of 2^63.
	 */
	static const uint64_t shuffle[] = { 557, 767, 392, 987, 963, 597 };
	static const uint64_t floyd[] = { 440, 92, 379, 826, 277 };
	static const uint64_t big[] = { 7003446288ULL, 1129461925ULL, 8513137372ULL,
					888448241ULL, 472837839ULL, 7525338481ULL };
	static const uint64_t wide[] = { 3393508150821712389ULL, 1884871951439679575ULL,
					 4572066645144070206ULL, 4353188321398943952ULL,
					 4160059705436001677ULL };
	struct space s = SPACE_INIT;

	make_space(&s, 3, 10);
	expect_first("random", &s, 0, 1, 1000, shuffle, ARRAY_SIZE(shuffle));
	expect_first("random", &s, 5, 3, 5, floyd, ARRAY_SIZE(floyd));
	space_release(&s);
	make_space(&s, 10, 10);
	expect_first("exhaustive", &s, 20, 1, 20, big, ARRAY_SIZE(big));
	space_release(&s);
	make_space(&s, 63, 2);
	expect_first("random", &s, 5, 2, 5, wide, ARRAY_SIZE(wide));
	space_release(&s);
}

/* Draws budget picks of name over s (beyond 2^64) into picks[budget][ndims];
 * checks they differ and, with all, that every value of every dimension
 * came up. */
static void drain_picks(size_t *picks, const char *name, const struct space *s,
			uint64_t budget, uint64_t seed, int all)
{
	const struct search_ops *ops = search_find(name);
	size_t nd = s->ndims, n = 0;
	void *st = NULL;

	assert_int_equal(ops->init(&st, s, budget, seed), 0);
	while (ops->next(st, picks + n * nd)) {
		assert_true(n < budget);
		n++;
	}
	assert_int_equal(n, budget);
	ops->free(st);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (!memcmp(picks + i * nd, picks + j * nd, nd * sizeof(*picks)))
				fail_msg("%s proposed one configuration twice (%zu and %zu)", name,
					 j, i);
	for (size_t d = 0; d < nd && all; d++) {
		for (size_t v = 0; v < s->dims[d].nvalues; v++) {
			size_t i;

			for (i = 0; i < n && picks[i * nd + d] != v; i++)
				;
			if (i == n)
				fail_msg("%s: dimension %zu never took value %zu in %zu", name, d,
					 v, n);
		}
	}
}

static void test_search__beyond_2_64(void **state)
{
	/* 2^70 configurations: a 64-bit number would leave the first six
	 * dimensions at their first value. */
	struct space s = SPACE_INIT;
	const size_t nd = 70, budget = 50;
	size_t *a = xcalloc(budget * nd, sizeof(*a)), *b = xcalloc(budget * nd, sizeof(*b));
	void *st = (void *)&s;

	make_space(&s, nd, 2);
	assert_int_equal(space_beyond_u64(&s), 1);
	drain_picks(a, "random", &s, budget, 1, 1);
	/* Same seed, same picks; another, others. */
	drain_picks(b, "random", &s, budget, 1, 1);
	assert_memory_equal(a, b, budget * nd * sizeof(*a));
	drain_picks(b, "random", &s, budget, 2, 1);
	assert_memory_not_equal(a, b, budget * nd * sizeof(*a));
	/* Exhaustive with a budget: a sample too. */
	drain_picks(b, "exhaustive", &s, budget, 1, 1);

	/* The whole space cannot be proposed: a budget is needed. */
	assert_int_equal(search_find("exhaustive")->init(&st, &s, 0, 1), -1);
	assert_null(st);
	assert_non_null(strstr(tn_errmsg(), "1180591620717411303424"));
	assert_non_null(strstr(tn_errmsg(), "budget"));
	assert_int_equal(search_find("random")->init(&st, &s, SEARCH_MAX_RANDOM + 1, 1), -1);
	assert_non_null(strstr(tn_errmsg(), "budget of at most"));
	space_release(&s);

	/* Wider dimensions; budget 1. */
	make_space(&s, 30, 5); /* 5^30, about 9.3e20 */
	assert_int_equal(space_beyond_u64(&s), 1);
	drain_picks(b, "random", &s, 50, 7, 1);
	drain_picks(b, "random", &s, 1, 7, 0);
	space_release(&s);
	free(a);
	free(b);
}

/* Picks whose packed form straddles words (3 bits a dimension, a
 * dimension of one value in none), many of them. */
static void test_search__draws_packed(void **state)
{
	struct space s = SPACE_INIT;
	const char *one[] = { "-fx" };
	const char *many[] = { "a", "b", "c", "d", "e", "f", "g", "h" };
	size_t *picks = xcalloc(1000 * 24, sizeof(*picks));

	/* 8^22 x 1 x 2 = 2^67 */
	make_space(&s, 22, 8);
	assert_int_equal(space_add_dimension(&s, "one", one, 1), 0);
	assert_int_equal(space_add_dimension(&s, "two", many, 2), 0);
	drain_picks(picks, "random", &s, 1000, 5, 1);
	space_release(&s);
	free(picks);
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
		cmocka_unit_test(test_search__orders_kept),
		cmocka_unit_test(test_search__beyond_2_64),
		cmocka_unit_test(test_search__draws_packed),
	};

	return cmocka_run_group_tests_name("search", tests, NULL, NULL);
}
