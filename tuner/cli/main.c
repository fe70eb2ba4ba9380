/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner: the command table and the entry point. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "tuner/guard.h"
#include "tuner/journal.h"
#include "tuner/study.h"
#include "tuner/numfmt.h"
#include "tuner/runner.h"
#include "tuner/util.h"

static const struct cmd commands[] = {
	{ "run", cmd_run, "explore a study's flag space and print its Pareto set", run_usage },
	{ "check", cmd_check, "validate a study file and show its space", check_usage },
	{ "compare", cmd_compare, "measure two flag strings or two revisions against each other",
	  compare_usage },
	{ "blame", cmd_blame, "find the flag differences that explain a change (delta debugging)",
	  blame_usage },
	{ "bisect", cmd_bisect, "find the commit that changed the objective, not a layout shift",
	  bisect_usage },
	{ "watch", cmd_watch, "measure each new commit of a branch; name the one that moved it",
	  watch_usage },
	{ "layout", cmd_layout, "hot functions' cache placement and cost; which alignments matter",
	  layout_usage },
	{ "uarch", cmd_uarch, "weigh saved router-model counters with other penalties",
	  uarch_usage },
	{ "report", cmd_report, "results as one self-contained HTML page, one study or several targets", report_usage },
	{ "effects", cmd_effects, "what each flag value does, target by target", effects_usage },
	{ "defaults", cmd_defaults, "each target's best flags; one default for all", defaults_usage },
	{ "propose", cmd_propose, "a study's search strategy for an evaluator of yours (stdin/stdout)",
	  propose_usage },
	{ "diff", cmd_diff, "compare two results, configuration by configuration", diff_usage },
	{ "space", cmd_space, "turn a compiler's optimisation switches into a search space",
	  space_usage },
	{ "help", cmd_help, "show help for a command", help_usage },
};

static void print_overview(FILE *f)
{
	fprintf(f, "usage: tuner <command> [options]\n\n"
		   "tuner explores compiler-flag combinations for a program (a router kernel,\n"
		   "or the bundled NAT model), builds them in parallel, scores each build and\n"
		   "prints the Pareto set.\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'tuner help COMMAND' or 'tuner COMMAND --help' shows a command's options.\n"
		   "'tuner --version' prints the version.\n");
}

static void on_signal(int sig)
{
	(void)sig;
	tn_cancel();
}

void cmd_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void reporter_status(void *arg, const char *text, int force)
{
	struct cmd_reporter *c = arg;

	if (text)
		progress_show(&c->prog, text, force);
	else
		progress_clear(&c->prog);
}

static void reporter_note(void *arg, const char *line)
{
	struct cmd_reporter *c = arg;

	progress_clear(&c->prog);
	fprintf(stderr, "tuner: %s\n", line);
}

void cmd_reporter_init(struct cmd_reporter *c, int quiet)
{
	progress_init(&c->prog, quiet ? PROGRESS_OFF : progress_auto());
	c->r.status = reporter_status;
	c->r.note = reporter_note;
	c->r.arg = c;
}

void cmd_print_error(const char *msg)
{
	fprintf(stderr, "tuner: %s\n", msg);
}

int cmd_error(void)
{
	cmd_print_error(tn_errmsg());
	if (tn_cancelled())
		return EXIT_INTERRUPTED;
	return tn_errkind() == TN_ERR_INPUT ? EXIT_USAGE : EXIT_FAIL;
}

/* A runner's warning (a command's escaped descendants killed), from any
 * worker thread: one line on stderr, nothing else touched. */
static void runner_warning(const char *line)
{
	fprintf(stderr, "tuner: %s\n", line);
}

int cmd_open_study(struct study *out, const char *path, const char *name, int need_measure)
{
	if (study_load(out, path) < 0) {
		cmd_print_error(tn_errmsg());
		return EXIT_USAGE;
	}
	if (need_measure && !out->measure.command) {
		fprintf(stderr, "tuner: %s: %s has no measure command: nothing to %s\n", name,
			out->path, name);
		study_release(out);
		return EXIT_USAGE;
	}
	cmd_install_signals();
	runner_set_warn(runner_warning);
	if (guard_start() < 0) {
		cmd_print_error(tn_errmsg());
		study_release(out);
		return EXIT_FAIL;
	}
	return 0;
}

void cmd_close_study(struct study *s)
{
	guard_stop();
	study_release(s);
}

int cmd_open_journal_copy(struct journal **out, const char *results)
{
	char *path = xasprintf("%s/journal.jsonl", results);
	char *tmpl = xasprintf("%s/tuner-journal-XXXXXX",
			       getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	char *data = NULL;
	size_t len = 0;
	int fd = -1, ret = -1;

	*out = NULL;
	if (read_file(&data, &len, path) < 0)
		goto out;
	fd = mkstemp(tmpl);
	if (fd < 0) {
		tn_error_errno("cannot create '%s'", tmpl);
		goto out;
	}
	if (write(fd, data, len) != (ssize_t)len) {
		tn_error_errno("cannot write '%s'", tmpl);
		goto out;
	}
	if (journal_open(out, tmpl, NULL, "", NULL) < 0) {
		/* Name the real file, not the copy. */
		char *msg = xstrdup(tn_errmsg());
		char *at = strstr(msg, tmpl);

		if (at)
			tn_error("%s%s", path, at + strlen(tmpl));
		else
			tn_error("%s: %s", path, msg);
		free(msg);
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0) {
		close(fd);
		unlink(tmpl);
	}
	free(data);
	free(path);
	free(tmpl);
	return ret;
}

void cmd_format_signed(char *buf, size_t len, double v)
{
	numfmt_signed(buf, len, v, 3);
}

void cmd_format_ps(char *buf, size_t len, double p, double p_rank)
{
	char a[NUMFMT_LEN], b[NUMFMT_LEN];

	numfmt_p(a, sizeof(a), p);
	numfmt_p(b, sizeof(b), p_rank);
	snprintf(buf, len, "%s, ranks %s", a, b);
}

char *cmd_about(const char *dec)
{
	size_t exp = strlen(dec) - 1;
	int two;

	if (strlen(dec) <= 12)
		return xstrdup("");
	two = ((dec[0] - '0') * 100 + (dec[1] - '0') * 10 + (dec[2] - '0') + 5) / 10;
	if (two == 100) {
		two = 10;
		exp++;
	}
	return xasprintf(" (about %d.%de%zu)", two / 10, two % 10, exp);
}

void cmd_format_pct(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "%s", isnan(v) ? "?" : v > 0 ? "+inf%" : "-inf%");
	else
		snprintf(buf, len, "%+.3g%%", 100 * v);
}

