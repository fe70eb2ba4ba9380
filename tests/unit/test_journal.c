/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for journal: round trips through the file, torn and corrupt
 * files, and appends from several threads. Every file written is also
 * checked line by line with jansson.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "tuner/journal.h"
#include "tuner/util.h"

/* Everything a shell or a JSON writer could trip over. */
#define NASTY_FLAGS "-O2 -DX=\"a b\" -DY='c' back\\slash $(rm -rf /) `id`; echo \\\"x\\\" " \
	"&& tab\there nl\nthere \x01\x1f \xc3\xa9t\xc3\xa9 {\"type\":\"end\"}"

struct fixture {
	char root[64];
	char *path; /* root/results/study/journal.jsonl: dirs not yet there */
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	strcpy(f->root, "/tmp/tuner-journal-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	f->path = xasprintf("%s/results/study/journal.jsonl", f->root);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(remove_tree(f->root), 0);
	free(f->path);
	free(f);
	return 0;
}

static void key_of(char out[17], const char *what, int i)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s-%d", what, i);
	hash64_hex(out, hash64_str(HASH64_INIT, buf));
}

static void make_build(struct build_record *r, const char *what, int i)
{
	memset(r, 0, sizeof(*r));
	key_of(r->key, what, i);
	key_of(r->config_id, "config", i);
	r->layout_seed = (unsigned)i * 7u;
	r->flags = "-O2";
	r->pgo = i & 1;
	memset(r->commit, 'c', 40);
	memset(r->tree, 'e', 40);
	r->dirty = i % 3 == 0;
	r->status = BUILD_OK;
	r->seconds = 0.1 + 0.2; /* not exactly 0.3: tests the round trip */
	r->size = 1000.0 + i;
	r->dir = "builds/x";
	r->artifact = "builds/x/a.out";
}

/* Checks that every line is a JSON object ending in '\n'; returns the
 * number of lines and how many are headers. */
static size_t check_lines(const char *path, size_t *headers)
{
	char *data, *p;
	size_t len, n = 0;

	*headers = 0;
	assert_int_equal(read_file(&data, &len, path), 0);
	assert_true(len > 0);
	assert_int_equal(data[len - 1], '\n');
	for (p = data; p < data + len; ) {
		char *nl = memchr(p, '\n', (size_t)(data + len - p));
		json_error_t err;
		json_t *o;

		assert_non_null(nl);
		o = json_loadb(p, (size_t)(nl - p), 0, &err);
		if (!o)
			fail_msg("%s:%zu: %s", path, n + 1, err.text);
		assert_true(json_is_object(o));
		if (!strcmp(json_string_value(json_object_get(o, "type")), "header"))
			(*headers)++;
		json_decref(o);
		n++;
		p = nl + 1;
	}
	free(data);
	return n;
}

