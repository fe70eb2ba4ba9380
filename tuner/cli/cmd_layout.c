/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner layout: hot symbols, their cache placement and what it costs. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "tuner/journal.h"
#include "tuner/layout.h"
#include "tuner/study.h"
#include "tuner/util.h"

#include "cmd_layout.h"

const char layout_usage[] =
	"usage: tuner layout RESULTS_DIR [options]     which alignments matter in a study\n"
	"       tuner layout A B [options]             what moved between two builds\n\n"
	"Hot functions, where they sit in the instruction cache, and what they cost.\n"
	"Costs come from the cachegrind output files the measure command left in each\n"
	"build directory (cachegrind.out*): instruction and cache-miss counts of a\n"
	"SIMULATED cache (the Cortex-A9's 32 KB 4-way L1 with 32-byte lines for\n"
	"natbench), turned into cycles by the study's cache model. They are\n"
	"MODELLED, not measured, and so is natbench's throughput. Addresses come\n"
	"from the artifact's symbol table.\n\n"
	"With a study's results directory (results/<study>: journal.jsonl and\n"
	"builds/), every successful build with cachegrind data is used (builds of\n"
	"identical code count once). For each of\n"
	"the hottest functions the builds are grouped by the function's offset in\n"
	"its cache line (address mod the line size, or mod --mod N), and a one-way\n"
	"analysis of variance (Fisher's F test) says whether the objective differs\n"
	"between the groups: p, eta2 (the share of the objective's variance the\n"
	"offset explains), and q, the Benjamini-Hochberg false discovery rate over\n"
	"the functions tested. Functions whose offsets split the builds the same\n"
	"way cannot be told apart by the data and are shown as one row (the\n"
	"'alike' column counts the others); vary the layout more (layout seeds) to\n"
	"separate them. When the builds differ in flags, an offset can stand for a\n"
	"flag's other effects. The function's own modelled cycles per offset class\n"
	"show whether its own cost moves with its alignment.\n\n"
	"With two builds A and B (build directories, artifacts in them, or with\n"
	"--results DIR build keys or their prefixes): every costed function with\n"
	"its address, size, line offset, first cache set and lines spanned in both,\n"
	"how far it moved, and its cycles in both, ranked by its share of the\n"
	"difference in modelled cycles.\n\n"
	"  --results DIR     look A and B up as build keys in DIR/builds\n"
	"  --artifact PATH   the program, when a build directory has no file named\n"
	"                    like the one cachegrind ran (two-build mode)\n"
	"  --study FILE      take the cache model (measure.model: penalties and\n"
	"                    counted files) and objective units from the study\n"
	"  --objective NAME  the objective to relate offsets to (default: the\n"
	"                    first one in the journal)\n"
	"  --mod N           alignment classes: address mod N (default: the I1 line)\n"
	"  --top N           functions examined (study, default 40) or shown (two\n"
	"                    builds, default 25)\n"
	"  -h, --help        this text\n\n"
	"Exit status: 0 done, 1 error (no cachegrind data, unreadable artifact,\n"
	"...), 2 bad option or a path that does not exist.\n";

struct layout_opts {
	const char *results, *artifact, *study, *objective;
	unsigned modulus;
	size_t top;
	int has_top;
};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "tuner: layout: ");
	fprintf(stderr, fmt, arg ? arg : "");
	fprintf(stderr, " (see 'tuner layout --help')\n");
	return EXIT_USAGE;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * Where build spec lives: a directory, an artifact (its directory), or a
 * build key prefix under results/builds. 0 with *dir (malloced) and
 * *artifact (malloced or NULL) set; an exit code with the message printed.
 */
static int resolve_build(char **dir, char **artifact, const char *spec,
			 const struct layout_opts *o)
{
	*dir = NULL;
	*artifact = o->artifact ? xstrdup(o->artifact) : NULL;
	if (is_dir(spec)) {
		*dir = xstrdup(spec);
		return 0;
	}
	if (is_file(spec)) {
		*dir = path_dirname(spec);
		free(*artifact);
		*artifact = xstrdup(spec);
		return 0;
	}
	if (o->results && !strchr(spec, '/')) {
		char *builds = xasprintf("%s/builds", o->results);
		char *found = layout_find_key(builds, spec);

		free(builds);
		if (found) {
			*dir = found;
			return 0;
		}
		fprintf(stderr, "tuner: layout: no build '%s' (or more than one) in %s/builds\n",
			spec, o->results);
		free(*artifact);
		*artifact = NULL;
		return EXIT_USAGE;
	}
	fprintf(stderr, "tuner: layout: '%s' is not a build directory or an artifact%s\n", spec,
		o->results ? "" : " (build keys need --results DIR)");
	free(*artifact);
	*artifact = NULL;
	return EXIT_USAGE;
}

