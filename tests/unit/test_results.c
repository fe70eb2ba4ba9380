/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for results: pareto.json files written by the test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/results.h"
#include "tuner/util.h"
#include "scratch_dir.h"

#define CLOSE(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* A study with just a name and the space opt [-O2, -Os] x reorder ["",
 * -fno-reorder-blocks]: all that results_load() reads of it. */
static void small_study(struct study *s)
{
	static const char *const opt[] = { "-O2", "-Os" };
	static const char *const reorder[] = { "", "-fno-reorder-blocks" };

	memset(s, 0, sizeof(*s));
	s->name = "t";
	assert_int_equal(space_add_dimension(&s->space, "opt", opt, 2), 0);
	assert_int_equal(space_add_dimension(&s->space, "reorder", reorder, 2), 0);
}

static char *id_of(const char *flags, enum pgo_mode pgo)
{
	char id[17];

	config_id(id, flags, pgo);
	return xstrdup(id);
}

/*
 * The results of study t: -O2 (layout seeds), -Os -fno-reorder-blocks
 * (one seed), -O3 (not in the space, failed to build).
 */
static char *valid_text(void)
{
	char *a = id_of("-O2", PGO_OFF), *b = id_of("-Os -fno-reorder-blocks", PGO_OFF);
	char *c = id_of("-O3", PGO_OFF);
	char *text = xasprintf(
		"{\"study\": \"t\", \"study_hash\": \"00112233445566ff\", \"tuner\": \"0.1.0\",\n"
		" \"source\": {\"commit\": \"%040d\", \"tree\": \"%040d\", \"dirty\": false},\n"
		" \"complete\": true, \"confidence\": 0.95, \"compiler\": \"gcc (Debian 12.2.0-14) 12.2.0\",\n"
		" \"host\": {\"name\": \"box\", \"machine\": \"x86_64\"}, \"date\": \"2026-12-02T10:00:00Z\",\n"
		" \"objectives\": [{\"name\": \"speed\", \"unit\": \"Mbit/s\", \"goal\": \"max\", \"limit\": null, \"modelled\": false, \"noisy\": true},\n"
		"   {\"name\": \"size\", \"unit\": \"bytes\", \"goal\": \"min\", \"limit\": 6000}],\n"
		" \"front\": [],\n"
		" \"configs\": [\n"
		"  {\"config\": \"%s\", \"flags\": \"-O2\", \"pgo\": \"off\", \"status\": \"ok\", \"on_front\": true, \"feasible\": true, \"tied\": false, \"same_code_as\": null,\n"
		"   \"objectives\": {\"speed\": {\"value\": 100, \"n\": 4, \"sd\": 2.5, \"run_sd\": 1, \"layout_sd\": 3, \"layout_seeds\": 2},\n"
		"                  \"size\": {\"value\": 5000, \"n\": 1, \"sd\": 0}},\n"
		"   \"builds\": [\"r/builds/1\", \"r/builds/2\"]},\n"
		"  {\"config\": \"%s\", \"flags\": \"-Os -fno-reorder-blocks\", \"pgo\": \"off\", \"status\": \"ok\", \"on_front\": false, \"feasible\": true, \"same_code_as\": \"%s\",\n"
		"   \"objectives\": {\"speed\": {\"value\": 110.5, \"n\": 4, \"sd\": 2, \"run_sd\": null, \"layout_sd\": null, \"layout_seeds\": 1},\n"
		"                  \"size\": {\"value\": 4000, \"n\": 1, \"sd\": 0}}},\n"
		"  {\"config\": \"%s\", \"flags\": \"-O3\", \"pgo\": \"off\", \"status\": \"build-failed\", \"on_front\": false, \"feasible\": false,\n"
		"   \"objectives\": {\"speed\": {\"value\": null, \"n\": 0, \"sd\": null}, \"size\": {\"value\": null, \"n\": 0}}}\n"
		" ]}\n", 0, 0, a, b, a, c);

	free(a);
	free(b);
	free(c);
	return text;
}

static char *write_pareto(const char *dir, const char *text)
{
	char *path = xasprintf("%s/pareto.json", dir);

	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	return path;
}

