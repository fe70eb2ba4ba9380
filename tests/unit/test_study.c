/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for study: loading, defaults and every kind of error. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tuner/study.h"
#include "tuner/util.h"

static char tmpdir[64];

static int setup(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_study.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	return remove_tree(tmpdir);
}

/* Writes text to tmpdir/name; returns the path (caller frees). */
static char *write_yaml(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", tmpdir, name);

	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	return path;
}

/* A study that loads; tests replace one line of it to break one thing. */
#define L1 "study: t\n"
#define L2 "space:\n"
#define L3 "  opt: [-O2, -Os]\n"
#define L4 "build: {command: make, artifact: a.out}\n"
#define L5 "measure: {command: ./bench}\n"
#define L6 "objectives: [{name: speed, goal: max}]\n"

/*
 * Loads yaml and asserts failure with the message "FILE:WHERE: ..."
 * containing fragment, on one line, and out left released.
 */
static void expect_error(const char *yaml, const char *where, const char *fragment)
{
	struct study s;
	char *path = write_yaml("s.yaml", yaml);
	char *prefix = xasprintf("%s:%s: ", path, where);
	const char *msg;

	memset(&s, 0xa5, sizeof(s));
	assert_int_equal(study_load(&s, path), -1);
	msg = tn_errmsg();
	if (strncmp(msg, prefix, strlen(prefix)) || !strstr(msg + strlen(prefix), fragment))
		fail_msg("got \"%s\", want prefix \"%s\" and \"%s\"", msg, prefix, fragment);
	assert_null(strchr(msg, '\n'));
	assert_null(s.path);
	assert_null(s.name);
	assert_null(s.objectives);
	assert_int_equal(s.space.ndims, 0);
	free(prefix);
	free(path);
}

static void test_study__good_roundtrip(void **state)
{
	static const char yaml[] =
		"# a full study\n"
		"study: nat-bench_2.0\n"
		"source: {repo: ../src, rev: v1.2, path: targets/nat}\n"
		"space:\n"
		"  opt: [-O2, -Os, \"-O3 -fno-tree-ch\"]\n"
		"  reorder: ['', -fno-reorder-blocks]\n"
		"  pgo: [off, on]\n"
		"build:\n"
		"  command: make -C \"$TUNER_SRC\"\n"
		"  artifact: bin/nat\n"
		"  timeout: 300\n"
		"train: {command: ./train.sh, timeout: 60.5}\n"
		"deploy: {command: ./deploy.sh, timeout: 10}\n"
		"reboot: {command: ./reboot.sh, timeout: 90}\n"
		"size: {of: artifact, measure: command, command: ./size.sh, timeout: 5}\n"
		"measure:\n"
		"  command: ./measure.sh\n"
		"  parser: iperf3\n"
		"  timeout: 120\n"
		"  repeats: {min: 2, max: 7}\n"
		"testbeds: [qemu1, qemu2]\n"
		"objectives:\n"
		"  - {name: throughput, unit: Mbit/s, goal: max, limit: 90.5}\n"
		"  - {name: size, unit: bytes, goal: min, limit: 4194304}\n"
		"  - {name: latency, goal: min, from: measure, parser: \"json:a.b[0]\"}\n"
		"search: {strategy: surrogate, budget: 96, seed: 42, time: 1h30m, race: off}\n"
		"layout: {samples: 3}\n";
	struct study s;
	char *path = write_yaml("full.yaml", yaml);
	char hash[17];

	assert_int_equal(study_load(&s, path), 0);
	assert_string_equal(s.path, path);
	assert_string_equal(s.dir, tmpdir);
	assert_string_equal(s.name, "nat-bench_2.0");
	hash64_hex(hash, hash64(HASH64_INIT, yaml, strlen(yaml)));
	assert_string_equal(s.hash, hash);

	assert_string_equal(s.source_repo, "../src");
	assert_string_equal(s.source_rev, "v1.2");
	assert_string_equal(s.source_path, "targets/nat");
	assert_int_equal(s.source_repo_loc.line, 3);
	assert_int_equal(s.source_repo_loc.col, 16);
	assert_int_equal(s.source_rev_loc.line, 3);
	assert_int_equal(s.source_rev_loc.col, 29);

	assert_int_equal(s.space.ndims, 3);
	assert_string_equal(s.space.dims[0].name, "opt");
	assert_int_equal(s.space.dims[0].nvalues, 3);
	assert_string_equal(s.space.dims[0].values[2], "-O3 -fno-tree-ch");
	assert_string_equal(s.space.dims[1].values[0], "");
	assert_string_equal(s.space.dims[1].values[1], "-fno-reorder-blocks");
	assert_int_equal(s.space.dims[2].kind, DIM_PGO);
	assert_string_equal(s.space.dims[2].values[1], "on");
	assert_true(s.has_pgo_on);

	assert_string_equal(s.build.command, "make -C \"$TUNER_SRC\"");
	assert_true(s.build.timeout == 300);
	assert_int_equal(s.build.loc.line, 9);
	assert_int_equal(s.build.loc.col, 12);
	assert_string_equal(s.artifact, "bin/nat");
	assert_string_equal(s.train.command, "./train.sh");
	assert_true(s.train.timeout == 60.5);
	assert_string_equal(s.deploy.command, "./deploy.sh");
	assert_true(s.deploy.timeout == 10);
	assert_string_equal(s.reboot.command, "./reboot.sh");
	assert_true(s.reboot.timeout == 90);
	assert_int_equal(s.size_kind, SIZE_COMMAND);
	assert_string_equal(s.size_cmd.command, "./size.sh");
	assert_true(s.size_cmd.timeout == 5);
	assert_string_equal(s.measure.command, "./measure.sh");
	assert_true(s.measure.timeout == 120);
	assert_string_equal(s.parser, "iperf3");
	assert_int_equal(s.repeats_min, 2);
	assert_int_equal(s.repeats_max, 7);

	assert_int_equal(s.ntestbeds, 2);
	assert_string_equal(s.testbeds[0], "qemu1");
	assert_string_equal(s.testbeds[1], "qemu2");

	assert_int_equal(s.nobjectives, 3);
	assert_string_equal(s.objectives[0].name, "throughput");
	assert_string_equal(s.objectives[0].unit, "Mbit/s");
	assert_true(s.objectives[0].maximize);
	assert_true(s.objectives[0].has_limit);
	assert_true(s.objectives[0].limit == 90.5);
	assert_false(s.objectives[0].from_size);
	assert_string_equal(s.objectives[0].parser, "iperf3");
	assert_string_equal(s.objectives[1].name, "size");
	assert_false(s.objectives[1].maximize);
	assert_true(s.objectives[1].from_size);
	assert_true(s.objectives[1].limit == 4194304);
	assert_null(s.objectives[1].parser);
	assert_string_equal(s.objectives[2].unit, "");
	assert_false(s.objectives[2].has_limit);
	assert_string_equal(s.objectives[2].parser, "json:a.b[0]");

	assert_string_equal(s.strategy, "surrogate");
	assert_int_equal(s.budget, 96);
	assert_int_equal(s.seed, 42);
	assert_true(s.time == 5400);
	assert_int_equal(s.race, 0);
	assert_int_equal(s.layout_samples, 3);

	study_release(&s);
	assert_null(s.name);
	study_release(&s); /* released twice is harmless */
	free(path);
}

