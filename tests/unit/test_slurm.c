/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for slurm: what squeue printed, read (slurm_read_answer()).
 * The executor itself runs end to end against a fake Slurm
 * (tests/e2e/t_slurm.sh) and a real one (tests/cluster).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "sys/slurm.h"

struct answer_case {
	const char *out;   /* squeue's stdout */
	int ret;           /* slurm_read_answer()'s */
	const char *state; /* when ret is 1 */
	const char *node;
	const char *junk;
};

static void test_slurm__answers(void **state)
{
	static const struct answer_case cases[] = {
		{ "RUNNING n7\n", 1, "RUNNING", "n7", "" },
		{ "COMPLETED fake1", 1, "COMPLETED", "fake1", "" },
		/* A pending job has no node yet. */
		{ "PENDING \n", 1, "PENDING", "", "" },
		{ "PENDING (null)\n", 1, "PENDING", "", "" },
		{ "  NODE_FAIL  n1 \r\n", 1, "NODE_FAIL", "n1", "" },
		/* squeue does not know the job: nothing at all. */
		{ "", 0, NULL, NULL, "" },
		{ NULL, 0, NULL, NULL, "" },
		{ "\n \n", 0, NULL, NULL, "" },
		/* A site wrapper's banner before the answer, or after it. */
		{ "*** Welcome to the cluster ***\nCOMPLETED n2\n", 1, "COMPLETED", "n2",
		  "*** Welcome to the cluster ***" },
		{ "FAILED n2\nMaintenance on Friday\n", 1, "FAILED", "n2", "Maintenance on Friday" },
		/* Only the banner: no answer. */
		{ "*** Welcome to the cluster ***\n", -1, NULL, NULL,
		  "*** Welcome to the cluster ***" },
		/* A word that looks like a state is not one ... */
		{ "WELCOME n1\n", -1, NULL, NULL, "WELCOME n1" },
		/* ... nor a state with more than a node after it ... */
		{ "RUNNING on n1\n", -1, NULL, NULL, "RUNNING on n1" },
		/* ... nor one in lower case. */
		{ "running n1\n", -1, NULL, NULL, "running n1" },
		/* The first answer counts (a job's several lines). */
		{ "RUNNING n1\nCOMPLETING n2\n", 1, "RUNNING", "n1", "" },
		/* Junk made printable. */
		{ "\033[1mhello\033[0m\n", -1, NULL, NULL, "?[1mhello?[0m" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct answer_case *c = &cases[i];
		char st[24] = "x", nd[64] = "x", junk[SLURM_JUNK_MAX];
		int ret = slurm_read_answer(st, nd, junk, c->out);

		assert_int_equal(ret, c->ret);
		if (ret == 1) {
			assert_string_equal(st, c->state);
			assert_string_equal(nd, c->node);
		} else {
			/* Left alone when there is no answer. */
			assert_string_equal(st, "x");
			assert_string_equal(nd, "x");
		}
		assert_string_equal(junk, c->junk);
	}
}

static void test_slurm__long_junk(void **state)
{
	char line[300], st[24], nd[64], junk[SLURM_JUNK_MAX];

	(void)state;
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	assert_int_equal(slurm_read_answer(st, nd, junk, line), -1);
	assert_true(strlen(junk) < SLURM_JUNK_MAX);
	assert_int_equal(strcmp(junk + strlen(junk) - 3, "..."), 0);
	assert_int_equal(strspn(junk, "a"), strlen(junk) - 3);
}

static void test_slurm__ended(void **state)
{
	(void)state;
	assert_true(slurm_state_ended("COMPLETED"));
	assert_true(slurm_state_ended("NODE_FAIL"));
	assert_false(slurm_state_ended("RUNNING"));
	assert_false(slurm_state_ended("COMPLETING"));
	assert_false(slurm_state_ended("***"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slurm__answers),
		cmocka_unit_test(test_slurm__long_junk),
		cmocka_unit_test(test_slurm__ended),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