/* text with its first `from` replaced by `to` (which must be there). */
static char *replace_once(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	if (!at)
		fail_msg("no '%s' to replace", from);
	return xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static void test_results__load(void **state)
{
	struct study s;
	struct results r;
	char *text = valid_text(), *path = write_pareto(*state, text);
	const struct results_config *c;

	small_study(&s);
	assert_int_equal(results_load(&r, &s, *state), 0);
	assert_string_equal(r.dir, *state);
	assert_string_equal(r.study, "t");
	assert_string_equal(r.study_hash, "00112233445566ff");
	assert_true(r.complete);
	assert_string_equal(r.compiler, "gcc (Debian 12.2.0-14) 12.2.0");
	assert_string_equal(r.host, "box (x86_64)");
	assert_string_equal(r.date, "2026-12-02T10:00:00Z");
	assert_int_equal(r.nobjectives, 2);
	assert_string_equal(r.objectives[0].name, "speed");
	assert_string_equal(r.objectives[0].unit, "Mbit/s");
	assert_true(r.objectives[0].maximize);
	assert_false(r.objectives[0].has_limit);
	assert_true(r.objectives[0].noisy);
	assert_false(r.objectives[1].maximize);
	assert_true(r.objectives[1].has_limit);
	CLOSE(r.objectives[1].limit, 6000);
	assert_int_equal(results_objective(&r, "size"), 1);
	assert_int_equal(results_objective(&r, "latency"), -1);
	assert_int_equal(r.nconfigs, 3);

	/* Layout seeds are the unit: sqrt(layout_sd^2 / L + run_sd^2 / n). */
	c = &r.configs[0];
	assert_string_equal(c->flags, "-O2");
	assert_true(c->on_front && c->feasible);
	assert_null(c->same_code_as);
	assert_int_equal(c->nbuilds, 2);
	assert_string_equal(c->build_dirs[1], "r/builds/2");
	assert_true(c->obj[0].known);
	CLOSE(c->obj[0].value, 100);
	CLOSE(c->obj[0].se, sqrt(9.0 / 2 + 1.0 / 4));
	/* One sample, nothing else known: 0. */
	CLOSE(c->obj[1].se, 0);
	assert_non_null(c->pick);
	assert_int_equal(c->pick[0], 0);
	assert_int_equal(c->pick[1], 0);

	/* One layout seed: sd / sqrt(n). */
	c = &r.configs[1];
	CLOSE(c->obj[0].se, 1);
	assert_string_equal(c->same_code_as, r.configs[0].id);
	assert_int_equal(c->pick[0], 1);
	assert_int_equal(c->pick[1], 1);

	/* Not in the space; no values. */
	c = &r.configs[2];
	assert_null(c->pick);
	assert_string_equal(c->status, "build-failed");
	assert_false(c->obj[0].known);
	assert_true(isnan(c->obj[0].se));
	results_release(&r);
	space_release(&s.space);
	free(text);
	free(path);
}

static void test_results__bridges(void **state)
{
	struct study s;
	struct results r;
	struct effects e;
	struct defaults_target t;
	char *text = valid_text(), *path = write_pareto(*state, text);

	small_study(&s);
	assert_int_equal(results_load(&r, &s, *state), 0);
	/* -O2 and -Os -fno-reorder-blocks differ in both dimensions: no pair. */
	assert_int_equal(results_effects(&e, &r, &s.space, 0), 0);
	assert_int_equal(e.nvals, 2);
	assert_int_equal(e.values[0].main.n, 0);
	effects_release(&e);

	results_defaults_target(&t, &r, "router", 0);
	assert_string_equal(t.name, "router");
	assert_true(t.maximize);
	assert_int_equal(t.nconfigs, 3);
	assert_true(t.configs[1].feasible);
	CLOSE(t.configs[1].value, 110.5);
	CLOSE(t.configs[1].se, 1);
	assert_false(t.configs[2].feasible);
	assert_true(isnan(t.configs[2].value));
	free(t.configs);
	results_release(&r);
	space_release(&s.space);
	free(text);
	free(path);
}

/* Each damaged file is refused with its name and the field. */
static void test_results__malformed(void **state)
{
	static const struct {
		const char *from, *to, *msg;
	} cases[] = {
		{ "\"n\": 4, \"sd\": 2.5", "\"n\": \"4\", \"sd\": 2.5",
		  "'configs[0].objectives.speed.n' must be an integer, not a string" },
		{ "\"feasible\": true, \"tied\"", "\"feasible\": 1, \"tied\"",
		  "'configs[0].feasible' must be a boolean, not an integer" },
		{ "\"value\": 110.5", "\"value\": \"fast\"",
		  "'configs[1].objectives.speed.value' must be a number or null, not a string" },
		{ "\"goal\": \"max\"", "\"goal\": \"up\"",
		  "'objectives[0].goal' must be \"max\" or \"min\", not \"up\"" },
		{ "\"objectives\": [", "\"objectives\": {}, \"x\": [",
		  "'objectives' must be an array, not an object" },
		{ "\"flags\": \"-O3\"", "\"flags\": [\"-O3\"]",
		  "'configs[2].flags' must be a string, not an array" },
		{ "\"builds\": [\"r/builds/1\"", "\"builds\": [1",
		  "'configs[0].builds[0]' must be a string, not an integer" },
		{ "\"speed\": {\"value\": 100,", "\"speedy\": {\"value\": 100,",
		  "'configs[0].objectives.speed' is missing" },
		{ "\"status\": \"ok\", \"on_front\": true", "\"on_front\": true",
		  "'configs[0].status' is missing" },
		{ "\"layout_sd\": 3", "\"layout_sd\": -3",
		  "'configs[0].objectives.speed.layout_sd' must be a finite number at least 0, not -3" },
		{ "\"same_code_as\": \"", "\"same_code_as\": \"zz",
		  "'configs[1].same_code_as' must be a configuration id or null" },
		{ "\"study_hash\": \"00112233445566ff\"", "\"study_hash\": \"xyz\"",
		  "'study_hash' must be 1 to 16 hexadecimal characters long" },
		{ "\"host\": {\"name\": \"box\"", "\"host\": {\"name\": 7",
		  "'host.name' must be a string or null, not an integer" },
		{ "\"compiler\": \"gcc", "\"compiler\": [\"gcc\"], \"x\": \"gcc",
		  "'compiler' must be a string or null, not an array" },
		{ "{\"study\": \"t\"", "{\"study\": \"t\" \"",
		  "pareto.json:1:" },
	};
	char *text = valid_text();
	struct study s;

	small_study(&s);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *bad = replace_once(text, cases[i].from, cases[i].to);
		char *path = write_pareto(*state, bad);
		struct results r;

		if (results_load(&r, &s, *state) == 0)
			fail_msg("case %zu loaded", i);
		if (strncmp(tn_errmsg(), path, strlen(path)) || !strstr(tn_errmsg(), cases[i].msg))
			fail_msg("case %zu: '%s', want '%s: ...%s'", i, tn_errmsg(), path, cases[i].msg);
		assert_int_equal(tn_errkind(), TN_ERR_INPUT);
		free(bad);
		free(path);
	}
	space_release(&s.space);
	free(text);
}

