/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for uarch_score, the uarch-model parsers: exact arithmetic on
 * hand-written plugin reports, every parser name, the machine check and
 * every error; and parse_value() reaching them.
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

#include "formats/parse.h"
#include "tuner/uarch_score.h"
#include "tuner/util.h"

#define A9_MACHINE "l1i=32768:4:32:random,l1d=32768:4:32:random,l2=524288:16:32:rr," \
		   "dir=gshare:4096:10,btb=512:2,ras=8,indirect=btb,writeback=on"

/* Counted: 10 packets, 20000 insns, 100 I misses (10 to DRAM), 30 + 20 D
 * misses (5 to DRAM), 3000 taken, 40 + 10 + 5 + 5 mispredicts. The rest
 * region has other numbers that must not count. */
#define REPORT(machine) \
	"uarch-report 1\n" \
	"arch arm\n" \
	"config " machine "\n" \
	"region counted\n" \
	"insns 20000\nblocks 4000\nl1i_access 9000\nl1i_miss 100\nl2i_miss 10\n" \
	"l1d_read 5000\nl1d_write 2000\nl1d_read_miss 30\nl1d_write_miss 20\n" \
	"l1d_writeback 12\nl2d_miss 5\nl2_wb_miss 1\n" \
	"branches 3500\ncond 2000\ncond_taken 1500\ntaken 3000\ncalls 300\nreturns 300\n" \
	"indirect 50\nmp_direction 40\nmp_btb 10\nmp_target 5\nmp_return 5\n" \
	"undecoded 0\nasync 0\n" \
	"region rest\n" \
	"insns 99999\nblocks 1\nl1i_access 1\nl1i_miss 999\nl2i_miss 999\n" \
	"l1d_read 1\nl1d_write 1\nl1d_read_miss 999\nl1d_write_miss 999\n" \
	"l1d_writeback 0\nl2d_miss 999\nl2_wb_miss 0\n" \
	"branches 1\ncond 1\ncond_taken 1\ntaken 1\ncalls 0\nreturns 0\n" \
	"indirect 0\nmp_direction 999\nmp_btb 0\nmp_target 0\nmp_return 0\n" \
	"undecoded 5\nasync 0\n" \
	"end\n"

static const char doc[] = "natbench: packets=10 bytes=15000 tx=10 checksum=abcd\n" REPORT(A9_MACHINE);

static struct ua_config a9(void)
{
	struct ua_config c;
	char err[128];

	assert_int_equal(ua_config_preset(&c, "cortex-a9", err, sizeof(err)), 0);
	return c;
}

static void assert_near(double got, double want)
{
	if (!(fabs(got - want) <= 1e-9 * fabs(want) + 1e-12))
		fail_msg("got %.12g, want %.12g", got, want);
}

static void test_uarch_score__arithmetic(void **state)
{
	struct ua_config c = a9();
	struct ua_score s;
	/* Per packet: 2000 insns; 10 I misses x 19; 5 D misses x 12;
	 * 1.5 L2 misses x 100; 300 taken x 0; 6 mispredicts x 8. */
	double cyc = 2000 + 10 * 19.0 + 5 * 12.0 + 1.5 * 100 + 0 + 6 * 8.0;

	(void)state;
	assert_int_equal(ua_score_text(&s, &c, 1, doc, strlen(doc)), 0);
	assert_near(s.packets, 10);
	assert_near(s.bytes, 15000);
	assert_string_equal(s.arch, "arm");
	assert_near(s.c_insn, 2000);
	assert_near(s.c_l1i, 190);
	assert_near(s.c_l1d, 60);
	assert_near(s.c_l2, 150);
	assert_near(s.c_taken, 0);
	assert_near(s.c_mispredict, 48);
	assert_near(s.cycles_per_packet, cyc);
	assert_near(s.mbps, 1500 * 8 * 1400.0 / cyc);
	assert_int_equal(s.cnt[UA_REST].undecoded, 5);

	/* Other penalties weigh the same counters: nothing runs again. */
	c.taken = 1;
	c.mispredict = 13;
	c.clock_mhz = 880;
	assert_int_equal(ua_score_text(&s, &c, 1, doc, strlen(doc)), 0);
	cyc = 2000 + 190 + 60 + 150 + 300 + 6 * 13.0;
	assert_near(s.cycles_per_packet, cyc);
	assert_near(s.mbps, 1500 * 8 * 880.0 / cyc);
}

