/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for defaults: hand-made targets with known regrets. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/defaults.h"
#include "tuner/util.h"

#define CLOSE(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/*
 * Two routers, throughput (max):
 *   c0 -O2                       A 100  B 100
 *   c1 -O2 -fno-reorder-blocks   A 114  B  84
 *   c2 -Os                       A  95  B  97
 *   c3 -O2 -fy                   A 120 (over A's limit)  B 101
 *   c4 -O3 (A only)              A  90
 *   c5 -O1 (failed on B)         A  80  B  NaN
 * A's best: c1 (c3 is over the limit); B's best: c3.
 */
static struct defaults_config a_cfg[] = {
	{ "c0", "-O2", 0, 1, 100, 1 },
	{ "c1", "-O2 -fno-reorder-blocks", 0, 1, 114, 1 },
	{ "c2", "-Os", 0, 1, 95, 1 },
	{ "c3", "-O2 -fy", 0, 0, 120, 1 },
	{ "c4", "-O3", 0, 1, 90, 1 },
	{ "c5", "-O1", 0, 1, 80, 1 },
};
static struct defaults_config b_cfg[] = {
	{ "c3", "-O2 -fy", 0, 1, 101, 2 },
	{ "c2", "-Os", 0, 1, 97, 0 },
	{ "c1", "-O2 -fno-reorder-blocks", 0, 1, 84, 0 },
	{ "c0", "-O2", 0, 1, 100, 0 },
	{ "c5", "-O1", 0, 0, NAN, NAN },
};

static const struct defaults_row *row(const struct defaults *d, const char *id)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (!strcmp(d->rows[i].id, id))
			return &d->rows[i];
	fail_msg("no row %s", id);
	return NULL;
}

static void two_targets(struct defaults_target t[2])
{
	t[0] = (struct defaults_target){ "A", 1, a_cfg, ARRAY_SIZE(a_cfg) };
	t[1] = (struct defaults_target){ "B", 1, b_cfg, ARRAY_SIZE(b_cfg) };
}

static void test_defaults__regret_table_and_verdict(void **state)
{
	struct defaults_target t[2];
	struct defaults d;
	const struct defaults_row *r;
	char *v;

	two_targets(t);
	defaults_compute(&d, t, 2);
	assert_int_equal(d.ntargets, 2);
	assert_int_equal(d.best[0], 1);  /* c1, not c3: over the limit */
	assert_int_equal(d.best[1], 0);  /* c3 */
	assert_int_equal(d.nrows, 6);
	/* Candidates: c0, c2, c1 (c3 over A's limit, c4 not on B, c5 failed
	 * on B), by worst regret: 12.3% on A, 16.7% on A, 16.8% on B. */
	assert_string_equal(d.rows[0].id, "c0");
	assert_string_equal(d.rows[1].id, "c2");
	assert_string_equal(d.rows[2].id, "c1");
	for (size_t i = 0; i < 3; i++)
		assert_true(d.rows[i].candidate);
	for (size_t i = 3; i < 6; i++)
		assert_false(d.rows[i].candidate);
	assert_int_equal(d.common, 0);

	r = row(&d, "c0");
	CLOSE(r->cells[0].regret, 14.0 / 114);
	CLOSE(r->cells[1].regret, 1.0 / 101);
	CLOSE(r->worst, 14.0 / 114);
	assert_int_equal(r->worst_target, 0);
	CLOSE(r->mean, (14.0 / 114 + 1.0 / 101) / 2);
	/* se_r = sqrt(se_v^2 + (v/b)^2 se_b^2) / |b| on A: both se 1. */
	CLOSE(r->cells[0].hi - r->cells[0].regret,
	      1.959963985 * sqrt(1 + (100.0 / 114) * (100.0 / 114)) / 114);
	/* The best itself: 0, exactly. */
	r = row(&d, "c1");
	CLOSE(r->cells[0].regret, 0);
	CLOSE(r->cells[0].lo, 0);
	CLOSE(r->cells[0].hi, 0);
	CLOSE(r->cells[1].regret, 17.0 / 101);
	r = row(&d, "c2");
	CLOSE(r->worst, 19.0 / 114);

	/* Not candidates, and why. */
	assert_int_equal(row(&d, "c3")->cells[0].state, DEFAULTS_INFEASIBLE);
	CLOSE(row(&d, "c3")->cells[1].regret, 0);
	assert_int_equal(row(&d, "c4")->cells[1].state, DEFAULTS_MISSING);
	assert_int_equal(row(&d, "c5")->cells[1].state, DEFAULTS_UNKNOWN);
	assert_true(isnan(row(&d, "c4")->worst));

	v = defaults_verdict(&d, t, 0.02);
	assert_string_equal(v, "per-target defaults gain 12.3% on A");
	free(v);
	assert_false(defaults_serves_all(&d, 0.02));
	v = defaults_verdict(&d, t, 0.15);
	assert_string_equal(v, "one default serves all within 12.3% (worst regret, on A)");
	free(v);
	assert_true(defaults_serves_all(&d, 0.15));
	defaults_release(&d);
}