static void append_raw(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static off_t file_size(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

static void test_journal__round_trip(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;
	struct build_record b1, b2, b1again;
	struct measure_record m = { 0 };
	const struct build_record *got;
	const struct measure_record **ms;
	char *names[] = { "throughput", "latency" };
	double values[2];
	int changed = -1;
	size_t headers;

	assert_int_equal(journal_open(&j, f->path, "study", "hash1", &changed), 0);
	assert_int_equal(changed, 0);
	assert_int_equal(journal_replayed_builds(j), 0);
	assert_int_equal(journal_torn(j), 0);

	make_build(&b1, "b", 1);
	b1.flags = NASTY_FLAGS;
	b1.size = NAN;
	b1.artifact = NULL;
	b1.status = BUILD_FAILED;
	b1.exit_status = 2;
	make_build(&b2, "b", 2);
	/* A build not made (build.equivalent: skip): its lead's key, and
	 * what GCC ignores. */
	memcpy(b2.same_build, "0123456789abcdef", 17);
	b2.ignored = "-falign-functions=64";
	/* Built as Slurm jobs: each phase's job and node, and how many were
	 * submitted. */
	b2.jobs = "generate=41@n1 train=42@n2 use=44@n1";
	b2.job_attempts = 4;
	b1again = b1;
	b1again.status = BUILD_OK;
	b1again.exit_status = 0;
	b1again.artifact = "later";
	assert_int_equal(journal_add_build(j, &b1), 0);
	assert_int_equal(journal_add_build(j, &b2), 0);
	assert_int_equal(journal_add_run(j, 2, 10, 1), 0);
	got = journal_find_build(j, b2.key);
	assert_string_equal(got->same_build, "0123456789abcdef");
	assert_string_equal(got->ignored, "-falign-functions=64");

	memcpy(m.build_key, b1.key, 17);
	memcpy(m.config_id, b1.config_id, 17);
	m.nvalues = 2;
	m.names = names;
	m.values = values;
	for (unsigned i = 0; i < 3; i++) {
		m.testbed = i == 1 ? "lab" : "local";
		m.run = i;
		m.ok = i != 2;
		values[0] = 100.0 / 3 + i;
		values[1] = i == 2 ? NAN : 1e-9 * i;
		m.seconds = 1.5 * i;
		m.error = i == 2 ? "parser: no \"number\" found" : NULL;
		assert_int_equal(journal_add_measure(j, &m), 0);
	}
	assert_int_equal(journal_add_build(j, &b1again), 0);
	assert_int_equal(journal_add_end(j, 0), 0);
	journal_close(j);

	assert_int_equal(journal_open(&j, f->path, "study", "hash1", &changed), 0);
	assert_int_equal(changed, 0);
	assert_int_equal(journal_replayed_builds(j), 3);

	/* The later record with the same key wins. */
	got = journal_find_build(j, b1.key);
	assert_non_null(got);
	assert_int_equal(got->status, BUILD_OK);
	assert_string_equal(got->artifact, "later");
	assert_string_equal(got->flags, NASTY_FLAGS);
	assert_true(isnan(got->size));
	assert_int_equal(got->layout_seed, 7);
	assert_int_equal(got->pgo, 1);

	got = journal_find_build(j, b2.key);
	assert_non_null(got);
	assert_string_equal(got->key, b2.key);
	assert_string_equal(got->config_id, b2.config_id);
	assert_string_equal(got->commit, b2.commit);
	assert_string_equal(got->tree, b2.tree);
	assert_string_equal(got->flags, "-O2");
	assert_string_equal(got->dir, "builds/x");
	assert_string_equal(got->artifact, "builds/x/a.out");
	assert_int_equal(got->pgo, 0);
	assert_int_equal(got->dirty, 0);
	assert_int_equal(got->layout_seed, 14);
	assert_true(got->seconds == 0.1 + 0.2);
	assert_true(got->size == 1002.0);
	assert_string_equal(got->same_build, "0123456789abcdef");
	assert_string_equal(got->ignored, "-falign-functions=64");
	assert_string_equal(got->jobs, "generate=41@n1 train=42@n2 use=44@n1");
	assert_int_equal(got->job_attempts, 4);
	assert_null(journal_find_build(j, "0000000000000000"));
	got = journal_find_build(j, b1.key);
	assert_string_equal(got->same_build, "");
	assert_null(got->ignored);
	assert_null(got->jobs);
	assert_int_equal(got->job_attempts, 0);

	assert_int_equal(journal_measures(j, b1.key, NULL, &ms), 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(ms[i]->run, i);
		assert_string_equal(ms[i]->build_key, b1.key);
		assert_string_equal(ms[i]->testbed, i == 1 ? "lab" : "local");
		assert_int_equal(ms[i]->ok, i != 2);
		assert_int_equal(ms[i]->nvalues, 2);
		assert_string_equal(ms[i]->names[0], "throughput");
		assert_string_equal(ms[i]->names[1], "latency");
		assert_true(ms[i]->values[0] == 100.0 / 3 + i);
		if (i == 2)
			assert_true(isnan(ms[i]->values[1]));
		else
			assert_true(ms[i]->values[1] == 1e-9 * i);
		assert_true(ms[i]->seconds == 1.5 * i);
	}
	assert_null(ms[0]->error);
	assert_string_equal(ms[2]->error, "parser: no \"number\" found");
	free(ms);
	assert_int_equal(journal_measures(j, b1.key, "local", &ms), 2);
	assert_int_equal(ms[0]->run, 0);
	assert_int_equal(ms[1]->run, 2);
	free(ms);
	assert_int_equal(journal_measures(j, b1.key, "elsewhere", &ms), 0);
	assert_null(ms);
	assert_int_equal(journal_measures(j, b2.key, NULL, &ms), 0);
	assert_null(ms);

	/* Appending after a replay keeps one header: header, 3 builds, run,
	 * 3 measures, 2 ends. */
	assert_int_equal(journal_add_end(j, 1), 0);
	journal_close(j);
	assert_int_equal(check_lines(f->path, &headers), 10);
	assert_int_equal(headers, 1);
}

static void test_journal__bad_utf8(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;
	struct build_record b;
	size_t headers;

	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	make_build(&b, "b", 1);
	b.flags = "-O2 \xff\xfe";
	assert_int_equal(journal_add_build(j, &b), -1);
	assert_non_null(strstr(tn_errmsg(), "UTF-8"));
	assert_null(journal_find_build(j, b.key));
	journal_close(j);
	assert_int_equal(check_lines(f->path, &headers), 1);
}

static void torn_case(struct fixture *f, const char *tail)
{
	struct journal *j = NULL;
	struct build_record b;
	off_t good;
	size_t headers;

	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	make_build(&b, "b", 1);
	assert_int_equal(journal_add_build(j, &b), 0);
	journal_close(j);
	good = file_size(f->path);

	append_raw(f->path, tail);
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	assert_int_equal(journal_torn(j), 1);
	assert_int_equal(file_size(f->path), good);
	assert_int_equal(journal_replayed_builds(j), 1);
	make_build(&b, "b", 2);
	assert_int_equal(journal_add_build(j, &b), 0);
	journal_close(j);

	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	assert_int_equal(journal_torn(j), 0);
	assert_int_equal(journal_replayed_builds(j), 2);
	assert_non_null(journal_find_build(j, b.key));
	journal_close(j);
	assert_int_equal(check_lines(f->path, &headers), 3);
	assert_int_equal(headers, 1);
}

static void test_journal__torn_no_newline(void **state)
{
	torn_case(*state, "{\"type\":\"build\",\"key\":\"ab");
}

static void test_journal__torn_garbage_line(void **state)
{
	/* What a crash can leave on some file systems: zeros, then a newline
	 * from nowhere; still the last line, so still torn. */
	torn_case(*state, "\x01\x02garbage\n");
}

static void test_journal__torn_header(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;
	char *dir = path_dirname(f->path);
	size_t headers;

	assert_int_equal(mkdir_p(dir), 0);
	assert_int_equal(write_file_atomic(f->path, "{\"type\":\"hea", 12), 0);
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	assert_int_equal(journal_torn(j), 1);
	journal_close(j);
	assert_int_equal(check_lines(f->path, &headers), 1);
	assert_int_equal(headers, 1);
	free(dir);
}

static void test_journal__garbage_in_middle(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;
	struct build_record b;
	char *want;

	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	make_build(&b, "b", 1);
	assert_int_equal(journal_add_build(j, &b), 0);
	journal_close(j);
	append_raw(f->path, "not json at all\n");
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	assert_int_equal(journal_torn(j), 1);
	journal_close(j);

	append_raw(f->path, "{\"type\":\"build\",\"key\n");
	append_raw(f->path, "{\"type\":\"end\",\"status\":\"complete\"}\n");
	j = (struct journal *)1;
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), -1);
	assert_null(j);
	want = xasprintf("%s:3: not a JSON record", f->path);
	assert_string_equal(tn_errmsg(), want);
	free(want);
}

