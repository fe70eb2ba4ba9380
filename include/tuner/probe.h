/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe: measure variants of a study on demand, for the commands that
 * search (tuner blame, tuner bisect).
 *
 * A probe session owns one results directory and journal. Each
 * probe_measure() is a run of the study (run_study()) over the variants
 * asked for: flag strings built from revisions of the study's source, every
 * variant built on K layout seeds (TUNER_LAYOUT_SEED 0..K-1) and every build
 * measured N times, variants interleaved on the testbeds. What the journal
 * already holds is reused, so asking again for a variant, or asking for it
 * with more repeats or layout seeds (raise p->repeats or p->layout between
 * calls), builds and measures only what is new; a rerun of the whole
 * command resumes the same way.
 *
 * Pairs of variants are judged with the rule of tuner compare: the
 * clustered comparison (stats_compare_clustered(), layout seeds as the
 * unit) and stats_significant(). probe_judge() does both.
 *
 * Variants are built with PGO off; the study's search strategy, budget and
 * racing do not apply (every variant gets exactly N runs per build).
 */
#ifndef TUNER_PROBE_H
#define TUNER_PROBE_H

#include "tuner/run.h"
#include "tuner/stats.h"
#include "tuner/study.h"

struct probe {
	const struct study *s; /* borrowed; must outlive the probe */
	char *results;         /* results directory (malloced) */
	char hash[17];         /* the session's journal hash */
	unsigned repeats;      /* N: runs per build; the caller may raise it */
	unsigned layout;       /* K: layout seeds per variant; likewise */
	unsigned jobs;         /* build slots, 0: cpu_count() */
	const struct run_reporter *report; /* as run_opts.report */
	size_t objective;      /* the judged objective: the first measured one */
	/* Totals of this session's calls (from run_result). */
	unsigned long builds_done, builds_cached;
	unsigned long measures_done, measures_cached;
};

/*
 * Starts a session for study s (which must have a measure command and a
 * measured objective). kind names the command ("blame"), key is any string
 * that identifies the question (e.g. the two flag strings), so that the
 * same question reuses the same directory: results (NULL) defaults to
 * results/<study>/<kind>-<hash of study and key>. repeats and layout start
 * at the given values (0 for layout: the study's layout.samples).
 * 0, or -1 with a message. Release with probe_release().
 */
int probe_init(struct probe *out, const struct study *s, const char *kind,
	       const char *key, const char *results, unsigned repeats, unsigned layout);
void probe_release(struct probe *p);

/*
 * Builds and measures every flag string of flags[0..nflags) at every
 * revision of revs[0..nrevs) (nrevs 0: the study's rev), with the
 * session's current N and K. Duplicate flag strings (the same
 * configuration id) must not be passed. On success fills out (release with
 * run_result_release()): out->configs[c * max(nrevs, 1) + r] is flags[c] at
 * revs[r]; a variant that failed to build or measure has status other than
 * "ok". Returns 0, also when interrupted (out->interrupted: stop and let
 * the user rerun); -1 with a message on an error that stopped the run.
 */
int probe_measure(struct probe *p, struct run_result *out, const char *const *flags,
		  size_t nflags, const char *const *revs, size_t nrevs);

/*
 * b against a on the session's judged objective: fills t by
 * stats_compare_clustered() at 95% and returns the verdict of tuner
 * compare: +1 when b is significantly better (by the objective's goal),
 * -1 when significantly worse, 0 when not significant (stats_significant()
 * at 0.05) or either side is not "ok". t->layout_unreplicated tells that
 * the test saw run noise only (K = 1).
 */
int probe_judge(struct stats_test *t, const struct probe *p, const struct config_result *a,
		const struct config_result *b);

#endif