static void test_defaults__minimize_and_ties(void **state)
{
	/* Size (min): equal values; the one with fewer flags wins (not the
	 * smaller id), on both targets and as the default. */
	struct defaults_config a[] = {
		{ "x2", "-Os -fa", 0, 1, 1000, 0 },
		{ "x9", "-Os", 0, 1, 1000, 0 },
		{ "x3", "-O2", 0, 1, 1100, 0 },
	};
	struct defaults_config b[] = {
		{ "x3", "-O2", 0, 1, 1210, 0 },
		{ "x2", "-Os -fa", 0, 1, 1100, 0 },
		{ "x9", "-Os", 0, 1, 1100, 0 },
	};
	struct defaults_target t[2] = { { "A", 0, a, 3 }, { "B", 0, b, 3 } };
	struct defaults d;
	char *v;

	defaults_compute(&d, t, 2);
	assert_int_equal(d.best[0], 1);
	assert_int_equal(d.best[1], 2);
	assert_string_equal(d.rows[d.common].id, "x9");
	assert_string_equal(d.rows[1].id, "x2");
	/* x3: 10% bigger on both. */
	CLOSE(row(&d, "x3")->worst, 0.1);
	assert_int_equal(row(&d, "x3")->worst_target, 0);
	v = defaults_verdict(&d, t, 0.02);
	assert_string_equal(v, "one default serves all within 0% (worst regret, on A)");
	free(v);
	defaults_release(&d);
}

static void test_defaults__no_common_default(void **state)
{
	struct defaults_config a[] = { { "y1", "-O2", 0, 1, 10, 0 } };
	struct defaults_config b[] = { { "y2", "-Os", 0, 1, 10, 0 } };
	struct defaults_config c[] = { { "y1", "-O2", 0, 0, 10, 0 } };
	struct defaults_target t[2] = { { "A", 1, a, 1 }, { "B", 1, b, 1 } };
	struct defaults d;
	char *v;

	/* No configuration on both targets. */
	defaults_compute(&d, t, 2);
	assert_int_equal(d.common, -1);
	v = defaults_verdict(&d, t, 0.02);
	assert_string_equal(v, "no common default: no configuration is feasible, with a value, on every target");
	free(v);
	defaults_release(&d);

	/* A target with nothing feasible has no best. */
	t[1] = (struct defaults_target){ "C", 1, c, 1 };
	defaults_compute(&d, t, 2);
	assert_int_equal(d.best[1], -1);
	assert_int_equal(d.common, -1);
	v = defaults_verdict(&d, t, 0.02);
	assert_string_equal(v, "no common default: C has no feasible configuration with a value");
	free(v);
	defaults_release(&d);

	/* No targets at all. */
	defaults_compute(&d, t, 0);
	assert_int_equal(d.nrows, 0);
	assert_int_equal(d.common, -1);
	defaults_release(&d);
}

static void test_defaults__duplicate_id_counts_once(void **state)
{
	struct defaults_config a[] = {
		{ "z1", "-O2", 0, 1, 100, 0 },
		{ "z1", "-O2 -O2", 0, 1, 50, 0 },
		{ "z2", "-O3", 0, 1, 90, 0 },
	};
	struct defaults_target t[1] = { { "A", 1, a, 3 } };
	struct defaults d;

	defaults_compute(&d, t, 1);
	assert_int_equal(d.nrows, 2);
	CLOSE(row(&d, "z1")->cells[0].regret, 0);
	CLOSE(row(&d, "z2")->cells[0].regret, 0.1);
	defaults_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults__regret_table_and_verdict),
		cmocka_unit_test(test_defaults__minimize_and_ties),
		cmocka_unit_test(test_defaults__no_common_default),
		cmocka_unit_test(test_defaults__duplicate_id_counts_once),
	};

	return cmocka_run_group_tests_name("defaults", tests, NULL, NULL);
}
