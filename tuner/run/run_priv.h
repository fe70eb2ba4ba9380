/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_priv: what the parts of the run module share, private to it: the
 * run's state (struct run_ctx, its units and testbeds) and each file's
 * functions, the files in layers (below).
 */
#ifndef TUNER_RUN_PRIV_H
#define TUNER_RUN_PRIV_H

#include <pthread.h>
#include <stdatomic.h>

#include "tuner/gitsrc.h"
#include "tuner/journal.h"
#include "tuner/lab.h"
#include "analysis/pareto.h"
#include "sys/pool.h"
#include "tuner/run.h"
#include "tuner/space.h"

/* Confidence level of every test the run makes (alpha 0.05). */
#define RUN_LEVEL 0.95

struct run_ctx;

/* One configuration built with one layout seed. */
struct unit {
	struct config cfg;
	unsigned layout_seed; /* 0 .. layout.samples - 1 */
	char key[17];
	char *dir;
	const struct gitsrc *src;         /* the source revision it is built from */
	const struct build_record *build; /* owned by the journal; NULL until built */
	atomic_int built;  /* build (or its lookup) finished: build is set */
	int noticed;       /* the scheduler has seen it built (main thread) */
	unsigned *next;    /* per slot (run_slot()): next run index to submit
	                      (main thread) */
	unsigned boot_base; /* --retry-failed: the journal's boot failures of
	                       it before this run (run_lab.c ignores them) */
	/* Lab: the testbeds it did not come up on in this run (malloced,
	 * per testbed; under ctx->lab_lock), and whether it is recorded as a
	 * failed deploy (then its other runs are dropped). */
	unsigned char *no_boot_on;
	atomic_int deploy_failed;
	struct run_ctx *ctx;
	/*
	 * Builds whose code is the same (codeid_file()) are measured once: the
	 * first of them in configuration order leads, the others are its
	 * twins and share its samples, pooled with any they had. Main
	 * thread, set when noticed (built fine):
	 */
	char code[41];     /* "" unknown: never shared */
	struct unit *lead; /* the unit measured for it: itself, or its lead */
	struct unit **twins; /* lead only: the others, ntwins of them */
	size_t ntwins, twins_alloc;
	unsigned *pooled;  /* lead only, per testbed: the twins' own runs */
	/* Per testbed: its records that do not count as runs (failed ones
	 * that --retry-failed takes again); next[t] - uncounted[t] do. */
	unsigned *uncounted;
	/*
	 * build.equivalent: skip. The first unit before it that GCC is
	 * predicted to build alike (same source, layout seed and PGO, equal
	 * gccopt_predicted() forms), NULL when none; the words it ignores
	 * (malloced); its prediction, ctx->preds[pred]; verifying: its build
	 * is the one checking the prediction (its worker only).
	 */
	struct unit *pred_lead;
	char *ignored;
	size_t pred;
	int verifying;
	/*
	 * train.share: check. The first unit before it predicted to train
	 * the same profile (gccopt_profile_leads(): same source and layout
	 * seed, PGO), NULL when none; the kinds of switch it differs from it
	 * in (indices into ctx->late, nprof_kinds of them, malloced);
	 * verifying: its own training checks them (its worker only). prof_trained: 0 not known yet, 1 trained by its own build
	 * (prof_hash holds the profile's tree_hash()), -1 not (failed before,
	 * used another's profile, not built); set once, by its build job.
	 */
	struct unit *prof_lead;
	size_t *prof_kind, nprof_kinds;
	int prof_verifying;
	atomic_int prof_trained;
	char prof_hash[17];
};

/* What a prediction came to: not checked yet, or checked by building a
 * pair, the same code or not. */
enum pred_state { PRED_UNCHECKED, PRED_CONFIRMED, PRED_REFUTED };

/* train.share: check: one kind of switch predicted to leave the profile
 * as it is (gccopt_profile_form()), and what training came to. Under
 * ctx->pred_lock. */
struct late_kind {
	char *kind;      /* e.g. "-freorder-blocks" (malloced) */
	enum pred_state state;
	const struct unit *twin, *lead; /* the pair that decided it */
	unsigned verifying; /* trainings checking it now */
};

