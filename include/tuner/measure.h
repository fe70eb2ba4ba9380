/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measure: one measurement of a build on a testbed, as build.h makes one
 * build: the measure command (in the build's directory, its output in
 * measure-<testbed>.log there; the testbed's deploy, ready, reboot and
 * recover steps are the run's, run_lab.c), and the value of
 * each measured objective parsed from what it printed (parse.h). What
 * failed is a result (out->ok 0, out->error), not an error.
 */
#ifndef TUNER_MEASURE_H
#define TUNER_MEASURE_H

#include "tuner/journal.h"
#include "tuner/study.h"

struct measure_request {
	const struct study *study;
	size_t testbed;   /* index into study->testbeds */
	char *const *env; /* the commands' environment (runner.h cmd_env_build()) */
	const char *dir;  /* the build's directory: where they run and log */
	/* Values replaced with "***" in what the command logs (lab.h). */
	char *const *secrets;
	size_t nsecrets;
};

/*
 * Runs the measurement of req. Fills out's ok, error (malloced, or NULL),
 * seconds, nvalues, names (the study's objective names, not copied) and
 * values; the caller sets the rest and releases with
 * measure_run_release(). *status is the command's exit status (0; 75
 * says the testbed is at fault, docs/testbeds.md; 128 + a signal), or -1
 * when it timed out or did not start. Returns 0, or TN_ECANCELLED (util.h)
 * when cancelled (out is empty: nothing to record).
 */
int measure_run(struct measure_record *out, const struct measure_request *req, int *status);
/* Frees what measure_run() allocated in r (not the names themselves). */
void measure_run_release(struct measure_record *r);

/*
 * What makes a measurement of a build what it is, as a key (16 hex
 * digits into out): the measure, deploy, ready, reboot and recover
 * commands' text, the testbeds' env as written (never what a ${...}
 * expands to), measure.inputs (their bytes), each measured objective's name and
 * parser, and the models the parsers score with (measure.model,
 * measure.uarch). A recorded measurement is reused only under the same
 * key: change any of these and the builds are measured again.
 */
void measure_key(char out[17], const struct study *s);

/* The log of measurements of a build on a testbed: DIR/measure-TESTBED.log
 * (the testbed's name made safe for a file name). Caller frees. */
char *measure_log_path(const char *dir, const char *testbed);

#endif
