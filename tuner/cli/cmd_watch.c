/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tuner watch: the commit watch (docs/watch.md). Each call measures what
 * arrived on a branch since the last one against the last baseline with
 * tuner bisect's rule (a child `tuner bisect --format json`, whose journal
 * makes a crash resumable), names the commit that moved the objective,
 * and moves the baseline on. Its own state is an append-only journal,
 * <results>/watch.jsonl.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd.h"
#include "cmd_doc.h"
#include "cmd_options.h"
#include "cmd_watch.h"
#include "tuner/gitsrc.h"
#include "tuner/runner.h"
#include "tuner/study.h"
#include "tuner/util.h"

const char watch_usage[] =
	"usage: tuner watch STUDY.yaml --branch REF [options]\n"
	"\n"
	"Measures the commits that arrived on REF since the last call against the\n"
	"last baseline, with tuner bisect's rule (every commit built on several\n"
	"layout seeds, so a commit that only moves code is not a change), and when\n"
	"the objective (the study's first) moved, bisects to the commit that moved\n"
	"it and reports it: the commit, the effect against its parent with its 95%\n"
	"interval, and the files it touched. Then the baseline moves to REF. Made\n"
	"for cron and CI: --once does this once and exits.\n"
	"\n"
	"  1. The first call takes REF (or --since REV) as the baseline.\n"
	"  2. A later call with new commits runs `tuner bisect --good BASELINE\n"
	"     --bad REF`: no significant difference -> 'no change'; a commit named\n"
	"     -> 'regression' or 'improvement' by the objective's goal, reported\n"
	"     (and given to watch.notify's command) when its effect against its\n"
	"     parent has p < --alpha in both tests, else 'unconfirmed'; a\n"
	"     difference that no single commit explains -> 'unresolved'. After\n"
	"     'unconfirmed' or 'unresolved' the baseline stays, and the next call\n"
	"     looks again with the newer commits.\n"
	"  3. State: RESULTS/watch.jsonl (append-only), each bisect's journal in\n"
	"     RESULTS/bisect-<good>-<bad>: a call killed in the middle resumes.\n"
	"     A notification is journalled before its command runs and its\n"
	"     success after: one not delivered (a kill, a failed command) is\n"
	"     given again by the next call, which exits as its own call would\n"
	"     have (4 for a regression).\n"
	"  4. REF rewritten so that it no longer descends from the baseline:\n"
	"     every call says so and exits 2 until one runs with --reset.\n"
	"\n"
	"  --branch REF       the branch (any revision) to watch\n"
	"  --once             check once and exit (default: check every --interval\n"
	"                     until interrupted)\n"
	"  --interval T       between checks without --once (default 1h; 90m, 600)\n"
	"  --since REV        the first call's baseline (default: REF as it is);\n"
	"                     a later call checks only that REV exists\n"
	"  --reset            take --since (default: REF as it is) as the baseline\n"
	"                     now, as a first call would: the way on after REF was\n"
	"                     force-pushed back or diverged from the baseline\n"
	"  --flags FLAGS      the flags every commit is built with (default:\n"
	"                     watch.flags, else the study's first configuration)\n"
	"  --layout K         layout seeds per commit to start with (default:\n"
	"                     watch.layout, else bisect's)\n"
	"  --max-layout K     the most layout seeds per commit (bisect's default)\n"
	"  --repeats N        runs per build (default: watch.repeats, else 3)\n"
	"  --notify CMD       run CMD (/bin/sh -c) when a commit is named (default:\n"
	"                     watch.notify.command); it sees TUNER_WATCH_RESULT,\n"
	"                     TUNER_WATCH_COMMIT, TUNER_WATCH_REPORT (the Markdown\n"
	"                     report's path) and TUNER_WATCH_JSON (the JSON's)\n"
	"  --alpha A          a named commit is reported when its effect against\n"
	"                     its parent has p < A, Welch's and the rank test's\n"
	"                     (default 0.001)\n"
	"  --results DIR      state and bisects (default:\n"
	"                     results/<study>/watch-<REF>)\n"
	"  --format F         table (default), md or json (the report on stdout)\n"
	"  -j, --jobs N       parallel builds\n"
	"  -q, --quiet        no progress on stderr\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit status (--once): 0 nothing new, no change, an improvement,\n"
	"unconfirmed or unresolved; 4 a regression was named; 1 error; 2 bad\n"
	"study file, option or revision; 130 interrupted.\n";

