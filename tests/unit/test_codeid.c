/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * codeid: real programs built with cc. What only records how a program was
 * built (debug info, symbols, the -frecord-gcc-switches section, a GNU
 * build id) leaves the code id alone; code or loaded data that differ
 * change it; a file that is not ELF is identified by all its bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "build/codeid.h"
#include "tuner/util.h"
#include "scratch_dir.h"

static const char source[] =
	"int table[4] = { 1, 2, VALUE, 4 };\n"
	"int work(int x)\n{\n\tint s = 0;\n\tfor (int i = 0; i < x; i++)\n"
	"\t\ts += table[i & 3] * ((i & 1) ? i : -i);\n\treturn s;\n}\n"
	"int main(int c, char **v)\n{\n\t(void)v;\n\treturn work(c) & 1;\n}\n";

/* Builds dir/name from the source with cc and flags; its path. */
static char *build(void **state, const char *name, const char *flags)
{
	char *src = xasprintf("%s/prog.c", (char *)*state);
	char *out = xasprintf("%s/%s", (char *)*state, name);
	char *cmd = xasprintf("cc %s -o %s %s", flags, out, src);

	assert_int_equal(write_file_atomic(src, source, strlen(source)), 0);
	if (system(cmd) != 0)
		fail_msg("%s failed", cmd);
	free(cmd);
	free(src);
	return out;
}

static void id_of(char out[41], const char *path)
{
	if (codeid_file(out, path) < 0)
		fail_msg("codeid_file(%s): %s", path, tn_errmsg());
	assert_int_equal(strlen(out), 40);
}

static void test_codeid__build_records_do_not_count(void **state)
{
	char a[41], b[41], c[41];
	/* Both with a GNU build id: it hashes the whole file, so theirs
	 * differ. */
	char *plain = build(state, "plain", "-O2 -DVALUE=3 -Wl,--build-id=sha1");
	char *noted = build(state, "noted",
			    "-O2 -DVALUE=3 -DUNUSED=1 -g -frecord-gcc-switches -Wl,--build-id=sha1");
	char *cmd = xasprintf("cp %s %s.stripped && strip %s.stripped", noted, noted, noted);
	char *stripped = xasprintf("%s.stripped", noted);

	assert_int_equal(system(cmd), 0);
	id_of(a, plain);
	id_of(b, noted);
	id_of(c, stripped);
	assert_string_equal(a, b);
	assert_string_equal(a, c);
	free(plain);
	free(noted);
	free(stripped);
	free(cmd);
}

static void test_codeid__code_and_data_count(void **state)
{
	char o2[41], o0[41], data[41];
	char *a = build(state, "o2", "-O2 -DVALUE=3");
	char *b = build(state, "o0", "-O0 -DVALUE=3");
	char *c = build(state, "data", "-O2 -DVALUE=7");

	id_of(o2, a);
	id_of(o0, b);
	id_of(data, c);
	assert_string_not_equal(o2, o0);
	assert_string_not_equal(o2, data); /* only .data differs */
	free(a);
	free(b);
	free(c);
}

static void test_codeid__other_files_by_their_bytes(void **state)
{
	char x[41], y[41], z[41];
	char *p = xasprintf("%s/image", (char *)*state);
	char *q = xasprintf("%s/image2", (char *)*state);

	assert_int_equal(write_file_atomic(p, "zImage bytes", 12), 0);
	assert_int_equal(write_file_atomic(q, "zImage bytes", 12), 0);
	id_of(x, p);
	id_of(y, q);
	assert_string_equal(x, y);
	assert_int_equal(write_file_atomic(q, "zImage byteS", 12), 0);
	id_of(z, q);
	assert_string_not_equal(x, z);
	/* A truncated ELF header is an error, not a file hash. */
	assert_int_equal(write_file_atomic(q, "\177ELF\002\001", 6), 0);
	assert_int_equal(codeid_file(z, q), -1);
	assert_non_null(strstr(tn_errmsg(), q));
	free(p);
	free(q);
}

static void test_codeid__missing_file(void **state)
{
	char out[41];
	char *p = xasprintf("%s/none", (char *)*state);

	assert_int_equal(codeid_file(out, p), -1);
	assert_non_null(strstr(tn_errmsg(), p));
	free(p);
}

#define TD(name) cmocka_unit_test_setup_teardown(name, setup_dir, teardown_dir)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TD(test_codeid__build_records_do_not_count),
		TD(test_codeid__code_and_data_count),
		TD(test_codeid__other_files_by_their_bytes),
		TD(test_codeid__missing_file),
	};

	return cmocka_run_group_tests_name("codeid", tests, NULL, NULL);
}
