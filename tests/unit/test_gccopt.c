/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gccopt: a table of flag strings and what GCC makes of them (the
 * canonical form; GCC-equal or not), and which switch overrides which.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tuner/gccopt.h"

static const struct {
	const char *flags, *canonical;
} canon[] = {
	{ "", "" },
	{ "  -O2   -O2 ", "-O2" },
	{ "-O3 -O2", "-O2" },                       /* the last -O wins */
	{ "-O2 -O3", "-O3" },
	{ "-Os -O2", "-O2" },
	{ "-O2 -Os", "-Os" },
	{ "-O", "-O1" },
	{ "-O2 -Ofast", "-Ofast" },
	{ "-g -O2", "-O2 -g2" },
	{ "-g3 -g0", "-g0" },
	{ "-fno-tree-ch -O2", "-O2 -fno-tree-ch" },
	{ "-fno-reorder-blocks -freorder-blocks", "-freorder-blocks" },
	{ "-freorder-blocks -fno-reorder-blocks", "-fno-reorder-blocks" },
	{ "-falign-functions=16 -falign-functions=32", "-falign-functions=32" },
	{ "-falign-functions=32 -fno-align-functions", "-fno-align-functions" },
	{ "-fno-align-functions -falign-functions", "-falign-functions" },
	{ "-fsanitize=undefined -fsanitize=address", "-fsanitize=address -fsanitize=undefined" },
	{ "-fsanitize=address -fno-sanitize=address", "-fno-sanitize=address" },
	{ "-DX=1 -DX=2", "-DX=2" },
	{ "-DX -UX", "-UX" },
	{ "-D X -D Y=2", "-DX -DY=2" },
	{ "--param max-unroll-times=4", "--param=max-unroll-times=4" },
	{ "--param=a=1 --param=a=2", "--param=a=2" },
	{ "--param=b=2 --param=a=1", "--param=a=1 --param=b=2" },
	{ "-mcpu=cortex-a9 -mcpu=cortex-a7", "-mcpu=cortex-a7" },
	{ "-mno-unaligned-access -munaligned-access", "-munaligned-access" },
	{ "-Werror=format -Werror=unused", "-Werror=format -Werror=unused" },
	{ "-Wall -Wno-all", "-Wno-all" },
	{ "-std=c11 -std=gnu11", "-std=gnu11" },
	{ "-flto=4 -flto=auto", "-flto=auto" },
	{ "-fprofile-use -fno-profile-use", "-fno-profile-use" },
	{ "-I b -I a -O2", "-O2 -Ib -Ia" },         /* search order stays */
	{ "zz -O2 aa", "-O2 zz aa" },              /* not switches: verbatim */
	{ "'-DMSG=a b' -O2", "-DMSG=a b -O2" },     /* shell words */
	{ "-O2 -fno-reorder-blocks -fno-tree-ch -falign-functions=32",
	  "-O2 -falign-functions=32 -fno-reorder-blocks -fno-tree-ch" },
};

static void test_gccopt__canonical(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(canon) / sizeof(canon[0]); i++) {
		char *c = gccopt_canonical(canon[i].flags);

		if (strcmp(c, canon[i].canonical))
			fail_msg("'%s': canonical '%s', want '%s'", canon[i].flags, c,
				 canon[i].canonical);
		free(c);
	}
}

static const struct {
	const char *a, *b;
	int equal;
} pairs[] = {
	{ "-O3 -O2", "-O2 -O3", 0 },  /* compare refused these as the same */
	{ "-O3 -O2", "-O2", 1 },
	{ "-O", "-O1", 1 },
	{ "-g", "-g2", 1 },
	{ "-O2 -fno-tree-ch", "-fno-tree-ch -O2", 1 },
	{ "-fsanitize=address -fsanitize=undefined", "-fsanitize=undefined -fsanitize=address", 1 },
	{ "-fsanitize=address", "-fsanitize=address -fsanitize=undefined", 0 },
	{ "-D X", "-DX", 1 },
	{ "-DX", "-DX=1", 0 },         /* not modelled: -DX defines it as 1 */
	{ "--param n=1", "--param=n=1", 1 },
	{ "-Ia -Ib", "-Ib -Ia", 0 },
	{ "-falign-functions=32", "-falign-functions=64", 0 },
	{ "-fno-reorder-blocks -freorder-blocks", "", 0 }, /* explicit vs default */
	{ "-O2 -O2", "-O2", 1 },
	{ "", "", 1 },
};

