/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for flagdiff: keys, changes and applying subsets of them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tuner/flagdiff.h"

static void key_is(const char *token, const char *key)
{
	char k[64];

	flagdiff_key(k, sizeof(k), token);
	assert_string_equal(k, key);
}

static void test_flagdiff__keys(void **state)
{
	(void)state;
	key_is("-O2", "-O");
	key_is("-Os", "-O");
	key_is("-O", "-O");
	key_is("-fno-reorder-blocks", "-freorder-blocks");
	key_is("-freorder-blocks", "-freorder-blocks");
	key_is("-falign-functions=64", "-falign-functions");
	key_is("-fno-align-functions", "-falign-functions");
	key_is("-mno-thumb", "-mthumb");
	key_is("-march=armv7-a", "-march");
	key_is("-DNB_PAD=3", "-D:NB_PAD");
	key_is("-UNB_PAD", "-D:NB_PAD");
	key_is("-g", "-g");
	/* Values that add up are keys of their own (gccopt). */
	key_is("-fsanitize=address", "-fsanitize=address");
	key_is("-fno-sanitize=address", "-fsanitize=address");
}

static void apply_is(const struct flagdiff *d, const size_t *set, size_t n, const char *want)
{
	char *s = flagdiff_apply(d, set, n);

	assert_string_equal(s, want);
	free(s);
}

static void describe_is(const struct flagdiff *d, size_t i, const char *want)
{
	char *s = flagdiff_describe(d, i);

	assert_string_equal(s, want);
	free(s);
}

/* Blame from ASan to ASan + UBSan adds UBSan: it does not replace ASan. */
static void test_flagdiff__sanitizers_add_up(void **state)
{
	struct flagdiff d;
	size_t all[] = { 0 };

	(void)state;
	flagdiff_compute(&d, "-O2 -fsanitize=address", "-O2 -fsanitize=address -fsanitize=undefined");
	assert_int_equal(d.nchanges, 1);
	describe_is(&d, 0, "add -fsanitize=undefined");
	apply_is(&d, all, 1, "-O2 -fsanitize=address -fsanitize=undefined");
	flagdiff_release(&d);
}

static void test_flagdiff__five_four_story(void **state)
{
	/* OpenWrt's 5.4 bump: the two -fno flags stopped applying. */
	struct flagdiff d;

	(void)state;
	flagdiff_compute(&d, "-O2 -fno-reorder-blocks -fno-tree-ch", "-O2");
	assert_int_equal(d.nchanges, 2);
	describe_is(&d, 0, "drop -fno-reorder-blocks");
	describe_is(&d, 1, "drop -fno-tree-ch");
	apply_is(&d, NULL, 0, "-O2 -fno-reorder-blocks -fno-tree-ch");
	apply_is(&d, (size_t[]){ 1 }, 1, "-O2 -fno-reorder-blocks");
	apply_is(&d, (size_t[]){ 0, 1 }, 2, "-O2");
	flagdiff_release(&d);
}

static void test_flagdiff__changed_added_overridden(void **state)
{
	struct flagdiff d;

	(void)state;
	/* good's -O3 -O2 is -O2 (last wins); bad changes -O, flips
	 * reorder-blocks, adds an alignment; -g is the same in both. */
	flagdiff_compute(&d, "-O3 -g -fno-reorder-blocks -O2",
			 "-g -Os -freorder-blocks -falign-functions=32");
	assert_int_equal(d.ngood, 3);
	assert_int_equal(d.nchanges, 3);
	describe_is(&d, 0, "-fno-reorder-blocks -> -freorder-blocks");
	describe_is(&d, 1, "-O2 -> -Os");
	describe_is(&d, 2, "add -falign-functions=32");
	apply_is(&d, NULL, 0, "-g -fno-reorder-blocks -O2");
	apply_is(&d, (size_t[]){ 1 }, 1, "-g -fno-reorder-blocks -Os");
	apply_is(&d, (size_t[]){ 0, 2 }, 2, "-g -freorder-blocks -O2 -falign-functions=32");
	apply_is(&d, (size_t[]){ 0, 1, 2 }, 3, "-g -freorder-blocks -Os -falign-functions=32");
	flagdiff_release(&d);
}

static void test_flagdiff__same_and_empty(void **state)
{
	struct flagdiff d;

	(void)state;
	flagdiff_compute(&d, "  -O2\t-fx ", "-fx -O2");
	assert_int_equal(d.nchanges, 0);
	flagdiff_release(&d);
	flagdiff_compute(&d, "", "-fa -fb");
	assert_int_equal(d.nchanges, 2);
	apply_is(&d, NULL, 0, "");
	apply_is(&d, (size_t[]){ 1 }, 1, "-fb");
	flagdiff_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flagdiff__keys),
		cmocka_unit_test(test_flagdiff__sanitizers_add_up),
		cmocka_unit_test(test_flagdiff__five_four_story),
		cmocka_unit_test(test_flagdiff__changed_added_overridden),
		cmocka_unit_test(test_flagdiff__same_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
