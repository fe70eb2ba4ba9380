/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for lab (include/tuner/lab.h): a testbed's env expanded from
 * tuner's environment, its secrets, and scrubbing them from a log.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tuner/lab.h"
#include "tuner/util.h"

static struct testbed make_tb(char **names, char **values, size_t n)
{
	struct testbed tb = { 0 };

	tb.name = "r1";
	tb.env_name = names;
	tb.env_value = values;
	tb.nenv = n;
	tb.loc.line = 9;
	tb.loc.col = 5;
	return tb;
}

static void test_lab__expand(void **state)
{
	char *names[] = { "HOST", "PASS", "KEY", "EMPTY" };
	char *values[] = { "10.0.0.1", "p=${TL_SECRET}!", "${TL_HOME}/.ssh/id ${TL_SECRET}", "${TL_EMPTY}" };
	struct testbed tb = make_tb(names, values, 4);
	struct lab_env e;

	setenv("TL_SECRET", "hunter2", 1);
	setenv("TL_HOME", "/home/lab", 1);
	setenv("TL_EMPTY", "", 1);
	assert_int_equal(lab_env_expand(&e, &tb, "s.yaml"), 0);
	assert_int_equal(e.nvars, 4);
	assert_string_equal(e.vars[0], "HOST=10.0.0.1");
	assert_string_equal(e.vars[1], "PASS=p=hunter2!");
	assert_string_equal(e.vars[2], "KEY=/home/lab/.ssh/id hunter2");
	assert_string_equal(e.vars[3], "EMPTY=");
	assert_null(e.vars[4]);
	/* Each non-empty value a reference gave is a secret. */
	assert_int_equal(e.nsecrets, 3);
	assert_string_equal(e.secrets[0], "hunter2");
	assert_string_equal(e.secrets[1], "/home/lab");
	lab_env_release(&e);
	assert_null(lab_env_unset(&tb));
}

static void test_lab__unset(void **state)
{
	char *names[] = { "A", "B" };
	char *values[] = { "${TL_NOPE_1}", "x${TL_NOPE_2}" };
	struct testbed tb = make_tb(names, values, 2);
	struct lab_env e;
	char *unset;

	unsetenv("TL_NOPE_1");
	unsetenv("TL_NOPE_2");
	assert_int_equal(lab_env_expand(&e, &tb, "s.yaml"), -1);
	assert_string_equal(tn_errmsg(), "s.yaml:9:5: testbed 'r1': env A names ${TL_NOPE_1}, "
			    "which is not set in tuner's environment");
	assert_int_equal(tn_errkind(), TN_ERR_INPUT);
	assert_null(e.vars);
	unset = lab_env_unset(&tb);
	assert_string_equal(unset, "${TL_NOPE_1}, ${TL_NOPE_2}");
	free(unset);
}

static void test_lab__scrub(void **state)
{
	char dir[] = "/tmp/tuner-lab-XXXXXX";
	char *secrets[] = { "hunter2", "hunter" };
	char *path, *buf;
	size_t len;
	const char *head = "hunter2 before the mark\n";
	const char *tail = "ssh -i hunter2: hunter2hunter2 and hunter, hunt\n";

	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/log", dir);
	/* No file: nothing to do. */
	assert_int_equal(lab_scrub(path, 0, secrets, 2), 0);
	assert_int_equal(write_file_atomic(path, head, strlen(head)), 0);
	assert_int_equal(lab_log_mark(path), (off_t)strlen(head));
	log_append(path, "%s", tail);
	assert_int_equal(lab_scrub(path, (off_t)strlen(head), secrets, 2), 0);
	assert_int_equal(read_file(&buf, &len, path), 0);
	/* Before the mark: what another step wrote, left alone; after it,
	 * every secret, the longer first where they overlap. */
	assert_string_equal(buf, "hunter2 before the mark\nssh -i ***: ****** and ***, hunt\n");
	free(buf);
	/* No secrets: the file is not touched. */
	assert_int_equal(lab_scrub(path, 0, secrets, 0), 0);
	unlink(path);
	rmdir(dir);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lab__expand),
		cmocka_unit_test(test_lab__unset),
		cmocka_unit_test(test_lab__scrub),
	};

	return cmocka_run_group_tests_name("lab", tests, NULL, NULL);
}
