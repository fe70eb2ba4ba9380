/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command-line layer: one function per command (tuner/cli/cmd_*.c,
 * listed in main.c's table), and what every command does around its work
 * (cmd.c): --help, the signals, a study or a journal opened, progress and
 * notes, errors and exit codes.
 */
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

#include "tuner/progress.h"
#include "tuner/run.h"

struct study;

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage; /* full help text */
};

/* The commands (main.c's table), and each one's help text. */
int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_blame(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_uarch(int argc, char **argv);
int cmd_profile(int argc, char **argv);

struct ua_config;
/* The options `tuner uarch` and `tuner profile` share: --study S,
 * --preset P, --set K=V (getopt values 's', 'p', 'S'). */
struct uarch_choice {
	const char *study, *preset;
	const char **sets; /* malloced array of optarg pointers */
	size_t nsets, alloc;
};
/* Those options' entries of a struct option table. */
#define CMD_UARCH_LONGOPTS \
	{ "study", required_argument, NULL, 's' }, \
	{ "preset", required_argument, NULL, 'p' }, \
	{ "set", required_argument, NULL, 'S' }
/* 1 if getopt's c is one of those options (taken into ch), else 0. */
int cmd_uarch_option(struct uarch_choice *ch, int c, const char *arg);
/*
 * The modelled core to weigh with: the measure.uarch of ch->study or the
 * preset named (exactly one of them), then each "KEY=VALUE" of ch->sets.
 * 0, or -1 with a message printed ("tuner: CMD: ..."). Frees ch->sets
 * either way.
 */
int cmd_uarch_config(struct ua_config *cfg, struct uarch_choice *ch, const char *cmd);
/*
 * The packets line ("packets=N bytes=B ...") of a kernel model run kept as
 * DIR/model.report.SUFFIX (SUFFIX "RUN" on the local testbed, "TESTBED.RUN"
 * on another, as targets/qemu-linux/model.sh names them): the last such
 * line of DIR/measure-TESTBED.log, the measure command's appended output.
 * NULL if there is none. Caller frees with free().
 */
char *cmd_kernel_packets_line(const char *dir, const char *suffix);
int cmd_report(int argc, char **argv);
int cmd_effects(int argc, char **argv);
int cmd_defaults(int argc, char **argv);
int cmd_propose(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_space(int argc, char **argv);
int cmd_help(int argc, char **argv);
extern const char run_usage[], check_usage[], compare_usage[], blame_usage[],
	bisect_usage[], watch_usage[], layout_usage[], uarch_usage[], profile_usage[], report_usage[],
	effects_usage[], defaults_usage[], propose_usage[], diff_usage[], space_usage[],
	help_usage[];

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
/* "--help" or "-h" among argv[1..] (before any "--"): prints usage (the
 * command's help text) to stdout and returns 1; else 0. */
int cmd_wants_help(int argc, char **argv, const char *usage);

#endif
