/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner run: explore a study. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_doc.h"
#include "cmd_options.h"
#include "tuner/measure.h"
#include "tuner/numfmt.h"
#include "tuner/progress.h"
#include "tuner/run_output.h"
#include "tuner/run.h"
#include "tuner/strategy.h"
#include "tuner/study.h"
#include "tuner/util.h"

const char run_usage[] =
	"usage: tuner run STUDY.yaml [options]\n\n"
	"Builds the study's configurations in parallel, measures each build on the\n"
	"study's testbeds, and prints the Pareto set. Every result is appended to\n"
	"results/<study>/journal.jsonl as it arrives; running the same study again\n"
	"resumes: nothing the journal holds is rebuilt or measured again.\n\n"
	"  -j, --jobs N       parallel builds (default: number of CPUs)\n"
	"      --budget N     evaluate at most N configurations (exhaustive: a seeded\n"
	"                     random sample; the search.strategy otherwise)\n"
	"      --strategy S   the search strategy (exhaustive, random, nsga2,\n"
	"                     surrogate; default: the study's search.strategy)\n"
	"      --time T       start no new batch of the search after T (8h, 90m,\n"
	"                     1h30m, 600 seconds); the batch under way is finished\n"
	"      --seed N       seed of the search strategy (default: the study's)\n"
	"      --race, --no-race  whether a learning strategy may propose a\n"
	"                     configuration again, to build it with more layout\n"
	"                     seeds (default: the study's search.race, true)\n"
	"      --dirty        build the work tree with its uncommitted changes\n"
	"                     (default: the committed revision only)\n"
	"      --results DIR  where results go (default: results/<study>)\n"
	"      --all          list every configuration, not only the Pareto set\n"
	"      --format F     table (default), md (GitHub Markdown: the summary, the\n"
	"                     table, the notes as bullets) or json (one object on\n"
	"                     stdout: pareto.json's, with \"run\": this run's counts,\n"
	"                     the results directory, the failed configurations and\n"
	"                     their logs); progress and notes stay on stderr\n"
	"      --retry-failed build again what failed to build, measure again what\n"
	"                     failed to measure (a failure is otherwise a result)\n"
	"  -q, --quiet        no progress on stderr\n"
	"      --stats        print the tuner's own CPU time per evaluation\n"
	"  -h, --help         this text\n\n"
	"Ctrl-C stops launching work, kills running commands, keeps every finished\n"
	"result in the journal and exits 130; run again to resume.\n\n"
	"Exit status: 0 done, 1 error, 2 bad study file or option, 3 done but\n"
	"some configurations failed to build or measure (each listed with its log),\n"
	"130 interrupted.\n";

static int bad_number(const char *opt, const char *arg)
{
	fprintf(stderr, "tuner: run: %s takes a whole number, not '%s'\n", opt, arg);
	return EXIT_USAGE;
}

/* A configuration that failed: its build or its measurement. */
static int failed(const struct config_result *c)
{
	return strcmp(c->status, "ok") && strcmp(c->status, "incomplete");
}

/* The logs of a failed configuration (malloced strings into *out, which
 * the caller frees with each); none when it was measured as another. */
static size_t failure_logs(char ***out, const struct study *s, const struct config_result *cr,
			   const char *res_dir)
{
	size_t n = 0;

	*out = xcalloc(cr->nbuilds * (s->ntestbeds + 1) + s->ntestbeds + 1, sizeof(**out));
	if (!strcmp(cr->status, "deploy-failed")) {
		/* What deploy, ready and recover said is in the testbeds' logs. */
		for (size_t t = 0; t < s->ntestbeds; t++)
			(*out)[n++] = run_testbed_log(res_dir, s->testbeds[t]);
		return n;
	}
	for (size_t k = 0; k < cr->nbuilds; k++) {
		if (strcmp(cr->status, "measure-failed")) {
			(*out)[n++] = xasprintf("%s/build.log", cr->build_dirs[k]);
			continue;
		}
		if (cr->same_code_as[0])
			break;
		for (size_t t = 0; t < s->ntestbeds; t++)
			(*out)[n++] = measure_log_path(cr->build_dirs[k], s->testbeds[t]);
	}
	return n;
}

