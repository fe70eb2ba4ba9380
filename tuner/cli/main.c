/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner: the command table and the entry point. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
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
	{ "profile", cmd_profile, "where the router model's cycles go, function by function",
	  profile_usage },
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

/* Prints help for name to stdout; 0, or 2 for an unknown command. */
static int print_help(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name)) {
			fputs(commands[i].usage, stdout);
			return EXIT_OK;
		}
	fprintf(stderr, "tuner: no command '%s' (try 'tuner help')\n", name);
	return EXIT_USAGE;
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
		return print_help(argv[1]);
	if (argc == 2)
		return print_help("help");
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
	if (err == EFBIG && file_size_limit())
		fprintf(stderr, "tuner: cannot write the output: %s (tuner's file size limit, "
			"ulimit -f, is %llu bytes)\n", strerror(err), file_size_limit());
	else
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
	/* Under a file size limit (ulimit -f) a write past it fails with
	 * EFBIG, said like any failed write, instead of killing tuner with
	 * no word. The commands tuner runs get the default back (runner.c:
	 * POSIX_SPAWN_SETSIGDEF), so a build past the limit still dies of
	 * SIGXFSZ, which tuner tells from the build's own failures
	 * (over_file_size_limit()). */
	signal(SIGXFSZ, SIG_IGN);
	return output_checked(dispatch(argc, argv));
}
