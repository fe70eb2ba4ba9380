/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The options the commands share, and the checks of a count and of --format. */
#ifndef TUNER_CMD_OPTIONS_H
#define TUNER_CMD_OPTIONS_H

/*
 * Those of every command that measures variants (compare, blame, bisect;
 * run and watch use some). A bad option prints "tuner: NAME: ..." and
 * gives EXIT_USAGE (cmd.h).
 */

#include <getopt.h>

#include "tuner/outfmt.h"

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

#endif
