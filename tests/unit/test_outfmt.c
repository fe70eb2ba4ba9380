/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for outfmt's escaping (issue 39): a table of hostile inputs
 * and what each format makes of them, and a property over random strings:
 * Markdown text never carries an unescaped markup character, a code span
 * is never ended by its content, a CSV field never starts a formula.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tuner/outfmt.h"
#include "tuner/util.h"

static void check_str(char *got, const char *want, const char *in, int line)
{
	if (strcmp(got, want))
		fail_msg("line %d: '%s' gave '%s', want '%s'", line, in, got, want);
	free(got);
}
#define assert_md_text(in, want) check_str(outfmt_md_text(in), (want), (in), __LINE__)
#define assert_md_code(in, want) check_str(outfmt_md_code(in), (want), (in), __LINE__)

static char *csv(const char *v)
{
	struct strbuf sb = STRBUF_INIT;

	outfmt_csv_field(&sb, v);
	return strbuf_detach(&sb);
}
#define assert_csv(in, want) check_str(csv(in), (want), (in), __LINE__)

static void test_outfmt__md_text(void **state)
{
	(void)state;
	assert_md_text("Mbit/s", "Mbit/s");
	assert_md_text("nat_speed", "nat_speed");
	assert_md_text("<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert(1)\\>");
	assert_md_text("<script>x</script>", "\\<script\\>x\\</script\\>");
	assert_md_text("[a](javascript:x)", "[a\\](javascript:x)");
	assert_md_text("![i](http://x/t.png)", "![i\\](http://x/t.png)");
	assert_md_text("x [a](b) [c][d] [e]: f", "x [a\\](b) [c\\][d] [e\\]: f");
	assert_md_text("-9.6% [-11.5%, -7.8%]", "-9.6% [-11.5%, -7.8%]");
	assert_md_text("*bold* _em_ ~del~", "\\*bold\\* \\_em\\_ \\~del\\~");
	assert_md_text("`code`", "\\`code\\`");
	assert_md_text("a\\b", "a\\\\b");
	assert_md_text("# heading", "\\# heading");
	assert_md_text("issue #5", "issue #5");
	assert_md_text("two\nlines\r", "two lines ");
	assert_md_text("", "");
}

static void test_outfmt__md_code(void **state)
{
	(void)state;
	assert_md_code("-O2 -fno-tree-ch", "`-O2 -fno-tree-ch`");
	assert_md_code("-DX=`<img src=x onerror=alert(1)>`",
		       "`` -DX=`<img src=x onerror=alert(1)>` ``");
	assert_md_code("a``b", "```a``b```");
	assert_md_code("`x", "`` `x ``");
	assert_md_code(" x ", "`  x  `");
	assert_md_code("a\nb", "`a b`");
}

static void test_outfmt__csv(void **state)
{
	(void)state;
	assert_csv("-O2 -fno-reorder-blocks", "-O2 -fno-reorder-blocks");
	assert_csv("-march=armv7-a+neon -DLEVEL=1", "-march=armv7-a+neon -DLEVEL=1");
	assert_csv("-1.5", "-1.5");
	assert_csv("a,b", "\"a,b\"");
	assert_csv("say \"x\"", "\"say \"\"x\"\"\"");
	assert_csv("=1+1", "\"'=1+1\"");
	assert_csv("+1", "\"'+1\"");
	assert_csv("@SUM(A1)", "\"'@SUM(A1)\"");
	assert_csv("\t=1", "\"'\t=1\"");
	assert_csv("\r=1", "\"'\r=1\"");
	assert_csv("-1+HYPERLINK(\"http://x\")", "\"'-1+HYPERLINK(\"\"http://x\"\")\"");
	assert_csv("-x|cmd", "\"'-x|cmd\"");
	assert_csv("-DX='a;b' -DY=$(touch x)", "-DX='a;b' -DY=$(touch x)");
	assert_csv("-DX=f(1)", "\"'-DX=f(1)\"");
	assert_csv("=\"a,b\"", "\"'=\"\"a,b\"\"\"");
	assert_csv("", "");
}

static void test_outfmt__csv_quoted(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	outfmt_csv_quoted(&sb, "res/a run 0");
	strbuf_addch(&sb, ',');
	outfmt_csv_quoted(&sb, "=x\"y");
	assert_string_equal(strbuf_str(&sb), "\"res/a run 0\",\"'=x\"\"y\"");
	strbuf_release(&sb);
}

/* The longest run of c in s. */
static size_t longest_run(const char *s, size_t n, char c)
{
	size_t run = 0, best = 0;

	for (size_t i = 0; i < n; i++) {
		run = s[i] == c ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

static void test_outfmt__random(void **state)
{
	static const char alphabet[] = "ab_1 -=+@<>[]()`*~#!\\|\"',\n\t";
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char s[24];

	(void)state;
	for (int k = 0; k < 20000; k++) {
		size_t n = (size_t)(k % 23);
		char *t, *c, *f;

		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			s[i] = alphabet[x % (sizeof(alphabet) - 1)];
		}
		s[n] = '\0';
		/* Text: every markup character is escaped (an odd run of
		 * backslashes before it), no line break survives. */
		t = outfmt_md_text(s);
		for (size_t i = 0; t[i]; i++) {
			size_t b = 0;

			if (t[i] == '\n' || t[i] == '\r')
				fail_msg("'%s': a line break in '%s'", s, t);
			if (!strchr("`*<>~", t[i]) && !(t[i] == ']' && t[i + 1] && strchr("([:", t[i + 1])))
				continue;
			while (b < i && t[i - 1 - b] == '\\')
				b++;
			if (b % 2 == 0)
				fail_msg("'%s': unescaped '%c' at %zu of '%s'", s, t[i], i, t);
		}
		free(t);
		/* Code: the fence is longer than any run inside. */
		if (n) {
			size_t fence, len;

			c = outfmt_md_code(s);
			len = strlen(c);
			fence = strspn(c, "`");
			if (fence <= longest_run(c + fence, len - 2 * fence, '`') ||
			    strspn(c + len - fence, "`") != fence || strchr(c, '\n'))
				fail_msg("'%s': code span '%s'", s, c);
			free(c);
		}
		/* CSV: a field starting with a formula character is quoted
		 * and defused, unless flag-shaped. */
		f = csv(s);
		if ((f[0] && strchr("=+@\t\r", f[0])) ||
		    (f[0] == '"' && f[1] && strchr("=+@\t\r", f[1])))
			fail_msg("'%s': CSV field '%s' starts a formula", s, f);
		if (f[0] == '-' && strchr(f, '|'))
			fail_msg("'%s': CSV field '%s' starts with - and holds a |", s, f);
		for (size_t i = 1; f[0] == '-' && f[i]; i++)
			if (f[i] == '(' && strchr("ab1_", f[i - 1]))
				fail_msg("'%s': CSV field '%s' starts with - and calls", s, f);
		free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outfmt__md_text),
		cmocka_unit_test(test_outfmt__md_code),
		cmocka_unit_test(test_outfmt__csv),
		cmocka_unit_test(test_outfmt__csv_quoted),
		cmocka_unit_test(test_outfmt__random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