static void test_uarch_score__parser_names(void **state)
{
	struct ua_config c = a9();
	const struct parse_models mm = { NULL, &c };
	const struct {
		const char *name;
		double want;
	} cases[] = {
		{ "uarch-model:cycles", 2448 },
		{ "uarch-model:insns", 2000 },
		{ "uarch-model:l1i-misses", 10 },
		{ "uarch-model:l1d-misses", 5 },
		{ "uarch-model:l2-misses", 1.5 },
		{ "uarch-model:mispredicts", 6 },
		{ "uarch-model:taken", 300 },
		{ "uarch-model", 1500 * 8 * 1400.0 / 2448 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		double v = NAN;

		assert_true(ua_score_parser_valid(cases[i].name));
		assert_true(parse_valid(cases[i].name));
		if (parse_value(&v, cases[i].name, &mm, doc, strlen(doc)) < 0)
			fail_msg("%s: %s", cases[i].name, tn_errmsg());
		assert_near(v, cases[i].want);
	}
	assert_false(ua_score_parser_valid("uarch-model:ir"));
	assert_false(parse_valid("uarch-model:"));
}

/* The packets line may come after the report; CRLF-free only. */
static void test_uarch_score__packets_after(void **state)
{
	struct ua_config c = a9();
	struct ua_score s;
	const char after[] = REPORT(A9_MACHINE) "natbench: packets=10 bytes=15000\n";

	(void)state;
	assert_int_equal(ua_score_text(&s, &c, 1, after, strlen(after)), 0);
	assert_near(s.cycles_per_packet, 2448);
}

static void expect_error(const char *text, const char *want, int check)
{
	struct ua_config c = a9();
	struct ua_score s;

	if (ua_score_text(&s, &c, check, text, text ? strlen(text) : 0) != -1)
		fail_msg("accepted: %s", text ? text : "(null)");
	if (!strstr(tn_errmsg(), want))
		fail_msg("message '%s' lacks '%s'", tn_errmsg(), want);
	assert_true(!strncmp(tn_errmsg(), "uarch-model: ", 13));
}

static void test_uarch_score__errors(void **state)
{
	char *cut, *twice, *dup;
	const char other[] = "packets=10 bytes=1\n" REPORT("l1i=16384:4:32:lru");

	(void)state;
	expect_error(NULL, "no 'uarch-report'", 1);
	expect_error("packets=1 bytes=2\n", "no 'uarch-report'", 1);
	expect_error(REPORT(A9_MACHINE), "no line with packets=N and bytes=B", 1);
	expect_error("packets=0 bytes=0\n" REPORT(A9_MACHINE), "nothing to divide by", 1);
	/* The study's machine must be the report's... */
	expect_error(other, "the report was made for 'l1i=16384:4:32:lru'", 1);
	/* ...unless the caller says not to check. */
	{
		struct ua_config c = a9();
		struct ua_score s;

		assert_int_equal(ua_score_text(&s, &c, 0, other, strlen(other)), 0);
	}
	/* A report cut short (no end) is not scored. */
	cut = xstrdup(doc);
	*strstr(cut, "region rest") = '\0';
	expect_error(cut, "no 'end' line", 1);
	free(cut);
	twice = xasprintf("%s%s", doc, REPORT(A9_MACHINE));
	expect_error(twice, "a second report", 1);
	free(twice);
	dup = xasprintf("packets=1 bytes=1\nuarch-report 1\nregion counted\ninsns 1\ninsns 2\nend\n");
	expect_error(dup, "counter given twice", 0);
	free(dup);
	expect_error("packets=1 bytes=1\nuarch-report 1\nregion counted\ninsns 1\nend\n",
		     "lacks 'blocks'", 0);
	expect_error("packets=1 bytes=1\nuarch-report 1\ninsns 1\nend\n", "before any region", 0);
	expect_error("packets=1 bytes=1\nuarch-report 1\nregion kernel\nend\n", "unknown region", 0);
	expect_error("packets=1 bytes=1\nuarch-report 2\nend\n", "unknown report version", 0);
	expect_error("packets=1 bytes=1\nuarch-report 1\nregion counted\ninsns many\nend\n",
		     "not a count", 0);
	/* Through parse_value: no core to score with. */
	{
		double v;

		assert_int_equal(parse_value(&v, "uarch-model", NULL, doc, strlen(doc)), -1);
		assert_non_null(strstr(tn_errmsg(), "measure.uarch"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uarch_score__arithmetic),
		cmocka_unit_test(test_uarch_score__parser_names),
		cmocka_unit_test(test_uarch_score__packets_after),
		cmocka_unit_test(test_uarch_score__errors),
	};

	return cmocka_run_group_tests_name("uarch_score", tests, NULL, NULL);
}
