/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tuner bisect: the first commit of the study's source that changed the
 * measured objective, told apart from layout noise.
 *
 * A naive bisect measures each commit once and calls it good or bad by
 * which endpoint it lies closer to; but an unrelated commit (unused code,
 * one exported symbol) moves a router's throughput by 2-4% through code
 * layout alone (the seeds), as much as the regression sought, so the
 * naive bisect follows layout luck and blames a commit that only moved
 * code. Here every commit is built on K layout seeds and each judgement is
 * tuner compare's: the clustered comparison on the layout seeds' means
 * (stats_compare_clustered(), probe_judge()) and its decision rule
 * stats_significant(), at the levels of bisect_alphas().
 *
 * The algorithm (also in the help text):
 *   1. Measure good and bad; judge bad against good (0.05). Not
 *      significant: double K (up to --max-layout) and judge again; still
 *      not: nothing to bisect. Else give them the K that 90% power needs
 *      for the smallest change their interval allows, and start each
 *      step's commit on what it needs against them (bisect_endpoints()).
 *   2. git bisect's search (bisect.h: binary search on a line of commits,
 *      halving the candidates on a graph). A commit m is judged against
 *      good and against bad (bisect_classify()): bad when it differs
 *      significantly from good in the change's direction and not from
 *      bad, good when it differs from bad and not from good, otherwise
 *      unclear: K doubles for good, bad and m (up to --max-layout) and m
 *      is judged again. Still unclear: stop and print the narrowed range
 *      and why, naming no culprit.
 *   3. Name the first bad commit with its effect against its first parent
 *      (measured if it was not), the steps and what they cost.
 * Everything goes through one journal (probe.h), so a rerun replays the
 * same decisions from it and measures only what is missing.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_bisect.h"
#include "cmd_doc.h"
#include "cmd_numbers.h"
#include "cmd_options.h"
#include "tuner/bisect.h"
#include "tuner/gccopt.h"
#include "tuner/gitsrc.h"
#include "tuner/probe.h"
#include "tuner/progress.h"
#include "tuner/space.h"
#include "tuner/stats.h"
#include "tuner/study.h"
#include "tuner/numfmt.h"
#include "tuner/util.h"

const char bisect_usage[] =
	"usage: tuner bisect STUDY.yaml --good REV --bad REV [options]\n\n"
	"Finds the first commit of the study's source between good and bad that\n"
	"changed the measured objective (the study's first one), like git bisect,\n"
	"without blaming a commit whose only effect is a new code layout: every\n"
	"commit is built with layout seeds 0..K-1, each build measured N times, and\n"
	"two commits differ only when tuner compare's rule says so (Welch's t on the\n"
	"layout seeds' means and the Mann-Whitney rank test both reject).\n\n"
	"  1. good and bad are measured and compared (p < 0.05); no difference\n"
	"     after doubling K up to the maximum: nothing to bisect. Else they get\n"
	"     the seeds 90% power needs for the smallest change the interval\n"
	"     allows, and each step's commit starts on what it needs against them.\n"
	"  2. git bisect's binary search over the commits between them (halving the\n"
	"     candidates; on merges, the ones reachable either way). A commit is\n"
	"     compared with good and with bad: 'bad' when it differs from good in\n"
	"     the change's direction and does not contradict bad, 'good' when it\n"
	"     differs from bad and does not contradict good, else 'unclear': K\n"
	"     doubles for good, bad and the commit and it is compared again; still\n"
	"     unclear at the maximum K, the bisect stops and prints the narrowed\n"
	"     range and why. A difference needs p < 0.05 / S (S: the steps of the\n"
	"     search), a contradiction p < 0.05 / (S x the K values a commit may\n"
	"     see): over a bisect, each is wrong with probability <= 5%.\n"
	"     Commits that change nothing below the study's source path are never\n"
	"     candidates; one that fails to build or measure is skipped.\n"
	"  3. It names the first bad commit and its effect against its parent\n"
	"     (B - A, 95% interval, p, and whether it exceeds the layout-noise\n"
	"     band 1.96 sqrt(2) layout sd), every step's figures, and the\n"
	"     measurement runs and builds spent. A rerun resumes from the journal.\n\n"
	"  --good REV, --bad REV     the known-good and known-bad revisions\n"
	"  --first-parent            follow only the first parent of merges\n"
	"  --flags FLAGS             the flags every commit is built with (default:\n"
	"                            the study's first configuration; PGO off)\n"
	"  --repeats N               measurements per build (default 3)\n"
	"  --layout K                layout seeds per commit to start with (default:\n"
	"                            the study's layout.samples, at least 4; >= 2)\n"
	"  --max-layout K            the most layout seeds per commit (default 8 x\n"
	"                            --layout)\n"
	"  --results DIR             where results go (default:\n"
	"                            results/<study>/bisect-<id>)\n"
	"  --format F                table (default), md (GitHub Markdown: the\n"
	"                            endpoints and the steps as tables, the rest as\n"
	"                            bullets) or json (one object on stdout, at the\n"
	"                            end: the endpoints, the plan, every step's\n"
	"                            judgements, first_bad with its effect and\n"
	"                            interval, or no_culprit and the range left;\n"
	"                            effects as fractions: 0.03 is +3%); progress\n"
	"                            and notes stay on stderr\n"
	"  -j, --jobs N              parallel builds (default: number of CPUs)\n"
	"  -q, --quiet               no progress on stderr\n"
	"  -h, --help                this text\n\n"
	"Exit status: 0 first bad commit named, or nothing to bisect; 1 error, or\n"
	"no commit could be named (the range is printed); 2 bad study file, option\n"
	"or revision; 130 interrupted.\n";