/*
 * The configurations that failed, how many of each kind, and the log of
 * each (the reasons are in it and in journal.jsonl), as text or Markdown.
 * Returns how many.
 */
static size_t failure_summary(const struct study *s, const struct run_result *res,
			      enum outfmt fmt)
{
	const int md = fmt == OUTFMT_MD;
	const char **kinds;
	size_t *counts, nkinds = 0, n = 0;

	for (size_t c = 0; c < res->nconfigs; c++)
		n += (size_t)failed(&res->configs[c]);
	if (!n)
		return 0;
	printf("\n%sfailed: %zu of %zu configuration%s", md ? "#### " : "", n, res->nconfigs,
	       res->nconfigs == 1 ? "" : "s");
	/* How many of each kind, kinds in order of first appearance. */
	kinds = xcalloc(n, sizeof(*kinds));
	counts = xcalloc(n, sizeof(*counts));
	for (size_t c = 0; c < res->nconfigs; c++) {
		size_t k = 0;

		if (!failed(&res->configs[c]))
			continue;
		while (k < nkinds && strcmp(kinds[k], res->configs[c].status))
			k++;
		kinds[k] = res->configs[c].status;
		counts[k]++;
		nkinds += k == nkinds;
	}
	for (size_t k = 0; k < nkinds; k++)
		printf("%s%zu %s", k ? ", " : " (", counts[k], kinds[k]);
	free(kinds);
	free(counts);
	printf("); `tuner run --retry-failed` tries them again%s\n", md ? "\n" : ":");
	for (size_t c = 0; c < res->nconfigs; c++) {
		const struct config_result *cr = &res->configs[c];
		char **logs, *flags;
		size_t nlogs;

		if (!failed(cr))
			continue;
		flags = cmd_flags_text(cr->flags, fmt);
		printf("%s%s  %s  [%s]\n", md ? "- " : "  ", cr->id, flags, cr->status);
		free(flags);
		nlogs = failure_logs(&logs, s, cr, res->results_dir);
		if (!nlogs && !strcmp(cr->status, "measure-failed") && cr->same_code_as[0])
			printf("%smeasured as %s (the same code): its logs\n", md ? "  - " : "    ",
			       cr->same_code_as);
		for (size_t k = 0; k < nlogs; k++) {
			char *log = outfmt_text(fmt, logs[k]);

			printf("%s%s\n", md ? "  - " : "    ", log);
			free(log);
			free(logs[k]);
		}
		free(logs);
	}
	return n;
}

/* build.equivalent: skip: what each prediction came to. */
static void print_predictions(const struct run_result *res, enum outfmt fmt)
{
	const char *li = cmd_bullet(fmt);

	for (size_t k = 0; k < res->npredictions; k++) {
		const struct run_prediction *p = &res->predictions[k];
		const char *builds = p->pgo ? "PGO build" : "build";

		if (p->checked > 0) {
			char *ignored = outfmt_text(fmt, p->ignored);

			printf("%sequivalent: %lu %s%s not made: gcc ignores %s at -Os and -Oz, as predicted "
			       "(checked: %s built the same code as %s)\n", li, p->skipped, builds,
			       p->skipped == 1 ? "" : "s", ignored, p->twin, p->lead);
			free(ignored);
		} else if (p->checked < 0)
			fprintf(stderr, "tuner: note: predicted that gcc ignores %s at -Os and -Oz in %s, "
				"but %s and %s built different code: each of those was built\n",
				p->ignored, p->pgo ? "PGO builds" : "builds", p->twin, p->lead);
	}
}