/* Runs argv with output captured (stdout into *out, caller frees) and
 * stderr into log (NULL: dropped). Returns the exit status, or -1 with
 * message; 130 when interrupted. */
static int child(char **out, const char *const *argv, const char *log, const char *const *env)
{
	struct runner r = RUNNER_INIT;
	struct runner_opts ro = RUNNER_OPTS_INIT;
	int ret;

	ro.argv = argv;
	ro.env = env;
	ro.log_path = log;
	ro.capture = 1;
	ro.capture_max = (size_t)64 << 20;
	if (runner_run(&r, &ro) < 0) {
		runner_release(&r);
		return -1;
	}
	ret = r.result.cancelled ? 130 : r.result.status;
	if (out)
		*out = r.result.out ? xstrdup(r.result.out) : xstrdup("");
	runner_release(&r);
	return ret;
}

/* The files commit touched below the study's source path (git show
 * --stat), for the report; "" when git cannot say. Caller frees. */
static char *touched(const struct watch *w, const char *commit)
{
	const char *path = w->s->source_path && *w->s->source_path ? w->s->source_path : ".";
	const char *argv[] = { "git", "-C", w->repo, "show", "--stat=100", "--format=",
			       commit, "--", path, NULL };
	char *out = NULL;

	if (child(&out, argv, NULL, NULL) != 0) {
		tn_error_clear();
		free(out);
		return xstrdup("");
	}
	return out;
}

/* The arguments of a check's child `tuner bisect`, and the numbers in them. */
struct bisect_call {
	const char *argv[32];
	char layout[16], max_layout[16], repeats[16], jobs[16];
};

/* The bisect of baseline..head, its JSON on stdout, its journal in dir;
 * the options are watch's, then the study's watch: defaults. */
static void bisect_call_init(struct bisect_call *c, const struct watch *w, const char *head,
			     const char *dir)
{
	const struct watch_opts *o = w->o;
	const char **argv = c->argv;
	size_t n = 0;

	argv[n++] = w->self;
	argv[n++] = "bisect";
	argv[n++] = w->study_path;
	argv[n++] = "--good";
	argv[n++] = w->baseline;
	argv[n++] = "--bad";
	argv[n++] = head;
	argv[n++] = "--format";
	argv[n++] = "json";
	argv[n++] = "--results";
	argv[n++] = dir;
	argv[n++] = "-q";
	if (o->flags || w->s->watch_flags) {
		argv[n++] = "--flags";
		argv[n++] = o->flags ? o->flags : w->s->watch_flags;
	}
	if (o->m.layout || w->s->watch_layout) {
		snprintf(c->layout, sizeof(c->layout), "%u",
			 o->m.layout ? o->m.layout : w->s->watch_layout);
		argv[n++] = "--layout";
		argv[n++] = c->layout;
	}
	if (o->m.max_layout) {
		snprintf(c->max_layout, sizeof(c->max_layout), "%u", o->m.max_layout);
		argv[n++] = "--max-layout";
		argv[n++] = c->max_layout;
	}
	snprintf(c->repeats, sizeof(c->repeats), "%u",
		 o->m.repeats ? o->m.repeats : w->s->watch_repeats ? w->s->watch_repeats : 3);
	argv[n++] = "--repeats";
	argv[n++] = c->repeats;
	if (o->m.jobs) {
		snprintf(c->jobs, sizeof(c->jobs), "%u", o->m.jobs);
		argv[n++] = "-j";
		argv[n++] = c->jobs;
	}
	argv[n] = NULL;
}

/* head is the baseline: says so (JSON: a one-line document). EXIT_OK. */
static int nothing_new(const struct watch *w, const char *head)
{
	if (!w->o->m.quiet)
		fprintf(stderr, "tuner: watch: nothing new on %s (%.12s)\n", w->o->branch, head);
	if (w->o->m.fmt == OUTFMT_JSON)
		printf("{\"result\": \"nothing new\", \"baseline\": \"%s\"}\n", head);
	return EXIT_OK;
}