static void test_gccopt__equal(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (gccopt_equal(pairs[i].a, pairs[i].b) != pairs[i].equal)
			fail_msg("'%s' vs '%s': equal %d, want %d", pairs[i].a, pairs[i].b,
				 !pairs[i].equal, pairs[i].equal);
}

/* What GCC is predicted to ignore: the alignments of functions, jumps
 * and loops under the last -O being -Os or -Oz; labels are still aligned. */
static const struct {
	const char *flags, *predicted, *ignored;
} predicted[] = {
	{ "", "", "" },
	{ "-O2 -falign-functions=32", "-O2 -falign-functions=32", "" },
	{ "-Os -falign-functions=32", "-Os", "-falign-functions=32" },
	{ "-Oz -fno-align-functions", "-Oz", "-fno-align-functions" },
	{ "-Os -falign-functions", "-Os", "-falign-functions" },
	{ "-falign-functions=16 -Os -fno-tree-ch", "-Os -fno-tree-ch", "-falign-functions=16" },
	{ "-Os -falign-functions=32 -O2", "-O2 -falign-functions=32", "" }, /* -O2 wins */
	{ "-O2 -falign-functions=32 -Os", "-Os", "-falign-functions=32" },
	{ "-Os -falign-jumps=8 -falign-loops=16", "-Os", "-falign-jumps=8 -falign-loops=16" },
	{ "-Os -falign-labels=32", "-Os -falign-labels=32", "" },
	{ "-Os -falign-functions=16 -falign-functions=64", "-Os", "-falign-functions=64" },
	{ "-O3 -fno-reorder-blocks", "-O3 -fno-reorder-blocks", "" },
	{ "-falign-functions=64", "-falign-functions=64", "" }, /* -O0 */
};

static void test_gccopt__predicted(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(predicted) / sizeof(predicted[0]); i++) {
		char *ign = NULL;
		char *c = gccopt_predicted(predicted[i].flags, &ign);

		if (strcmp(c, predicted[i].predicted) || strcmp(ign, predicted[i].ignored))
			fail_msg("'%s': predicted '%s' ignoring '%s', want '%s' ignoring '%s'",
				 predicted[i].flags, c, ign, predicted[i].predicted,
				 predicted[i].ignored);
		free(c);
		free(ign);
	}
}

/* Pairing with the first earlier flag string of the same group that is
 * predicted to build alike. */
static void test_gccopt__predicted_leads(void **state)
{
	const char *flags[] = { "-Os", "-Os -falign-functions=16", "-O2 -falign-functions=16",
				"-Os -falign-functions=32", "-Os -falign-functions=16" };
	const unsigned long group[] = { 0, 0, 0, 0, 1 };
	const size_t want[] = { 0, 0, 2, 0, 4 };
	size_t lead[5];
	char *ignored[5];

	(void)state;
	gccopt_predicted_leads(lead, ignored, flags, group, 5);
	for (size_t i = 0; i < 5; i++)
		if (lead[i] != want[i])
			fail_msg("'%s': lead %zu, want %zu", flags[i], lead[i], want[i]);
	assert_string_equal(ignored[1], "-falign-functions=16");
	assert_string_equal(ignored[3], "-falign-functions=32");
	assert_null(ignored[0]);
	assert_null(ignored[2]);
	assert_null(ignored[4]); /* another group: it leads itself */
	free(ignored[1]);
	free(ignored[3]);
}

