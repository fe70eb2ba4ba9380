/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tuner bisect's private parts: the session (cmd_bisect.c) and its
 * measurements and judgements (cmd_bisect_measure.c).
 */
#ifndef TUNER_CMD_BISECT_H
#define TUNER_CMD_BISECT_H

#include <jansson.h>
#include <stddef.h>

#include "tuner/bisect.h"
#include "tuner/gitsrc.h"
#include "tuner/outfmt.h"
#include "tuner/probe.h"
#include "cmd.h"

/* What the session used of one source tree, for the spent line. */
struct bisect_used {
	char tree[41];
	size_t builds, runs;
};

struct bisect_session {
	const struct study *s;
	struct probe p;
	struct gitsrc_range r;
	struct bisect b;
	const char *flags;
	unsigned max_layout;
	unsigned base;        /* K each step starts at (planned, step 1) */
	unsigned k_end;       /* K of good and bad: the most any step used */
	unsigned *judged;     /* per commit: the K of its last judgement */
	struct bisect_alpha alpha; /* the rule's two levels, bisect_alphas() */
	int dir;              /* bad against good: +1 better, -1 worse */
	int interrupted;
	int quiet;            /* -q: no progress, no step lines */
	struct cmd_reporter rep; /* what the runs report through */
	struct bisect_used *used;
	size_t nused, used_alloc;
	/* --format: text and Markdown print as the bisect goes, Markdown's
	 * tables when their part ends; JSON goes into doc, printed at the end. */
	enum outfmt fmt;
	json_t *doc;
	struct outfmt_table md_ends, md_steps; /* Markdown: endpoints, steps */
};

/* A commit's judgement at one K: against good and against bad. */
struct bisect_verdict {
	struct stats_test g, b;
	int vs_good[2], vs_bad[2]; /* at alpha.differ and alpha.contradict */
	enum bisect_mark mark;
	const char *why;      /* unclear, or the status of a skipped commit */
};

/* Progress: "bisect: ..." on stderr unless quiet. */
void bisect_say(const struct bisect_session *ss, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Measures the commits which[0..n) at the session's K; slot[i] is the
 * index of which[i] in out->configs. Commits with the same tree are one
 * build, measured once. 0, or -1: an error (message set) or an interrupt
 * (ss->interrupted); out needs run_result_release() only after 0.
 */
int bisect_measure(struct bisect_session *ss, struct run_result *out,
		   const struct gitsrc_commit *const *which, size_t n, size_t *slot);

/* "-2.31% [-2.9%, -1.72%] (p = 0.001, ranks p = 0.002)" */
void bisect_format_test(char *buf, size_t len, const struct stats_test *t);

/* Markdown: prints t (a part's table) when it has rows, then empties it. */
void bisect_md_flush(struct outfmt_table *t);

/*
 * What bisect prints (cmd_bisect_print.c), in ss->fmt: text lines as the
 * bisect goes; Markdown headings and bullets as it goes, tables when
 * their part ends; JSON fields of ss->doc (always an object), printed
 * at the end.
 *
 * The heading: the range, the objective, the flags, the seeds and the
 * levels.
 */
void bisect_print_head(struct bisect_session *ss, int first_parent, size_t nchanged,
		       unsigned looks);
/* Step step's commit c, with left candidates, below of them at or below c. */
void bisect_print_step(struct bisect_session *ss, unsigned step, const struct gitsrc_commit *c,
		       size_t left, size_t below);
/* One judgement of step's commit c (a line, a row, one of the step's
 * "judgements"). */
void bisect_print_verdict(struct bisect_session *ss, const struct bisect_verdict *v,
			  unsigned step, const struct gitsrc_commit *c, size_t left);
/* The end without a culprit: "no culprit named: WHY" ("no_culprit"), sep,
 * and the candidates left after intro (oldest first; of more than 50 the
 * first and last 25; JSON: all of them, "range"). */
void bisect_print_range(struct bisect_session *ss, const char *why, const char *sep,
			const char *intro);
/* The measurement runs and builds spent, the commits measured in steps,
 * the results directory. */
void bisect_print_spent(struct bisect_session *ss, unsigned steps);

/*
 * Measures commit m at the current K, and good and bad at that K or more
 * (ss->k_end: they serve every step, so what one step added stays), and
 * judges m (v->mark, BISECT_SKIP when m did not build or measure). 0, or
 * -1 as measure.
 */
int bisect_judge(struct bisect_session *ss, struct bisect_verdict *v, size_t m);

/* Doubles K up to the maximum; 0 when already there. */
int bisect_more_layout(struct bisect_session *ss);

/*
 * Step 1: measures and judges bad against good, doubling K while not
 * significant, and sets ss->dir (0: no change at the most K); then gives
 * good and bad the seeds the plan wants (ss->k_end) and sets the K steps
 * start at (ss->base, p.layout). Prints the endpoint and plan lines (JSON:
 * "endpoints" and "plan" of ss->doc). 0, or -1.
 */
int bisect_endpoints(struct bisect_session *ss);

#endif
