/*
 * run: a study from configurations to results.
 *
 * run_study() resolves and exports the source, opens (or resumes) the
 * journal, asks the search strategy for configurations, and schedules for
 * each configuration and layout seed one build job (on N build slots) and
 * then its measurements (one queue per testbed, one measurement at a time
 * per testbed, so configurations interleave: A B A B ...). Everything that
 * finishes is in the journal before the next step; what the journal already
 * holds is neither rebuilt nor re-measured. Afterwards it summarizes every
 * configuration over its layout seeds, testbeds and repeats and computes the
 * Pareto front.
 */
#ifndef TUNER_RUN_H
#define TUNER_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "tuner/stats.h"
#include "tuner/study.h"

struct run_opts {
	unsigned jobs;        /* build slots; 0 = cpu_count() */
	int has_budget;
	uint64_t budget;      /* overrides the study's */
	int has_seed;
	uint64_t seed;        /* overrides the study's */
	int dirty;            /* build the work tree with uncommitted changes */
	const char *results;  /* results directory; NULL: results/<study> */
	int progress;         /* 1: status line (TTY), 2: plain lines, 0: none */
};
#define RUN_OPTS_INIT { 0, 0, 0, 0, 0, 0, NULL, 0 }

struct config_result {
	char id[17];
	char *flags;
	int pgo;
	const char *status;     /* "ok", a build status, "measure-failed",
	                           "incomplete" (static string) */
	size_t nbuilds;
	char **build_dirs;      /* nbuilds */
	struct summary *obj;    /* nobjectives */
	double *value;          /* nobjectives: trimmed means used for the front */
	int feasible, on_front;
};

struct run_result {
	char *results_dir;      /* absolute */
	char commit[41];
	char tree[41];
	int dirty, worktree_dirty;
	int interrupted;
	size_t nconfigs;
	struct config_result *configs;
	size_t nfront;
	/* counts for this run */
	unsigned long builds_done, builds_cached, builds_failed;
	unsigned long measures_done, measures_cached;
	double wall, cpu_self;  /* seconds: wall, and the tuner's own CPU */
};

/*
 * Runs study s. On success (also when interrupted: out->interrupted) fills
 * out, which the caller releases with run_result_release(). -1 with message
 * on an error that stopped the run (bad revision, unwritable results, ...);
 * a revision error carries the study file location.
 */
int run_study(struct run_result *out, const struct study *s, const struct run_opts *opts);
void run_result_release(struct run_result *r);

/* Resolves the study's source revision into commit (41 bytes) without
 * exporting anything. 0, or -1 with a message located in the study file. */
int run_resolve_source(char commit[41], const struct study *s);

#endif