/*
 * Bisects baseline..head in a child `tuner bisect` (its messages in log),
 * its JSON into *out (caller json_decref()s): -1 when it gave one, else
 * the exit code after the message (interrupted, or the bisect failed).
 */
static int run_bisect(json_t **out, const struct watch *w, const char *head, const char *dir,
		      const char *log)
{
	struct bisect_call c;
	char *text = NULL;
	int rc, ret = -1;

	*out = NULL;
	bisect_call_init(&c, w, head, dir);
	if (!w->o->m.quiet)
		fprintf(stderr, "tuner: watch: %.12s..%.12s (%s): measuring\n", w->baseline, head,
			w->o->branch);
	rc = child(&text, c.argv, log, NULL);
	if (rc < 0) {
		ret = cmd_error();
	} else if (rc == 130 || tn_cancelled()) {
		fprintf(stderr, "tuner: watch: interrupted; run again to resume\n");
		ret = EXIT_INTERRUPTED;
	} else {
		*out = json_loads(text, 0, NULL);
		if (!*out) {
			fprintf(stderr, "tuner: watch: tuner bisect failed (exit %d); its messages "
				"are in %s\n", rc, log);
			ret = rc == EXIT_USAGE ? EXIT_USAGE : EXIT_FAIL;
		}
	}
	free(text);
	return ret;
}

/*
 * The commit the bisect named (fb) into doc: first_bad, alpha, why when
 * unconfirmed, the files it touched. Returns the result: "regression" or
 * "improvement" by the objective's goal ("change" without an effect), or
 * "unconfirmed" when its test against its parent is not below --alpha in
 * both tests.
 */
static const char *judge_first_bad(json_t *doc, const struct watch *w, json_t *fb)
{
	const struct watch_opts *o = w->o;
	json_t *effect = json_object_get(fb, "effect");
	double rel = cmd_json_get_num(effect, "rel");
	double p = cmd_json_get_num(effect, "p"), pr = cmd_json_get_num(effect, "p_rank");
	int worse = w->s->objectives[0].maximize ? rel < 0 : rel > 0;
	const char *result = isnan(rel) ? "change" : worse ? "regression" : "improvement";
	const char *commit = json_string_value(json_object_get(fb, "commit"));
	char *text;

	json_object_set(doc, "first_bad", fb);
	json_object_set_new(doc, "alpha", json_real(o->alpha));
	/* Named, but on evidence a daily watch would find by chance (the
	 * named commit's own test against its parent reuses the bisect's
	 * measurements, which chose it): not said. */
	if (!(p < o->alpha && pr < o->alpha)) {
		text = xasprintf("bisect named %.12s (%+.2f%% against its parent, p = %.2g, "
				 "rank p = %.2g), not below the watch's alpha %g: "
				 "unconfirmed; the baseline stays", commit, 100 * rel, p, pr,
				 o->alpha);
		json_object_set_new(doc, "why", json_string(text));
		free(text);
		result = "unconfirmed";
	}
	text = touched(w, commit);
	json_object_set_new(doc, "touched", json_string(text));
	free(text);
	return result;
}

/*
 * The check's document from what the bisect found (bj) on baseline..head
 * (its results in dir), with the result into *result: "no change", what
 * judge_first_bad() says of a named commit, or "unresolved" (why: the
 * bisect's no_culprit). A new reference.
 */