/* One prediction: that GCC ignores the kinds of switch in `ignored` in
 * builds with (pgo) or without PGO. Under ctx->pred_lock. */
struct prediction {
	char *ignored;   /* the kinds, e.g. "-falign-functions" (malloced) */
	int pgo;
	enum pred_state state;
	const struct unit *twin, *lead; /* the pair that decided it */
	unsigned verifying; /* builds checking it now */
};

struct run_ctx {
	const struct study *s;
	struct journal *j;
	struct pool *pool;
	struct gitsrc *srcs; /* the source revisions: one, or run_opts.revs */
	size_t nsrcs;
	unsigned jobs_per_build;
	char *cache_dir; /* <results>/cache: TUNER_CACHE of every build */
	const char *results_dir; /* the run's (run_result.results_dir) */
	int retry_failed; /* run_opts.retry_failed */
	/* measure_key() of this study: only measurements under it count; a
	 * record without one (older tuners) counts when the study file is
	 * the one the journal was started with (!study_changed). */
	char mkey[17];
	int study_changed;
	/* The testbeds (run_lab.c); measurements are counted in
	 * study_slots() slots: one per testbed (lab.mode all) or one for all
	 * (split). */
	struct tb_state *tb;
	pthread_mutex_t lab_lock; /* notes */
	char **notes;             /* for the main thread to say (run_lab_say_notes()) */
	size_t nnotes, anotes;
	atomic_ulong builds_done, builds_cached, builds_failed, builds_running;
	atomic_ulong measures_done, measures_cached, measures_planned;
	atomic_ulong measure_ms; /* wall time of this run's measurements */
	atomic_int error; /* a system error stopped a job (run_fail()) */
	char *first_error; /* its message, the first one's (under err_lock) */
	pthread_mutex_t err_lock;
	struct unit *units; /* all of the run's, nunits of them */
	size_t nunits;
	/* The configurations, in order (run_plan()): configuration c's builds
	 * are units[cfg_first[c] .. cfg_first[c] + cfg_units[c]), its layout
	 * seeds 0, 1, ... in turn: layout.samples of them, times the times a
	 * search proposed it (run_plan_rounds()). max_units: the most any
	 * configuration has. */
	size_t nconfigs, *cfg_first, *cfg_units, max_units;
	size_t twins;       /* units measured as another (share()); main thread */
	/* build.equivalent: skip: the predictions units refer to */
	struct prediction *preds;
	size_t npreds;
	pthread_mutex_t pred_lock;
	atomic_ulong builds_skipped; /* not built: recorded as their lead's */
	/* train.share: check: the kinds units' prof_kinds name */
	struct late_kind *late;
	size_t nlate;
	/* Racing (NULL otherwise), per configuration: runs per build and
	 * testbed, and how its race ended (struct config_result). */
	unsigned *race_runs;
	const char **race_verdict;
};

/* A measurement to take: run `run` of unit u, counted in slot `slot`,
 * on testbed `testbed`. */
struct mjob {
	struct unit *u;
	size_t slot, testbed;
	unsigned run;
};

/*
 * A testbed during a run. Its lifecycle fields are its queue's one
 * worker's; quarantined and load are read by all, the counts at the end.
 */
struct tb_state {
	const char *name;     /* the study's */
	struct lab_env env;   /* its env, expanded */
	char *log;            /* <results>/testbeds/<name>.log: its lifecycle */
	char image[17];       /* the build it holds, as journaled; "" unknown */
	char held[17];        /* image when the run started (never changes) */
	int up;               /* ready answered since it last booted, this run */
	int used;             /* measured since it last booted: reboot first */
	unsigned fails;       /* faults in a row */
	atomic_int quarantined;
	atomic_uint load;     /* measurements queued on it or running */
	atomic_uint deploys, recoveries, faults, no_boots; /* this run */
};

/* What getting a testbed ready for a build came to. */
enum lab_outcome {
	LAB_READY,   /* measure */
	LAB_FAULT,   /* the testbed's fault (counted, recovered): redo elsewhere */
	LAB_MOVE,    /* u did not come up on this testbed: try another (split) */
	LAB_NO_BOOT, /* the build did not come up boot_attempts times: a failed
	                deploy of the build */
	LAB_CANCEL,  /* the run stops */
};