/* train.share: check: what each kind of switch came to. */
static void print_shares(const struct run_result *res, const char *li)
{
	struct strbuf same = STRBUF_INIT;

	for (size_t k = 0; k < res->nshares; k++) {
		const struct run_share *p = &res->shares[k];

		if (p->checked > 0)
			strbuf_addf(&same, "%s%s (%s and %s)", same.len ? ", " : "", p->kind,
				    p->twin, p->lead);
		else if (p->checked < 0)
			fprintf(stderr, "tuner: note: predicted that %s leaves the PGO profile as it "
				"is, but %s and %s trained different profiles: configurations "
				"differing in it each trained their own\n", p->kind, p->twin, p->lead);
	}
	if (res->trainings_shared || same.len)
		printf("%sprofiles: %lu PGO build%s used an earlier build's profile (no instrumented "
		       "build, no training)%s%s\n", li, res->trainings_shared,
		       numfmt_s(res->trainings_shared),
		       same.len ? "; these leave the profile as it is, as predicted and checked by "
				  "a pair that trained the same one: " : "", strbuf_str(&same));
	strbuf_release(&same);
}

/* The configurations a search proposed again, built with more than the
 * study's layout seeds (run_search()'s racing). */
static size_t remeasured(const struct study *s, const struct run_result *res)
{
	size_t n = 0;

	for (size_t c = 0; c < res->nconfigs; c++)
		n += res->configs[c].nbuilds > s->layout_samples;
	return n;
}

/* The run's summary and the Pareto set as text or Markdown. */
static void print_run(const struct study *s, const struct run_result *res, int all,
		      enum outfmt fmt)
{
	const int md = fmt == OUTFMT_MD;
	const char *li = cmd_bullet(fmt);

	char *name = outfmt_text(fmt, s->name);

	if (md)
		printf("### tuner run: study %s\n\n- ", name);
	else
		printf("study %s: ", name);
	free(name);
	printf("%zu configuration%s x %u layout seed%s", res->nconfigs, numfmt_s(res->nconfigs),
	       s->layout_samples, numfmt_s(s->layout_samples));
	if (remeasured(s, res))
		printf(" (%zu proposed again by the search, with more)", remeasured(s, res));
	printf("; source %.12s%s\n", res->commit, res->dirty ? " (dirty)" : "");
	printf("%sbuilds: %lu new (%lu failed), ", li, res->builds_done, res->builds_failed);
	if (res->builds_skipped)
		printf("%lu not needed, ", res->builds_skipped);
	printf("%lu from the journal; measurements: %lu new, %lu from the journal\n",
	       res->builds_cached, res->measures_done, res->measures_cached);
	print_predictions(res, fmt);
	print_shares(res, li);
	if (res->raced)
		printf("%sracing: %lu measurements, %lu with every configuration at %u (repeats.max)\n",
		       li, res->race_measures, res->race_full, s->repeats_max);
	printf("\n");
	if (res->interrupted)
		printf("%s: the set below covers only what finished\n%s",
		       md ? "**interrupted**" : "interrupted", md ? "\n" : "");
	printf("%sPareto set (%zu of %zu configuration%s)%s\n", md ? "#### " : "", res->nfront,
	       res->nconfigs, numfmt_s(res->nconfigs), md ? "\n" : ":");
	if (md)
		report_markdown(stdout, s, res, all);
	else
		report_table(stdout, s, res, all);
	report_testbeds(stdout, s, res, fmt);
}

/* The run as one JSON object: pareto.json's, with "run" (this run's
 * counts, the results directory, the failed configurations and their
 * logs). */