static json_t *check_doc(const char **result, const struct watch *w, json_t *bj,
			 const char *head, const char *dir)
{
	json_t *doc = json_object(), *flags = json_object_get(bj, "flags");
	json_t *fb = json_object_get(bj, "first_bad");
	const char *why;

	json_object_set_new(doc, "study", json_string(w->s->name));
	json_object_set_new(doc, "branch", json_string(w->o->branch));
	json_object_set_new(doc, "good", json_string(w->baseline));
	json_object_set_new(doc, "bad", json_string(head));
	json_object_set_new(doc, "flags", flags ? json_incref(flags) : json_string(""));
	json_object_set_new(doc, "bisect_results", json_string(dir));
	if (json_is_true(json_object_get(bj, "nothing_to_bisect"))) {
		*result = "no change";
	} else if (json_is_object(fb)) {
		*result = judge_first_bad(doc, w, fb);
	} else {
		*result = "unresolved";
		why = json_string_value(json_object_get(bj, "no_culprit"));
		json_object_set_new(doc, "why", json_string(why ? why : "bisect named no commit"));
	}
	json_object_set_new(doc, "result", json_string(*result));
	return doc;
}

/* The check into the state journal; the baseline moves to head unless
 * the result leaves it (unresolved, unconfirmed). -1, or the exit code of
 * an error. */
static int record_check(struct watch *w, json_t *doc, const char *result, const char *head)
{
	json_t *rec = json_deep_copy(doc);

	json_object_set_new(rec, "type", json_string("check"));
	if (watch_state_add(w, rec) < 0)
		return cmd_error();
	if (strcmp(result, "unresolved") && strcmp(result, "unconfirmed") &&
	    watch_set_baseline(w, head, result) < 0)
		return cmd_error();
	return -1;
}

/*
 * One look at the branch: when commits arrived since the baseline, bisects
 * them (a child tuner bisect), records and prints what it found, and
 * publishes a named commit. Returns the exit code (EXIT_OK, EXIT_VERDICT
 * for a regression, or an error's).
 */
static int measure_new_commits(struct watch *w)
{
	struct gitsrc_opts go = GITSRC_OPTS_INIT;
	char head[41], sub[96];
	char *dir, *log;
	json_t *bj, *doc = NULL;
	const char *result;
	int ret;

	go.repo = w->repo;
	go.path = w->s->source_path;
	ret = watch_resolve(head, &go, w->o->branch, "");
	if (ret)
		return ret;
	ret = watch_take_baseline(w, &go, head);
	if (ret >= 0)
		return ret;
	if (!strcmp(w->baseline, head))
		return nothing_new(w, head);
	ret = watch_check_rewritten(w, head);
	if (ret)
		return ret;
	snprintf(sub, sizeof(sub), "bisect-%.12s-%.12s", w->baseline, head);
	dir = xasprintf("%s/%s", w->results, sub);
	log = xasprintf("%s.log", dir);
	ret = run_bisect(&bj, w, head, dir, log);
	if (ret >= 0)
		goto out;
	doc = check_doc(&result, w, bj, head, dir);
	ret = record_check(w, doc, result, head);
	if (ret >= 0)
		goto out;
	watch_print(w, doc);
	ret = watch_publish(w, doc, result, head);
	if (ret >= 0)
		goto out;
	ret = !strcmp(result, "regression") ? EXIT_VERDICT : EXIT_OK;
out:
	json_decref(bj);
	json_decref(doc);
	free(dir);
	free(log);
	return ret;
}

