/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner watch's private parts, shared by cmd_watch.c, _state.c and _report.c. */
#ifndef TUNER_CMD_WATCH_H
#define TUNER_CMD_WATCH_H

/*
 * The session (cmd_watch.c: the options, each check's child tuner bisect
 * and its verdict), the state journal (cmd_watch_state.c:
 * RESULTS/watch.jsonl) and what a check reports (cmd_watch_report.c:
 * stdout, the report files, the notify command).
 */

#include <jansson.h>

#include "cmd_options.h"

struct study;

struct watch_opts {
	const char *branch, *since, *flags, *notify;
	struct cmd_measure_opts m; /* --repeats, --layout, --max-layout, -j,
	                              --results, --format, -q: bisect's */
	int once, reset;
	double interval;
	double alpha; /* the named commit's test against its parent */
};

struct watch {
	const struct study *s;
	const struct watch_opts *o;
	const char *study_path;
	char *results, *state, *repo, *self;
	char baseline[41];
	int reset;     /* --reset, until a baseline is taken by it */
	/* Notifications journalled as begun ("notify") with no success
	 * ("notified", status 0) after them: a JSON array of those records,
	 * watch_state_load()'s; the caller json_decref()s it. */
	json_t *pending;
};

/* ---- cmd_watch_state.c: the state journal, w->state ---- */

/* Appends one record (a JSON object, stolen) to the state journal, with
 * the time, flushed: 0, or -1 with message. */
int watch_state_add(struct watch *w, json_t *rec);
/* The baseline from the state journal into w->baseline ("" when none
 * yet; no journal yet is none), and the notifications not known to have
 * been delivered into w->pending. A torn last line (a crash while
 * writing) is skipped. 0. */
int watch_state_load(struct watch *w);
/* Drops the pending notifications (w->pending) of commit: delivered. */
void watch_pending_done(struct watch *w, const char *commit);
/* rev (in go's repository, below its path) into out: 0, or the exit code
 * after "tuner: watch: WHAT...". */
struct gitsrc_opts;
int watch_resolve(char out[41], struct gitsrc_opts *go, const char *rev, const char *what);
/*
 * The baseline a check measures from: on the first call, or with
 * --reset, --since (default head, the branch as it is) becomes it
 * (journalled; said when it is head); on a later call --since must name
 * a commit. -1 to go on and measure, else the exit code.
 */
int watch_take_baseline(struct watch *w, struct gitsrc_opts *go, const char *head);
/* The branch at head still descends from the baseline: 0; else (pushed
 * back, diverged, the baseline gone) the exit code (2) after a message
 * that says what happened and the way on (--reset). */
int watch_check_rewritten(const struct watch *w, const char *head);
/* Records commit as the baseline (why: "first call", or the result that
 * moved it) and sets w->baseline: 0, or -1 with message. */
int watch_set_baseline(struct watch *w, const char *commit, const char *why);

/* ---- cmd_watch_report.c: doc is a check's document (cmd_watch.c) ---- */

/* The check's report on stdout: JSON, Markdown or text by --format. */
void watch_print(const struct watch *w, json_t *doc);
/*
 * For a named commit (result not "unconfirmed"): writes
 * RESULTS/report-<head>.md and .json and gives them to the notify command
 * (--notify, else watch.notify's), whose failure is reported, not fatal.
 * -1 when done, or the exit code after the message.
 */
int watch_publish(struct watch *w, json_t *doc, const char *result, const char *head);
/*
 * Gives every notification of w->pending to the notify command again
 * (the call that began it was killed, or the command failed), said on
 * stderr; at least once, so the delivered ones leave w->pending. -1 when
 * none was a regression, EXIT_VERDICT when one was (the exit its own call
 * would have had), or an error's exit code.
 */
int watch_notify_pending(struct watch *w);

#endif