static void print_run_json(const struct study *s, const struct run_result *res)
{
	json_t *root = report_json_doc(s, res), *run = json_object(), *fails = json_array();

	json_object_set_new(run, "results", json_string(res->results_dir));
	json_object_set_new(run, "interrupted", json_boolean(res->interrupted));
	json_object_set_new(run, "layout_seeds", json_integer(s->layout_samples));
	json_object_set_new(run, "remeasured", json_integer((json_int_t)remeasured(s, res)));
	json_object_set_new(run, "builds_new", json_integer((json_int_t)res->builds_done));
	json_object_set_new(run, "builds_failed", json_integer((json_int_t)res->builds_failed));
	json_object_set_new(run, "builds_not_needed", json_integer((json_int_t)res->builds_skipped));
	json_object_set_new(run, "builds_journal", json_integer((json_int_t)res->builds_cached));
	json_object_set_new(run, "measurements_new", json_integer((json_int_t)res->measures_done));
	json_object_set_new(run, "measurements_journal",
			    json_integer((json_int_t)res->measures_cached));
	json_object_set_new(run, "profiles_shared",
			    json_integer((json_int_t)res->trainings_shared));
	for (size_t c = 0; c < res->nconfigs; c++) {
		const struct config_result *cr = &res->configs[c];
		json_t *f, *jl;
		char **logs;
		size_t n;

		if (!failed(cr))
			continue;
		f = json_object();
		jl = json_array();
		json_object_set_new(f, "config", json_string(cr->id));
		json_object_set_new(f, "flags", json_string(cr->flags));
		json_object_set_new(f, "status", json_string(cr->status));
		n = failure_logs(&logs, s, cr, res->results_dir);
		for (size_t k = 0; k < n; k++) {
			json_array_append_new(jl, json_string(logs[k]));
			free(logs[k]);
		}
		free(logs);
		json_object_set_new(f, "logs", jl);
		json_array_append_new(fails, f);
	}
	json_object_set_new(run, "failed", fails);
	json_object_set_new(root, "run", run);
	cmd_print_json(root);
}

/* Runs the study and prints its results; returns the exit code. */
static int run_and_report(const struct study *s, const struct run_opts *opts, int all, int stats,
			  enum outfmt fmt)
{
	struct run_result res;
	char *json, *csv, *tbcsv;
	size_t nfailed;
	int ret;

	const struct strategy_ops *ops = strategy_find(s->strategy);
	int batches = (ops && ops->adaptive) || opts->has_time || s->time > 0;

	if ((batches ? run_search(&res, s, opts) : run_study(&res, s, opts)) < 0) {
		ret = cmd_error();
		run_result_release(&res);
		return ret;
	}
	if (res.worktree_dirty && !res.dirty)
		fprintf(stderr, "tuner: note: the work tree has uncommitted changes; they were not built (use --dirty)\n");
	if (fmt != OUTFMT_JSON)
		print_run(s, &res, all, fmt);

