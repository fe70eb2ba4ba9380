/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for space: configs, ids, normalization. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/space.h"
#include "tuner/util.h"

static void add(struct space *s, const char *name, const char *const *v, size_t n)
{
	assert_int_equal(space_add_dimension(s, name, v, n), 0);
}

static void test_space__size_and_order(void **state)
{
	struct space s = SPACE_INIT;
	const char *opt[] = { "-O2", "-Os", "-O3" };
	const char *reorder[] = { "", "-fno-reorder-blocks" };
	const char *pgo[] = { "off", "on" };
	struct config c = CONFIG_INIT;

	add(&s, "opt", opt, 3);
	add(&s, "reorder", reorder, 2);
	add(&s, "pgo", pgo, 2);
	assert_int_equal(space_size(&s), 12);
	assert_int_equal(s.dims[2].kind, DIM_PGO);

	assert_int_equal(space_config(&c, &s, 0), 0);
	assert_string_equal(c.flags, "-O2");
	assert_int_equal(c.pgo, PGO_OFF);
	config_release(&c);

	/* last dimension fastest: index 3 = opt 0, reorder 1, pgo 1 */
	assert_int_equal(space_config(&c, &s, 3), 0);
	assert_string_equal(c.flags, "-O2 -fno-reorder-blocks");
	assert_int_equal(c.pgo, PGO_ON);
	config_release(&c);

	assert_int_equal(space_config(&c, &s, 11), 0);
	assert_string_equal(c.flags, "-O3 -fno-reorder-blocks");
	config_release(&c);

	assert_int_equal(space_config(&c, &s, 12), -1);
	space_release(&s);
}

static void test_space__ids_distinct(void **state)
{
	struct space s = SPACE_INIT;
	const char *a[] = { "-O2", "-Os", "-O3" };
	const char *b[] = { "", "-fno-tree-ch" };
	const char *c4[] = { "", "-falign-functions=16", "-falign-functions=32", "-falign-functions=64" };
	const char *pgo[] = { "off", "on" };
	char ids[48][17];

	add(&s, "opt", a, 3);
	add(&s, "ch", b, 2);
	add(&s, "align", c4, 4);
	add(&s, "pgo", pgo, 2);
	assert_int_equal(space_size(&s), 48);
	for (uint64_t i = 0; i < 48; i++) {
		struct config c = CONFIG_INIT;
		assert_int_equal(space_config(&c, &s, i), 0);
		memcpy(ids[i], c.id, 17);
		assert_int_equal(strlen(c.id), 16);
		for (uint64_t k = 0; k < i; k++)
			assert_string_not_equal(ids[k], c.id);
		config_release(&c);
	}
	space_release(&s);
}

static void test_space__id_stable_under_rename_and_reorder(void **state)
{
	struct space s1 = SPACE_INIT, s2 = SPACE_INIT;
	const char *opt[] = { "-O2", "-Os" };
	const char *ch[] = { "", "-fno-tree-ch" };
	struct config c1 = CONFIG_INIT, c2 = CONFIG_INIT;

	add(&s1, "opt", opt, 2);
	add(&s1, "ch", ch, 2);
	add(&s2, "tree_ch", ch, 2); /* renamed and reordered */
	add(&s2, "level", opt, 2);

	/* s1 index 1 = -O2 -fno-tree-ch; s2 index 2 = -fno-tree-ch -O2 */
	assert_int_equal(space_config(&c1, &s1, 1), 0);
	assert_int_equal(space_config(&c2, &s2, 2), 0);
	assert_string_equal(c1.flags, "-O2 -fno-tree-ch");
	assert_string_equal(c2.flags, "-fno-tree-ch -O2");
	assert_string_equal(c1.id, c2.id);
	config_release(&c1);
	config_release(&c2);
	space_release(&s1);
	space_release(&s2);
}

static void test_space__pgo_changes_id(void **state)
{
	char a[17], b[17];

	config_id(a, "-O2", PGO_OFF);
	config_id(b, "-O2", PGO_ON);
	assert_string_not_equal(a, b);
	config_id(b, "  -O2\t", PGO_OFF);
	assert_string_equal(a, b);
}

/* Ids follow GCC: the last -O wins, order between kinds does not count. */
static void test_space__normalize(void **state)
{
	char a[17], b[17];

	config_id(a, "  -O2 -fno-tree-ch\t-O2  -Os ", PGO_OFF);
	config_id(b, "-fno-tree-ch -Os", PGO_OFF);
	assert_string_equal(a, b);
	config_id(a, "-O3 -O2", PGO_OFF);
	config_id(b, "-O2 -O3", PGO_OFF);
	assert_string_not_equal(a, b);
	config_id(b, "-O2", PGO_OFF);
	assert_string_equal(a, b);
}