static void test_journal__bad_record_in_middle(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;
	char *want;

	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	journal_close(j);
	/* JSON, but a build without a key cannot be looked up. */
	append_raw(f->path, "{\"type\":\"build\",\"status\":\"ok\"}\n");
	append_raw(f->path, "{\"type\":\"end\",\"status\":\"complete\"}\n");
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), -1);
	want = xasprintf("%s:2: bad build record: 'key' is missing", f->path);
	assert_string_equal(tn_errmsg(), want);
	free(want);
}

/* build.applied round trip: written with the build, read back on replay;
 * a build without it (format 1 as before) reads back unchecked; a
 * malformed one is a bad record. */
static void test_journal__applied(void **state)
{
	struct fixture *f = *state;
	char *lines[] = { "gcc -fno-reorder-blocks -freorder-blocks", "gcc -fno-reorder-blocks" };
	struct journal *j = NULL;
	struct build_record with, without;
	const struct build_record *got;
	const struct applied_flag *fl;
	char *want;

	make_build(&with, "applied", 1);
	make_build(&without, "applied", 2);
	applied_analyse(&with.applied, "-fno-reorder-blocks -DX", lines, 2, 1);
	with.applied.note = xstrdup("a note");
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	assert_int_equal(journal_add_build(j, &with), 0);
	assert_int_equal(journal_add_build(j, &without), 0);
	journal_close(j);

	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	got = journal_find_build(j, with.key);
	assert_non_null(got);
	assert_true(got->applied.checked);
	assert_true(got->applied.recorded);
	assert_int_equal(got->applied.lines, 2);
	assert_string_equal(got->applied.note, "a note");
	assert_int_equal(got->applied.nflags, 2);
	fl = &got->applied.flags[0];
	assert_string_equal(fl->flag, "-fno-reorder-blocks");
	assert_int_equal(fl->in_effect, 1);
	assert_int_equal(fl->overridden, 1);
	assert_string_equal(fl->overridden_by, "-freorder-blocks");
	assert_false(fl->unrecorded);
	assert_true(got->applied.flags[1].unrecorded);
	assert_null(got->applied.flags[1].overridden_by);
	got = journal_find_build(j, without.key);
	assert_non_null(got);
	assert_false(got->applied.checked);
	assert_int_equal(got->applied.nflags, 0);
	journal_close(j);
	applied_release(&with.applied);

	append_raw(f->path, "{\"type\":\"build\",\"key\":\"00000000000000ab\",\"status\":\"ok\","
			    "\"applied\":{\"source\":\"record\",\"flags\":[{\"in_effect\":1}]}}\n");
	append_raw(f->path, "{\"type\":\"end\",\"status\":\"complete\"}\n");
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), -1);
	want = xasprintf("%s:4: bad build record: 'flag' is missing", f->path);
	assert_string_equal(tn_errmsg(), want);
	free(want);
}