static int two_builds(const char *spec_a, const char *spec_b, const struct layout_opts *o,
		      const struct cg_model *m)
{
	struct layout_build a, b;
	struct layout_diff d;
	char *dir_a = NULL, *dir_b = NULL, *art_a = NULL, *art_b = NULL;
	int ret, loaded = 0;

	ret = resolve_build(&dir_a, &art_a, spec_a, o);
	if (!ret)
		ret = resolve_build(&dir_b, &art_b, spec_b, o);
	if (ret)
		goto out;
	ret = EXIT_FAIL;
	if (layout_build_load(&a, dir_a, art_a, m) < 0) {
		cmd_print_error(tn_errmsg());
		goto out;
	}
	loaded = 1;
	if (layout_build_load(&b, dir_b, art_b, m) < 0) {
		cmd_print_error(tn_errmsg());
		goto out;
	}
	loaded = 2;
	layout_diff(&d, &a, &b);
	layout_print_diff(stdout, &a, &b, &d, m, o->has_top ? o->top : 25);
	layout_diff_release(&d);
	ret = EXIT_OK;
out:
	if (loaded > 1)
		layout_build_release(&b);
	if (loaded > 0)
		layout_build_release(&a);
	free(dir_a);
	free(dir_b);
	free(art_a);
	free(art_b);
	return ret;
}

/* ---- A study's results ---- */

/* Mean of the objective over the build's good measurements; NaN if none.
 * Sets *name to the first objective seen when it is NULL. */
static double objective_of(struct journal *j, const char *key, const char **name)
{
	const struct measure_record **recs;
	size_t n = journal_measures(j, key, NULL, &recs);
	double sum = 0;
	size_t used = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < recs[i]->nvalues; k++) {
			if (!*name && isfinite(recs[i]->values[k]))
				*name = recs[i]->names[k];
			if (*name && !strcmp(recs[i]->names[k], *name) &&
			    isfinite(recs[i]->values[k])) {
				sum += recs[i]->values[k];
				used++;
			}
		}
	free(recs);
	return used ? sum / (double)used : NAN;
}

static void note_flags(struct layout_set *set, const char *flags)
{
	for (size_t i = 0; i < set->nflags; i++)
		if (!strcmp(set->flags[i], flags ? flags : ""))
			return;
	set->flags = xrealloc(set->flags, (set->nflags + 1) * sizeof(*set->flags));
	set->flags[set->nflags++] = xstrdup(flags ? flags : "");
}

/* One journal build of results/builds/NAME into set, when it has data. */
static void add_build(struct layout_set *set, struct journal *j, const char *builds,
		      const char *key, const struct cg_model *m)
{
	const struct build_record *rec = journal_find_build(j, key);
	struct layout_build *b;
	char *dir;
	const char *artifact;
	double value;

	if (!rec)
		return; /* not this study's (or a leftover) */
	set->total++;
	if (rec->status != BUILD_OK) {
		set->failed++;
		return;
	}
	dir = xasprintf("%s/%s", builds, key);
	/* The journal's path, unless the results moved since. */
	artifact = rec->artifact && is_file(rec->artifact) ? rec->artifact : NULL;
	b = xcalloc(1, sizeof(*b));
	if (layout_build_load(b, dir, artifact, m) < 0) {
		if (!set->first_error)
			set->first_error = xstrdup(tn_errmsg());
		set->nodata++;
		free(b);
		free(dir);
		return;
	}
	free(dir);
	value = objective_of(j, key, &set->objective);
	note_flags(set, rec->flags);
	/* The same code twice is one layout: a mean of the two values. */
	for (size_t i = 0; i < set->n; i++)
		if (set->builds[i]->fingerprint == b->fingerprint) {
			size_t k = ++set->merged[i];

			if (isfinite(value))
				set->values[i] = isfinite(set->values[i])
					? set->values[i] + (value - set->values[i]) / (double)(k + 1)
					: value;
			set->duplicates++;
			layout_build_release(b);
			free(b);
			return;
		}
	ALLOC_GROW(set->builds, set->n + 1, set->alloc);
	set->values = xrealloc(set->values, set->alloc * sizeof(*set->values));
	set->merged = xrealloc(set->merged, set->alloc * sizeof(*set->merged));
	set->builds[set->n] = b;
	set->values[set->n] = value;
	set->merged[set->n] = 0;
	set->n++;
}

char *layout_find_key(const char *builds, const char *prefix)
{
	size_t n = 0, len = strlen(prefix), hits = 0;
	char **names = NULL;
	char *found = NULL;

	if (layout_list_dir(&names, &n, builds, "*") < 0)
		tn_error_clear();
	for (size_t i = 0; i < n && len; i++)
		if (!strncmp(names[i], prefix, len)) {
			hits++;
			free(found);
			found = xasprintf("%s/%s", builds, names[i]);
		}
	layout_free_names(names);
	if (hits != 1) {
		free(found);
		return NULL;
	}
	return found;
}

void layout_set_release(struct layout_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		layout_build_release(set->builds[i]);
		free(set->builds[i]);
	}
	free(set->builds);
	free(set->values);
	free(set->merged);
	for (size_t i = 0; i < set->nflags; i++)
		free(set->flags[i]);
	free(set->flags);
	free(set->first_error);
	memset(set, 0, sizeof(*set));
}

static int has_value(const struct layout_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		if (isfinite(set->values[i]))
			return 1;
	return 0;
}