static void test_study__defaults(void **state)
{
	struct study s;
	char *path = write_yaml("min.yaml", L1 L2 L3 L4 L5 L6);

	assert_int_equal(study_load(&s, path), 0);
	assert_string_equal(s.source_repo, ".");
	assert_string_equal(s.source_rev, "HEAD");
	assert_string_equal(s.source_path, "");
	assert_int_equal(s.source_rev_loc.line, 1);
	assert_int_equal(s.source_rev_loc.col, 1);
	assert_false(s.has_pgo_on);
	assert_true(s.build.timeout == 0);
	assert_null(s.train.command);
	assert_null(s.deploy.command);
	assert_null(s.reboot.command);
	assert_int_equal(s.size_kind, SIZE_NONE);
	assert_null(s.size_cmd.command);
	assert_string_equal(s.parser, "number");
	assert_int_equal(s.repeats_min, 1);
	assert_int_equal(s.repeats_max, 1);
	assert_int_equal(s.ntestbeds, 1);
	assert_string_equal(s.testbeds[0], "local");
	assert_int_equal(s.nobjectives, 1);
	assert_string_equal(s.objectives[0].parser, "number");
	assert_string_equal(s.objectives[0].unit, "");
	assert_string_equal(s.strategy, "exhaustive");
	assert_int_equal(s.budget, 0);
	assert_int_equal(s.seed, 1);
	assert_int_equal(s.race, 1);
	assert_int_equal(s.layout_samples, 1);
	/* Builds with the same code are measured once; every build is made. */
	assert_int_equal(s.share_same_code, 1);
	assert_int_equal(s.skip_equivalent, 0);
	study_release(&s);
	free(path);
}

/* measure.same_code and build.equivalent, set the other way. */
static void test_study__same_code_and_equivalent(void **state)
{
	struct study s;
	char *path = write_yaml("sc.yaml", L1 L2 L3
				"build: {command: make, artifact: a.out, equivalent: skip}\n"
				"measure: {command: ./bench, same_code: separate}\n" L6);

	assert_int_equal(study_load(&s, path), 0);
	assert_int_equal(s.share_same_code, 0);
	assert_int_equal(s.skip_equivalent, 1);
	study_release(&s);
	free(path);
}

static void test_study__source_loc_defaults_to_key(void **state)
{
	struct study s;
	char *path = write_yaml("src.yaml", L1 "source: {path: sub}\n" L2 L3 L4 L5 L6);

	assert_int_equal(study_load(&s, path), 0);
	assert_string_equal(s.source_rev, "HEAD");
	assert_int_equal(s.source_rev_loc.line, 2);
	assert_int_equal(s.source_rev_loc.col, 1);
	assert_int_equal(s.source_repo_loc.line, 2);
	study_release(&s);
	free(path);
}

static void test_study__scalar_repeats_and_quoted_numbers(void **state)
{
	struct study s;
	char *path = write_yaml("rep.yaml", L1 L2 L3
				"build: {command: make, artifact: a.out, timeout: \"2.5\"}\n"
				"measure: {command: ./bench, repeats: 5}\n" L6);

	assert_int_equal(study_load(&s, path), 0);
	assert_int_equal(s.repeats_min, 5);
	assert_int_equal(s.repeats_max, 5);
	assert_true(s.build.timeout == 2.5);
	study_release(&s);
	free(path);
}

static void test_study__null_values_are_empty_flags(void **state)
{
	struct study s;
	char *path = write_yaml("null.yaml", L1 L2 "  a: [~, -O2]\n  b: [null, -g]\n  c: ['', -s]\n"
				L4 L5 L6);

	assert_int_equal(study_load(&s, path), 0);
	assert_int_equal(s.space.ndims, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(s.space.dims[i].nvalues, 2);
		assert_string_equal(s.space.dims[i].values[0], "");
	}
	study_release(&s);
	free(path);
}

static void test_study__aliases_expand(void **state)
{
	struct study s;
	char *path = write_yaml("alias.yaml", L1 L2 "  opt: &o [-O2, -Os]\n  again: *o\n"
				"build: {command: &c make all, artifact: a.out}\n"
				"deploy: {command: *c}\n" L5 L6);

	assert_int_equal(study_load(&s, path), 0);
	assert_int_equal(s.space.ndims, 2);
	assert_string_equal(s.space.dims[1].values[1], "-Os");
	assert_string_equal(s.deploy.command, "make all");
	study_release(&s);
	free(path);
}

/* A FIFO (which no writer opens) and a device are refused at once, not
 * read until memory runs out or forever. */
static void test_study__not_a_file(void **state)
{
	struct study s;
	char *fifo = xasprintf("%s/fifo.yaml", tmpdir);

	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(study_load(&s, fifo), -1);
	assert_non_null(strstr(tn_errmsg(), "is not a regular file (a FIFO)"));
	assert_int_equal(study_load(&s, "/dev/zero"), -1);
	assert_non_null(strstr(tn_errmsg(), "is not a regular file (a character device)"));
	assert_int_equal(study_load(&s, tmpdir), -1);
	assert_non_null(strstr(tn_errmsg(), "is a directory"));
	unlink(fifo);
	free(fifo);
}

static void test_study__missing_file(void **state)
{
	struct study s;
	char *path = xasprintf("%s/nope.yaml", tmpdir);
	char *want = xasprintf("%s: cannot read study file: cannot open '%s': No such file or "
			       "directory", path, path);

	assert_int_equal(study_load(&s, path), -1);
	assert_string_equal(tn_errmsg(), want);
	assert_null(s.path);
	free(want);
	free(path);
}