static void test_journal__unknown_type_skipped(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;
	struct build_record b;

	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	journal_close(j);
	append_raw(f->path, "{\"type\":\"from-the-future\",\"x\":[1,2]}\n");
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	make_build(&b, "b", 1);
	assert_int_equal(journal_add_build(j, &b), 0);
	journal_close(j);
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	assert_int_equal(journal_replayed_builds(j), 1);
	journal_close(j);
}

static void test_journal__format_mismatch(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;
	char *dir = path_dirname(f->path);
	const char *v2 = "{\"type\":\"header\",\"format\":2,\"study\":\"s\",\"study_hash\":\"h\"}\n";
	const char *none = "{\"type\":\"build\"}\n";
	char *want;

	assert_int_equal(mkdir_p(dir), 0);
	assert_int_equal(write_file_atomic(f->path, v2, strlen(v2)), 0);
	assert_int_equal(journal_open(&j, f->path, "s", "h", NULL), -1);
	want = xasprintf("%s:1: journal format 2, this tuner reads 1", f->path);
	assert_string_equal(tn_errmsg(), want);
	free(want);
	/* Refused, not rewritten. */
	assert_int_equal(file_size(f->path), (off_t)strlen(v2));

	assert_int_equal(write_file_atomic(f->path, none, strlen(none)), 0);
	assert_int_equal(journal_open(&j, f->path, "s", "h", NULL), -1);
	assert_non_null(strstr(tn_errmsg(), ":1: not a tuner journal"));
	free(dir);
}