struct bisect_opts {
	const char *flags;
	int first_parent;
	struct cmd_measure_opts m; /* --repeats, --layout, --max-layout, --results, -j, -q */
};

/* Step 3: the first bad commit's effect against its first parent (JSON:
 * "first_bad"). */
static int report_culprit(struct bisect_session *ss, size_t i)
{
	const struct gitsrc_commit *c = &ss->r.commits[i];
	struct gitsrc_commit parent = { 0 };
	const struct gitsrc_commit *which[2] = { &parent, c }, *known = NULL;
	const struct config_result *A, *B;
	const int md = ss->fmt == OUTFMT_MD, json = ss->fmt == OUTFMT_JSON;
	const char *li = md ? "- " : "  ";
	struct run_result res;
	struct stats_test t;
	size_t slot[2], o = ss->p.objective;
	unsigned k = ss->judged[i] > ss->base ? ss->judged[i] : ss->base;
	double ma, rsd, lsd, band;
	char d[32], lo[32], hi[32], rel[96], ps[80];
	json_t *j = json_object();

	json_object_set_new(ss->doc, "first_bad", j);
	json_object_set_new(j, "commit", json_string(c->id));
	json_object_set_new(j, "subject", json_string(c->subject));
	json_object_set_new(j, "parent", *c->parent ? json_string(c->parent) : json_null());
	bisect_md_flush(&ss->md_steps);
	if (!json) {
		char *subject = outfmt_text(ss->fmt, c->subject);

		printf("%sfirst bad commit: %s%s%s %s%s\n", md ? "\n**" : "", md ? "`" : "", c->id,
		       md ? "`" : "", subject, md ? "**\n" : "");
		free(subject);
	}
	if (!*c->parent) {
		if (!json)
			printf("%sa root commit: no parent to measure it against\n", li);
		return 0;
	}
	/* Both sides on as many seeds as either was judged with. */
	if (c->nparents && c->parents[0] != GITSRC_OUTSIDE) {
		known = &ss->r.commits[c->parents[0]];
		if (ss->judged[c->parents[0]] > k)
			k = ss->judged[c->parents[0]];
	} else if (!strcmp(c->parent, ss->r.good.id)) {
		known = &ss->r.good;
		k = ss->k_end;
	}
	ss->p.layout = k;
	if (known)
		parent = *known;
	else
		snprintf(parent.id, sizeof(parent.id), "%s", c->parent);
	bisect_say(ss, "measuring the first bad commit against its parent on %u layout seeds", k);
	if (bisect_measure(ss, &res, which, 2, slot) < 0)
		return -1;
	A = &res.configs[slot[0]];
	B = &res.configs[slot[1]];
	json_object_set_new(j, "parent_subject", known ? json_string(known->subject) : json_null());
	json_object_set_new(j, "parent_status", json_string(A->status));
	json_object_set_new(j, "status", json_string(B->status));
	json_object_set_new(j, "layout_seeds", json_integer(k));
	json_object_set_new(j, "repeats", json_integer(ss->p.repeats));
	if (strcmp(A->status, "ok") || strcmp(B->status, "ok")) {
		if (!json)
			printf("%sagainst its parent %.12s: parent %s, commit %s\n", li, parent.id,
			       A->status, B->status);
		run_result_release(&res);
		return 0;
	}
	probe_judge(&t, &ss->p, A, B);
	ma = A->obj[o].mean;
	rsd = stats_pooled_sd(A->spread[o].within_sd, B->spread[o].within_sd) / fabs(ma);
	lsd = stats_pooled_sd(A->spread[o].between_sd, B->spread[o].between_sd) / fabs(ma);
	/* One run a build: the seeds' means spread by layout (and one run's
	 * noise), which the test's standard error gives back. */
	if (!isfinite(lsd))
		lsd = (t.rel_hi - t.rel) / stats_t_quantile(0.975, t.df) /
		      sqrt(1.0 / t.na + 1.0 / t.nb);
	band = 1.96 * sqrt(2.0) * lsd;
	json_object_set_new(j, "effect", cmd_test_json(&t, stats_significant(&t, 0.05)));
	json_object_set_new(j, "run_sd", cmd_json_num(rsd));
	json_object_set_new(j, "layout_sd", cmd_json_num(lsd));
	json_object_set_new(j, "layout_band", cmd_json_num(band));
	json_object_set_new(j, "beyond_band", json_boolean(fabs(t.rel) > band));
	if (json) {
		run_result_release(&res);
		return 0;
	}
	cmd_format_signed(d, sizeof(d), t.diff);
	cmd_format_signed(lo, sizeof(lo), t.diff_lo);
	cmd_format_signed(hi, sizeof(hi), t.diff_hi);
	cmd_format_rel(rel, sizeof(rel), t.rel, t.rel_lo, t.rel_hi);
	printf("%sagainst its parent %.12s%s%s%s, %s, %u layout seed%s x %u run%s a side:\n", li,
	       parent.id, known ? " (" : "", known ? known->subject : "", known ? ")" : "",
	       ss->s->objectives[o].name, k, numfmt_s(k), ss->p.repeats, numfmt_s(ss->p.repeats));
	cmd_format_ps(ps, sizeof(ps), t.p, t.p_rank);
	printf("%sB - A = %s, 95%% CI [%s, %s]; relative %s, %s: %s\n", li, d, lo, hi, rel, ps,
	       stats_significant(&t, 0.05) ? "significant" : "not significant");
	if (isfinite(rsd))
		printf("%snoise: run sd %.2g%%, layout sd %.2g%%", li, 100 * rsd, 100 * lsd);
	else
		printf("%snoise: layout sd %.2g%% (one run a build: run noise included)", li,
		       100 * lsd);
	printf("; layout band ±%.2g%%: the difference is %s it\n", 100 * band,
	       fabs(t.rel) > band ? "beyond" : "within");
	run_result_release(&res);
	return 0;
}