void cmd_format_rel(char *buf, size_t len, double rel, double lo, double hi)
{
	char r[32], l[32], h[32];

	cmd_format_pct(r, sizeof(r), rel);
	cmd_format_pct(l, sizeof(l), lo);
	cmd_format_pct(h, sizeof(h), hi);
	snprintf(buf, len, "%s [%s, %s]", r, l, h);
}

int cmd_count_option(unsigned *out, const char *name, const char *opt, const char *arg,
		     unsigned max)
{
	uint64_t v;

	if (parse_u64(&v, arg) < 0 || v < 1 || v > max) {
		fprintf(stderr, "tuner: %s: %s takes a whole number from 1 to %u, not '%s'\n", name,
			opt, max, arg);
		return EXIT_USAGE;
	}
	*out = (unsigned)v;
	return 0;
}

int cmd_format_option(enum outfmt *out, const char *name, const char *arg)
{
	if (outfmt_parse(out, arg) == 0)
		return 0;
	fprintf(stderr, "tuner: %s: --format is table, md or json, not '%s'\n", name, arg);
	return EXIT_USAGE;
}

int cmd_measure_option(struct cmd_measure_opts *o, int c, const char *name, char **argv)
{
	switch (c) {
	case CMD_OPT_FORMAT:
		return cmd_format_option(&o->fmt, name, optarg);
	case CMD_OPT_REPEATS:
		return cmd_count_option(&o->repeats, name, "--repeats", optarg, 100000);
	case CMD_OPT_LAYOUT:
		return cmd_count_option(&o->layout, name, "--layout", optarg, 100000);
	case CMD_OPT_MAX_LAYOUT:
		return cmd_count_option(&o->max_layout, name, "--max-layout", optarg, 100000);
	case 'j':
		return cmd_count_option(&o->jobs, name, "--jobs", optarg, 1024);
	case CMD_OPT_RESULTS:
		o->results = optarg;
		return 0;
	case CMD_OPT_GOOD:
		o->good = optarg;
		return 0;
	case CMD_OPT_BAD:
		o->bad = optarg;
		return 0;
	case 'q':
		o->quiet = 1;
		return 0;
	case ':':
		fprintf(stderr, "tuner: %s: %s needs a value\n", name, argv[optind - 1]);
		return EXIT_USAGE;
	case '?':
		fprintf(stderr, "tuner: %s: unknown option '%s' (see 'tuner %s --help')\n", name,
			argv[optind - 1], name);
		return EXIT_USAGE;
	}
	return -1;
}

int cmd_search_args_ok(const struct cmd_measure_opts *o, int argc, const char *name,
		       const char *what)
{
	if (argc - optind != 1) {
		fprintf(stderr, "tuner: %s: need one study file (see 'tuner %s --help')\n", name,
			name);
		return 0;
	}
	if (!o->good || !o->bad) {
		fprintf(stderr, "tuner: %s: need --good %s and --bad %s\n", name, what, what);
		return 0;
	}
	return 1;
}

int cmd_print_help(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name)) {
			fputs(commands[i].usage, stdout);
			return EXIT_OK;
		}
	fprintf(stderr, "tuner: no command '%s' (try 'tuner help')\n", name);
	return EXIT_USAGE;
}

int cmd_wants_help(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cmd_print_help(name);
			return 1;
		}
	}
	return 0;
}

const char help_usage[] =
	"usage: tuner help [COMMAND]\n\n"
	"Shows the list of commands, or one command's help (the same text as\n"
	"'tuner COMMAND --help').\n";

int cmd_help(int argc, char **argv)
{
	if (argc > 2) {
		fprintf(stderr, "tuner: help takes at most one command\n");
		return EXIT_USAGE;
	}
	if (argc == 2 && strcmp(argv[1], "--help") && strcmp(argv[1], "-h"))
		return cmd_print_help(argv[1]);
	if (argc == 2)
		return cmd_print_help("help");
	print_overview(stdout);
	return EXIT_OK;
}

/*
 * A command's exit status, made a failure when its output was lost: stdout
 * is /dev/full, a closed pipe (SIGPIPE is ignored, so writes fail with
 * EPIPE), a full disk. Results are in the results directory either way;
 * the caller must not take a truncated table for the whole.
 */
static int output_checked(int status)
{
	int err = 0;

	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		err = errno ? errno : EIO;
	if (!err)
		return status;
	fprintf(stderr, "tuner: cannot write the output: %s\n", strerror(err));
	return status == EXIT_OK ? EXIT_FAIL : status;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		print_overview(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_overview(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tuner %s\n", TUNER_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "tuner: '%s' is not a command (see 'tuner help')\n", argv[1]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	return output_checked(dispatch(argc, argv));
}