static void test_study__syntax_error(void **state)
{
	expect_error(L1 "space:\n\topt: [-O2]\n", "3:1",
		     "invalid YAML: found character that cannot start any token");
	expect_error(L1 L2 "  opt: [-O2, -Os\n" L4, "4:6",
		     "invalid YAML: did not find expected ',' or ']'");
}

static void test_study__not_a_mapping(void **state)
{
	expect_error("# comment\n- a\n- b\n", "2:1", "must be a mapping, not a list");
	expect_error("", "1:1", "empty");
	expect_error(L1 L2 L3 L4 L5 L6 "---\nstudy: u\n", "7:1", "more than one YAML document");
}

static void test_study__unknown_key(void **state)
{
	expect_error(L1 L2 L3 "build: {command: make, artifact: a.out, timout: 5}\n" L5 L6,
		     "4:41", "unknown key 'timout' (did you mean 'timeout'?)");
	expect_error(L1 L2 L3 L4 L5 L6 "objectivs: []\n", "7:1",
		     "unknown key 'objectivs' (did you mean 'objectives'?)");
	expect_error(L1 L2 L3 L4 L5 L6 "colour: red\n", "7:1",
		     "unknown key 'colour' (expected study,");
	expect_error(L1 L2 L3 L4 L5 "objectives: [{name: speed, goal: max, unti: x}]\n", "6:39",
		     "did you mean 'unit'?");
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, repeats: {min: 1, mx: 2}}\n" L6,
		     "5:47", "unknown key 'mx' (did you mean 'max'?)");
}

static void test_study__wrong_type(void **state)
{
	expect_error("study: {a: b}\n" L2 L3 L4 L5 L6, "1:8",
		     "'study' must be a string, not a mapping");
	expect_error(L1 L2 L3 "build: [make]\n" L5 L6, "4:8",
		     "'build' must be a mapping, not a list");
	expect_error(L1 "space: [a, b]\n" L4 L5 L6, "2:8", "'space' must be a mapping, not a list");
	expect_error(L1 L2 L3 "build: {command: make, artifact: a.out, timeout: soon}\n" L5 L6,
		     "4:50",
		     "'build.timeout' must be a non-negative number of seconds, not 'soon'");
	expect_error(L1 L2 L3 L4 L5 "objectives: [{name: speed, goal: up}]\n", "6:34",
		     "'goal' must be max or min, not 'up'");
	expect_error(L1 L2 L3 L4 L5 "objectives: [{name: speed, goal: max, limit: lots}]\n", "6:46",
		     "'limit' must be a number, not 'lots'");
	expect_error(L1 L2 L3 L4 L5 "objectives: [{name: speed, goal: max, from: disk}]\n", "6:45",
		     "'from' must be measure or size");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: local\n", "7:11", "'testbeds' must be a list");
	expect_error(L1 L2 L3 L4 L5 "objectives: {name: speed}\n", "6:13",
		     "'objectives' must be a list");
	expect_error(L1 L2 L3 L4 L5 "objectives: [speed]\n", "6:14",
		     "'objective' must be a mapping, not 'speed'");
	expect_error(L1 "source: .\n" L2 L3 L4 L5 L6, "2:9", "'source' must be a mapping");
}

static void test_study__size_section(void **state)
{
	expect_error(L1 L2 L3 L4 "size: {measure: bytes}\n" L5 L6, "5:17",
		     "'size.measure' must be text, file or command, not 'bytes'");
	expect_error(L1 L2 L3 L4 "size: {of: source, measure: text}\n" L5 L6, "5:12",
		     "'size.of' must be artifact");
	expect_error(L1 L2 L3 L4 "size: {measure: command}\n" L5 L6, "5:7",
		     "needs a size command");
	expect_error(L1 L2 L3 L4 "size: {measure: file, command: ./s}\n" L5 L6, "5:32",
		     "'size.command' applies only to 'measure: command'");
	expect_error(L1 L2 L3 L4 "size: {of: artifact}\n" L5 L6, "5:7", "missing 'size.measure'");
}

static void test_study__duplicate_key(void **state)
{
	expect_error(L1 L2 L3 L4 L5 L6 "build: {command: x, artifact: y}\n", "7:1",
		     "duplicate key 'build' (first at line 4)");
	expect_error(L1 L2 L3 "build: {command: make, command: x, artifact: a}\n" L5 L6, "4:24",
		     "duplicate key 'command' (first at line 4)");
}

static void test_study__duplicate_dimension(void **state)
{
	expect_error(L1 L2 L3 "  reorder: ['', -fno-reorder-blocks]\n  opt: [-O3]\n" L4 L5 L6,
		     "5:3", "duplicate dimension 'opt' (first at line 3)");
}

static void test_study__empty_dimension(void **state)
{
	expect_error(L1 L2 "  opt: []\n" L4 L5 L6, "3:8", "dimension 'opt' has no values");
	expect_error(L1 "space: {}\n" L4 L5 L6, "2:8", "'space' has no dimensions");
}

static void test_study__bad_dimension_values(void **state)
{
	expect_error(L1 L2 "  opt: [-O2, -Os, -O2]\n" L4 L5 L6, "3:19",
		     "dimension 'opt' lists '-O2' twice (first at line 3)");
	expect_error(L1 L2 "  opt: [\"\", ~]\n" L4 L5 L6, "3:13", "lists '' twice");
	expect_error(L1 L2 "  opt: -O2\n" L4 L5 L6, "3:8",
		     "dimension 'opt' must be a list of values, not a string");
	expect_error(L1 L2 "  opt: [-O2, [-Os]]\n" L4 L5 L6, "3:14",
		     "values of dimension 'opt' must be strings, not a list");
	expect_error(L1 L2 L3 "  pgo: [off, yes]\n" L4 L5 L6, "4:14",
		     "pgo values are off and on, not 'yes'");
}

static void test_study__study_name(void **state)
{
	expect_error(L2 L3 L4 L5 L6, "1:1", "missing study name");
	expect_error("study: my study\n" L2 L3 L4 L5 L6, "1:8", "invalid study name 'my study'");
	expect_error("study: ..\n" L2 L3 L4 L5 L6, "1:8", "invalid study name '..'");
	expect_error("study: a/b\n" L2 L3 L4 L5 L6, "1:8", "invalid study name");
	expect_error("study:\n" L2 L3 L4 L5 L6, "1:7", "missing study name");
}