/*
 * Records of the right JSON shape with a field of the wrong type or out of
 * range are refused with "PATH:LINE: ...", never read as some other value
 * (a string size as "no size", a negative run as 4294967295).
 */
static void test_journal__wrong_field_types(void **state)
{
	static const struct {
		const char *line, *msg;
	} cases[] = {
		{ "{\"type\":\"build\",\"key\":\"00000000000000aa\",\"status\":\"ok\","
		  "\"size\":\"1000\"}", "bad build record: 'size' must be a number or null, not a string" },
		{ "{\"type\":\"build\",\"key\":\"00000000000000aa\",\"status\":\"ok\","
		  "\"size\":-5}", "'size' must be at least 0, not -5" },
		{ "{\"type\":\"build\",\"key\":\"00000000000000aa\",\"status\":\"ok\","
		  "\"seed\":-1}", "'seed' must be from 0 to 4294967295, not -1" },
		{ "{\"type\":\"build\",\"key\":\"00000000000000aa\",\"status\":\"ok\","
		  "\"seed\":\"3\"}", "'seed' must be an integer, not a string" },
		{ "{\"type\":\"build\",\"key\":\"0000000000000xyz\",\"status\":\"ok\"}",
		  "'key' must be hexadecimal" },
		{ "{\"type\":\"build\",\"key\":\"00000000000000aa\",\"status\":7}",
		  "'status' must be a string, not an integer" },
		{ "{\"type\":\"build\",\"key\":\"00000000000000aa\",\"status\":\"great\"}",
		  "'status' is not a build status: 'great'" },
		{ "{\"type\":\"build\",\"key\":\"00000000000000aa\",\"status\":\"ok\","
		  "\"flags\":[\"-O2\"]}", "'flags' must be a string, not an array" },
		{ "{\"type\":\"build\",\"key\":\"00000000000000aa\",\"status\":\"ok\","
		  "\"pgo\":2}", "'pgo' must be from 0 to 1, not 2" },
		{ "{\"type\":\"measure\",\"build\":\"00000000000000aa\",\"run\":-1,\"ok\":true,"
		  "\"values\":{\"t\":1}}", "bad measure record: 'run' must be from 0 to 2147483647, not -1" },
		{ "{\"type\":\"measure\",\"build\":\"00000000000000aa\",\"run\":0,\"ok\":true,"
		  "\"values\":{\"t\":\"941\"}}", "'values' must map names to numbers or null; 't' is a string" },
		{ "{\"type\":\"measure\",\"build\":\"00000000000000aa\",\"run\":0,\"ok\":true,"
		  "\"values\":{\"t\":null}}", "'values' has no value for 't' in a record marked ok" },
		{ "{\"type\":\"measure\",\"build\":\"00000000000000aa\",\"run\":0,\"ok\":\"yes\","
		  "\"values\":{}}", "'ok' must be an integer, not a string" },
		{ "{\"type\":\"measure\",\"build\":\"00000000000000aa\",\"values\":[1]}",
		  "'values' must be an object, not an array" },
		{ "{\"type\":\"measure\",\"build\":\"00000000000000aa\",\"testbed\":{}}",
		  "'testbed' must be a string, not an object" },
		{ "{\"type\":\"measure\",\"build\":\"00000000000000aa\",\"deploy_failed\":\"y\"}",
		  "'deploy_failed' must be an integer, not a string" },
		{ "{\"type\":\"testbed\",\"testbed\":\"r1\",\"event\":\"explode\",\"ok\":false}",
		  "bad testbed record: 'event' 'explode' is not a testbed event" },
		{ "{\"type\":\"testbed\",\"event\":\"deploy\",\"ok\":true}",
		  "bad testbed record: 'testbed' is missing" },
		{ "{\"type\":\"testbed\",\"testbed\":\"r1\",\"event\":\"deploy\","
		  "\"build\":\"zz\",\"ok\":true}", "'build' must be hexadecimal" },
	};
	struct fixture *f = *state;
	struct journal *j = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *want;

		unlink(f->path);
		assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
		journal_close(j);
		append_raw(f->path, cases[i].line);
		append_raw(f->path, "\n{\"type\":\"end\",\"status\":\"complete\"}\n");
		assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), -1);
		want = xasprintf("%s:2: ", f->path);
		if (strncmp(tn_errmsg(), want, strlen(want)) || !strstr(tn_errmsg(), cases[i].msg))
			fail_msg("case %zu: message '%s', want '%s...%s'", i, tn_errmsg(), want,
				 cases[i].msg);
		assert_null(strstr(tn_errmsg(), "(null)"));
		free(want);
	}
}