/*
 * The files of the run module, as layers: each uses only those below it.
 *
 *   run_search.c, probe.c   run.h's run_search(), probe_*(): run_study()
 *   run.c                   run_study(): a run from end to end
 *   run_sched.c             the scheduler: builds, rounds, the race
 *   run_jobs.c              the pool's jobs: a build, a measurement
 *   run_lab.c               the testbeds' lifecycle
 *   run_predict.c           build.equivalent: skip
 *   run_share.c             train.share: check
 *   run_front.c             samples, estimates, the front, the summary
 *   run_testbeds.c          the testbeds as a blocking factor, their part
 *   run_records.c           a unit's records in the journal, its samples
 *   run_plan.c              the units
 *   run_ctx.c               what every part shares: reporting, stopping
 */

/* ---- run_ctx.c ---- */

/* A note through rep (NULL, or no note callback: dropped). */
void run_note(const struct run_reporter *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The status text through rep (NULL: done with it), if it takes one. */
void run_status(const struct run_reporter *rep, const char *text, int force);
/* Whether the study has an objective that is measured (not a size). */
int run_has_measure(const struct study *s);
/* A job could not do or record its work: keeps this thread's message if
 * it is the first (ctx->first_error) and stops the run (ctx->error). */
void run_fail(struct run_ctx *ctx);
/* Sleeps a little (20 ms): jobs that wait for another poll. */
void run_nap(void);
/* The run is stopping: cancelled, or a job failed (ctx->error). */
int run_stopped(const struct run_ctx *ctx);
/* Waits until unit v is built (or the run stops: -1). */
int run_wait_built(struct unit *v);

/* ---- run_plan.c ---- */

/* Plans the units: configurations from the strategy, times source
 * revisions, times layout seeds, one unit per distinct build key
 * (*out malloced, the caller frees each unit's fields and it), and sets
 * ctx->nconfigs, cfg_first, cfg_units (malloced; the caller frees them)
 * and max_units. */
int run_plan(struct unit **out, size_t *n, struct run_ctx *ctx, const struct run_opts *opts,
	     const char *compiler, const char *builds_root);
/*
 * Which time each of picks[0 .. n) (rows of nd value indices) is proposed:
 * round[i] = how many of picks[0 .. i) are the same pick. A pick's round r
 * is built with layout seeds r * layout.samples .. (r + 1) *
 * layout.samples - 1 (run_plan()), and is observed on those alone
 * (run_search()). round: n, the caller's.
 */
void run_plan_rounds(unsigned *round, const size_t *picks, size_t n, size_t nd);
/* What two units must share to build alike but for their flags: their
 * source revision and layout seed, as one number. */
unsigned long run_unit_group(const struct run_ctx *ctx, const struct unit *u);

/* ---- run_records.c ---- */

/* The slot testbed t's measurements count in: one per testbed (lab.mode
 * all) or one for all (split). */
size_t run_slot(const struct run_ctx *ctx, size_t t);
/* The testbed whose records count in slot (NULL: every testbed's). */
const char *run_slot_testbed(const struct run_ctx *ctx, size_t slot);
/* Whether record r was made by this study's measurement as it is now
 * (ctx->mkey; see measure_key()). */
int run_record_current(const struct run_ctx *ctx, const struct measure_record *r);
/* Records in the journal of the run's builds that no longer count
 * (!run_record_current()): what made them has changed. */
size_t run_count_stale(struct run_ctx *ctx);
/* The journal's current measurement records of u in slot t (run_slot():
 * a testbed's, or every testbed's; *recs malloced, free() it; the records
 * are the journal's), and how many succeeded. */
size_t run_records(const struct unit *u, size_t t, const struct measure_record ***recs,
		   size_t *ok);
/* Whether records recs[0..n) (run_records()) hold a failed deploy: the
 * build did not come up on the testbeds. */
int run_deploy_failed(const struct measure_record *const *recs, size_t n);
/* Whether record r, among records of which ok succeeded, counts as a
 * result: a failure does until measure.repeats.min have succeeded (taken
 * again with --retry-failed). */
int run_record_counts(const struct study *s, const struct measure_record *r, size_t ok);
/* Measurements of u on testbed t that count as results (run_record_counts()). */
size_t run_count_measures(struct unit *u, size_t t);
/* Records of u on testbed t (the next run index), and how many of them
 * the scheduler counts as done: run_count_measures(), or only the ones
 * that succeeded with --retry-failed. */
size_t run_count_records(struct unit *u, size_t t, size_t *done);
/* Measurements on testbed t of u and the units sharing them (its lead and
 * the lead's twins, once noticed; u alone before). */
size_t run_count_shared(struct unit *u, size_t t);
/* u has at least `want` measurements on every testbed, its twins' counted
 * (a build job asks before its unit is noticed: then its own). */
int run_measured(struct unit *u, unsigned want);
/* u has at least measure.repeats.min measurements on every testbed. */
int run_measures_complete(struct unit *u);
/* Calls fn(value, testbed index (SIZE_MAX: a size, or a testbed the study
 * no longer names), arg) for each sample of u on objective o that counts,
 * runs < limit, its twins' pooled. */
void run_each_sample(struct run_ctx *ctx, struct unit *u, const struct objective *o,
		     unsigned limit, void (*fn)(double v, size_t testbed, void *arg), void *arg);

/* ---- run_testbeds.c ---- */

/* The testbeds' effects over the configurations' samples (runs as for
 * run_front()) into out (release with run_block_release()). */
void run_block(struct run_block *out, struct run_ctx *ctx, struct unit *units,
	       size_t nconfigs, const unsigned *runs);
/* Fills out->testbeds from the journal and ctx->tb. */
void run_summarize_testbeds(struct run_result *out, struct run_ctx *ctx, struct unit *units,
			    size_t nunits);

/* ---- run_front.c ---- */

/*
 * The configurations' samples, point estimates and noise-aware front.
 * Config c owns units[c * L .. c * L + L). runs[c] (NULL: no limit) caps
 * the runs used per build and testbed (the race's view of round runs[c]);
 * a config with skip[c] set (NULL: none) gets NaN values, so it is
 * infeasible. Fills out[0..nconfigs) (pareto_verdicts_release()) and
 * noisy[0..nobjectives) and returns the number on the front.
 */
size_t run_front(struct pareto_verdict *out, int *noisy, struct run_ctx *ctx,
		 struct unit *units, size_t nconfigs, const unsigned *runs,
		 const int *skip);
/* Fills out->configs, out->nconfigs and out->nfront from the journal. */
void run_summarize(struct run_result *out, struct run_ctx *ctx,
		   struct unit *units, size_t nunits);
/* build.applied: says, through rep, the summarized configurations' applied-flag
 * problems, once per configuration, and a note for builds from the journal
 * that were made before the check was set. */
void run_warn_applied(const struct run_result *r, struct run_ctx *ctx,
		      struct unit *units, size_t nunits, const struct run_reporter *rep);

/* ---- run_share.c ---- */

/* train.share: check: each PGO unit's predicted profile lead and kinds. */
void run_predict_profiles(struct run_ctx *ctx, struct unit *units, size_t n);
/*
 * Whether unit u (with a profile lead) is to use its lead's profile: 1
 * with *dir (malloced: free()) its lead's profile directory, when every
 * kind u differs in is confirmed and the lead trained; 0 when u trains
 * its own (a kind refuted, or u checks the unchecked ones: then
 * u->prof_verifying); -1 when the run stopped. Waits while another
 * training checks them, and for the lead's training.
 */
int run_profile_share(struct unit *u, char **dir);
/* u's build job is done with it: records whether u trained (from its
 * journal record, if any) and, if u checked kinds, lets the pair decide
 * them. */
void run_profile_done(struct unit *u);
/* build_request.on_trained for a unit: its profile's hash. */
void run_profile_trained(void *unit, const char *hash);
/* Fills out->shares from ctx->late, after the pool is done. */
void run_summarize_shares(struct run_result *out, struct run_ctx *ctx);

/* ---- run_predict.c ---- */

/*
 * build.equivalent: skip. Gives each unit that GCC is predicted to build
 * as an earlier one (equal gccopt_predicted() forms, same source, layout
 * seed and PGO) its lead and its prediction: one per kinds of ignored
 * switch and PGO, which the first pair built confirms or refutes.
 */
void run_predict(struct run_ctx *ctx, struct unit *units, size_t n);
/*
 * Whether unit u (with a predicted lead) is to be built: 1 when its
 * prediction is refuted, or not checked and no build is checking it (u
 * then checks it: u->verifying), or its lead did not build fine; 0 when
 * it was recorded as its lead's build (confirmed); -1 when the run
 * stopped. Waits while another build checks the prediction, and for the
 * lead.
 */
int run_predict_needed(struct unit *u);
/* After u's build checked its prediction: waits for the lead, then lets
 * the pair decide it. */
void run_predict_checked(struct unit *u);
/* Fills out->predictions from ctx->preds, after the pool is done. */
void run_summarize_predictions(struct run_result *out, struct run_ctx *ctx);

/* ---- run_lab.c ---- */

/* Sets up ctx->tb (after the journal is open): each
 * testbed's env expanded (-1 with message when a ${NAME} is unset), what
 * it holds from the journal, <results>/testbeds/ for their logs. */
int run_lab_start(struct run_ctx *ctx, const char *results_dir);
void run_lab_stop(struct run_ctx *ctx);
/* A testbed for run `run` of u in slot: not quarantined, not `avoid`
 * (SIZE_MAX: none) when another will do; split: the testbed that held
 * u's build at the start, else the runs of a build rotate over the
 * testbeds; with lab.order rounds the least loaded takes over when the
 * one in turn has two more queued. SIZE_MAX when every testbed is
 * quarantined. */
size_t run_lab_pick(struct run_ctx *ctx, size_t slot, const struct unit *u, unsigned run,
		    size_t avoid);
/* The testbed that held u's build when the run started, or SIZE_MAX. */
size_t run_lab_held(const struct run_ctx *ctx, const struct unit *u);
/* run_lab_pick() found no testbed for a run: in split mode the run stops
 * ("every testbed is quarantined"); in all mode that testbed's share is
 * lost and the run goes on. */
void run_lab_none_left(struct run_ctx *ctx);
/* Gets testbed t ready to measure u (its worker): deploy where it does not
 * hold u's build, ready, reboot between runs; recovers it when a step
 * fails. env: u's measurement environment. LAB_NO_BOOT sets *why
 * (malloced: free()). */
enum lab_outcome run_lab_prepare(struct run_ctx *ctx, size_t t, struct unit *u,
				 char **env, char **why);
/* A fault of t's during a measurement of build (NULL: none): counted,
 * journaled, t recovered unless quarantined now. */
void run_lab_fault(struct run_ctx *ctx, size_t t, const char *build, const char *why,
		   char **env, const char *cwd);
/* One ready try on t: 1 answers (or no ready command), 0 not. */
int run_lab_probe(struct run_ctx *ctx, size_t t, char **env, const char *cwd);
/* t took a measurement: its faults in a row end; reboot before the next. */
void run_lab_measured(struct run_ctx *ctx, size_t t);
/* Says (main thread) what the testbeds' workers noted since the last call. */
void run_lab_say_notes(struct run_ctx *ctx, const struct run_reporter *rep);

/* ---- run_jobs.c ---- */

/* Pool jobs: arg is a struct unit (not freed) or a malloced struct mjob
 * (freed). */
void run_build_job(void *arg, int cancelled);
void run_measure_job(void *arg, int cancelled);
/* Queues m (m->testbed set) as a run_measure_job() on its testbed's
 * queue. */
void run_measure_submit(struct run_ctx *ctx, struct mjob *m);

/* ---- run_sched.c ---- */

/* Builds and measures ctx->units (their builds already submitted to the
 * pool), races, says the status through rep; sets out->raced and the
 * race's counts. */
void run_schedule(struct run_result *out, struct run_ctx *ctx, const struct run_reporter *rep,
		  double start);

#endif
