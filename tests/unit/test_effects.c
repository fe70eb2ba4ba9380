/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for effects: hand-made spaces with known effects. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/effects.h"
#include "tuner/util.h"

static void test_effects__estimate_formula(void **state)
{
	/* Spread over the pairs beyond their noise: the t interval. */
	const double e1[] = { 0.10, 0.12, 0.08 }, s1[] = { 0.001, 0.001, 0.001 };
	/* Pairs that agree better than their noise allows: the noise sets it. */
	const double e2[] = { 0.10, 0.10 }, s2[] = { 0.02, 0.02 };
	const double e3[] = { 0.05 }, s3[] = { 0.01 };
	const double e4[] = { 0.01, -0.01 }, s4[] = { NAN, NAN };
	struct effect_est est;
	double half;

	effects_estimate(&est, e1, s1, 3);
	half = 4.302652730 * sqrt(0.0004 / 3);
	assert_int_equal(est.n, 3);
	assert_true(fabs(est.mean - 0.10) < 1e-12);
	assert_true(fabs(est.lo - (0.10 - half)) < 1e-8);
	assert_true(fabs(est.hi - (0.10 + half)) < 1e-8);
	assert_int_equal(est.sign, 1);

	effects_estimate(&est, e2, s2, 2);
	half = 1.959963985 * sqrt(0.0004 / 2);
	assert_true(fabs(est.lo - (0.10 - half)) < 1e-8);
	assert_true(fabs(est.hi - (0.10 + half)) < 1e-8);
	assert_int_equal(est.sign, 1);

	effects_estimate(&est, e3, s3, 1);
	assert_true(fabs(est.lo - (0.05 - 1.959963985 * 0.01)) < 1e-8);
	assert_int_equal(est.sign, 1);

	/* NaN standard errors count as 0; the spread still widens it. */
	effects_estimate(&est, e4, s4, 2);
	assert_true(fabs(est.mean) < 1e-15);
	assert_int_equal(est.sign, 0);
	assert_true(est.lo < -0.1 && est.hi > 0.1);

	effects_estimate(&est, NULL, NULL, 0);
	assert_int_equal(est.n, 0);
	assert_true(isnan(est.mean) && isnan(est.lo) && isnan(est.hi));
	assert_int_equal(est.sign, 0);
	assert_string_equal(effects_word(&est, 1), "no pairs");
}

/* A 2 x 2 x 2 space (opt, reorder, align): picks in mixed radix. */
#define NCFG 8
static const size_t nv3[] = { 2, 2, 2 };
static size_t picks[NCFG][3];
static struct effects_obs obs[NCFG];

/* value = 100 * f(opt, reorder, align) * (1 + a jitter of +-jitter that
 * is not an effect of any dimension), standard error se. */
static void make_obs(double (*f)(const size_t *pick), double se, double jitter_size)
{
	for (size_t i = 0; i < NCFG; i++) {
		int jitter = (int)(((i * 5) % 3)) - 1;

		picks[i][0] = i / 4;
		picks[i][1] = (i / 2) % 2;
		picks[i][2] = i % 2;
		obs[i] = (struct effects_obs){ .pick = picks[i], .se = se, .code = NULL };
		obs[i].value = 100 * f(picks[i]) * (1 + jitter_size * jitter);
	}
}

static double target_a(const size_t *p)
{
	return (p[0] ? 0.95 : 1) * (p[1] ? 1.14 : 1) * (p[2] ? 1.01 : 1);
}

static double target_b(const size_t *p)
{
	return (p[0] ? 0.97 : 1) * (p[1] ? 0.84 : 1) * (p[2] ? 1.0 : 1);
}

static double flat(const size_t *p)
{
	return 1;
}

/* -fno-reorder-blocks +3% at -O2, -2% at -Os; align does nothing. */
static double interacting(const size_t *p)
{
	return p[1] ? (p[0] ? 0.98 : 1.03) : 1;
}

