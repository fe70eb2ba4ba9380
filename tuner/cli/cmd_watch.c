/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tuner watch: the commit watch (docs/watch.md). Each call measures what
 * arrived on a branch since the last one against the last baseline with
 * tuner bisect's rule (a child `tuner bisect --format json`, whose journal
 * makes a crash resumable), names the commit that moved the objective,
 * and moves the baseline on. Its own state is an append-only journal,
 * <results>/watch.jsonl.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd.h"
#include "cmd_options.h"
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
	"\n"
	"  --branch REF       the branch (any revision) to watch\n"
	"  --once             check once and exit (default: check every --interval\n"
	"                     until interrupted)\n"
	"  --interval T       between checks without --once (default 1h; 90m, 600)\n"
	"  --since REV        the first call's baseline (default: REF as it is)\n"
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

struct watch_opts {
	const char *branch, *since, *flags, *notify;
	struct cmd_measure_opts m; /* --repeats, --layout, --max-layout, -j,
	                              --results, --format, -q: bisect's */
	int once;
	double interval;
	double alpha; /* the named commit's test against its parent */
};

struct watch {
	const struct study *s;
	const struct watch_opts *o;
	const char *study_path;
	char *results, *state, *repo, *self;
	char baseline[41];
};

/* Appends one record (a JSON object, stolen) to the state journal,
 * flushed: 0, or -1 with message. */
static int state_add(struct watch *w, json_t *rec)
{
	char *line;
	FILE *f;
	int ret = -1;
	time_t now = time(NULL);
	char when[32];

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_set_new(rec, "time", json_string(when));
	line = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(rec);
	f = fopen(w->state, "a");
	if (!f)
		return tn_error_errno("cannot open %s", w->state);
	if (line && fprintf(f, "%s\n", line) > 0 && fflush(f) == 0 && fsync(fileno(f)) == 0)
		ret = 0;
	else
		tn_error_errno("cannot write %s", w->state);
	if (fclose(f) != 0 && ret == 0)
		ret = tn_error_errno("cannot write %s", w->state);
	free(line);
	return ret;
}

/* The baseline from the state journal ("" when none yet). A torn last
 * line (a crash while writing) is skipped. */
static int state_load(struct watch *w)
{
	char *text = NULL, *line, *save = NULL;
	size_t len;

	w->baseline[0] = '\0';
	if (read_file(&text, &len, w->state) < 0) {
		tn_error_clear();
		return 0;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *r = json_loads(line, 0, NULL);
		const char *type = r ? json_string_value(json_object_get(r, "type")) : NULL;
		const char *c = r ? json_string_value(json_object_get(r, "commit")) : NULL;

		if (type && !strcmp(type, "baseline") && c && strlen(c) == 40)
			snprintf(w->baseline, sizeof(w->baseline), "%s", c);
		json_decref(r);
	}
	free(text);
	return 0;
}

static int set_baseline(struct watch *w, const char *commit, const char *why)
{
	json_t *r = json_object();

	json_object_set_new(r, "type", json_string("baseline"));
	json_object_set_new(r, "commit", json_string(commit));
	json_object_set_new(r, "why", json_string(why));
	if (state_add(w, r) < 0)
		return -1;
	snprintf(w->baseline, sizeof(w->baseline), "%s", commit);
	return 0;
}

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

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The report of one check, as Markdown (md) or plain text, and as JSON
 * (stolen into *doc). */