/* Without what GCC acts on only after instrumenting for a profile. */
static const struct {
	const char *flags, *form;
} profile_forms[] = {
	{ "", "" },
	{ "-O2", "-O2" },
	{ "-O2 -fno-reorder-blocks -fno-tree-ch -falign-functions=64", "-O2" },
	{ "-O3 -falign-jumps=8 -falign-loops -fno-align-labels -freorder-blocks-algorithm=simple",
	  "-O3" },
	{ "-Os -fno-tree-ch -fno-inline", "-Os -fno-inline" },
	{ "-fno-tree-ch -O2 -ftree-ch", "-O2" },
	{ "-O2 -freorder-blocks-and-partition", "-O2 -freorder-blocks-and-partition" },
	{ "-O2 -DX=1 -fno-tree-vrp", "-DX=1 -O2 -fno-tree-vrp" },
};

static void test_gccopt__profile_form(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(profile_forms) / sizeof(profile_forms[0]); i++) {
		char *c = gccopt_profile_form(profile_forms[i].flags);

		if (strcmp(c, profile_forms[i].form))
			fail_msg("'%s': profile form '%s', want '%s'", profile_forms[i].flags, c,
				 profile_forms[i].form);
		free(c);
	}
}

/* Pairing with the first earlier flag string of the same group that is
 * predicted to train the same profile, and the kinds they differ in. */
static void test_gccopt__profile_leads(void **state)
{
	const char *flags[] = { "-O2 -falign-functions=16", "-O2", "-O3 -fno-reorder-blocks",
				"-O2 -fno-tree-ch -fno-reorder-blocks -falign-functions=16",
				"-O2 -fno-tree-ch", "-O2 -falign-functions=16 -O2" };
	const unsigned long group[] = { 0, 0, 0, 0, 1, 0 };
	const size_t want[] = { 0, 0, 2, 0, 4, 5 };
	const char *want_kinds[] = { NULL, "-falign-functions", NULL,
				     "-freorder-blocks -ftree-ch", NULL, NULL };
	size_t lead[6];
	char *kinds[6];

	(void)state;
	gccopt_profile_leads(lead, kinds, flags, group, 6);
	for (size_t i = 0; i < 6; i++) {
		if (lead[i] != want[i])
			fail_msg("'%s': lead %zu, want %zu", flags[i], lead[i], want[i]);
		if (!want_kinds[i])
			assert_null(kinds[i]);
		else
			assert_string_equal(kinds[i], want_kinds[i]);
		free(kinds[i]);
	}
}

/* Which switch is in effect, and which overrides which. */
static void test_gccopt__overrides(void **state)
{
	struct gccopt g;
	const struct gccopt_switch *s;

	(void)state;
	gccopt_parse(&g, "-O2 -fno-reorder-blocks -O3 -freorder-blocks -fsanitize=address", 1);
	assert_int_equal(g.n, 5);
	assert_int_equal(g.sw[0].winner, 2);   /* -O2 overridden by -O3 */
	assert_int_equal(g.sw[1].winner, 3);   /* -fno-reorder-blocks by -freorder-blocks */
	assert_int_equal(g.sw[2].winner, 2);
	assert_int_equal(g.sw[4].winner, 4);
	s = gccopt_effective(&g, "-Os");
	assert_non_null(s);
	assert_string_equal(s->word, "-O3");
	assert_null(gccopt_effective(&g, "-fno-tree-ch"));
	s = gccopt_effective(&g, "-fno-sanitize=address");
	assert_non_null(s);
	assert_string_equal(s->word, "-fsanitize=address");
	assert_null(gccopt_effective(&g, "-fsanitize=undefined"));
	gccopt_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gccopt__canonical),
		cmocka_unit_test(test_gccopt__equal),
		cmocka_unit_test(test_gccopt__overrides),
		cmocka_unit_test(test_gccopt__predicted),
		cmocka_unit_test(test_gccopt__predicted_leads),
		cmocka_unit_test(test_gccopt__profile_form),
		cmocka_unit_test(test_gccopt__profile_leads),
	};

	return cmocka_run_group_tests_name("gccopt", tests, NULL, NULL);
}