static void test_study__missing_build(void **state)
{
	expect_error(L1 L2 L3 L5 L6, "1:1", "missing build command");
	expect_error(L1 L2 L3 "build: {artifact: a.out}\n" L5 L6, "4:8", "missing build command");
	expect_error(L1 L2 L3 "build: {command: make}\n" L5 L6, "4:8", "missing build artifact");
	expect_error(L1 L2 L3 "build: {command: make, artifact: /abs}\n" L5 L6, "4:34",
		     "must be relative to $TUNER_OUT");
}

static void test_study__pgo_on_needs_train(void **state)
{
	expect_error(L1 L2 L3 "  pgo: [off, on]\n" L4 L5 L6, "4:14",
		     "pgo: on needs a train command");
	expect_error(L1 L2 L3 "  pgo: [off, on]\n" L4 "train: {timeout: 5}\n" L5 L6, "6:8",
		     "missing train command");
}

static void test_study__measure_objective_needs_command(void **state)
{
	expect_error(L1 L2 L3 L4 L6, "5:14",
		     "objective 'speed' is measured but there is no measure command");
	expect_error(L1 L2 L3 L4 "measure: {parser: number}\n" L6, "5:10",
		     "objective 'speed' is measured but there is no measure command");
}

static void test_study__unknown_parser(void **state)
{
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, parser: numbr}\n" L6, "5:37",
		     "unknown parser 'numbr' (known: ");
	expect_error(L1 L2 L3 L4 L5 "objectives: [{name: speed, goal: max, parser: foo}]\n", "6:47",
		     "unknown parser 'foo'");
	expect_error(L1 L2 L3 L4 "size: {measure: text}\n" L5
		     "objectives: [{name: size, goal: min, parser: number}]\n", "7:46",
		     "'parser' does not apply to the size objective 'size'");
}

static void test_study__repeats(void **state)
{
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, repeats: -1}\n" L6, "5:38",
		     "'measure.repeats' must be a positive integer, not '-1'");
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, repeats: 0}\n" L6, "5:38",
		     "must be a positive integer, not '0'");
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, repeats: {min: 5, max: 2}}\n" L6,
		     "5:52", "'measure.repeats.max' (2) is less than min (5)");
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, repeats: [1, 2]}\n" L6, "5:38",
		     "'measure.repeats' must be a number or {min: N, max: N}, not a list");
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, repeats: {min: 0}}\n" L6, "5:44",
		     "'measure.repeats.min' must be a positive integer");
}

static void test_study__negative_timeout(void **state)
{
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, timeout: -3}\n" L6, "5:38",
		     "'measure.timeout' must be a non-negative number of seconds, not '-3'");
	expect_error(L1 L2 L3 L4 "deploy: {command: x, timeout: -0.5}\n" L5 L6, "5:31",
		     "'deploy.timeout' must be a non-negative");
	expect_error(L1 L2 L3 L4 "reboot: {command: x, timeout: -1}\n" L5 L6, "5:31",
		     "'reboot.timeout' must be a non-negative");
	expect_error(L1 L2 L3 L4 "reboot: {timeout: 60}\n" L5 L6, "5:9",
		     "missing reboot command");
	expect_error(L1 L2 L3 L4 "reboot: {command: x, timout: 60}\n" L5 L6, "5:22",
		     "unknown key 'timout' (did you mean 'timeout'?)");
}

static void test_study__objectives(void **state)
{
	expect_error(L1 L2 L3 L4 L5, "1:1", "missing 'objectives'");
	expect_error(L1 L2 L3 L4 L5 "objectives: []\n", "6:13", "'objectives' is empty");
	expect_error(L1 L2 L3 L4 L5 "objectives:\n"
		     "  - {name: speed, goal: max}\n  - {name: speed, goal: min}\n",
		     "8:12", "duplicate objective 'speed' (first at line 7)");
	expect_error(L1 L2 L3 L4 L5 "objectives: [{goal: max}]\n", "6:14",
		     "objective without a name");
	expect_error(L1 L2 L3 L4 L5 "objectives: [{name: speed}]\n", "6:14",
		     "objective 'speed' needs a goal");
}

static void test_study__size_objective_needs_size(void **state)
{
	expect_error(L1 L2 L3 L4 L5 "objectives: [{name: size, goal: min}]\n", "6:14",
		     "objective 'size' is the artifact size but there is no size section");
	expect_error(L1 L2 L3 L4 L5 "objectives: [{name: text, goal: min, from: size}]\n", "6:44",
		     "objective 'text' is the artifact size");
}

static void test_study__search_and_layout(void **state)
{
	expect_error(L1 L2 L3 L4 L5 L6 "search: {budget: -5}\n", "7:18",
		     "'search.budget' must be a non-negative integer, not '-5'");
	expect_error(L1 L2 L3 L4 L5 L6 "search: {seed: 1.5}\n", "7:16",
		     "'search.seed' must be a non-negative integer, not '1.5'");
	expect_error(L1 L2 L3 L4 L5 L6 "search: {strategy: genetic}\n", "7:20",
		     "unknown search strategy 'genetic' (known: exhaustive, random, nsga2, surrogate)");
	expect_error(L1 L2 L3 L4 L5 L6 "search: {time: 8 hours}\n", "7:16",
		     "'search.time' is a duration such as 8h, 90m, 1h30m or 600 (seconds)");
	expect_error(L1 L2 L3 L4 L5 L6 "search: {time: 1h30}\n", "7:16", "'search.time' is a duration");
	expect_error(L1 L2 L3 L4 L5 L6 "search: {time: 0}\n", "7:16", "more than 0");
	expect_error(L1 L2 L3 L4 L5 L6 "search: {race: maybe}\n", "7:16", "search.race");
	expect_error(L1 L2 L3 L4 L5 L6 "search: {time: [1]}\n", "7:16", "'search.time' is a duration");
	expect_error(L1 L2 L3 L4 L5 L6 "layout: {samples: 0}\n", "7:19",
		     "'layout.samples' must be a positive integer, not '0'");
	expect_error(L1 L2 L3 L4 L5 L6 "layout: {samples: }\n", "7:19",
		     "'layout.samples' must be a positive integer, not an empty value");
}