static char *report_text(const struct watch *w, json_t *doc, int md)
{
	struct strbuf sb = STRBUF_INIT;
	const char *result = json_string_value(json_object_get(doc, "result"));
	json_t *fb = json_object_get(doc, "first_bad");
	const char *b = md ? "**" : "";

	if (!json_is_object(fb) || !strcmp(result, "unconfirmed"))
		fb = NULL;

	strbuf_addf(&sb, "%s%stuner watch: %s on %s%s\n\n", md ? "## " : "", b, result,
		    w->o->branch, b);
	strbuf_addf(&sb, "%sstudy %s, objective %s (%s); baseline %.12s, %s %.12s, %s\n", md ? "- " : "",
		    w->s->name, w->s->objectives[0].name,
		    w->s->objectives[0].maximize ? "higher is better" : "lower is better",
		    json_string_value(json_object_get(doc, "good")), w->o->branch,
		    json_string_value(json_object_get(doc, "bad")),
		    json_string_value(json_object_get(doc, "flags")));
	if (fb) {
		json_t *e = json_object_get(fb, "effect");

		strbuf_addf(&sb, "%sfirst bad commit: %s%s%s %s\n", md ? "- " : "", md ? "`" : "",
			    json_string_value(json_object_get(fb, "commit")), md ? "`" : "",
			    json_string_value(json_object_get(fb, "subject")));
		if (e)
			strbuf_addf(&sb, "%seffect against its parent: %+.2f%%, 95%% CI [%+.2f%%, %+.2f%%], "
				    "p = %.2g; layout band ±%.2g%%: %s it\n", md ? "- " : "",
				    100 * num(e, "rel"), 100 * num(e, "rel_lo"), 100 * num(e, "rel_hi"),
				    num(e, "p"), 100 * num(fb, "layout_band"),
				    json_is_true(json_object_get(fb, "beyond_band")) ? "beyond" : "within");
		strbuf_addf(&sb, "%swhat it touched:\n%s", md ? "- " : "", md ? "\n```\n" : "");
		strbuf_addstr(&sb, json_string_value(json_object_get(doc, "touched")));
		strbuf_addstr(&sb, md ? "```\n" : "");
	} else if (json_object_get(doc, "why")) {
		strbuf_addf(&sb, "%s%s\n", md ? "- " : "",
			    json_string_value(json_object_get(doc, "why")));
	}
	strbuf_addf(&sb, "%sbisect: %s\n", md ? "- " : "",
		    json_string_value(json_object_get(doc, "bisect_results")));
	return strbuf_detach(&sb);
}

/* Gives the report to the notify command; its failure is reported, not
 * fatal (the finding is in the state journal). */
static void notify(struct watch *w, const char *cmd, double timeout, json_t *doc,
		   const char *md_path, const char *json_path)
{
	struct runner r = RUNNER_INIT;
	char *env[5];
	char *log = xasprintf("%s/notify.log", w->results);
	json_t *rec = json_object();
	const char *commit = json_string_value(json_object_get(json_object_get(doc, "first_bad"),
							       "commit"));

	env[0] = xasprintf("TUNER_WATCH_RESULT=%s", json_string_value(json_object_get(doc, "result")));
	env[1] = xasprintf("TUNER_WATCH_COMMIT=%s", commit ? commit : "");
	env[2] = xasprintf("TUNER_WATCH_REPORT=%s", md_path);
	env[3] = xasprintf("TUNER_WATCH_JSON=%s", json_path);
	env[4] = NULL;
	json_object_set_new(rec, "type", json_string("notified"));
	json_object_set_new(rec, "commit", json_string(commit ? commit : ""));
	if (run_shell(&r, cmd, NULL, env, log, 0, timeout) < 0) {
		fprintf(stderr, "tuner: watch: the notify command could not start: %s\n", tn_errmsg());
		tn_error_clear();
		json_object_set_new(rec, "status", json_integer(-1));
	} else {
		if (r.result.status != 0)
			fprintf(stderr, "tuner: watch: the notify command failed (exit %d%s); its output "
				"is in %s\n", r.result.status, r.result.timed_out ? ", timed out" : "", log);
		json_object_set_new(rec, "status", json_integer(r.result.status));
	}
	runner_release(&r);
	if (state_add(w, rec) < 0) {
		cmd_print_error(tn_errmsg());
		tn_error_clear();
	}
	for (int i = 0; i < 4; i++)
		free(env[i]);
	free(log);
}

/* One check: returns the exit code (EXIT_OK, EXIT_VERDICT for a
 * regression, or an error's). */