static void test_space__flags_byte_for_byte(void **state)
{
	struct space s = SPACE_INIT;
	const char *evil[] = { "-DX='a;b' -DY=\"$(touch /tmp/pwned)\" -DZ=\\\\n" };
	struct config c = CONFIG_INIT;

	add(&s, "evil", evil, 1);
	assert_int_equal(space_config(&c, &s, 0), 0);
	assert_string_equal(c.flags, evil[0]);
	config_release(&c);
	space_release(&s);
}

static void test_space__bad_dimensions(void **state)
{
	struct space s = SPACE_INIT;
	const char *opt[] = { "-O2" };
	const char *dup[] = { "-O2", "-O2" };
	const char *badpgo[] = { "off", "yes" };

	assert_int_equal(space_add_dimension(&s, "opt", opt, 0), -1);
	assert_non_null(strstr(tn_errmsg(), "no values"));
	assert_int_equal(space_add_dimension(&s, "opt", dup, 2), -1);
	assert_non_null(strstr(tn_errmsg(), "twice"));
	assert_int_equal(space_add_dimension(&s, "pgo", badpgo, 2), -1);
	assert_non_null(strstr(tn_errmsg(), "'yes'"));
	add(&s, "opt", opt, 1);
	assert_int_equal(space_add_dimension(&s, "opt", opt, 1), -1);
	assert_non_null(strstr(tn_errmsg(), "duplicate dimension 'opt'"));
	assert_int_equal(s.ndims, 1);
	space_release(&s);
}

static void test_space__size_saturates(void **state)
{
	struct space s = SPACE_INIT;
	const char *v[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
			    "k", "l", "m", "n", "o", "p" };
	char name[16];

	for (int i = 0; i < 17; i++) { /* 16^17 = 2^68 */
		snprintf(name, sizeof(name), "d%d", i);
		add(&s, name, v, 16);
	}
	assert_true(space_size(&s) == UINT64_MAX);
	/* Saturated, not wrong: the exact count is there too. */
	assert_int_equal(space_beyond_u64(&s), 1);
	{
		char *n = space_size_str(&s, 0);

		assert_string_equal(n, "295147905179352825856"); /* 2^68 */
		free(n);
	}
	space_release(&s);
}

/* ndims binary dimensions d<i>: ["", "-fd<i>"]. */
static void binary_space(struct space *s, size_t ndims)
{
	for (size_t d = 0; d < ndims; d++) {
		char name[32], flag[32];
		const char *v[] = { "", flag };

		snprintf(name, sizeof(name), "d%zu", d);
		snprintf(flag, sizeof(flag), "-fd%zu", d);
		add(s, name, v, 2);
	}
}

static void expect_size(const struct space *s, uint64_t sub, const char *want)
{
	char *n = space_size_str(s, sub);

	assert_string_equal(n, want);
	free(n);
}

static void test_space__size_exact(void **state)
{
	struct space s = SPACE_INIT;
	const char *opt[] = { "-O2", "-Os", "-O3" };

	/* No dimensions: one configuration (no flags). */
	expect_size(&s, 0, "1");
	assert_int_equal(space_beyond_u64(&s), 0);
	add(&s, "opt", opt, 3);
	binary_space(&s, 2);
	expect_size(&s, 0, "12");
	expect_size(&s, 5, "7");
	expect_size(&s, 12, "0");
	space_release(&s);

	/* 2^63 fits; 2^64 is one past UINT64_MAX. */
	binary_space(&s, 63);
	assert_int_equal(space_beyond_u64(&s), 0);
	assert_true(space_size(&s) == 1ULL << 63);
	expect_size(&s, 0, "9223372036854775808");
	space_release(&s);
	binary_space(&s, 64);
	assert_int_equal(space_beyond_u64(&s), 1);
	expect_size(&s, 0, "18446744073709551616");
	expect_size(&s, UINT64_MAX, "1");
	expect_size(&s, 1000000000, "18446744072709551616");
	space_release(&s);

	/* 70 dimensions: 2^70, not a capped 18446744073709551615. */
	binary_space(&s, 70);
	assert_int_equal(space_beyond_u64(&s), 1);
	expect_size(&s, 0, "1180591620717411303424");
	expect_size(&s, 5, "1180591620717411303419");
	space_release(&s);
}