static void test_study__bounds(void **state)
{
	struct study s;
	char *path;

	/* Absurd counts are refused where they are written, naming the range. */
	expect_error(L1 L2 L3 L4 L5 L6 "layout: {samples: 4294967295}\n", "7:19",
		     "'layout.samples' must be from 1 to 10000, not '4294967295'");
	expect_error(L1 L2 L3 L4 L5 L6 "layout: {samples: 99999999999999999999}\n", "7:19",
		     "'layout.samples' must be a positive integer");
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, repeats: 10001}\n" L6, "5:38",
		     "'measure.repeats' must be from 1 to 10000, not '10001'");
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, repeats: {min: 2, max: 4294967296}}\n"
		     L6, "5:52", "'measure.repeats.max' must be from 1 to 10000");
	expect_error(L1 L2 L3 L4 L5 L6 "search: {budget: 10001}\n", "7:18",
		     "'search.budget' must be from 1 to 10000 (0 or none: the whole space), not '10001'");
	expect_error(L1 L2 L3 L4 L5 L6 "search: {budget: 18446744073709551615}\n", "7:18",
		     "'search.budget' must be from 1 to 10000");
	expect_error(L1 L2 L3 "build: {command: make, artifact: a.out, timeout: 1e12}\n" L5 L6,
		     "4:50", "'build.timeout' must be from 0 to 604800 seconds (a week; 0: no limit), not '1e12'");
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, timeout: 604800.5}\n" L6, "5:38",
		     "'measure.timeout' must be from 0 to 604800 seconds");
	expect_error(L1 L2 L3 L4 "deploy: {command: x, timeout: 1e300}\n" L5 L6, "5:31",
		     "'deploy.timeout' must be from 0 to 604800");

	/* The bounds themselves are fine. */
	path = write_yaml("b.yaml", L1 L2 L3 L4
			  "measure: {command: ./bench, timeout: 604800, repeats: {min: 1, max: 10000}}\n"
			  L6 "search: {budget: 10000}\nlayout: {samples: 10000}\n");
	assert_int_equal(study_load(&s, path), 0);
	assert_int_equal(s.repeats_max, 10000);
	assert_int_equal(s.layout_samples, 10000);
	assert_int_equal(s.budget, 10000);
	assert_true(s.measure.timeout == 604800);
	study_release(&s);
	free(path);
}

/* Loads yaml, which must load, and checks its plan: 0, or -1 with the
 * message "FILE:WHERE: ...fragment..." (where NULL: it must pass). */
static void expect_plan(const char *yaml, uint64_t budget, size_t nrevs, const char *where,
			const char *fragment)
{
	struct study s;
	char *path = write_yaml("p.yaml", yaml);

	assert_int_equal(study_load(&s, path), 0);
	if (!where) {
		if (study_check_plan(&s, budget, nrevs) < 0)
			fail_msg("plan refused: %s", tn_errmsg());
	} else {
		char *prefix = xasprintf("%s:%s: ", path, where);
		const char *msg;

		assert_int_equal(study_check_plan(&s, budget, nrevs), -1);
		msg = tn_errmsg();
		if (strncmp(msg, prefix, strlen(prefix)) || !strstr(msg, fragment))
			fail_msg("got \"%s\", want prefix \"%s\" and \"%s\"", msg, prefix,
				 fragment);
		assert_int_equal(tn_errkind(), TN_ERR_INPUT);
		free(prefix);
	}
	study_release(&s);
	free(path);
}

/* A study whose space has ndims dimensions of nvalues values each, then
 * tail. Caller frees. */
static char *study_with_space(size_t ndims, size_t nvalues, const char *tail)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, L1 L2);
	for (size_t d = 0; d < ndims; d++) {
		strbuf_addf(&sb, "  d%zu: [", d);
		for (size_t v = 0; v < nvalues; v++)
			strbuf_addf(&sb, "%s-fd%zuv%zu", v ? ", " : "", d, v);
		strbuf_addstr(&sb, "]\n");
	}
	strbuf_addf(&sb, "%s%s%s%s", L4, L5, L6, tail);
	return strbuf_detach(&sb);
}

/* expect_plan() of study_with_space(). Its lines: 1 study, 2 space, 3 ..
 * 2 + ndims the dimensions, then build, measure, objectives, tail. */
static void expect_plan_of(size_t ndims, size_t nvalues, const char *tail, uint64_t budget,
			   size_t nrevs, const char *where, const char *fragment)
{
	char *yaml = study_with_space(ndims, nvalues, tail);

	expect_plan(yaml, budget, nrevs, where, fragment);
	free(yaml);
}

static void test_study__plan(void **state)
{
	/* Small spaces as ever; the whole of a large one is refused at the
	 * search section, or at the space without one. */
	expect_plan(L1 L2 L3 L4 L5 L6, 0, 1, NULL, NULL);
	expect_plan(L1 L2 L3 L4 L5 L6 "layout: {samples: 10000}\n", 0, 5, NULL, NULL);
	expect_plan_of(2, 100, "", 0, 1, NULL, NULL);
	expect_plan_of(5, 10, "", 0, 1, "2:1",
		       "exhaustive search of all 100000 configurations: more than a run evaluates "
		       "(10000); set a budget, e.g. search: {strategy: random, budget: 100}");
	expect_plan_of(5, 10, "", 10000, 1, NULL, NULL);
	expect_plan_of(5, 10, "search: {strategy: random}\n", 0, 1, "11:1",
		       "random search of all 100000 configurations");
	/* 2^70: counted exactly, refused whole, fine with a budget (the
	 * study's, or --budget's). */
	expect_plan_of(70, 2, "", 0, 1, "2:1",
		       "exhaustive search of all 1180591620717411303424 configurations");
	expect_plan_of(70, 2, "search: {strategy: random, budget: 50}\n", 50, 1, NULL, NULL);
	expect_plan_of(70, 2, "", 50, 1, NULL, NULL);
	expect_plan_of(70, 2, "", 20000, 1, "2:1",
		       "a search budget of 20000: more configurations than a run evaluates (10000)");
	/* Builds: configurations x layout seeds x revisions. */
	expect_plan_of(5, 10, "search: {budget: 100}\nlayout: {samples: 1000}\n", 100, 1,
		       NULL, NULL);
	expect_plan_of(5, 10, "search: {budget: 100}\nlayout: {samples: 1001}\n", 100, 1,
		       "12:19", "100 configurations x 1001 layout seeds: more builds than a run "
		       "plans (100000); lower the budget or layout.samples");
	expect_plan_of(5, 10, "search: {budget: 100}\nlayout: {samples: 500}\n", 100, 3,
		       "12:19", "100 configurations x 500 layout seeds x 3 revisions");
	expect_plan(L1 L2 L3 L4 L5 L6 "layout: {samples: 10000}\n", 0, 11, "7:19",
		    "2 configurations x 10000 layout seeds x 11 revisions");
}