static int check(struct watch *w)
{
	const struct watch_opts *o = w->o;
	struct gitsrc_opts go = GITSRC_OPTS_INIT;
	char head[41], sub[96], layout[16], max_layout[16], repeats[16], jobs[16];
	const char *argv[32];
	char *out = NULL, *dir = NULL, *log = NULL, *text = NULL, *md_path = NULL, *json_path = NULL;
	json_t *bj = NULL, *doc = NULL, *rec;
	const char *result, *why = NULL;
	size_t n = 0;
	int rc, ret = EXIT_FAIL;

	go.repo = w->repo;
	go.rev = o->branch;
	go.path = w->s->source_path;
	rc = gitsrc_resolve(head, &go);
	if (rc < 0) {
		fprintf(stderr, "tuner: watch: %s\n", tn_errmsg());
		return rc == -1 ? EXIT_FAIL : EXIT_USAGE;
	}
	if (!w->baseline[0]) {
		char since[41];

		if (o->since) {
			go.rev = o->since;
			rc = gitsrc_resolve(since, &go);
			if (rc < 0) {
				fprintf(stderr, "tuner: watch: --since: %s\n", tn_errmsg());
				return rc == -1 ? EXIT_FAIL : EXIT_USAGE;
			}
		}
		if (set_baseline(w, o->since ? since : head, "first call") < 0)
			return cmd_error();
		if (!o->since || !strcmp(since, head)) {
			printf("baseline: %.12s (%s); later calls measure what arrives on it\n", head,
			       o->branch);
			return EXIT_OK;
		}
	}
	if (!strcmp(w->baseline, head)) {
		if (!o->m.quiet)
			fprintf(stderr, "tuner: watch: nothing new on %s (%.12s)\n", o->branch, head);
		if (o->m.fmt == OUTFMT_JSON)
			printf("{\"result\": \"nothing new\", \"baseline\": \"%s\"}\n", head);
		return EXIT_OK;
	}

	snprintf(sub, sizeof(sub), "bisect-%.12s-%.12s", w->baseline, head);
	dir = xasprintf("%s/%s", w->results, sub);
	log = xasprintf("%s.log", dir);
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
		snprintf(layout, sizeof(layout), "%u", o->m.layout ? o->m.layout : w->s->watch_layout);
		argv[n++] = "--layout";
		argv[n++] = layout;
	}
	if (o->m.max_layout) {
		snprintf(max_layout, sizeof(max_layout), "%u", o->m.max_layout);
		argv[n++] = "--max-layout";
		argv[n++] = max_layout;
	}
	snprintf(repeats, sizeof(repeats), "%u",
		 o->m.repeats ? o->m.repeats : w->s->watch_repeats ? w->s->watch_repeats : 3);
	argv[n++] = "--repeats";
	argv[n++] = repeats;
	if (o->m.jobs) {
		snprintf(jobs, sizeof(jobs), "%u", o->m.jobs);
		argv[n++] = "-j";
		argv[n++] = jobs;
	}
	argv[n] = NULL;
	if (!o->m.quiet)
		fprintf(stderr, "tuner: watch: %.12s..%.12s (%s): measuring\n", w->baseline, head,
			o->branch);
	rc = child(&out, argv, log, NULL);
	if (rc < 0) {
		ret = cmd_error();
		goto out;
	}
	if (rc == 130 || tn_cancelled()) {
		fprintf(stderr, "tuner: watch: interrupted; run again to resume\n");
		ret = EXIT_INTERRUPTED;
		goto out;
	}
	bj = json_loads(out, 0, NULL);
	if (!bj) {
		fprintf(stderr, "tuner: watch: tuner bisect failed (exit %d); its messages are in %s\n",
			rc, log);
		ret = rc == EXIT_USAGE ? EXIT_USAGE : EXIT_FAIL;
		goto out;
	}
	doc = json_object();
	json_object_set_new(doc, "study", json_string(w->s->name));
	json_object_set_new(doc, "branch", json_string(o->branch));
	json_object_set_new(doc, "good", json_string(w->baseline));
	json_object_set_new(doc, "bad", json_string(head));
	json_object_set_new(doc, "flags", json_object_get(bj, "flags") ?
					  json_incref(json_object_get(bj, "flags")) : json_string(""));
	json_object_set_new(doc, "bisect_results", json_string(dir));
	if (json_is_true(json_object_get(bj, "nothing_to_bisect"))) {
		result = "no change";
	} else if (json_is_object(json_object_get(bj, "first_bad"))) {
		json_t *fb = json_object_get(bj, "first_bad");
		double rel = num(json_object_get(fb, "effect"), "rel");
		int worse = w->s->objectives[0].maximize ? rel < 0 : rel > 0;

		double p = num(json_object_get(fb, "effect"), "p");
		double pr = num(json_object_get(fb, "effect"), "p_rank");

		result = isnan(rel) ? "change" : worse ? "regression" : "improvement";
		json_object_set(doc, "first_bad", fb);
		json_object_set_new(doc, "alpha", json_real(o->alpha));
		/* Named, but on evidence a daily watch would find by chance
		 * (the named commit's own test against its parent reuses the
		 * bisect's measurements, which chose it): not said. */
		if (!(p < o->alpha && pr < o->alpha)) {
			char *msg = xasprintf("bisect named %.12s (%+.2f%% against its parent, p = %.2g, "
					      "rank p = %.2g), not below the watch's alpha %g: "
					      "unconfirmed; the baseline stays",
					      json_string_value(json_object_get(fb, "commit")),
					      100 * rel, p, pr, o->alpha);

			json_object_set_new(doc, "why", json_string(msg));
			free(msg);
			result = "unconfirmed";
		}
		text = touched(w, json_string_value(json_object_get(fb, "commit")));
		json_object_set_new(doc, "touched", json_string(text));
		free(text);
		text = NULL;
	} else {
		result = "unresolved";
		why = json_string_value(json_object_get(bj, "no_culprit"));
		json_object_set_new(doc, "why", json_string(why ? why : "bisect named no commit"));
	}
	json_object_set_new(doc, "result", json_string(result));

	rec = json_deep_copy(doc);
	json_object_set_new(rec, "type", json_string("check"));
	if (state_add(w, rec) < 0) {
		ret = cmd_error();
		goto out;
	}
	if (strcmp(result, "unresolved") && strcmp(result, "unconfirmed") &&
	    set_baseline(w, head, result) < 0) {
		ret = cmd_error();
		goto out;
	}

	if (o->m.fmt == OUTFMT_JSON) {
		char *s = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);

		printf("%s\n", s);
		free(s);
	} else {
		text = report_text(w, doc, o->m.fmt == OUTFMT_MD);
		fputs(text, stdout);
		free(text);
		text = NULL;
	}
	fflush(stdout);
	if (json_is_object(json_object_get(doc, "first_bad")) && strcmp(result, "unconfirmed")) {
		const char *cmd = o->notify ? o->notify : w->s->watch_notify.command;
		char *js;

		md_path = xasprintf("%s/report-%.12s.md", w->results, head);
		json_path = xasprintf("%s/report-%.12s.json", w->results, head);
		text = report_text(w, doc, 1);
		js = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		if (write_file_atomic(md_path, text, strlen(text)) < 0 ||
		    write_file_atomic(json_path, js, strlen(js)) < 0) {
			free(js);
			ret = cmd_error();
			goto out;
		}
		free(js);
		if (cmd)
			notify(w, cmd, o->notify ? 600 : w->s->watch_notify.timeout, doc, md_path,
			       json_path);
	}
	ret = !strcmp(result, "regression") ? EXIT_VERDICT : EXIT_OK;
out:
	json_decref(bj);
	json_decref(doc);
	free(out);
	free(dir);
	free(log);
	free(text);
	free(md_path);
	free(json_path);
	return ret;
}

static int parse_options(struct watch_opts *o, int argc, char **argv)
{
	enum { OPT_BRANCH = 256, OPT_ONCE, OPT_INTERVAL, OPT_SINCE, OPT_FLAGS, OPT_NOTIFY,
	       OPT_ALPHA };
	static const struct option longopts[] = {
		{ "branch", required_argument, NULL, OPT_BRANCH },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "since", required_argument, NULL, OPT_SINCE },
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
	if (mkdir_p(w.results) < 0 || state_load(&w) < 0) {
		ret = cmd_error();
		goto out;
	}
	for (;;) {
		ret = check(&w);
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
	free(w.self);
	free(w.repo);
	free(w.results);
	free(w.state);
	cmd_close_study(&s);
	return ret;
}