static int parse_options(struct watch_opts *o, int argc, char **argv)
{
	enum { OPT_BRANCH = 256, OPT_ONCE, OPT_INTERVAL, OPT_SINCE, OPT_FLAGS, OPT_NOTIFY,
	       OPT_ALPHA, OPT_RESET };
	static const struct option longopts[] = {
		{ "branch", required_argument, NULL, OPT_BRANCH },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "reset", no_argument, NULL, OPT_RESET },
		{ "flags", required_argument, NULL, OPT_FLAGS },
		{ "notify", required_argument, NULL, OPT_NOTIFY },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "max-layout", required_argument, NULL, CMD_OPT_MAX_LAYOUT },
		CMD_MEASURE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	optind = 1;
	opterr = 0;
	o->interval = 3600;
	o->alpha = 0.001;
	while ((c = getopt_long(argc, argv, CMD_MEASURE_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case OPT_BRANCH: o->branch = optarg; break;
		case OPT_ONCE: o->once = 1; break;
		case OPT_SINCE: o->since = optarg; break;
		case OPT_RESET: o->reset = 1; break;
		case OPT_FLAGS: o->flags = optarg; break;
		case OPT_NOTIFY: o->notify = optarg; break;
		case OPT_INTERVAL:
			if (parse_duration(&o->interval, optarg) < 0 || o->interval <= 0) {
				fprintf(stderr, "tuner: watch: --interval takes a duration (1h, 90m, 600), "
					"not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_ALPHA:
			if (parse_double(&o->alpha, optarg) < 0 || !(o->alpha > 0 && o->alpha < 1)) {
				fprintf(stderr, "tuner: watch: --alpha takes a number between 0 and 1, not "
					"'%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		default:
			ret = cmd_measure_option(&o->m, c, "watch", argv);
			if (ret >= 0) {
				if (ret)
					return ret;
				break;
			}
			fprintf(stderr, "tuner: watch: unknown option '%s' (see 'tuner watch --help')\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (o->m.layout > 10000 || o->m.max_layout > 10000 || o->m.repeats > 10000) {
		fprintf(stderr, "tuner: watch: --layout, --max-layout and --repeats take a whole "
			"number from 1 to 10000\n");
		return EXIT_USAGE;
	}
	if (o->m.layout == 1) {
		fprintf(stderr, "tuner: watch: --layout must be at least 2: with one layout seed a "
			"commit that only moves code cannot be told from a regression\n");
		return EXIT_USAGE;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "tuner: watch: one study file, please (see tuner watch --help)\n");
		return EXIT_USAGE;
	}
	if (!o->branch) {
		fprintf(stderr, "tuner: watch: --branch REF is required\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* A branch name as a directory name: what is not [A-Za-z0-9._-] -> '_'. */
static char *safe_name(const char *ref)
{
	char *s = xstrdup(ref);

	for (char *p = s; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", *p))
			*p = '_';
	return s;
}

int cmd_watch(int argc, char **argv)
{
	struct watch_opts o = { 0 };
	struct watch w = { 0 };
	struct study s;
	char exe[4096];
	ssize_t len;
	int ret;

	if (cmd_wants_help(argc, argv, watch_usage))
		return EXIT_OK;
	ret = parse_options(&o, argc, argv);
	if (ret >= 0)
		return ret;
	ret = cmd_open_study(&s, argv[optind], "watch", 1);
	if (ret)
		return ret;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0) {
		cmd_print_error("cannot find tuner's own binary (/proc/self/exe)");
		cmd_close_study(&s);
		return EXIT_FAIL;
	}
	exe[len] = '\0';
	w.s = &s;
	w.o = &o;
	w.study_path = argv[optind];
	w.self = xstrdup(exe);
	w.repo = s.source_repo[0] == '/' ? xstrdup(s.source_repo)
					 : xasprintf("%s/%s", s.dir, s.source_repo);
	if (o.m.results) {
		w.results = xstrdup(o.m.results);
	} else {
		char *b = safe_name(o.branch);

		w.results = xasprintf("results/%s/watch-%s", s.name, b);
		free(b);
	}
	w.state = xasprintf("%s/watch.jsonl", w.results);
	w.reset = o.reset;
	if (mkdir_p(w.results) < 0 || watch_state_load(&w) < 0) {
		ret = cmd_error();
		goto out;
	}
	for (;;) {
		/* A notification not delivered before: given first, and its
		 * exit (4 for a regression, 1 for a report gone) unless this
		 * check has one of its own. */
		int pending = watch_notify_pending(&w);

		ret = measure_new_commits(&w);
		if (pending >= 0 && ret == EXIT_OK)
			ret = pending;
		if (o.once || ret == EXIT_USAGE || ret == EXIT_INTERRUPTED || tn_cancelled())
			break;
		for (double t = 0; t < o.interval && !tn_cancelled(); t += 0.2) {
			struct timespec ts = { 0, 200000000L };

			nanosleep(&ts, NULL);
		}
		if (tn_cancelled()) {
			ret = EXIT_INTERRUPTED;
			break;
		}
	}
out:
	json_decref(w.pending);
	free(w.self);
	free(w.repo);
	free(w.results);
	free(w.state);
	cmd_close_study(&s);
	return ret;
}