/* Steps 1 to 3. Returns the exit code; -1: error with message. */
static int bisect(struct bisect_session *ss)
{
	unsigned step = 0;
	size_t m, below, left;
	int ret;

	ret = bisect_endpoints(ss);
	if (ret < 0 || ss->dir == 0) {
		bisect_md_flush(&ss->md_ends);
		json_object_set_new(ss->doc, "nothing_to_bisect", json_boolean(ret == 0));
		if (ret == 0 && ss->fmt != OUTFMT_JSON)
			printf("%snothing to bisect: bad does not differ significantly from good with %u layout seeds%s\n",
			       ss->fmt == OUTFMT_MD ? "\n**" : "", ss->p.layout,
			       ss->fmt == OUTFMT_MD ? "**" : "");
		goto done;
	}
	while (bisect_next(&ss->b, &m, &below)) {
		const struct gitsrc_commit *c = &ss->r.commits[m];
		struct bisect_verdict v;

		left = bisect_candidates(&ss->b, NULL);
		ss->p.layout = ss->base;
		step++;
		bisect_print_step(ss, step, c, left, below);
		bisect_say(ss, "step %u: %.12s, %zu candidate%s left", step, c->id, left,
			   numfmt_s(left));
		for (;;) {
			ret = bisect_judge(ss, &v, m);
			if (ret < 0)
				goto done;
			bisect_print_verdict(ss, &v, step, c, left);
			if (v.mark != BISECT_UNKNOWN || !bisect_more_layout(ss))
				break;
			bisect_say(ss, "step %u: unclear; %u layout seeds", step, ss->p.layout);
		}
		fflush(stdout);
		if (v.mark == BISECT_UNKNOWN) {
			char *why = xasprintf("%.12s is unclear with %u layout seeds (the most; see --max-layout): %s",
					      c->id, ss->p.layout, v.why);

			bisect_print_range(ss, why, "\n", "the first bad commit is still");
			free(why);
			bisect_print_spent(ss, step);
			return EXIT_FAIL;
		}
		bisect_set(&ss->b, m, v.mark);
	}
	left = bisect_candidates(&ss->b, NULL);
	if (left > 1) {
		bisect_print_range(ss, "commits that could not be measured hide it", "; ",
			    "the first bad commit is");
		bisect_print_spent(ss, step);
		return EXIT_FAIL;
	}
	ret = report_culprit(ss, ss->b.bad);
done:
	if (ret < 0)
		return -1;
	bisect_print_spent(ss, step);
	return EXIT_OK;
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "tuner: bisect: %s%s%s\n", msg, arg ? arg : "", arg ? "'" : "");
	return EXIT_USAGE;
}