static int study_mode(const char *results, const struct layout_opts *o,
		      const struct cg_model *m, const struct study *s)
{
	struct journal *j = NULL;
	struct layout_set set;
	struct layout_effect *effects = NULL;
	struct layout_study_opts so;
	char *journal = xasprintf("%s/journal.jsonl", results);
	char *builds = xasprintf("%s/builds", results);
	char **names = NULL;
	size_t neffects = 0, nnames;
	int ret = EXIT_FAIL;

	memset(&set, 0, sizeof(set));
	set.results = results;
	set.objective = o->objective;
	if (!is_file(journal)) {
		fprintf(stderr, "tuner: layout: %s has no journal.jsonl: not a study's results "
			"directory (give two build directories to compare them)\n", results);
		ret = EXIT_USAGE;
		goto out;
	}
	if (cmd_open_journal_copy(&j, results) < 0) {
		cmd_print_error(tn_errmsg());
		goto out;
	}
	if (layout_list_dir(&names, &nnames, builds, "*") < 0) {
		cmd_print_error(tn_errmsg());
		goto out;
	}
	for (size_t i = 0; i < nnames && !tn_cancelled(); i++)
		add_build(&set, j, builds, names[i], m);
	if (tn_cancelled()) {
		ret = EXIT_INTERRUPTED;
		goto out;
	}
	if (!set.n) {
		fprintf(stderr, "tuner: layout: none of the %zu builds of %s can be used "
			"(%zu failed, %zu without cachegrind data)%s%s\n", set.total, results,
			set.failed, set.nodata, set.first_error ? "; the first: " : "",
			set.first_error ? set.first_error : "");
		goto out;
	}
	if (!set.objective) {
		fprintf(stderr, "tuner: layout: no build of %s has a measured value\n", results);
		goto out;
	}
	if (!has_value(&set)) {
		fprintf(stderr, "tuner: layout: no build of %s has a value of '%s'\n", results,
			set.objective);
		ret = o->objective ? EXIT_USAGE : EXIT_FAIL;
		goto out;
	}
	so.modulus = o->modulus ? o->modulus : set.builds[0]->i1.line;
	so.top = o->has_top ? o->top : 40;
	if (layout_study(&effects, &neffects, (const struct layout_build *const *)set.builds,
			 set.values, set.n, &so) < 0) {
		cmd_print_error(tn_errmsg());
		goto out;
	}
	layout_print_study(stdout, &set, effects, neffects, &so, m, s);
	ret = EXIT_OK;
out:
	layout_effects_free(effects, neffects);
	layout_set_release(&set);
	journal_close(j);
	layout_free_names(names);
	free(journal);
	free(builds);
	return ret;
}

static int parse_count(size_t *out, const char *opt, const char *arg)
{
	uint64_t v;

	if (parse_u64(&v, arg) < 0 || v == 0 || v > 1u << 20) {
		fprintf(stderr, "tuner: layout: %s takes a positive count, not '%s'\n", opt, arg);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

int cmd_layout(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "results", required_argument, NULL, 'r' },
		{ "artifact", required_argument, NULL, 'a' },
		{ "study", required_argument, NULL, 's' },
		{ "objective", required_argument, NULL, 'o' },
		{ "mod", required_argument, NULL, 'm' },
		{ "top", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct layout_opts o = { 0 };
	struct study s;
	struct cg_model model;
	int has_study = 0, c, ret;
	size_t v;

	if (cmd_wants_help(argc, argv, layout_usage))
		return EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			o.results = optarg;
			break;
		case 'a':
			o.artifact = optarg;
			break;
		case 's':
			o.study = optarg;
			break;
		case 'o':
			o.objective = optarg;
			break;
		case 'm':
			if (parse_count(&v, "--mod", optarg) < 0)
				return EXIT_USAGE;
			o.modulus = (unsigned)v;
			break;
		case 't':
			if (parse_count(&o.top, "--top", optarg) < 0)
				return EXIT_USAGE;
			o.has_top = 1;
			break;
		case ':':
			return usage_error("%s needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2)
		return usage_error("need a results directory, or two builds%s", "");
	if (argc == 1 && !is_dir(argv[0])) {
		fprintf(stderr, "tuner: layout: no directory '%s'\n", argv[0]);
		return EXIT_USAGE;
	}
	if (argc == 2 && o.objective)
		return usage_error("--objective is for a results directory%s", "");
	if (o.results && !is_dir(o.results)) {
		fprintf(stderr, "tuner: layout: no directory '%s' (--results)\n", o.results);
		return EXIT_USAGE;
	}
	if (o.study) {
		if (study_load(&s, o.study) < 0) {
			cmd_print_error(tn_errmsg());
			return EXIT_USAGE;
		}
		has_study = 1;
		model = s.model;
	} else {
		cg_model_init(&model);
	}
	cmd_install_signals();
	if (argc == 2)
		ret = two_builds(argv[0], argv[1], &o, &model);
	else
		ret = study_mode(argv[0], &o, &model, has_study ? &s : NULL);
	if (has_study)
		study_release(&s);
	else
		cg_model_release(&model);
	return ret;
}