static void test_results__missing_other_study_not_results(void **state)
{
	struct study s;
	struct results r;
	char *text = valid_text(), *other = replace_once(text, "\"study\": \"t\"", "\"study\": \"u\"");
	char *path;

	small_study(&s);
	assert_int_equal(results_load(&r, &s, *state), -1);
	assert_non_null(strstr(tn_errmsg(), "pareto.json: no results: run the study first"));
	path = write_pareto(*state, other);
	assert_int_equal(results_load(&r, &s, *state), -1);
	assert_non_null(strstr(tn_errmsg(), "pareto.json: the results of study 'u', not of 't'"));
	free(path);
	path = write_pareto(*state, "{\"journal\": 1}");
	assert_int_equal(results_load(&r, &s, *state), -1);
	assert_non_null(strstr(tn_errmsg(), "pareto.json: not a tuner results file"));
	free(path);
	space_release(&s.space);
	free(text);
	free(other);
}

/* 14 two-valued dimensions and pgo: 32768 configurations, more than
 * are listed; each configuration's flags are read as its values. */
static void test_results__big_space_parsed(void **state)
{
	static const char *const pgo[] = { "off", "on" };
	struct study s;
	struct results r;
	char *a, *b, *c, *text, *path;

	memset(&s, 0, sizeof(s));
	s.name = "big";
	for (int d = 0; d < 14; d++) {
		char name[16], flag[16];
		const char *v[2] = { "", flag };

		snprintf(name, sizeof(name), "d%d", d);
		snprintf(flag, sizeof(flag), "-f%d", d);
		assert_int_equal(space_add_dimension(&s.space, name, v, 2), 0);
	}
	assert_int_equal(space_add_dimension(&s.space, "pgo", pgo, 2), 0);
	a = id_of("-f1 -f5", PGO_ON);
	b = id_of("-fbogus", PGO_OFF);
	c = id_of("", PGO_OFF);
	text = xasprintf("{\"study\": \"big\", \"study_hash\": \"0000000000000001\", \"tuner\": \"x\", \"complete\": false,\n"
			 " \"objectives\": [{\"name\": \"v\", \"goal\": \"min\"}],\n"
			 " \"configs\": [\n"
			 "  {\"config\": \"%s\", \"flags\": \"-f1 -f5\", \"pgo\": \"on\", \"status\": \"ok\", \"on_front\": true, \"feasible\": true, \"objectives\": {\"v\": {\"value\": 1, \"n\": 1}}},\n"
			 "  {\"config\": \"%s\", \"flags\": \"-fbogus\", \"pgo\": \"off\", \"status\": \"ok\", \"on_front\": true, \"feasible\": true, \"objectives\": {\"v\": {\"value\": 1, \"n\": 1}}},\n"
			 "  {\"config\": \"%s\", \"flags\": \"\", \"pgo\": \"off\", \"status\": \"ok\", \"on_front\": true, \"feasible\": true, \"objectives\": {\"v\": {\"value\": 1, \"n\": 1}}}\n"
			 " ]}\n", a, b, c);
	path = write_pareto(*state, text);
	assert_int_equal(results_load(&r, &s, *state), 0);
	assert_false(r.complete);
	/* An older file: no provenance, not an error. */
	assert_null(r.compiler);
	assert_null(r.host);
	assert_null(r.date);
	assert_string_equal(r.objectives[0].unit, "");
	assert_non_null(r.configs[0].pick);
	for (int d = 0; d < 14; d++)
		assert_int_equal(r.configs[0].pick[d], d == 1 || d == 5);
	assert_int_equal(r.configs[0].pick[14], 1);
	assert_null(r.configs[1].pick);
	assert_non_null(r.configs[2].pick);
	for (int d = 0; d < 15; d++)
		assert_int_equal(r.configs[2].pick[d], 0);
	results_release(&r);
	space_release(&s.space);
	free(a);
	free(b);
	free(c);
	free(text);
	free(path);
}

