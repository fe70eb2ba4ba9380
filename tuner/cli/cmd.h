/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command-line layer: one function per command (tuner/cmd_*.c). */
#ifndef TUNER_CMD_H
#define TUNER_CMD_H

/* Exit codes. */
#define EXIT_OK 0
#define EXIT_FAIL 1
#define EXIT_USAGE 2
#define EXIT_FAILED 3 /* run: done, but configurations failed */
#define EXIT_VERDICT 4 /* compare --fail-on: done, and the verdict is the one refused;
                        * watch: a regression was named */
#define EXIT_INTERRUPTED 130

#include <getopt.h>
#include <stddef.h>

#include "tuner/outfmt.h"
#include "tuner/progress.h"
#include "tuner/run.h"

struct study;

/* The options of every command that measures variants (compare, blame,
 * bisect). 0 / NULL: not given. */
struct cmd_measure_opts {
	unsigned repeats, layout, max_layout, jobs;
	const char *results;
	const char *good, *bad; /* blame and bisect */
	int quiet;
	enum outfmt fmt;  /* --format (0: table) */
};
enum { CMD_OPT_REPEATS = 1000, CMD_OPT_LAYOUT, CMD_OPT_MAX_LAYOUT, CMD_OPT_RESULTS,
       CMD_OPT_GOOD, CMD_OPT_BAD, CMD_OPT_FORMAT };
#define CMD_MEASURE_SHORTOPTS ":j:qh"
#define CMD_MEASURE_LONGOPTS \
	{ "repeats", required_argument, NULL, CMD_OPT_REPEATS }, \
	{ "layout", required_argument, NULL, CMD_OPT_LAYOUT }, \
	{ "results", required_argument, NULL, CMD_OPT_RESULTS }, \
	{ "jobs", required_argument, NULL, 'j' }, \
	{ "format", required_argument, NULL, CMD_OPT_FORMAT }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "help", no_argument, NULL, 'h' }
/* blame and bisect: --good X --bad Y --max-layout K. */
#define CMD_SEARCH_LONGOPTS \
	{ "good", required_argument, NULL, CMD_OPT_GOOD }, \
	{ "bad", required_argument, NULL, CMD_OPT_BAD }, \
	{ "max-layout", required_argument, NULL, CMD_OPT_MAX_LAYOUT }
/*
 * Handles c, what getopt_long() returned for command name: a shared
 * option sets o and returns 0; a bad value, a missing value (':') or an
 * unknown option prints "tuner: NAME: ..." and returns EXIT_USAGE; any
 * other c (the command's own) returns -1.
 */
int cmd_measure_option(struct cmd_measure_opts *o, int c, const char *name, char **argv);
/* A count option's value arg into *out: 0, or EXIT_USAGE after "tuner:
 * NAME: OPT takes a whole number from 1 to MAX, not 'ARG'". */
int cmd_count_option(unsigned *out, const char *name, const char *opt, const char *arg,
		     unsigned max);
/* --format's value arg into *out: 0, or EXIT_USAGE after "tuner: NAME:
 * --format is table, md or json, not 'ARG'". */
int cmd_format_option(enum outfmt *out, const char *name, const char *arg);
/*
 * After the options of blame or bisect: 1 when one study file is left and
 * --good and --bad were given (what: "FLAGS", "REV"); else prints why and
 * returns 0 (exit EXIT_USAGE).
 */
int cmd_search_args_ok(const struct cmd_measure_opts *o, int argc, const char *name,
		       const char *what);

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage; /* full help text */
};

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_blame(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_watch(int argc, char **argv);
extern const char watch_usage[];
int cmd_layout(int argc, char **argv);
int cmd_uarch(int argc, char **argv);
int cmd_report(int argc, char **argv);
extern const char report_usage[];
int cmd_effects(int argc, char **argv);
int cmd_defaults(int argc, char **argv);
extern const char effects_usage[], defaults_usage[];
int cmd_diff(int argc, char **argv);
int cmd_propose(int argc, char **argv);
extern const char propose_usage[];
extern const char diff_usage[];
int cmd_space(int argc, char **argv);
extern const char space_usage[];
int cmd_help(int argc, char **argv);
extern const char blame_usage[];

extern const char bisect_usage[];
extern const char layout_usage[];
extern const char uarch_usage[];
extern const char run_usage[], check_usage[], compare_usage[], help_usage[];

/*
 * Opens a copy of RESULTS/journal.jsonl (in $TMPDIR, removed at once):
 * reading must not cut a torn last line that a running `tuner run` is
 * still writing. Caller closes with journal_close(). 0, or -1 with the
 * message naming the real file.
 */
struct journal;
int cmd_open_journal_copy(struct journal **out, const char *results);

/* SIGINT, SIGTERM and SIGHUP set the cancellation flag (running commands
 * are killed, finished results kept); SIGPIPE is ignored. */
void cmd_install_signals(void);
/*
 * What the commands give the library to report through (run.h): the
 * status line on stderr (progress.h; none when quiet) and notes printed as
 * "tuner: LINE" (also when quiet). Set up with cmd_reporter_init(); pass
 * &c->r. Lives as long as the run.
 */
struct cmd_reporter {
	struct run_reporter r;
	struct progress prog;
};
void cmd_reporter_init(struct cmd_reporter *c, int quiet);

/* Prints "tuner: MESSAGE" to stderr (and returns). */
void cmd_print_error(const char *msg);
/* Prints this thread's error (tn_errmsg()) as cmd_print_error() does and
 * returns the exit code of its kind: EXIT_USAGE for bad input
 * (tn_errkind()), EXIT_INTERRUPTED when cancelled, else EXIT_FAIL. */
int cmd_error(void);
/*
 * The start of a command that runs a study: loads the study at path,
 * refuses one without a measure command when need_measure ("tuner NAME:
 * FILE has no measure command: nothing to NAME"), installs the signal
 * handlers and starts the guard. Returns 0 (then the caller calls
 * cmd_close_study() at the end), or the exit code with the message printed.
 */
int cmd_open_study(struct study *out, const char *path, const char *name, int need_measure);
/* Stops the guard and releases s. */
void cmd_close_study(struct study *s);
/* Writes v signed, 3 significant digits (numfmt.h: "+12.5", "-0.03",
 * "+10 k"; "?", "+inf"). */
void cmd_format_signed(char *buf, size_t len, double v);
/* Writes a test's two p-values: "p = 0.001, ranks p = 0.002",
 * "p < 1e-16, ranks p = 0.0079" (numfmt_p()). */
void cmd_format_ps(char *buf, size_t len, double p, double p_rank);
/* " (about 1.2e21)": an exact decimal count dec of more than 12 digits,
 * to two significant digits; "" for a shorter one. Caller frees. */
char *cmd_about(const char *dec);
/* Writes a fraction as a signed percentage ("+2.31%"; "?", "+inf%"). */
void cmd_format_pct(char *buf, size_t len, double v);
/*
 * Writes "REL [LO, HI]" of a comparison (percentages of A, e.g.
 * "-2.31% [-2.9%, -1.72%]"), "?" where not finite, into buf.
 */
void cmd_format_rel(char *buf, size_t len, double rel, double lo, double hi);

/* Prints help for name to stdout; 0, or 2 for an unknown command. */
int cmd_print_help(const char *name);
/* "--help" or "-h" among argv[1..]: prints the help and returns 1. */
int cmd_wants_help(int argc, char **argv, const char *name);

#endif