static void test_study__testbeds(void **state)
{
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: []\n", "7:11", "'testbeds' is empty");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: [a, b, a]\n", "7:18",
		     "duplicate testbed 'a' (first at line 7)");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: [a, {name: a}]\n", "7:15",
		     "duplicate testbed 'a' (first at line 7)");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: [{env: {A: b}}]\n", "7:12",
		     "testbed without a name");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: [{name: r, envv: {}}]\n", "7:22",
		     "unknown key 'envv'");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: [{name: r, env: {9A: x}}]\n", "7:28",
		     "testbed 'r': '9A' is not an environment variable name");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: [{name: r, env: {TUNER_X: x}}]\n", "7:28",
		     "TUNER_* variables are tuner's own");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: [{name: r, env: {A: x, A: y}}]\n", "7:34",
		     "testbed 'r': env A given twice");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: [{name: r, env: {A: [x]}}]\n", "7:31",
		     "env A must be a string, not a list");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: [{name: r, env: {A: '${B'}}]\n", "7:31",
		     "env A: '${' without a closing '}'");
	expect_error(L1 L2 L3 L4 L5 L6 "testbeds: [{name: r, env: {A: 'x${B C}'}}]\n", "7:31",
		     "env A: '${B C}' is not a variable name");
}

static void test_study__testbed_env(void **state)
{
	struct study s;
	char *path = write_yaml("s.yaml", L1 L2 L3 L4 L5 L6
				"testbeds: [plain, {name: r1, env: {HOST: 10.0.0.1, "
				"PASS: 'p=${SECRET_X}', EMPTY: ''}}]\n"
				"lab: {mode: all, order: builds, quarantine: 5, boot_attempts: 1}\n"
				"deploy: {command: ./flash}\n"
				"ready: {command: ./up, timeout: 4, interval: 0.5, within: 60}\n"
				"recover: {command: ./pdu, timeout: 100}\n");

	assert_int_equal(study_load(&s, path), 0);
	assert_int_equal(s.ntestbeds, 2);
	assert_string_equal(s.testbeds[0], "plain");
	assert_string_equal(s.testbeds[1], "r1");
	assert_ptr_equal(s.testbeds[1], s.tbs[1].name);
	assert_int_equal(s.tbs[0].nenv, 0);
	assert_int_equal(s.tbs[1].nenv, 3);
	assert_string_equal(s.tbs[1].env_name[1], "PASS");
	assert_string_equal(s.tbs[1].env_value[1], "p=${SECRET_X}");
	assert_string_equal(s.tbs[1].env_value[2], "");
	assert_int_equal(s.lab.mode, LAB_ALL);
	assert_int_equal(s.lab.order, LAB_BUILDS);
	assert_int_equal(s.lab.quarantine, 5);
	assert_int_equal(s.lab.boot_attempts, 1);
	assert_int_equal(study_slots(&s), 2);
	assert_string_equal(s.ready.command, "./up");
	assert_true(s.ready.timeout == 4 && s.ready_interval == 0.5 && s.ready_within == 60);
	assert_string_equal(s.recover.command, "./pdu");
	study_release(&s);
	free(path);

	/* Defaults: split, rounds, 3, 2; one slot. */
	path = write_yaml("s.yaml", L1 L2 L3 L4 L5 L6 "testbeds: [a, b]\n");
	assert_int_equal(study_load(&s, path), 0);
	assert_int_equal(s.lab.mode, LAB_SPLIT);
	assert_int_equal(s.lab.order, LAB_ROUNDS);
	assert_int_equal(s.lab.quarantine, 3);
	assert_int_equal(s.lab.boot_attempts, 2);
	assert_int_equal(study_slots(&s), 1);
	study_release(&s);
	free(path);

	expect_error(L1 L2 L3 L4 L5 L6 "lab: {mode: some}\n", "7:13", "lab.mode");
	expect_error(L1 L2 L3 L4 L5 L6 "lab: {quarantine: 0}\n", "7:19", "lab.quarantine");
	expect_error(L1 L2 L3 L4 L5 L6 "ready: {command: x}\n", "1:1",
		     "'ready' waits for a testbed after deploy, reboot or recover");
	expect_error(L1 L2 L3 L4 L5 L6 "recover: {timeout: 3}\n", "7:10", "missing recover command");
	expect_error(L1 L2 L3 L4 L5 L6 "deploy: {command: x}\nready: {command: y, within: 0}\n",
		     "8:29", "'ready.within' must be more than 0 seconds");
}

static void test_study__source(void **state)
{
	expect_error(L1 "source: {path: /abs}\n" L2 L3 L4 L5 L6, "2:16",
		     "'source.path' must be a relative path");
	expect_error(L1 "source: {path: a/../../b}\n" L2 L3 L4 L5 L6, "2:16",
		     "'source.path' must be a relative path");
	expect_error(L1 "source: {rev: ''}\n" L2 L3 L4 L5 L6, "2:15", "'source.rev' is empty");
	expect_error(L1 "source: {rve: x}\n" L2 L3 L4 L5 L6, "2:10",
		     "unknown key 'rve' (did you mean 'rev'?)");
}

static void test_study__yaml_oddities(void **state)
{
	expect_error(L1 L2 L3 "build: {command: *nope, artifact: a}\n" L5 L6, "4:18",
		     "undefined alias '*nope'");
	expect_error(L1 "? [a]\n: b\n" L2 L3 L4 L5 L6, "2:3",
		     "mapping keys must be strings, not a list");
	expect_error(L1 L2 L3 "build: {command: \"a\\0b\", artifact: a}\n" L5 L6, "4:18",
		     "NUL character");
}

