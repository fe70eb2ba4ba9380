/* SPDX-License-Identifier: GPL-2.0-or-later */
/* numfmt: a table of figures and how a person is shown them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tuner/numfmt.h"

static const struct {
	double v;
	int sig, sign;
	const char *want;
} cases[] = {
	{ 4.6333e7, 4, 0, "46.33 M" },   /* was 4.6333e+07 */
	{ 4.6333e7, 3, 0, "46.3 M" },
	{ 141692, 4, 0, "141.7 k" },     /* was 141692 */
	{ 1e4, 2, 0, "10 k" },           /* was 1e+04 */
	{ 6.96667, 3, 1, "+6.97" },      /* was +6.96667 */
	{ 4.88282, 3, 1, "+4.88" },
	{ -9.05051, 3, 1, "-9.05" },
	{ 0, 3, 1, "+0" },
	{ -0.0, 3, 1, "+0" },
	{ 2202, 4, 0, "2202" },          /* whole numbers under 10,000 in full */
	{ 9999, 2, 0, "9999" },
	{ 998.726, 4, 0, "998.7" },
	{ 12.5, 4, 0, "12.5" },          /* no trailing zeros */
	{ 0.85, 2, 0, "0.85" },
	{ 0.000123456, 3, 0, "0.000123" },
	{ 9999.7, 4, 0, "10 k" },        /* rounds into the next range */
	{ 999999, 3, 0, "1 M" },
	{ 1.5e9, 4, 0, "1.5 G" },
	{ -132792, 4, 1, "-132.8 k" },
	{ 132792, 4, 1, "+132.8 k" },
	{ 2.5e12, 3, 0, "2.5 T" },
	{ 3e18, 3, 0, "3.00e+18" },
	{ NAN, 3, 0, "?" },
	{ INFINITY, 3, 1, "+inf" },
	{ -INFINITY, 3, 0, "-inf" },
};

static void test_numfmt__values(void **state)
{
	char buf[NUMFMT_LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].sign)
			numfmt_signed(buf, sizeof(buf), cases[i].v, cases[i].sig);
		else
			numfmt(buf, sizeof(buf), cases[i].v, cases[i].sig);
		if (strcmp(buf, cases[i].want))
			fail_msg("%.17g (%d digits%s): '%s', want '%s'", cases[i].v, cases[i].sig,
				 cases[i].sign ? ", signed" : "", buf, cases[i].want);
	}
}

static void test_numfmt__p(void **state)
{
	char buf[NUMFMT_LEN];

	(void)state;
	numfmt_p(buf, sizeof(buf), 0);
	assert_string_equal(buf, "p < 1e-16");          /* was p = 0 */
	numfmt_p(buf, sizeof(buf), 3.2e-5);
	assert_string_equal(buf, "p = 3.2e-05");
	numfmt_p(buf, sizeof(buf), 0.0123);
	assert_string_equal(buf, "p = 0.012");
	numfmt_p(buf, sizeof(buf), 1);
	assert_string_equal(buf, "p = 1");
	numfmt_p(buf, sizeof(buf), NAN);
	assert_string_equal(buf, "p = ?");
}

static void test_numfmt__plural(void **state)
{
	(void)state;
	assert_string_equal(numfmt_s(1), "");
	assert_string_equal(numfmt_s(0), "s");
	assert_string_equal(numfmt_s(2), "s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numfmt__values),
		cmocka_unit_test(test_numfmt__p),
		cmocka_unit_test(test_numfmt__plural),
	};

	return cmocka_run_group_tests_name("numfmt", tests, NULL, NULL);
}