/* A journal that another study started is refused, saying whose it is;
 * a reader that takes any study (NULL) still opens it. */
static void test_journal__other_study(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;

	assert_int_equal(journal_open(&j, f->path, "mine", "h", NULL), 0);
	journal_close(j);
	assert_int_equal(journal_open(&j, f->path, "theirs", "h", NULL), -1);
	assert_non_null(strstr(tn_errmsg(), ":1: the journal of study 'mine', not of 'theirs'"));
	assert_int_equal(journal_open(&j, f->path, NULL, "h", NULL), 0);
	journal_close(j);
}

static void test_journal__study_changed(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;
	struct build_record b;
	int changed = -1;
	size_t headers;

	assert_int_equal(journal_open(&j, f->path, "study", "old", &changed), 0);
	assert_int_equal(changed, 0);
	make_build(&b, "b", 1);
	assert_int_equal(journal_add_build(j, &b), 0);
	journal_close(j);

	assert_int_equal(journal_open(&j, f->path, "study", "new", &changed), 0);
	assert_int_equal(changed, 1);
	/* Still used: the build keys decide what is reusable. */
	assert_non_null(journal_find_build(j, b.key));
	journal_close(j);
	assert_int_equal(check_lines(f->path, &headers), 2);
	assert_int_equal(headers, 1);
}

struct writer {
	struct journal *j;
	int id;
	int failures;
};

#define PER_THREAD 500
#define THREADS 4

static void *write_many(void *arg)
{
	struct writer *w = arg;
	char what[16];

	snprintf(what, sizeof(what), "t%d", w->id);
	for (int i = 0; i < PER_THREAD; i++) {
		struct build_record b;
		struct measure_record m = { 0 };
		char *names[] = { "v" };
		double v = i;

		make_build(&b, what, i);
		b.flags = NASTY_FLAGS;
		memcpy(m.build_key, b.key, 17);
		memcpy(m.config_id, b.config_id, 17);
		m.testbed = what;
		m.run = (unsigned)i;
		m.ok = 1;
		m.nvalues = 1;
		m.names = names;
		m.values = &v;
		if (journal_add_build(w->j, &b) < 0 || journal_add_measure(w->j, &m) < 0)
			w->failures++;
		/* Readers run while others write. */
		if (!journal_find_build(w->j, b.key))
			w->failures++;
	}
	return NULL;
}

static void test_journal__concurrent(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;
	struct writer w[THREADS];
	pthread_t t[THREADS];
	size_t headers;

	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	for (int i = 0; i < THREADS; i++) {
		w[i] = (struct writer){ j, i, 0 };
		assert_int_equal(pthread_create(&t[i], NULL, write_many, &w[i]), 0);
	}
	for (int i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(w[i].failures, 0);
	}
	journal_close(j);

	assert_int_equal(check_lines(f->path, &headers), 1 + 2 * THREADS * PER_THREAD);
	assert_int_equal(headers, 1);
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	assert_int_equal(journal_replayed_builds(j), THREADS * PER_THREAD);
	for (int i = 0; i < THREADS; i++) {
		char what[16];

		snprintf(what, sizeof(what), "t%d", i);
		for (int k = 0; k < PER_THREAD; k++) {
			char key[17];
			const struct build_record *b;
			const struct measure_record **ms;

			key_of(key, what, k);
			b = journal_find_build(j, key);
			assert_non_null(b);
			assert_string_equal(b->flags, NASTY_FLAGS);
			assert_int_equal(journal_measures(j, key, what, &ms), 1);
			assert_int_equal(ms[0]->run, k);
			assert_true(ms[0]->values[0] == k);
			free(ms);
		}
	}
	journal_close(j);
}