static void test_effects__sign_flip(void **state)
{
	struct effects a, b;

	make_obs(target_a, 0.3, 0.001);
	assert_int_equal(effects_compute(&a, nv3, 3, obs, NCFG), 0);
	make_obs(target_b, 0.3, 0.001);
	assert_int_equal(effects_compute(&b, nv3, 3, obs, NCFG), 0);
	assert_int_equal(a.nvals, 3);
	/* values[1] is reorder's -fno-reorder-blocks. */
	assert_int_equal(a.values[1].dim, 1);
	assert_int_equal(a.values[1].value, 1);
	assert_int_equal(a.values[1].main.n, 4);
	assert_true(fabs(a.values[1].main.mean - 0.14) < 0.003);
	assert_true(fabs(b.values[1].main.mean + 0.16) < 0.003);
	assert_int_equal(a.values[1].main.sign, 1);
	assert_int_equal(b.values[1].main.sign, -1);
	assert_string_equal(effects_word(&a.values[1].main, 1), "helps");
	assert_string_equal(effects_word(&b.values[1].main, 1), "hurts");
	/* For an objective to minimise, the words turn round. */
	assert_string_equal(effects_word(&a.values[1].main, 0), "hurts");
	assert_int_equal(effects_sign_change(&a.values[1].main, &b.values[1].main), 1);
	/* -Os hurts on both: no sign change. */
	assert_int_equal(a.values[0].main.sign, -1);
	assert_int_equal(b.values[0].main.sign, -1);
	assert_int_equal(effects_sign_change(&a.values[0].main, &b.values[0].main), 0);
	/* align: +1% on A, nothing on B: clear on one only, no sign change. */
	assert_int_equal(a.values[2].main.sign, 1);
	assert_int_equal(b.values[2].main.sign, 0);
	assert_int_equal(effects_sign_change(&a.values[2].main, &b.values[2].main), 0);
	/* Multiplicative effects do not interact. */
	assert_int_equal(a.ninter, 0);
	assert_int_equal(b.ninter, 0);
	effects_release(&a);
	effects_release(&b);
}

static void test_effects__interaction_flagged(void **state)
{
	struct effects e;
	const struct effect_est *at_o2, *at_os;

	make_obs(interacting, 0.05, 0.0002);
	assert_int_equal(effects_compute(&e, nv3, 3, obs, NCFG), 0);
	/* Averaged over opt, reorder's effect is about +0.5%. */
	assert_true(fabs(e.values[1].main.mean - 0.005) < 0.003);
	at_o2 = &e.values[1].cond[e.cond_off[0] + 0];
	at_os = &e.values[1].cond[e.cond_off[0] + 1];
	assert_int_equal(at_o2->n, 2);
	assert_true(fabs(at_o2->mean - 0.03) < 0.003);
	assert_true(fabs(at_os->mean + 0.02) < 0.003);
	assert_int_equal(at_o2->sign, 1);
	assert_int_equal(at_os->sign, -1);
	/* Its own dimension has no conditional effects. */
	assert_int_equal(e.values[1].cond[e.cond_off[1]].n, 0);
	/* One interaction: reorder's value by opt, helps at -O2, hurts at -Os.
	 * -Os's effect depends on reorder too (0 without, -4.9% with), but
	 * keeps its sign: not flagged; nor is anything by align. */
	assert_int_equal(e.ninter, 1);
	assert_int_equal(e.inter[0].value, 1);
	assert_int_equal(e.inter[0].other, 0);
	assert_int_equal(e.inter[0].pos, 0);
	assert_int_equal(e.inter[0].neg, 1);
	effects_release(&e);
}

static void test_effects__flat_no_false_flag(void **state)
{
	struct effects e;

	make_obs(flat, 0.5, 0.001);
	assert_int_equal(effects_compute(&e, nv3, 3, obs, NCFG), 0);
	for (size_t i = 0; i < e.nvals; i++) {
		assert_int_equal(e.values[i].main.n, 4);
		assert_int_equal(e.values[i].main.sign, 0);
		assert_string_equal(effects_word(&e.values[i].main, 1), "no clear effect");
		for (size_t k = 0; k < e.ncond; k++)
			assert_int_equal(e.values[i].cond[k].sign, 0);
	}
	assert_int_equal(e.ninter, 0);
	effects_release(&e);
}