static int parse_options(struct bisect_opts *o, int argc, char **argv)
{
	enum { OPT_FIRST_PARENT = 256, OPT_FLAGS };
	static const struct option longopts[] = {
		{ "first-parent", no_argument, NULL, OPT_FIRST_PARENT },
		{ "flags", required_argument, NULL, OPT_FLAGS },
		CMD_SEARCH_LONGOPTS,
		CMD_MEASURE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, CMD_MEASURE_SHORTOPTS, longopts, NULL)) != -1) {
		if (c == OPT_FIRST_PARENT) {
			o->first_parent = 1;
		} else if (c == OPT_FLAGS) {
			o->flags = optarg;
		} else {
			ret = cmd_measure_option(&o->m, c, "bisect", argv);
			if (ret > 0)
				return ret;
		}
	}
	if (!cmd_search_args_ok(&o->m, argc, "bisect", "REV"))
		return EXIT_USAGE;
	if (o->m.layout == 1 || o->m.max_layout == 1)
		return usage_error("bisect needs at least 2 layout seeds per commit: with one, a commit that only moves code (a layout shift) cannot be told from a regression", NULL);
	if (o->m.layout && o->m.max_layout && o->m.max_layout < o->m.layout)
		return usage_error("--max-layout is below --layout", NULL);
	return -1;
}

