/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for cgfunc: per-function costs from cachegrind output files,
 * hand-written in the format valgrind writes, and their damaged variants.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/cgfunc.h"
#include "tuner/util.h"

/*
 * Two counted files (fp_a.c and the header fp_util.h inlined into it) and
 * one that is not (gen.c). hot's lines in fp_a.c and fp_util.h add up:
 *   hot:  Ir 100+40+5 = 145, I1mr 3+1 = 4, ILmr 1, D1mr 2, D1mw 1, DLmr 1
 *   cold: Ir 10 (trailing counts left out), I1mr 1
 * events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
 */
static const char good[] =
	"desc: I1 cache:         32768 B, 32 B, 4-way associative\n"
	"desc: D1 cache:         32768 B, 32 B, 4-way associative\n"
	"desc: LL cache:         524288 B, 32 B, 8-way associative\n"
	"cmd: /tmp/natbench-score.ab/natbench --seed 1 --packets 30000\n"
	"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
	"fl=/src/fp_a.c\n"
	"fn=hot\n"
	"10 100 3 1 20 2 1 5 0 0\n"
	"11 5 0 0 0 0 0 0 0 0\n"
	"fn=cold\n"
	"30 10 1\n"
	"fl=gen.c\n"
	"fn=generate\n"
	"5 1000 50 5 100 10 2 50 5 1\n"
	"fl=/src/fp_util.h\n"
	"fn=hot\n"
	"7 40 1 0 4 0 0 2 1 0\n"
	"summary: 1155 55 6 124 12 3 57 6 1\n";

static void load(struct cg_profile *p, const char *text)
{
	struct cg_model m;

	cg_model_init(&m);
	assert_int_equal(cgfunc_parse(p, &m, text, strlen(text)), 0);
	cg_model_release(&m);
}

static void expect_error(const char *text, const char *needle)
{
	struct cg_profile p;
	struct cg_model m;

	cg_model_init(&m);
	assert_int_equal(cgfunc_parse(&p, &m, text, strlen(text)), -1);
	if (!strstr(tn_errmsg(), needle))
		fail_msg("error '%s' does not say '%s'", tn_errmsg(), needle);
	assert_int_equal(p.nfuncs, 0);
	assert_null(p.funcs);
	cg_model_release(&m);
}

static void test_cgfunc__functions(void **state)
{
	struct cg_profile p;
	const struct cg_func *hot, *cold;

	(void)state;
	load(&p, good);
	assert_int_equal(p.i1.size, 32768);
	assert_int_equal(p.i1.line, 32);
	assert_int_equal(p.i1.assoc, 4);
	assert_string_equal(p.cmd, "/tmp/natbench-score.ab/natbench --seed 1 --packets 30000");
	/* generate is in an uncounted file: left out. */
	assert_int_equal(p.nfuncs, 2);
	assert_null(cg_profile_find(&p, "generate"));
	hot = cg_profile_find(&p, "hot");
	cold = cg_profile_find(&p, "cold");
	assert_non_null(hot);
	assert_non_null(cold);
	assert_true(hot == &p.funcs[0]); /* most cycles first */
	assert_true(hot->ev[CG_IR] == 145);
	assert_true(hot->ev[CG_I1MR] == 4);
	assert_true(hot->ev[CG_ILMR] == 1);
	assert_true(hot->ev[CG_D1MR] == 2);
	assert_true(hot->ev[CG_DLMR] == 1);
	assert_true(hot->ev[CG_D1MW] == 1);
	assert_true(hot->ev[CG_DLMW] == 0);
	/* 145 + 12 (4 + 2 + 1) + 100 (1 + 1 + 0) */
	assert_true(hot->cycles == 429);
	assert_string_equal(hot->file, "/src/fp_a.c"); /* most of its Ir */
	assert_true(cold->ev[CG_IR] == 10 && cold->ev[CG_I1MR] == 1 && cold->ev[CG_D1MR] == 0);
	assert_true(cold->cycles == 22);
	assert_true(p.total[CG_IR] == 155);
	assert_true(p.cycles == 451);
	cg_profile_release(&p);
}

static void test_cgfunc__model(void **state)
{
	struct cg_profile p;
	struct cg_model m;

	(void)state;
	cg_model_init(&m);
	m.l1_miss = 19;
	m.ll_miss = 154;
	free(m.files);
	m.files = xstrdup("*.c"); /* gen.c counts now, fp_util.h not */
	assert_int_equal(cgfunc_parse(&p, &m, good, strlen(good)), 0);
	assert_int_equal(p.nfuncs, 3);
	/* hot without its header lines: 105 + 19 (3 + 2 + 0) + 154 (1 + 1 + 0) */
	assert_true(cg_profile_find(&p, "hot")->cycles == 105 + 19 * 5 + 154 * 2);
	assert_string_equal(p.funcs[0].name, "generate");
	cg_profile_release(&p);
	cg_model_release(&m);
}