static void test_effects__missing_and_unknown(void **state)
{
	struct effects e;

	make_obs(target_a, 0.3, 0.001);
	obs[0].value = NAN;   /* the all-reference configuration failed */
	obs[7].pick = NULL;   /* not in the space */
	assert_int_equal(effects_compute(&e, nv3, 3, obs, NCFG), 0);
	/* Each value loses the pair with config 0 and the one with config 7. */
	for (size_t i = 0; i < e.nvals; i++)
		assert_int_equal(e.values[i].main.n, 2);
	assert_int_equal(e.values[1].main.sign, 1);
	effects_release(&e);

	/* A pick outside its dimension is refused. */
	picks[3][2] = 2;
	obs[7].pick = picks[7];
	assert_int_equal(effects_compute(&e, nv3, 3, obs, NCFG), -1);
	assert_non_null(strstr(tn_errmsg(), "dimension 2"));
}

static void test_effects__same_code_pair_exact(void **state)
{
	/* One dimension of two values whose builds made the same code: their
	 * one measurement, shared, is no effect at all, and certainly so. */
	const size_t nv[] = { 2 };
	size_t p0[] = { 0 }, p1[] = { 1 };
	struct effects_obs o[] = {
		{ .pick = p0, .value = 100, .se = 1, .code = "0123456789abcdef" },
		{ .pick = p1, .value = 100, .se = 1, .code = "0123456789abcdef" },
	};
	struct effects e;

	assert_int_equal(effects_compute(&e, nv, 1, o, 2), 0);
	assert_int_equal(e.values[0].main.n, 1);
	assert_true(e.values[0].main.lo == 0 && e.values[0].main.hi == 0);
	effects_release(&e);
	/* Different codes: the two standard errors widen it. */
	o[1].code = "fedcba9876543210";
	assert_int_equal(effects_compute(&e, nv, 1, o, 2), 0);
	assert_true(fabs(e.values[0].main.hi - 1.959963985 * sqrt(2) * 0.01) < 1e-8);
	effects_release(&e);
}

static void test_effects__three_values_order(void **state)
{
	/* opt [-O2, -Os, -O3] x reorder ["", x]: values are (0,1), (0,2), (1,1). */
	const size_t nv[] = { 3, 2 };
	size_t p[6][2];
	struct effects_obs o[6];
	const double opt[] = { 1, 0.9, 1.05 };
	struct effects e;

	for (size_t i = 0; i < 6; i++) {
		p[i][0] = i / 2;
		p[i][1] = i % 2;
		o[i] = (struct effects_obs){ .pick = p[i], .se = 0.01, .code = NULL };
		o[i].value = 200 * opt[i / 2] * (i % 2 ? 1.1 : 1);
	}
	assert_int_equal(effects_compute(&e, nv, 2, o, 6), 0);
	assert_int_equal(e.nvals, 3);
	assert_int_equal(e.values[0].dim, 0);
	assert_int_equal(e.values[0].value, 1);
	assert_int_equal(e.values[1].value, 2);
	assert_int_equal(e.values[2].dim, 1);
	assert_true(fabs(e.values[0].main.mean + 0.10) < 1e-9);
	assert_true(fabs(e.values[1].main.mean - 0.05) < 1e-9);
	assert_true(fabs(e.values[2].main.mean - 0.10) < 1e-9);
	assert_int_equal(e.values[2].main.n, 3);
	assert_int_equal(e.ncond, 5);
	assert_int_equal(e.cond_off[1], 3);
	effects_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_effects__estimate_formula),
		cmocka_unit_test(test_effects__sign_flip),
		cmocka_unit_test(test_effects__interaction_flagged),
		cmocka_unit_test(test_effects__flat_no_false_flag),
		cmocka_unit_test(test_effects__missing_and_unknown),
		cmocka_unit_test(test_effects__same_code_pair_exact),
		cmocka_unit_test(test_effects__three_values_order),
	};

	return cmocka_run_group_tests_name("effects", tests, NULL, NULL);
}