/* The range and the session; the exit code on failure (message printed). */
static int start(struct bisect_session *ss, const struct study *s, const struct bisect_opts *o)
{
	struct gitsrc_opts go = GITSRC_OPTS_INIT;
	/* The repository as run_study resolves it: relative to the study. */
	char *repo = s->source_repo[0] == '/' ? xstrdup(s->source_repo)
					      : xasprintf("%s/%s", s->dir, s->source_repo);
	char *key = NULL, *canon;
	unsigned k;
	int ret;

	go.repo = repo;
	go.path = s->source_path;
	ret = gitsrc_range(&ss->r, &go, o->m.good, o->m.bad, o->first_parent);
	free(repo);
	if (ret < 0) {
		fprintf(stderr, "tuner: bisect: %s\n", tn_errmsg());
		return ret == -1 ? EXIT_FAIL : EXIT_USAGE;
	}
	if (bisect_init(&ss->b, &ss->r) < 0) {
		fprintf(stderr, "tuner: bisect: %s\n", tn_errmsg());
		return EXIT_USAGE;
	}
	k = o->m.layout ? o->m.layout : s->layout_samples > 4 ? s->layout_samples : 4;
	/*
	 * 8 x: in the seeds' case (a 3% change under 2% layout sd, 0.5% run
	 * noise; bench/bisect.sh's history, 60 noise seeds) 4 x (16 seeds)
	 * left 21 bisects unclear for want of power, 8 x one; neither blamed
	 * a wrong commit. 8 x costs about twice the runs (479 against 251).
	 */
	ss->max_layout = o->m.max_layout ? o->m.max_layout : 8 * k;
	if (ss->max_layout < k)
		return usage_error("--max-layout is below the study's layout.samples", NULL);
	/* The question, not its answer so far: a rerun finds the journal,
	 * whichever spelling of the same flags it is given (gccopt). */
	canon = gccopt_canonical(ss->flags);
	key = xasprintf("%s %s %s", ss->r.good.id, ss->r.bad.id, canon);
	free(canon);
	ret = probe_init(&ss->p, s, "bisect", key, o->m.results, o->m.repeats, k);
	free(key);
	if (ret < 0) {
		fprintf(stderr, "tuner: bisect: %s\n", tn_errmsg());
		return EXIT_USAGE;
	}
	ss->p.jobs = o->m.jobs;
	cmd_reporter_init(&ss->rep, o->m.quiet);
	ss->p.report = &ss->rep.r;
	ss->quiet = o->m.quiet;
	return 0;
}

static int run_bisect(const struct study *s, const struct bisect_opts *o)
{
	struct bisect_session ss;
	struct config first = CONFIG_INIT;
	size_t nchanged = 0;
	unsigned looks = 1;
	int ret;

	memset(&ss, 0, sizeof(ss));
	ss.s = s;
	ss.fmt = o->m.fmt;
	ss.doc = json_object();
	outfmt_table_init(&ss.md_ends, 3);
	outfmt_table_init(&ss.md_steps, 8);
	if (o->flags) {
		ss.flags = o->flags;
	} else {
		if (space_config(&first, &s->space, 0) < 0) {
			cmd_print_error(tn_errmsg());
			return EXIT_USAGE;
		}
		ss.flags = first.flags;
	}
	ret = start(&ss, s, o);
	if (ret)
		goto out;
	ss.judged = xcalloc(ss.r.n, sizeof(*ss.judged));
	nchanged = bisect_candidates(&ss.b, NULL);
	for (unsigned k = ss.p.layout; k < ss.max_layout; k *= 2)
		looks++;
	bisect_alphas(&ss.alpha, nchanged, looks);
	bisect_print_head(&ss, o->first_parent, nchanged, looks);
	ret = bisect(&ss);
	if (ret >= 0 && !ss.interrupted && ss.fmt == OUTFMT_JSON) {
		cmd_print_json(ss.doc);
		ss.doc = NULL;
	}
	if (ss.interrupted || (ret < 0 && tn_cancelled())) {
		fprintf(stderr, "tuner: bisect: interrupted; run again to resume\n");
		ret = EXIT_INTERRUPTED;
	} else if (ret < 0) {
		cmd_print_error(tn_errmsg());
		ret = EXIT_FAIL;
	}
out:
	json_decref(ss.doc);
	outfmt_table_release(&ss.md_ends);
	outfmt_table_release(&ss.md_steps);
	probe_release(&ss.p);
	bisect_release(&ss.b);
	gitsrc_range_release(&ss.r);
	free(ss.used);
	free(ss.judged);
	config_release(&first);
	return ret;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_opts o = { 0 };
	struct study s;
	int ret;

	if (cmd_wants_help(argc, argv, bisect_usage))
		return EXIT_OK;
	o.m.repeats = 3;
	ret = parse_options(&o, argc, argv);
	if (ret >= 0)
		return ret;
	ret = cmd_open_study(&s, argv[optind], "bisect", 1);
	if (ret)
		return ret;
	ret = run_bisect(&s, &o);
	cmd_close_study(&s);
	return ret;
}
