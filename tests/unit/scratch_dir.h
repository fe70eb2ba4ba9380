/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A scratch directory per test, as cmocka setup/teardown functions: *state
 * is its path (malloced) while the test runs; teardown removes the tree.
 * Shared by the unit tests that write files (test_elf.c, test_size.c):
 * include after <cmocka.h> and "tuner/util.h".
 */
#ifndef TUNER_TEST_SCRATCH_DIR_H
#define TUNER_TEST_SCRATCH_DIR_H

#include <stdlib.h>

static int setup_dir(void **state)
{
	char tmpl[] = "/tmp/tuner-unit-XXXXXX";

	if (!mkdtemp(tmpl))
		return -1;
	*state = xstrdup(tmpl);
	return 0;
}

static int teardown_dir(void **state)
{
	int ret = remove_tree(*state);

	free(*state);
	return ret;
}

#endif