/* Testbed records: written, read back, and what they say about which
 * build a testbed holds and how often a build did not come up. */
static void test_journal__testbeds(void **state)
{
	struct fixture *f = *state;
	struct journal *j = NULL;
	struct testbed_record r = { 0 };
	struct measure_record m = { 0 };
	const struct testbed_record **all;
	const struct measure_record **ms;
	char img[17], a[17], b[17];

	key_of(a, "a", 1);
	key_of(b, "b", 2);
	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	assert_int_equal(journal_testbed_image(j, "r1", img), 0);
	r.testbed = "r1";
	r.event = TB_DEPLOY;
	memcpy(r.build, a, 17);
	r.ok = 1;
	r.seconds = 12.5;
	assert_int_equal(journal_add_testbed(j, &r), 0);
	r.event = TB_READY;
	r.build[0] = '\0';
	assert_int_equal(journal_add_testbed(j, &r), 0);
	r.testbed = "r2";
	r.event = TB_DEPLOY;
	memcpy(r.build, b, 17);
	assert_int_equal(journal_add_testbed(j, &r), 0);
	r.event = TB_BOOT_FAILED;
	r.ok = 0;
	r.error = "not ready within 60s";
	assert_int_equal(journal_add_testbed(j, &r), 0);
	r.event = TB_RECOVER;
	r.build[0] = '\0';
	r.ok = 1;
	r.error = NULL;
	assert_int_equal(journal_add_testbed(j, &r), 0);
	memcpy(m.build_key, b, 17);
	m.testbed = "r2";
	m.deploy_failed = 1;
	m.error = "deploy failed: the build did not come up";
	assert_int_equal(journal_add_measure(j, &m), 0);
	journal_close(j);

	assert_int_equal(journal_open(&j, f->path, "study", "h", NULL), 0);
	assert_int_equal(journal_testbed_image(j, "r1", img), 1);
	assert_string_equal(img, a);
	/* Recovered since its deploy: holds no build of the study's. */
	assert_int_equal(journal_testbed_image(j, "r2", img), 0);
	assert_string_equal(img, "");
	assert_int_equal(journal_boot_failures(j, b), 1);
	assert_int_equal(journal_boot_failures(j, a), 0);
	assert_int_equal(journal_testbed_records(j, &all), 5);
	assert_string_equal(all[3]->testbed, "r2");
	assert_int_equal(all[3]->event, TB_BOOT_FAILED);
	assert_string_equal(all[3]->error, "not ready within 60s");
	assert_true(all[0]->seconds == 12.5);
	assert_string_equal(journal_tb_event_name(all[4]->event), "recover");
	free(all);
	assert_int_equal(journal_measures(j, b, "r2", &ms), 1);
	assert_true(ms[0]->deploy_failed);
	free(ms);
	journal_close(j);
}

static void test_journal__status_names(void **state)
{
	assert_string_equal(journal_build_status_name(BUILD_OK), "ok");
	assert_string_equal(journal_build_status_name(BUILD_TIMEOUT), "timeout");
	assert_string_equal(journal_build_status_name(BUILD_SIZE_FAILED), "size-failed");
	assert_string_equal(journal_build_status_name((enum build_status)99), "unknown");
}

#define T(name) cmocka_unit_test_setup_teardown(test_journal__##name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(round_trip),
		T(bad_utf8),
		T(torn_no_newline),
		T(torn_garbage_line),
		T(torn_header),
		T(garbage_in_middle),
		T(bad_record_in_middle),
		T(applied),
		T(unknown_type_skipped),
		T(format_mismatch),
		T(study_changed),
		T(wrong_field_types),
		T(other_study),
		T(concurrent),
		T(status_names),
		T(testbeds),
	};

	return cmocka_run_group_tests_name("journal", tests, NULL, NULL);
}