	json = xasprintf("%s/pareto.json", res.results_dir);
	csv = xasprintf("%s/results.csv", res.results_dir);
	ret = EXIT_OK;
	tbcsv = xasprintf("%s/testbeds.csv", res.results_dir);
	if (report_json(s, &res, json) < 0 || report_csv(s, &res, csv) < 0 ||
	    (report_has_testbeds(s, &res) && report_testbeds_csv(s, &res, tbcsv) < 0)) {
		cmd_print_error(tn_errmsg());
		ret = EXIT_FAIL;
	} else if (fmt != OUTFMT_JSON) {
		printf("\n%sresults: %s (journal.jsonl, pareto.json, results.csv%s)\n",
		       cmd_bullet(fmt), res.results_dir,
		       report_has_testbeds(s, &res) ? ", testbeds.csv" : "");
	}
	if (stats) {
		unsigned long evals = res.builds_done + res.builds_cached;
		fprintf(stderr, "tuner: stats: %lu evaluations, wall %.3f s, tuner CPU %.3f s, %.3f ms per evaluation\n",
			evals, res.wall, res.cpu_self,
			evals ? res.cpu_self * 1e3 / (double)evals : 0.0);
	}
	if (fmt == OUTFMT_JSON) {
		print_run_json(s, &res);
		nfailed = 0;
		for (size_t c = 0; c < res.nconfigs; c++)
			nfailed += (size_t)failed(&res.configs[c]);
	} else {
		nfailed = res.interrupted ? 0 : failure_summary(s, &res, fmt);
	}
	if (!res.interrupted && nfailed && ret == EXIT_OK)
		ret = EXIT_FAILED;
	if (res.interrupted)
		ret = EXIT_INTERRUPTED;
	free(json);
	free(csv);
	free(tbcsv);
	run_result_release(&res);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	enum { OPT_BUDGET = 256, OPT_SEED, OPT_DIRTY, OPT_RESULTS, OPT_ALL, OPT_STATS, OPT_RETRY,
	       OPT_FORMAT, OPT_TIME, OPT_STRATEGY, OPT_RACE, OPT_NO_RACE };
	static const struct option longopts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "strategy", required_argument, NULL, OPT_STRATEGY },
		{ "race", no_argument, NULL, OPT_RACE },
		{ "no-race", no_argument, NULL, OPT_NO_RACE },
		{ "dirty", no_argument, NULL, OPT_DIRTY },
		{ "results", required_argument, NULL, OPT_RESULTS },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "retry-failed", no_argument, NULL, OPT_RETRY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_opts opts = RUN_OPTS_INIT;
	struct cmd_reporter rep;
	struct study s;
	enum outfmt fmt = OUTFMT_TABLE;
	const char *strategy = NULL;
	int c, all = 0, quiet = 0, stats = 0, ret;

	if (cmd_wants_help(argc, argv, run_usage))
		return EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			if (cmd_count_option(&opts.jobs, "run", "--jobs", optarg, 1024))
				return EXIT_USAGE;
			break;
		case OPT_BUDGET:
			if (parse_u64(&opts.budget, optarg) < 0)
				return bad_number("--budget", optarg);
			if (opts.budget == 0) {
				fprintf(stderr, "tuner: run: --budget must be at least 1 (leave it out for the whole space)\n");
				return EXIT_USAGE;
			}
			opts.has_budget = 1;
			break;
		case OPT_SEED:
			if (parse_u64(&opts.seed, optarg) < 0)
				return bad_number("--seed", optarg);
			opts.has_seed = 1;
			break;
		case OPT_STRATEGY:
			if (!strategy_find(optarg)) {
				fprintf(stderr, "tuner: run: unknown --strategy '%s' (known: %s)\n", optarg,
					strategy_names());
				return EXIT_USAGE;
			}
			strategy = optarg;
			break;
		case OPT_TIME:
			if (parse_duration(&opts.time, optarg) < 0 || opts.time <= 0) {
				fprintf(stderr, "tuner: run: --time takes a duration such as 8h, 90m, "
						"1h30m or 600 (seconds), not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			opts.has_time = 1;
			break;
		case OPT_RACE:
		case OPT_NO_RACE:
			opts.has_race = 1;
			opts.race = c == OPT_RACE;
			break;
		case OPT_DIRTY:
			opts.dirty = 1;
			break;
		case OPT_RESULTS:
			opts.results = optarg;
			break;
		case OPT_ALL:
			all = 1;
			break;
		case OPT_FORMAT:
			if (cmd_format_option(&fmt, "run", optarg))
				return EXIT_USAGE;
			break;
		case 'q':
			quiet = 1;
			break;
		case OPT_STATS:
			stats = 1;
			break;
		case OPT_RETRY:
			opts.retry_failed = 1;
			break;
		case ':':
			fprintf(stderr, "tuner: run: %s needs a value\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "tuner: run: unknown option '%s' (see 'tuner run --help')\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "tuner: run: need one study file (see 'tuner run --help')\n");
		return EXIT_USAGE;
	}
	ret = cmd_open_study(&s, argv[optind], "run", 0);
	if (ret)
		return ret;
	if (strategy) {
		free(s.strategy);
		s.strategy = xstrdup(strategy);
	}
	cmd_reporter_init(&rep, quiet);
	opts.report = &rep.r;
	ret = run_and_report(&s, &opts, all, stats, fmt);
	cmd_close_study(&s);
	return ret;
}