/* Two study files of one name: targets "t" and "t#2". */
static void test_results__targets(void **state)
{
	const char *yaml = "study: t\nspace:\n  opt: [-O2, -Os]\n  reorder: [\"\", -fno-reorder-blocks]\n"
			   "build: {command: 'true', artifact: a}\nmeasure: {command: 'echo 1'}\n"
			   "objectives:\n  - {name: speed, goal: max}\n";
	char *study = xasprintf("%s/s.yaml", (char *)*state);
	char *text = valid_text(), *path = write_pareto(*state, text);
	const char *studies[2] = { study, study }, *dirs[2] = { *state, *state };
	const char *missing[2] = { study, "/nonexistent/s.yaml" };
	struct results_target *t;

	assert_int_equal(write_file_atomic(study, yaml, strlen(yaml)), 0);
	assert_int_equal(results_targets_load(&t, studies, dirs, 2), 0);
	assert_string_equal(t[0].name, "t");
	assert_string_equal(t[1].name, "t#2");
	assert_int_equal(t[0].unplaced, 1);
	assert_int_equal(t[1].res.nconfigs, 3);
	results_targets_free(t, 2);
	assert_int_equal(results_targets_load(&t, missing, dirs, 2), -1);
	assert_null(t);
	free(study);
	free(text);
	free(path);
}

/* The values of two targets' spaces side by side, matched by dimension,
 * reference and value; each value for people. */
static void test_results__effect_rows(void **state)
{
	static const char *const opt_a[] = { "-O2", "-Os" }, *const opt_b[] = { "-O2", "-Os", "-O3" };
	static const char *const reorder[] = { "", "-fno-reorder-blocks" };
	static const char *const pgo[] = { "off", "on" };
	struct results_target t[2];
	struct results_effect_row *rows;
	size_t n;
	char buf[64];

	(void)state;
	memset(t, 0, sizeof(t));
	assert_int_equal(space_add_dimension(&t[0].study.space, "opt", opt_a, 2), 0);
	assert_int_equal(space_add_dimension(&t[0].study.space, "reorder", reorder, 2), 0);
	assert_int_equal(space_add_dimension(&t[1].study.space, "opt", opt_b, 3), 0);
	assert_int_equal(space_add_dimension(&t[1].study.space, "pgo", pgo, 2), 0);
	rows = results_effect_rows(t, 2, &n);
	assert_int_equal(n, 4);
	assert_string_equal(rows[0].value, "-Os");
	assert_int_equal(rows[0].at[0], 0);
	assert_int_equal(rows[0].at[1], 0);
	assert_string_equal(rows[1].dim, "reorder");
	assert_int_equal(rows[1].at[0], 1);
	assert_int_equal(rows[1].at[1], -1);
	assert_int_equal(rows[1].d[0], 1);
	assert_string_equal(rows[2].value, "-O3");
	assert_int_equal(rows[2].at[0], -1);
	assert_int_equal(rows[2].at[1], 1);
	assert_string_equal(rows[3].dim, "pgo");
	assert_int_equal(rows[3].at[1], 2);
	assert_int_equal(rows[3].d[1], 1);
	assert_string_equal(results_value_label(buf, sizeof(buf), &t[0].study.space.dims[1], ""),
			    "(no reorder)");
	assert_string_equal(results_value_label(buf, sizeof(buf), &t[0].study.space.dims[0], "-Os"),
			    "-Os");
	assert_string_equal(results_value_label(buf, sizeof(buf), &t[1].study.space.dims[1], "on"),
			    "pgo=on");
	results_effect_rows_free(rows, n);
	space_release(&t[0].study.space);
	space_release(&t[1].study.space);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_results__load, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_results__bridges, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_results__malformed, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_results__missing_other_study_not_results,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_results__big_space_parsed, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_results__targets, setup_dir, teardown_dir),
		cmocka_unit_test(test_results__effect_rows),
	};

	return cmocka_run_group_tests_name("results", tests, NULL, NULL);
}