static void test_study__model(void **state)
{
	struct study s;
	char *path;

	/* Absent: the defaults, for any parser. */
	path = write_yaml("m0.yaml", L1 L2 L3 L4 L5 L6);
	assert_int_equal(study_load(&s, path), 0);
	assert_true(s.model.l1_miss == CG_MODEL_L1_MISS);
	assert_true(s.model.ll_miss == CG_MODEL_LL_MISS);
	assert_true(s.model.clock_mhz == CG_MODEL_CLOCK_MHZ);
	assert_string_equal(s.model.files, CG_MODEL_FILES);
	study_release(&s);
	assert_null(s.model.files);
	free(path);

	path = write_yaml("m1.yaml", L1 L2 L3 L4
			  "measure:\n"
			  "  command: ./bench\n"
			  "  parser: cachegrind-model\n"
			  "  model: {l1_miss: 19, ll_miss: \"154\", clock_mhz: 1400.5,"
			  " files: 'nat_*.c'}\n"
			  "objectives:\n"
			  "  - {name: throughput, goal: max}\n"
			  "  - {name: cycles, goal: min, parser: \"cachegrind-model:cycles\"}\n");
	assert_int_equal(study_load(&s, path), 0);
	assert_true(s.model.l1_miss == 19);
	assert_true(s.model.ll_miss == 154);
	assert_true(s.model.clock_mhz == 1400.5);
	assert_string_equal(s.model.files, "nat_*.c");
	assert_string_equal(s.objectives[0].parser, "cachegrind-model");
	assert_string_equal(s.objectives[1].parser, "cachegrind-model:cycles");
	study_release(&s);
	free(path);

	/* Partly given; the measure parser is number but an objective's is not. */
	path = write_yaml("m2.yaml", L1 L2 L3 L4
			  "measure: {command: ./bench, model: {files: 'x*'}}\n"
			  "objectives: [{name: ir, goal: min, parser: 'cachegrind-model:ir'}]\n");
	assert_int_equal(study_load(&s, path), 0);
	assert_true(s.model.l1_miss == CG_MODEL_L1_MISS);
	assert_true(s.model.clock_mhz == CG_MODEL_CLOCK_MHZ);
	assert_string_equal(s.model.files, "x*");
	study_release(&s);
	free(path);
}

#define CGM "measure: {command: ./bench, parser: cachegrind-model, model: "

static void test_study__model_errors(void **state)
{
	expect_error(L1 L2 L3 L4 CGM "{l1_miss: 0}}\n" L6, "5:72",
		     "'measure.model.l1_miss' must be a positive number, at most 1e9, not '0'");
	expect_error(L1 L2 L3 L4 CGM "{ll_miss: -5}}\n" L6, "5:72",
		     "'measure.model.ll_miss' must be a positive number, at most 1e9, not '-5'");
	expect_error(L1 L2 L3 L4 CGM "{clock_mhz: fast}}\n" L6, "5:74",
		     "'measure.model.clock_mhz' must be a positive number, at most 1e9, not 'fast'");
	expect_error(L1 L2 L3 L4 CGM "{ll_miss: 1e300}}\n" L6, "5:72",
		     "'measure.model.ll_miss' must be a positive number, at most 1e9, not '1e300'");
	expect_error(L1 L2 L3 L4 CGM "{files: ''}}\n" L6, "5:70",
		     "'measure.model.files' is empty");
	expect_error(L1 L2 L3 L4 CGM "{files: [a]}}\n" L6, "5:70",
		     "'measure.model.files' must be a string, not a list");
	expect_error(L1 L2 L3 L4 CGM "[1]}\n" L6, "5:62",
		     "'measure.model' must be a mapping, not a list");
	expect_error(L1 L2 L3 L4 CGM "{l1_mis: 3}}\n" L6, "5:63",
		     "unknown key 'l1_mis' (did you mean 'l1_miss'?)");
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, modle: {l1_miss: 3}}\n" L6, "5:29",
		     "unknown key 'modle' (did you mean 'model'?)");
	expect_error(L1 L2 L3 L4 "measure: {command: ./bench, model: {l1_miss: 3}}\n" L6, "5:36",
		     "'measure.model' applies only to the cachegrind-model parsers");
}

static void test_study__uarch(void **state)
{
	struct study s;
	char m[512];
	char *path = write_yaml("u1.yaml", L1 L2 L3 L4
				"measure:\n"
				"  command: ./score\n"
				"  parser: uarch-model\n"
				"  uarch: {mispredict: 13, preset: 1004k, l2: 131072:8:32:rr, ras: 8,"
				" clock_mhz: 1000}\n"
				"objectives:\n"
				"  - {name: throughput, goal: max}\n"
				"  - {name: cycles, goal: min, parser: 'uarch-model:cycles'}\n");

	/* The preset first, wherever it is written; then the keys. */
	assert_int_equal(study_load(&s, path), 0);
	assert_true(s.has_uarch);
	assert_string_equal(s.uarch.preset, "1004k");
	assert_true(s.uarch.mispredict == 13);
	assert_true(s.uarch.clock_mhz == 1000);
	assert_true(s.uarch.l1i_miss == 25);
	ua_config_machine(&s.uarch, m, sizeof(m));
	assert_string_equal(m, "l1i=32768:4:32:lru,l1d=32768:4:32:lru,l2=131072:8:32:rr,"
			       "dir=bimodal:512,btb=none,ras=8,indirect=none,writeback=on");
	study_release(&s);
	free(path);
	/* Absent: no modelled core. */
	path = write_yaml("u0.yaml", L1 L2 L3 L4 L5 L6);
	assert_int_equal(study_load(&s, path), 0);
	assert_false(s.has_uarch);
	study_release(&s);
	free(path);
}

#define UAM "measure: {command: ./score, parser: uarch-model, uarch: "

