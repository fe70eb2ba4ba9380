/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the commands over several targets' results share (effects,
 * defaults): one study file per target, --results DIR per study in order,
 * --objective NAME, --format table|md|json, and their loading.
 */
#ifndef TUNER_CMD_TARGETS_H
#define TUNER_CMD_TARGETS_H

#include <getopt.h>
#include <stddef.h>

#include "tuner/outfmt.h"
#include "tuner/results.h"

struct cmd_targets {
	struct results_target *t;  /* loaded: n of them */
	size_t n;
	const char **dirs;         /* --results, in order (malloced array) */
	size_t ndirs, dirs_alloc;
	const char *objective;     /* --objective, or NULL */
	enum outfmt fmt;           /* --format (default table) */
};
#define CMD_TARGETS_INIT { .t = NULL, .n = 0, .dirs = NULL, .ndirs = 0, .dirs_alloc = 0, \
			   .objective = NULL, .fmt = OUTFMT_TABLE }

enum { CMD_TOPT_RESULTS = 2000, CMD_TOPT_FORMAT, CMD_TOPT_OBJECTIVE };
#define CMD_TARGETS_LONGOPTS \
	{ "results", required_argument, NULL, CMD_TOPT_RESULTS }, \
	{ "format", required_argument, NULL, CMD_TOPT_FORMAT }, \
	{ "objective", required_argument, NULL, CMD_TOPT_OBJECTIVE }, \
	{ "help", no_argument, NULL, 'h' }

/*
 * Handles c, what getopt_long() returned for command name: a shared
 * option sets ct and returns 0; a bad value, a missing value (':') or an
 * unknown option prints "tuner: NAME: ..." and returns EXIT_USAGE; any
 * other c (the command's own) returns -1.
 */
int cmd_targets_option(struct cmd_targets *ct, int c, const char *name, char **argv);

/*
 * Loads the study files argv[optind..argc) (at least one) with the
 * --results directories (none, or one per study), printing on stderr a
 * note per target whose results are incomplete, come from an edited study
 * file, or hold configurations its space does not. 0, or the exit code
 * after the message.
 */
int cmd_targets_load(struct cmd_targets *ct, int argc, char **argv, const char *name);
void cmd_targets_release(struct cmd_targets *ct);

/* "A and B", "A, B and C": names[0..n) into buf (len bytes). */
void cmd_join_names(char *buf, size_t len, const char *const *names, size_t n);

#endif