static void test_space__picks(void **state)
{
	struct space s = SPACE_INIT;
	const char *opt[] = { "-O2", "-Os", "-O3" };
	const char *pgo[] = { "off", "on" };
	struct config a = CONFIG_INIT, b = CONFIG_INIT;
	size_t pick[72];

	add(&s, "opt", opt, 3);
	add(&s, "pgo", pgo, 2);
	binary_space(&s, 2);
	/* A number and its pick are one configuration. */
	for (uint64_t i = 0; i < 24; i++) {
		space_index_pick(pick, &s, i);
		assert_int_equal(space_config(&a, &s, i), 0);
		assert_int_equal(space_config_pick(&b, &s, pick), 0);
		assert_int_equal(a.index, i);
		assert_int_equal(b.index, i);
		assert_string_equal(a.flags, b.flags);
		assert_string_equal(a.id, b.id);
		assert_int_equal(a.pgo, b.pgo);
		config_release(&a);
		config_release(&b);
	}
	pick[0] = 3;
	assert_int_equal(space_config_pick(&a, &s, pick), -1);
	assert_non_null(strstr(tn_errmsg(), "'opt'"));
	space_release(&s);

	/* Beyond 2^64 every configuration has a pick; a number only those
	 * below 2^64, whose first dimensions take their first values. */
	binary_space(&s, 70);
	memset(pick, 0, sizeof(pick));
	pick[0] = 1;
	pick[69] = 1;
	assert_int_equal(space_config_pick(&a, &s, pick), 0);
	assert_string_equal(a.flags, "-fd0 -fd69");
	assert_true(a.index == SPACE_NO_INDEX);
	config_release(&a);
	pick[0] = 0;
	assert_int_equal(space_config_pick(&a, &s, pick), 0);
	assert_int_equal(a.index, 1);
	assert_int_equal(space_config(&b, &s, 1), 0);
	assert_string_equal(a.id, b.id);
	config_release(&a);
	config_release(&b);
	assert_int_equal(space_config(&a, &s, UINT64_MAX), 0);
	assert_null(strstr(a.flags, "-fd5 "));
	assert_non_null(strstr(a.flags, "-fd6 "));
	config_release(&a);
	space_release(&s);
}

/* Flags back to their pick: empty values, values of several flags, a
 * value repeated across dimensions (the first pick), PGO, and flags the
 * space cannot make. */
static void test_space__flags_pick(void **state)
{
	struct space s = SPACE_INIT;
	const char *opt[] = { "-O2", "-O2 -fno-x", "-Os" };
	const char *x[] = { "", "-fno-x", "-fno-x " };
	const char *pgo[] = { "off", "on" };
	size_t pick[3], n = 0;

	add(&s, "opt", opt, 3);
	add(&s, "x", x, 3);
	add(&s, "pgo", pgo, 2);
	/* Every configuration comes back as itself or an earlier one with
	 * the same flags. */
	for (uint64_t i = 0; i < space_size(&s); i++) {
		struct config c = CONFIG_INIT, back = CONFIG_INIT;

		assert_int_equal(space_config(&c, &s, i), 0);
		assert_int_equal(space_flags_pick(pick, &s, c.flags, c.pgo), 1);
		assert_int_equal(space_config_pick(&back, &s, pick), 0);
		assert_string_equal(back.flags, c.flags);
		assert_int_equal(back.pgo, c.pgo);
		assert_true(back.index <= c.index);
		n += back.index < c.index;
		config_release(&c);
		config_release(&back);
	}
	/* "-O2 -fno-x" is opt 1 + x 0 and opt 0 + x 1: the first wins. */
	assert_int_equal(n, 2);
	assert_int_equal(space_flags_pick(pick, &s, "-O2 -fno-x", PGO_ON), 1);
	assert_int_equal(pick[0], 0);
	assert_int_equal(pick[1], 1);
	assert_int_equal(pick[2], 1);
	/* "-fno-x " keeps its space: joined, "-Os -fno-x " at the end. */
	assert_int_equal(space_flags_pick(pick, &s, "-Os -fno-x ", PGO_OFF), 1);
	assert_int_equal(pick[1], 2);
	assert_int_equal(space_flags_pick(pick, &s, "-Os ", PGO_OFF), 0);
	assert_int_equal(space_flags_pick(pick, &s, "-O3", PGO_OFF), 0);
	assert_int_equal(space_flags_pick(pick, &s, "-fno-x -O2", PGO_OFF), 0);
	assert_int_equal(space_flags_pick(pick, &s, "", PGO_OFF), 0);
	assert_int_equal(space_flags_pick(pick, &s, "-Os  -fno-x", PGO_OFF), 0);
	space_release(&s);

	/* No pgo dimension: no PGO configuration. */
	add(&s, "opt", opt, 3);
	assert_int_equal(space_flags_pick(pick, &s, "-Os", PGO_OFF), 1);
	assert_int_equal(pick[0], 2);
	assert_int_equal(space_flags_pick(pick, &s, "-Os", PGO_ON), 0);
	space_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_space__size_and_order),
		cmocka_unit_test(test_space__ids_distinct),
		cmocka_unit_test(test_space__id_stable_under_rename_and_reorder),
		cmocka_unit_test(test_space__pgo_changes_id),
		cmocka_unit_test(test_space__normalize),
		cmocka_unit_test(test_space__flags_byte_for_byte),
		cmocka_unit_test(test_space__bad_dimensions),
		cmocka_unit_test(test_space__size_saturates),
		cmocka_unit_test(test_space__size_exact),
		cmocka_unit_test(test_space__picks),
		cmocka_unit_test(test_space__flags_pick),
	};
	return cmocka_run_group_tests_name("space", tests, NULL, NULL);
}
