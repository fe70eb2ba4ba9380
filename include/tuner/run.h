/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run: a study from configurations to results.
 *
 * run_study() resolves and exports the source, opens (or resumes) the
 * journal, asks the search strategy for configurations, and schedules for
 * each configuration and layout seed one build job (on N build slots) and
 * then its measurements (one queue per testbed, one measurement at a time
 * per testbed; lab.mode split sends each run to one testbed, all to every
 * one, and run_lab.c deploys, waits for ready, reboots and recovers each
 * testbed as docs/testbeds.md says). Everything that finishes is in the journal before the next
 * step; what the journal already holds is neither rebuilt nor re-measured.
 * Afterwards it summarizes every configuration over its layout seeds,
 * testbeds and repeats and computes the noise-aware Pareto front
 * (pareto_front_noisy() at 95%). With build.applied, it then warns,
 * through run_opts.report (struct run_reporter: the library prints
 * nothing), once per configuration, about every requested flag that was
 * not in effect in all of its builds' compiler command lines (applied.h),
 * and about checks that found no lines.
 *
 * Measurements go in rounds, so configurations interleave on a testbed
 * (A B C A B C ...) and drift hits all alike: each round measures every
 * build that needs one more run once, in configuration order (a
 * configuration's layout-seed builds one after the other), on every
 * testbed (split: across the testbeds); the next round is queued as soon
 * as a testbed has nothing queued. With lab.order: builds a round takes
 * all of a build's runs still owed, back to back (one deploy each). While builds are still running, a round takes the builds that
 * are done, up to measure.repeats.min runs each.
 *
 * Racing (measure.repeats: {min: N, max: M}, N < M): once every build is
 * done and has N runs on every testbed, the run goes round by round,
 * k = N, N+1, ..., M-1. Before round k every configuration still racing
 * has exactly k runs per build and testbed (split: per build); the front is computed from
 * them (configurations that stopped earlier keep their runs), and a racing
 * configuration stops when its verdict is settled (struct pareto_verdict):
 *   - it is infeasible by its estimates (over a hard limit, or failed);
 *   - it is significantly dominated (every objective significantly or
 *     exactly at least as good in some feasible configuration, one
 *     better; Welch's t at alpha 0.05 on the samples, or on the
 *     layout-seed means with layout.samples >= 2);
 *   - or it is on the front and settled there: no feasible configuration
 *     could still come to dominate it (against each it is significantly or
 *     exactly better in some objective), and it could not itself still
 *     come to dominate another configuration on the front.
 * The others get round k (run index k on each build and testbed). After
 * round M-1 whatever still races stops at M runs. A stopped configuration
 * stays stopped, and its verdict stands in the final front (settled on
 * the front: on it; dominated: off it), which decides the others. The rule reads only the journal's runs 0..k-1, so a rerun
 * replays the same decisions from the journal and continues the race
 * where it stopped, measuring nothing twice.
 */
#ifndef TUNER_RUN_H
#define TUNER_RUN_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "analysis/applied.h"
#include "tuner/stats.h"
#include "tuner/study.h"

/*
 * What a run says while it works, for the caller to show: the library
 * itself prints nothing. status: the one-line status, at most every 50 ms
 * (force: a final one; text NULL: the run is done with it, clear it).
 * note: a line to keep ("STUDY changed since the journal was started"),
 * without a "tuner: " prefix. Either may be NULL; arg is passed along.
 */
struct run_reporter {
	void (*status)(void *arg, const char *text, int force);
	void (*note)(void *arg, const char *line);
	void *arg;
};

struct run_opts {
	unsigned jobs;        /* build slots; 0 = cpu_count() */
	int has_budget;
	uint64_t budget;      /* overrides the study's */
	int has_seed;
	uint64_t seed;        /* overrides the study's */
	int dirty;            /* build the work tree with uncommitted changes */
	const char *results;  /* results directory; NULL: results/<study> */
	const struct run_reporter *report; /* NULL: nothing said */
	/*
	 * tuner compare --a-rev/--b-rev: build every configuration from each
	 * of these revisions of the study's source (nrevs 0: the study's
	 * rev). Configuration c of the strategy becomes configurations
	 * c * nrevs + r, whose ids hash the flags' id with the commit.
	 */
	const char *const *revs;
	size_t nrevs;
	/* Builds that failed are built again and failed measurements taken
	 * again (until measure.repeats.min succeed); otherwise a failure is
	 * a result, kept. */
	int retry_failed;
	/* The configurations to run, as picks (npicks rows of the space's
	 * ndims value indices) instead of the study's strategy: what
	 * run_search() gives each batch. A pick given again is measured again:
	 * its r-th repetition is built with layout.samples more layout seeds
	 * (run_search()'s racing). */
	const size_t *picks;
	size_t npicks;
	int has_time;
	double time;          /* seconds: overrides search.time */
	int has_race;
	int race;             /* overrides search.race */
};
#define RUN_OPTS_INIT { .jobs = 0 }

/* Every sample of one objective and the layout seed of its build. */
struct run_samples {
	double *x;
	unsigned *layout_seed;
	size_t n;
};

struct config_result {
	char id[17];
	char commit[41];        /* the source commit it was built from */
	char *flags;
	int pgo;
	const char *status;     /* "ok", a build status, "measure-failed",
	                           "incomplete" (static string) */
	size_t nbuilds;
	char **build_dirs;      /* nbuilds */
	struct summary *obj;    /* nobjectives */
	double *value;          /* nobjectives: trimmed means used for the front */
	/* nobjectives: measurement (within a build) and layout (between the
	 * layout-seed builds) spread, stats_layout_spread() */
	struct stats_spread *spread;
	struct run_samples *samples; /* nobjectives */
	int feasible, on_front;
	/* On the front only because the configurations that dominate its
	 * values do so within noise: tied_with[0..ntied) are their ids. */
	int tied;
	size_t ntied;
	char (*tied_with)[17];
	unsigned runs;          /* raced: runs per build and testbed it got */
	const char *race;       /* raced: "front", "dominated", "infeasible"
	                           (settled before repeats.max), "max", or
	                           "stopped" (interrupted); NULL otherwise */
	/* build.applied: its builds' checks merged (applied_merge); checked
	 * 0 when none was checked */
	struct applied applied;
	/* The configuration whose build has the same code (codeid.h) and
	 * was measured for it, its samples shared; "" when none. */
	char same_code_as[17];
	/* nbuilds, each build's code id ("" unknown: not built, or an
	 * artifact it could not read) and the configuration whose build was
	 * measured for it, as an index into run_result.configs: its own,
	 * another's when it is that one's twin (measure.same_code: share;
	 * two revisions of one flag string have one id, so an index),
	 * SIZE_MAX when it was not built */
	char (*build_code)[41];
	size_t *build_lead;
};

/* build.equivalent: skip: a prediction that GCC ignores some kinds of
 * switch, and what building came to. */
struct run_prediction {
	char *ignored;       /* the kinds, e.g. "-falign-functions" */
	int pgo;             /* for PGO builds (1) or the others (0) */
	int checked;         /* 1 confirmed, -1 refuted, 0 no pair built yet */
	char twin[17], lead[17]; /* checked: the configurations built to check it */
	unsigned long skipped;   /* builds not made for it (the journal's) */
};

/* train.share: check: a kind of switch predicted to leave the profile as
 * it is, and what training came to. */
struct run_share {
	char *kind;          /* e.g. "-freorder-blocks" */
	int checked;         /* 1 confirmed, -1 refuted, 0 no pair trained yet */
	char twin[17], lead[17]; /* checked: the configurations that trained it */
};

/*
 * The testbeds as a blocking factor, per objective: how much each
 * testbed's samples differ from the other testbeds' samples of the same
 * configurations, on a log scale (a router 3% slower than the others:
 * -0.03). Where an F test finds the testbeds differ (p < 0.05), each
 * sample is taken back by its testbed's shift before the statistics, so
 * that which testbed measured a configuration does not decide its place.
 */
struct run_block {
	size_t nobjectives, ntestbeds;
	double *shift;  /* [o * ntestbeds + t]; 0 for a testbed without samples */
	size_t *n;      /* [o * ntestbeds + t]: the samples it rests on */
	double *p;      /* [o]: P of no testbed effect; NaN: not tested (one
	                   testbed, a size, values not all > 0, too few) */
	int *adjusted;  /* [o]: the samples were taken back */
};
void run_block_release(struct run_block *b);

/* A testbed's part in the results (journal records of this results
 * directory; quarantined: in this run). */
struct run_testbed {
	char *name;
	unsigned long measured, failed;  /* current measurement records */
	unsigned long deploys, boot_failures, recoveries, faults, reboots;
	int quarantined;
	char *why;                       /* quarantined: the last fault */
};

struct run_result {
	char *results_dir;      /* absolute */
	char commit[41];        /* of the (first) source revision */
	char tree[41];
	int dirty, worktree_dirty;
	int interrupted;
	size_t nconfigs;
	struct config_result *configs;
	size_t nobjectives;     /* the study's, for the arrays above */
	size_t nfront;
	/* nobjectives: 1 when the front compared the objective under noise
	 * (see pareto_front_noisy()), 0 when exactly */
	int *noisy;
	int raced;              /* measure.repeats min < max */
	/* raced: measurements the raced configurations got, and what
	 * repeats.max for each of them would have taken */
	unsigned long race_measures, race_full;
	/* counts for this run */
	unsigned long builds_done, builds_cached, builds_failed;
	unsigned long builds_skipped; /* build.equivalent: not built, as predicted */
	unsigned long measures_done, measures_cached;
	struct run_prediction *predictions; /* build.equivalent: skip */
	size_t npredictions;
	struct run_share *shares; /* train.share: check */
	size_t nshares;
	unsigned long trainings_shared; /* PGO builds that used another's
	                                   profile (the journal's) */
	double wall, cpu_self;  /* seconds: wall, and the tuner's own CPU */
	/* Provenance (pareto.json): the first line of $CC --version, as the
	 * build keys have it (malloced; NULL when the run stopped before),
	 * and when the run ended. */
	char *compiler;
	time_t ended;
	/* The testbeds (the study's, in order) and their effect. */
	struct run_testbed *testbeds;
	size_t ntestbeds;
	struct run_block block;
};

/*
 * Runs study s. On success (also when interrupted: out->interrupted) fills
 * out, which the caller releases with run_result_release(). -1 with message
 * on an error that stopped the run (bad revision, unwritable results, ...);
 * a revision error carries the study file location.
 */
int run_study(struct run_result *out, const struct study *s, const struct run_opts *opts);
/*
 * Runs study s with its search strategy a batch at a time (run_search.c):
 * each batch the strategy proposes (strategy.h) is added to the plan and
 * run by run_study(), which takes what the journal holds and builds and
 * measures the rest; the strategy is told every configuration's means,
 * standard errors and failures, and proposes the next batch, until the
 * budget is spent, the strategy is done or search.time (opts->time) has
 * passed (the batch under way is finished). The progress line names the
 * batch and the hypervolume of the feasible measured front. A rerun after
 * a crash replays the batches from the journal, so the strategy proposes
 * what it proposed before and goes on where the run stopped. Fills out as
 * run_study() does (the last batch's result, the counts of all); caller
 * releases with run_result_release(). Used for the adaptive strategies and
 * whenever a time budget is set; otherwise run_study() plans at once.
 */
int run_search(struct run_result *out, const struct study *s, const struct run_opts *opts);

/* What strategy ops (state st) learnt from the trail of a search of study
 * s, one line per objective ("speed: -fa +3.1%, ..."), or NULL when it has
 * nothing to say (no describe, nothing proposed). Caller frees with
 * free(). */
struct strategy_ops;
struct strategy_trail;
char *run_search_describe(const struct strategy_ops *ops, void *st, const struct study *s,
			  struct strategy_trail *trail);

/* The log of testbed's lifecycle (deploy, ready, reboot, recover) in a
 * results directory: <results>/testbeds/<testbed>.log. Caller frees. */
char *run_testbed_log(const char *results_dir, const char *testbed);
void run_result_release(struct run_result *r);

/* Resolves the study's source revision into commit (41 bytes) without
 * exporting anything. 0, or -1 with a message located in the study file. */
int run_resolve_source(char commit[41], const struct study *s);

#endif
