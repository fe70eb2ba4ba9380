/* The command-line layer: one function per command (tuner/cmd_*.c). */
#ifndef TUNER_CMD_H
#define TUNER_CMD_H

/* Exit codes. */
#define EXIT_OK 0
#define EXIT_FAIL 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage; /* full help text */
};

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_help(int argc, char **argv);

extern const char run_usage[], check_usage[], compare_usage[], help_usage[];

/* SIGINT, SIGTERM and SIGHUP set the cancellation flag (running commands
 * are killed, finished results kept); SIGPIPE is ignored. */
void cmd_install_signals(void);
/* Prints "tuner: MESSAGE" to stderr. */
void cmd_die_msg(const char *msg);
/* Prints help for name to stdout; 0, or 2 for an unknown command. */
int cmd_print_help(const char *name);
/* "--help" or "-h" among argv[1..]: prints the help and returns 1. */
int cmd_wants_help(int argc, char **argv, const char *name);

#endif
