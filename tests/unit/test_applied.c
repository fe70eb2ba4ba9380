/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for applied (which requested flags were in effect in a
 * build's compiler command lines): GCC's last-switch-wins rules on
 * hand-written lines, word splitting, the .GCC.command.line formats of old
 * and new GCC, merging over builds and the messages. Real objects from gcc
 * are read in test_elf.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/applied.h"
#include "tuner/util.h"

/* ---- the rules ---- */

#include "applied_expect.h"

/* Judges flags against one command line. */
static void one(struct applied *out, const char *flags, const char *line)
{
	char *lines[] = { (char *)line };

	applied_analyse(out, flags, lines, 1, 0);
	assert_int_equal(out->lines, 1);
	assert_true(out->checked);
}

static void test_applied__last_switch_wins(void **state)
{
	struct applied a;

	one(&a, "-fno-reorder-blocks -fno-tree-ch -falign-functions=32",
	    "gcc -O2 -fno-reorder-blocks -freorder-blocks -fno-tree-ch -c x.c");
	expect(&a, "-fno-reorder-blocks", 0, 1, "-freorder-blocks");
	expect(&a, "-fno-tree-ch", 1, 0, NULL);
	expect(&a, "-falign-functions=32", 0, 0, NULL); /* absent */
	applied_release(&a);

	/* The other order: the requested flag comes last and wins. */
	one(&a, "-fno-reorder-blocks", "gcc -freorder-blocks -O2 -fno-reorder-blocks -c x.c");
	expect(&a, "-fno-reorder-blocks", 1, 0, NULL);
	applied_release(&a);

	/* The positive form overridden by the negative one. */
	one(&a, "-fomit-frame-pointer", "cc -fomit-frame-pointer -fno-omit-frame-pointer");
	expect(&a, "-fomit-frame-pointer", 0, 1, "-fno-omit-frame-pointer");
	applied_release(&a);
}

static void test_applied__opt_levels(void **state)
{
	struct applied a;

	one(&a, "-O2", "gcc -O2 -Os -c x.c");
	expect(&a, "-O2", 0, 1, "-Os");
	applied_release(&a);
	one(&a, "-O1 -Ofast", "gcc -O3 -O -Og -Ofast");
	expect(&a, "-O1", 0, 1, "-Ofast"); /* -O is -O1, but -Ofast came last */
	expect(&a, "-Ofast", 1, 0, NULL);
	applied_release(&a);
	one(&a, "-O", "gcc -Oz -O1");
	expect(&a, "-O", 1, 0, NULL);
	applied_release(&a);
	/* -O levels do not touch -f flags (what they imply is not modelled),
	 * and -Wall is not an -O. */
	one(&a, "-fno-tree-ch -O2", "gcc -fno-tree-ch -O2 -O0 -Wall -Os1x");
	expect(&a, "-fno-tree-ch", 1, 0, NULL);
	expect(&a, "-O2", 0, 1, "-O0");
	applied_release(&a);
	/* -g levels: -g is -g2. */
	one(&a, "-g2 -g1", "gcc -g1 -g");
	expect(&a, "-g2", 1, 0, NULL);
	expect(&a, "-g1", 0, 1, "-g");
	applied_release(&a);
}

static void test_applied__values(void **state)
{
	struct applied a;

	/* -falign-functions, its negation and its values are one kind. */
	one(&a, "-falign-functions=32 -falign-loops=16 -falign-jumps",
	    "gcc -falign-functions=32 -fno-align-functions -falign-loops=8 -falign-loops=16 "
	    "-falign-jumps=4");
	expect(&a, "-falign-functions=32", 0, 1, "-fno-align-functions");
	expect(&a, "-falign-loops=16", 1, 0, NULL);
	expect(&a, "-falign-jumps", 0, 1, "-falign-jumps=4");
	applied_release(&a);

	/* -m: negation and values. */
	one(&a, "-mno-red-zone -march=armv7-a -mthumb",
	    "gcc -mno-red-zone -mred-zone -march=armv5te -march=armv7-a -marm");
	expect(&a, "-mno-red-zone", 0, 1, "-mred-zone");
	expect(&a, "-march=armv7-a", 1, 0, NULL);
	expect(&a, "-mthumb", 0, 0, NULL); /* -marm vs -mthumb: not modelled */
	applied_release(&a);

	/* -X=V in general, and --param in both spellings. */
	one(&a, "-std=gnu11 --param max-inline-insns-auto=30 --param=early-inlining-insns=7",
	    "gcc -std=gnu11 -std=c99 --param=max-inline-insns-auto=30 "
	    "--param early-inlining-insns=9");
	expect(&a, "-std=gnu11", 0, 1, "-std=c99");
	expect(&a, "--param=max-inline-insns-auto=30", 1, 0, NULL);
	expect(&a, "--param=early-inlining-insns=7", 0, 1, "--param=early-inlining-insns=9");
	applied_release(&a);

	/* Macros: -D X is -DX, -DX is -DX=1, -UX undoes it. */
	one(&a, "-D FAST -DSLOW=1 -DMODE=2 -DGONE",
	    "gcc -DFAST -DSLOW -DMODE=3 -DGONE -UGONE");
	expect(&a, "-DFAST", 1, 0, NULL);
	expect(&a, "-DSLOW=1", 1, 0, NULL);
	expect(&a, "-DMODE=2", 0, 1, "-DMODE=3");
	expect(&a, "-DGONE", 0, 1, "-UGONE");
	applied_release(&a);
}

static void test_applied__accumulating_and_exact(void **state)
{
	struct applied a;

	/* Sanitizers and -Werror=X add up; their negation removes one. */
	one(&a, "-fsanitize=address -fsanitize=undefined -Werror=format",
	    "gcc -fsanitize=address -fsanitize=undefined -fno-sanitize=undefined "
	    "-Werror=format -Werror=shadow");
	expect(&a, "-fsanitize=address", 1, 0, NULL);
	expect(&a, "-fsanitize=undefined", 0, 1, "-fno-sanitize=undefined");
	expect(&a, "-Werror=format", 1, 0, NULL);
	applied_release(&a);

	/* Pass-through and plain switches: present or absent. */
	one(&a, "-Wl,-O1 -pipe -flto", "gcc -Wl,--as-needed -pipe -flto=auto");
	expect(&a, "-Wl,-O1", 0, 0, NULL);
	expect(&a, "-pipe", 1, 0, NULL);
	expect(&a, "-flto", 0, 1, "-flto=auto");
	applied_release(&a);
}

static void test_applied__shell_words(void **state)
{
	struct applied a;
	char **w;
	size_t n;

	/* Command lines split as sh splits them: kbuild quotes whole words. */
	one(&a, "-fno-reorder-blocks -DNAME=\"a b\"",
	    "cmd_net/core/dev.o := gcc '-fno-reorder-blocks' '-DNAME=a b' -c -o dev.o dev.c");
	expect(&a, "-fno-reorder-blocks", 1, 0, NULL);
	expect(&a, "-DNAME=a b", 1, 0, NULL);
	applied_release(&a);

	n = applied_words(&w, "a\\ b \"c\\\"d\" 'e\\f' -D X --param n=1 -include f.h", 0);
	assert_int_equal(n, 6);
	assert_string_equal(w[0], "a b");
	assert_string_equal(w[1], "c\"d");
	assert_string_equal(w[2], "e\\f");
	assert_string_equal(w[3], "-DX");
	assert_string_equal(w[4], "--param=n=1");
	assert_string_equal(w[5], "-include=f.h");
	applied_lines_free(w, n);

	/* Recorded switches are not shell text: quotes are kept. */
	n = applied_words(&w, "GNU C17 -fprofile-use=/a'b", 1);
	assert_int_equal(n, 3);
	assert_string_equal(w[2], "-fprofile-use=/a'b");
	applied_lines_free(w, n);
}

static void test_applied__counts_over_lines(void **state)
{
	char *lines[] = {
		"gcc -O2 -fno-reorder-blocks -c a.c",
		"gcc -O2 -fno-reorder-blocks -freorder-blocks -c b.c",
		"gcc -O2 -c c.c",
		"gcc -O2 -fno-reorder-blocks -c d.c",
	};
	struct applied a;
	struct strbuf sb = STRBUF_INIT;

	/* Non-switch words are not judged, a repeated flag is judged once. */
	applied_analyse(&a, "-O2 -fno-reorder-blocks notaflag -O2", lines, 4, 0);
	assert_int_equal(a.nflags, 2);
	assert_int_equal(a.lines, 4);
	expect(&a, "-O2", 4, 0, NULL);
	expect(&a, "-fno-reorder-blocks", 2, 1, "-freorder-blocks");

	assert_int_equal(applied_missed_list(&sb, &a), 1);
	assert_string_equal(sb.buf, "-fno-reorder-blocks");
	strbuf_reset(&sb);
	assert_int_equal(applied_describe(&sb, &a, "w: "), 1);
	assert_string_equal(sb.buf, "w: -fno-reorder-blocks in effect in 2 of 4 compiler command "
			    "lines (overridden by -freorder-blocks in 1; absent from 1)\n");
	strbuf_release(&sb);
	applied_release(&a);
}

static void test_applied__unrecorded_kinds(void **state)
{
	char *lines[] = { "GNU C17 12.2.0 -mtune=znver3 -march=znver3 -O2 -fno-tree-ch" };
	struct applied a;
	struct strbuf sb = STRBUF_INIT;

	/* GCC never records -D, -W, -pipe or -march=native: not judged. */
	applied_analyse(&a, "-O2 -DX -Wall -pipe -march=native -fno-tree-ch -fno-ipa-cp",
			lines, 1, 1);
	assert_true(a.recorded);
	assert_true(find_flag(&a, "-DX")->unrecorded);
	assert_true(find_flag(&a, "-Wall")->unrecorded);
	assert_true(find_flag(&a, "-pipe")->unrecorded);
	assert_true(find_flag(&a, "-march=native")->unrecorded);
	assert_false(find_flag(&a, "-fno-ipa-cp")->unrecorded);
	assert_int_equal(applied_missed_list(&sb, &a), 1);
	assert_string_equal(sb.buf, "-fno-ipa-cp");
	strbuf_reset(&sb);
	applied_describe(&sb, &a, "");
	assert_non_null(strstr(sb.buf, "in effect in 0 of 1 recorded switch sets (absent from 1)"));
	strbuf_release(&sb);
	applied_release(&a);

	/* The same flags judged against a command line: all of them count. */
	one(&a, "-DX -pipe", "gcc -O2 -c x.c");
	assert_false(find_flag(&a, "-DX")->unrecorded);
	expect(&a, "-DX", 0, 0, NULL);
	applied_release(&a);
}

static void test_applied__no_lines(void **state)
{
	struct applied a;
	struct strbuf sb = STRBUF_INIT;

	applied_analyse(&a, "-fno-reorder-blocks", NULL, 0, 1);
	a.note = xstrdup("no .GCC.command.line in prog");
	/* Nothing judged: not a missed flag, but a problem to tell. */
	assert_int_equal(applied_missed_list(&sb, &a), 0);
	assert_int_equal(applied_describe(&sb, &a, "w: "), 1);
	assert_string_equal(sb.buf, "w: no .GCC.command.line in prog\n");
	strbuf_release(&sb);
	applied_release(&a);

	/* Not checked at all: nothing to say. */
	assert_int_equal(applied_describe(&sb, &a, "w: "), 0);
	assert_int_equal(sb.len, 0);
}

static void test_applied__merge_and_copy(void **state)
{
	char *l1[] = { "gcc -fno-reorder-blocks -freorder-blocks", "gcc -fno-reorder-blocks" };
	char *l2[] = { "gcc -fno-reorder-blocks", "gcc -fno-reorder-blocks" };
	struct applied a = APPLIED_INIT, b, c, copy, unchecked = APPLIED_INIT;
	struct strbuf sb = STRBUF_INIT;

	applied_analyse(&b, "-fno-reorder-blocks", l1, 2, 0);
	applied_analyse(&c, "-fno-reorder-blocks -O2", l2, 2, 0);
	applied_merge(&a, &unchecked);
	assert_false(a.checked);
	applied_merge(&a, &b);
	applied_merge(&a, &unchecked);
	applied_merge(&a, &c);
	assert_int_equal(a.builds, 2);
	assert_int_equal(a.lines, 4);
	expect(&a, "-fno-reorder-blocks", 3, 1, "-freorder-blocks");
	expect(&a, "-O2", 0, 0, NULL);
	applied_describe(&sb, &a, "");
	assert_non_null(strstr(sb.buf, "-fno-reorder-blocks in effect in 3 of 4 compiler command "
				       "lines of 2 builds"));
	strbuf_release(&sb);

	applied_copy(&copy, &a);
	applied_release(&a);
	expect(&copy, "-fno-reorder-blocks", 3, 1, "-freorder-blocks");
	applied_release(&copy);
	applied_release(&b);
	applied_release(&c);
}

/* The kernel's case: -Os in one file, -O3 in another, after KCFLAGS' -O2.
 * Each overriding switch is named once, over lines and over builds. */
static void test_applied__several_overriders(void **state)
{
	char *l1[] = {
		"gcc -O2 -c a.c",
		"gcc -O2 -Os -c compressed/string.c",
		"gcc -O2 -O3 -c lz4/lz4_decompress.c",
		"gcc -O2 -Os -c other.c",
	};
	char *l2[] = { "gcc -O2 -Og -c x.c", "gcc -O2 -O3 -c y.c" };
	struct applied a = APPLIED_INIT, b, c;
	struct strbuf sb = STRBUF_INIT;

	applied_analyse(&b, "-O2", l1, 4, 0);
	expect(&b, "-O2", 1, 3, "-Os or -O3");
	applied_describe(&sb, &b, "");
	assert_string_equal(sb.buf, "-O2 in effect in 1 of 4 compiler command lines "
			    "(overridden by -Os or -O3 in 3)\n");
	applied_analyse(&c, "-O2", l2, 2, 0);
	expect(&c, "-O2", 0, 2, "-Og or -O3");
	applied_merge(&a, &b);
	applied_merge(&a, &c);
	expect(&a, "-O2", 1, 5, "-Os or -O3 or -Og");
	strbuf_release(&sb);
	applied_release(&a);
	applied_release(&b);
	applied_release(&c);
}

static void test_applied__section_lines(void **state)
{
	/* GCC >= 11: one producer string per translation unit. */
	static const char modern[] =
		"GNU C17 12.2.0 -mtune=generic -O2 -fno-reorder-blocks\0"
		"GNU C17 12.2.0 -mtune=generic -O2\0";
	/* GCC <= 10: one string per switch, merged by the linker. */
	static const char old[] = "-mtune=generic\0-march=x86-64\0-O2\0-imultiarch x86_64\0"
				  "-fno-reorder-blocks\0";
	char **lines;
	size_t n;

	n = applied_section_lines(&lines, modern, sizeof(modern) - 1);
	assert_int_equal(n, 2);
	assert_string_equal(lines[0], "GNU C17 12.2.0 -mtune=generic -O2 -fno-reorder-blocks");
	assert_string_equal(lines[1], "GNU C17 12.2.0 -mtune=generic -O2");
	applied_lines_free(lines, n);

	n = applied_section_lines(&lines, old, sizeof(old) - 1);
	assert_int_equal(n, 1);
	assert_string_equal(lines[0], "-mtune=generic -march=x86-64 -O2 -imultiarch x86_64 "
				      "-fno-reorder-blocks");
	applied_lines_free(lines, n);

	/* No trailing NUL, empty strings, nothing at all. */
	n = applied_section_lines(&lines, "\0\0GNU C a b", 11);
	assert_int_equal(n, 1);
	assert_string_equal(lines[0], "GNU C a b");
	applied_lines_free(lines, n);
	n = applied_section_lines(&lines, "", 0);
	assert_int_equal(n, 0);
	applied_lines_free(lines, n);

	n = applied_text_lines(&lines, "gcc -c a.c\n\n  \ngcc -c b.c", 25);
	assert_int_equal(n, 2);
	assert_string_equal(lines[1], "gcc -c b.c");
	applied_lines_free(lines, n);
}

#define T(name) cmocka_unit_test(name)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_applied__last_switch_wins),
		T(test_applied__opt_levels),
		T(test_applied__values),
		T(test_applied__accumulating_and_exact),
		T(test_applied__shell_words),
		T(test_applied__counts_over_lines),
		T(test_applied__unrecorded_kinds),
		T(test_applied__no_lines),
		T(test_applied__merge_and_copy),
		T(test_applied__several_overriders),
		T(test_applied__section_lines),
	};

	return cmocka_run_group_tests_name("applied", tests, NULL, NULL);
}