static void test_cgfunc__average(void **state)
{
	struct cg_profile a, b;
	const char *other =
		"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
		"fl=fp_a.c\nfn=hot\n1 55 1\nfn=newfn\n2 4000\n"
		"summary: 4055 1\n";

	(void)state;
	load(&a, good);
	load(&b, other);
	cg_profile_add(&a, &b);
	cg_profile_scale(&a, 0.5);
	assert_int_equal(a.nfuncs, 3);
	assert_string_equal(a.funcs[0].name, "newfn"); /* reordered */
	assert_true(cg_profile_find(&a, "hot")->ev[CG_IR] == (145 + 55) / 2.0);
	assert_true(cg_profile_find(&a, "hot")->cycles == (429 + 55 + 12) / 2.0);
	assert_true(cg_profile_find(&a, "newfn")->ev[CG_IR] == 2000);
	assert_true(a.total[CG_IR] == (155 + 4055) / 2.0);
	cg_profile_release(&a);
	cg_profile_release(&b);
}

static void test_cgfunc__tolerated(void **state)
{
	struct cg_profile p;
	/* Old event names, CRLF, a comment, a header line before events:,
	 * no desc: (geometry unknown), totals: instead of summary:. */
	const char *text = "version: 1\r\n"
			   "events: Ir I1mr I2mr D1mr D2mr D1mw D2mw\r\n"
			   "# a comment\n"
			   "\n"
			   "fl=fp_b.c\nfn=f\n3 7 1 0 2 1 0 0\n"
			   "totals: 7 1 0 2 1 0 0\n";

	(void)state;
	load(&p, text);
	assert_int_equal(p.nfuncs, 1);
	assert_int_equal(p.i1.line, 0);
	assert_null(p.cmd);
	assert_true(p.funcs[0].cycles == 7 + 12 * 3 + 100 * 1);
	cg_profile_release(&p);
}

static void test_cgfunc__damaged(void **state)
{
	char *cut;

	(void)state;
	/* Cut before the summary: truncated. */
	cut = xstrndup(good, (size_t)(strstr(good, "summary:") - good));
	expect_error(cut, "no 'summary:' line");
	free(cut);
	/* A count line missing: the summary disagrees. */
	cut = xstrdup(good);
	memcpy(strstr(cut, "11 5 0"), "11 4 0", 6);
	expect_error(cut, "the summary says");
	free(cut);
	expect_error("", "no 'events:' line");
	expect_error("natbench: packets=1\nhello\n", "not a cachegrind output file");
	expect_error("events: Ir\nfl=fp_a.c\nfn=f\n1 5\nsummary: 5\n", "--cache-sim=yes");
	expect_error("events: Ir I1mr ILmr D1mr D1mw DLmr DLmw\n1 2 3\nsummary: 2 3\n",
		     "counts before 'fl=' and 'fn='");
	expect_error("events: Ir I1mr ILmr D1mr D1mw DLmr DLmw\nfl=fp_a.c\nfn=f\n"
		     "1 2 3 4 5 6 7 8 9\n", "more counts than events");
	expect_error("events: Ir I1mr ILmr D1mr D1mw DLmr DLmw\nfl=fp_a.c\nfn=f\n1 2 x\n",
		     "not a count: 'x'");
	expect_error("events: Ir I1mr ILmr D1mr D1mw DLmr DLmw\nfl=fp_a.c\nfn=f\n"
		     "1 99999999999999999999\n", "not a count");
	expect_error("events: Ir I1mr ILmr D1mr D1mw DLmr DLmw\ncalls=1 2\n", "line 2: unexpected");
	expect_error("events: Ir I1mr ILmr D1mr D1mw DLmr DLmw\nsummary: 0\nfl=x\n",
		     "text after the summary");
	expect_error("events: Ir I1mr ILmr D1mr D1mw DLmr DLmw\nevents: Ir\n", "a second 'events:'");
	{
		const char nul[] = "events: Ir I1mr ILmr D1mr D1mw DLmr DLmw\nfl=a\0b\nsummary:\n";
		struct cg_profile p;
		struct cg_model m;

		cg_model_init(&m);
		assert_int_equal(cgfunc_parse(&p, &m, nul, sizeof(nul) - 1), -1);
		assert_non_null(strstr(tn_errmsg(), "NUL"));
		cg_model_release(&m);
	}
}

static void test_cgfunc__load(void **state)
{
	char tmpl[] = "/tmp/tuner-test-cgfunc-XXXXXX";
	struct cg_profile p;
	struct cg_model m;
	FILE *f;
	int fd;

	(void)state;
	cg_model_init(&m);
	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(good, f);
	fclose(f);
	assert_int_equal(cgfunc_load(&p, &m, tmpl), 0);
	assert_int_equal(p.nfuncs, 2);
	cg_profile_release(&p);
	f = fopen(tmpl, "w");
	fputs("events: Ir\n", f);
	fclose(f);
	assert_int_equal(cgfunc_load(&p, &m, tmpl), -1);
	assert_true(!strncmp(tn_errmsg(), tmpl, strlen(tmpl))); /* names the file */
	unlink(tmpl);
	assert_int_equal(cgfunc_load(&p, &m, tmpl), -1);
	cg_model_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgfunc__functions),
		cmocka_unit_test(test_cgfunc__model),
		cmocka_unit_test(test_cgfunc__average),
		cmocka_unit_test(test_cgfunc__tolerated),
		cmocka_unit_test(test_cgfunc__damaged),
		cmocka_unit_test(test_cgfunc__load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