static void test_study__uarch_errors(void **state)
{
	expect_error(L1 L2 L3 L4 UAM "{l1i_miss: 3}}\n" L6, "5:57",
		     "'measure.uarch' needs a preset (cortex-a9, bcm47094, 1004k, mt7621, cachegrind)");
	expect_error(L1 L2 L3 L4 UAM "{preset: a15}}\n" L6, "5:66",
		     "measure.uarch.preset: unknown preset 'a15'");
	expect_error(L1 L2 L3 L4 UAM "{preset: cortex-a9, l1d: 32768:3:32}}\n" L6, "5:82",
		     "measure.uarch.l1d: 32768 bytes in 3 ways");
	expect_error(L1 L2 L3 L4 UAM "{preset: cortex-a9, taken: -1}}\n" L6, "5:84",
		     "measure.uarch.taken: '-1' is not a number of cycles");
	expect_error(L1 L2 L3 L4 UAM "{preset: cortex-a9, l1: 1}}\n" L6, "5:77",
		     "unknown key 'l1'");
	expect_error(L1 L2 L3 L4 UAM "{preset: [cortex-a9]}}\n" L6, "5:66",
		     "'measure.uarch.preset' must be a string");
	expect_error(L1 L2 L3 L4 UAM "[1]}\n" L6, "5:57",
		     "'measure.uarch' must be a mapping");
	expect_error(L1 L2 L3 L4 "measure: {command: ./score, uarch: {preset: 1004k}}\n" L6,
		     "5:36", "'measure.uarch' applies only to the uarch-model parsers");
	expect_error(L1 L2 L3 L4 "measure: {command: ./score, parser: uarch-model}\n" L6, "5:10",
		     "the uarch-model parsers need 'measure.uarch'");
}

/* Loads yaml as tmpdir/s.yaml; copies build's and train's inputs hashes. */
static void load_inputs(const char *yaml, char build[17], char train[17])
{
	struct study s;
	char *path = write_yaml("s.yaml", yaml);

	if (study_load(&s, path) < 0)
		fail_msg("%s", tn_errmsg());
	memcpy(build, s.build.inputs, 17);
	memcpy(train, s.train.inputs, 17);
	study_release(&s);
	free(path);
}

#define BUILD_INPUTS(list) "build: {command: make, artifact: a.out, inputs: " list "}\n"

static void test_study__inputs(void **state)
{
	char none[17], b1[17], b2[17], b3[17], t[17];
	char *sub = xasprintf("%s/frag/sub", tmpdir);

	assert_int_equal(mkdir_p(sub), 0);
	free(write_yaml("build.sh", "make \"$@\"\n"));
	free(write_yaml("frag/sub/a.config", "CONFIG_A=y\n"));
	load_inputs(L1 L2 L3 L4 L5 L6, none, t);
	assert_string_equal(none, "");
	assert_string_equal(t, "");

	load_inputs(L1 L2 L3 BUILD_INPUTS("[build.sh, frag]") L5 L6, b1, t);
	assert_int_equal(strlen(b1), 16);
	assert_string_equal(t, "");
	load_inputs(L1 L2 L3 BUILD_INPUTS("[build.sh, frag]") L5 L6, b2, t);
	assert_string_equal(b1, b2);
	/* A file deep in a listed directory changes the hash; putting its
	 * bytes back restores it. */
	free(write_yaml("frag/sub/a.config", "CONFIG_A=n\n"));
	load_inputs(L1 L2 L3 BUILD_INPUTS("[build.sh, frag]") L5 L6, b2, t);
	assert_string_not_equal(b1, b2);
	free(write_yaml("frag/sub/a.config", "CONFIG_A=y\n"));
	load_inputs(L1 L2 L3 BUILD_INPUTS("[build.sh, frag]") L5 L6, b2, t);
	assert_string_equal(b1, b2);
	/* So does a new file there, and the list's order. */
	free(write_yaml("frag/b.config", ""));
	load_inputs(L1 L2 L3 BUILD_INPUTS("[build.sh, frag]") L5 L6, b3, t);
	assert_string_not_equal(b1, b3);
	load_inputs(L1 L2 L3 BUILD_INPUTS("[frag, build.sh]") L5 L6, b2, t);
	assert_string_not_equal(b3, b2);

	load_inputs(L1 L2 L3 "  pgo: [off, on]\n" L4 "train: {command: t, inputs: [build.sh]}\n" L5 L6,
		    b1, t);
	assert_string_equal(b1, "");
	assert_int_equal(strlen(t), 16);
	free(sub);
}

static void test_study__inputs_errors(void **state)
{
	char *dangling = xasprintf("%s/links", tmpdir);

	expect_error(L1 L2 L3 BUILD_INPUTS("[nope]") L5 L6, "4:50",
		     "build.inputs: cannot read 'nope': No such file or directory");
	expect_error(L1 L2 L3 BUILD_INPUTS("build.sh") L5 L6, "4:49",
		     "'build.inputs' must be a list");
	expect_error(L1 L2 L3 BUILD_INPUTS("[]") L5 L6, "4:49", "'build.inputs' is empty");
	expect_error(L1 L2 L3 BUILD_INPUTS("['']") L5 L6, "4:50", "empty path in 'build.inputs'");
	expect_error(L1 L2 L3 L4 "deploy: {command: d, inputs: [x]}\n" L5 L6, "5:22",
		     "unknown key 'inputs'");
	expect_error(L1 L2 L3 "  pgo: [off, on]\n" L4 "train: {command: t, inputs: [gone]}\n" L5 L6,
		     "6:30", "train.inputs: cannot read 'gone'");
	/* A directory with a link to nowhere cannot be read whole. */
	assert_int_equal(mkdir_p(dangling), 0);
	free(dangling);
	dangling = xasprintf("%s/links/x", tmpdir);
	assert_int_equal(symlink("/nonexistent/tuner", dangling), 0);
	expect_error(L1 L2 L3 BUILD_INPUTS("[links]") L5 L6, "4:50",
		     "build.inputs: cannot read 'links'");
	free(dangling);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(test_study__##name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(good_roundtrip),
		T(defaults),
		T(same_code_and_equivalent),
		T(source_loc_defaults_to_key),
		T(scalar_repeats_and_quoted_numbers),
		T(null_values_are_empty_flags),
		T(aliases_expand),
		T(missing_file),
		T(not_a_file),
		T(syntax_error),
		T(not_a_mapping),
		T(unknown_key),
		T(wrong_type),
		T(size_section),
		T(duplicate_key),
		T(duplicate_dimension),
		T(empty_dimension),
		T(bad_dimension_values),
		T(study_name),
		T(missing_build),
		T(pgo_on_needs_train),
		T(measure_objective_needs_command),
		T(unknown_parser),
		T(repeats),
		T(negative_timeout),
		T(objectives),
		T(size_objective_needs_size),
		T(search_and_layout),
		T(bounds),
		T(plan),
		T(testbeds),
		T(testbed_env),
		T(source),
		T(yaml_oddities),
		T(model),
		T(model_errors),
		T(uarch),
		T(uarch_errors),
		T(inputs),
		T(inputs_errors),
	};
#undef T

	return cmocka_run_group_tests_name("study", tests, NULL, NULL);
}
