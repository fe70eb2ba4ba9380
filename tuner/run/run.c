/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run: see include/tuner/run.h */
#include "tuner/run.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tuner/measure.h"
#include "tuner/runner.h"
#include "tuner/uarch_score.h"
#include "tuner/util.h"
#include "run_priv.h"

static double cpu_self(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* First line of `$CC --version` (CC defaults to cc): part of the cache key,
 * so a compiler upgrade rebuilds. */
static char *compiler_version(void)
{
	const char *cc = getenv("CC");
	const char *argv[] = { cc && *cc ? cc : "cc", "--version", NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner r = RUNNER_INIT;
	char *v;

	o.argv = argv;
	o.capture = 1;
	o.timeout = 30;
	if (runner_run(&r, &o) < 0 || !r.result.out) {
		runner_release(&r);
		return xstrdup("unknown");
	}
	v = xstrndup(r.result.out, strcspn(r.result.out, "\n"));
	runner_release(&r);
	return v;
}

static char *results_dir(const struct study *s, const struct run_opts *opts)
{
	char *dir = opts->results ? xstrdup(opts->results) : xasprintf("results/%s", s->name);
	char *abs;

	if (mkdir_p(dir) < 0) {
		free(dir);
		return NULL;
	}
	abs = realpath(dir, NULL);
	if (!abs)
		tn_error_errno("cannot resolve '%s'", dir);
	free(dir);
	return abs;
}

/* Gives a source error the location of the study key it comes from. */
static int source_error(const struct study *s, int ret)
{
	struct study_loc at = ret == GITSRC_EBADREV ? s->source_rev_loc : s->source_repo_loc;
	char *msg;

	if (ret != GITSRC_EBADREV && ret != GITSRC_ENOREPO && ret != GITSRC_ENOPATH)
		return -1;
	msg = xstrdup(tn_errmsg());
	tn_input_error_at(s->path, at.line, at.col, "%s", msg);
	free(msg);
	return -1;
}

/* Resolves (results NULL) or exports the study's source at rev (NULL: the
 * study's). */
static int source(struct gitsrc *out, const struct study *s, const char *rev,
		  const char *results, int dirty)
{
	struct gitsrc_opts go = GITSRC_OPTS_INIT;
	char *repo = s->source_repo[0] == '/' ? xstrdup(s->source_repo)
					      : xasprintf("%s/%s", s->dir, s->source_repo);
	char *dest = results ? xasprintf("%s/src", results) : NULL;
	int ret;

	go.repo = repo;
	go.rev = rev ? rev : s->source_rev;
	go.path = s->source_path;
	go.dest_root = dest;
	go.dirty = dirty;
	ret = results ? gitsrc_export(out, &go) : gitsrc_resolve(out->commit, &go);
	free(repo);
	free(dest);
	return ret < 0 ? source_error(s, ret) : 0;
}

int run_resolve_source(char commit[41], const struct study *s)
{
	struct gitsrc g = GITSRC_INIT;
	int ret = source(&g, s, NULL, NULL, 0);

	memcpy(commit, g.commit, 41);
	return ret;
}

/* A study the uarch model scores cannot measure without the plugin: said
 * before anything runs, instead of every measurement failing (and being
 * recorded as failed). */
static int plugin_check(const struct study *s)
{
	if (!s->has_uarch || !run_has_measure(s) || !ua_plugin_missing())
		return 0;
	return tn_error("%s: measure.uarch needs the uarch plugin, %s", s->path, ua_plugin_missing());
}

/* The run's state before anything is opened: its sources to resolve, each
 * build's share of the CPUs (jobs: the build slots). */
static void ctx_init(struct run_ctx *ctx, const struct study *s, const struct run_opts *opts,
		     unsigned jobs)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->s = s;
	pthread_mutex_init(&ctx->pred_lock, NULL);
	pthread_mutex_init(&ctx->err_lock, NULL);
	ctx->nsrcs = opts->nrevs ? opts->nrevs : 1;
	ctx->srcs = xcalloc(ctx->nsrcs, sizeof(*ctx->srcs));
	for (size_t r = 0; r < ctx->nsrcs; r++)
		ctx->srcs[r] = (struct gitsrc)GITSRC_INIT;
	ctx->jobs_per_build = cpu_count() / jobs ? cpu_count() / jobs : 1;
	ctx->retry_failed = opts->retry_failed;
}

/*
 * Checks the input, resolves the sources, takes the results directory
 * (out->results_dir, locked until *lock_fd is closed), exports the sources
 * into it and opens the journal (at *journal_path, malloced). 0, or -1
 * with message.
 */
static int open_run(struct run_result *out, struct run_ctx *ctx, const struct run_opts *opts,
		    int *lock_fd, char **journal_path)
{
	const struct study *s = ctx->s;
	int changed = 0;

	/* Bad input fails before anything is created: a plan beyond the
	 * limits too. */
	if (study_check_plan(s, opts->npicks ? opts->npicks
					     : opts->has_budget ? opts->budget : s->budget,
			     ctx->nsrcs) < 0 ||
	    lab_check_env(s) < 0 || plugin_check(s) < 0)
		return -1;
	for (size_t r = 0; r < ctx->nsrcs; r++)
		if (source(&ctx->srcs[r], s, opts->nrevs ? opts->revs[r] : NULL, NULL, 0) < 0)
			return -1;
	out->results_dir = results_dir(s, opts);
	if (!out->results_dir)
		return -1;
	/* One writer: a second run would do every build and measurement
	 * again and record each twice. Held until the end. */
	if (dir_lock(lock_fd, out->results_dir) < 0)
		return -1;
	for (size_t r = 0; r < ctx->nsrcs; r++)
		if (source(&ctx->srcs[r], s, opts->nrevs ? opts->revs[r] : NULL, out->results_dir,
			   opts->dirty) < 0)
			return -1;
	memcpy(out->commit, ctx->srcs[0].commit, sizeof(out->commit));
	memcpy(out->tree, ctx->srcs[0].tree, sizeof(out->tree));
	out->dirty = ctx->srcs[0].dirty;
	out->worktree_dirty = ctx->srcs[0].worktree_dirty;

	*journal_path = xasprintf("%s/journal.jsonl", out->results_dir);
	if (journal_open(&ctx->j, *journal_path, s->name, s->hash, &changed) < 0)
		return -1;
	if (journal_torn(ctx->j))
		run_note(opts->report, "warning: %s: dropped a torn last record (an interrupted write)",
			 *journal_path);
	if (changed)
		run_note(opts->report, "note: %s changed since the journal was started; reusing what still matches",
			 s->path);
	measure_key(ctx->mkey, s);
	ctx->study_changed = changed;
	return 0;
}

/*
 * Starts the pool (jobs build slots, one queue per testbed; *workers
 * malloced) on ctx->units, with what the journal holds of them and the
 * predictions, journals the run's start and submits every build. 0, or -1
 * with message.
 */
static int start_builds(struct run_ctx *ctx, struct unit *units, size_t nunits,
			const struct run_opts *opts, unsigned jobs, unsigned **workers)
{
	const struct study *s = ctx->s;
	unsigned long known = 0;
	size_t stale;

	*workers = xcalloc(1 + s->ntestbeds, sizeof(**workers));
	(*workers)[0] = jobs;
	for (size_t t = 0; t < s->ntestbeds; t++)
		(*workers)[1 + t] = 1;
	if (pool_new(&ctx->pool, *workers, 1 + s->ntestbeds) < 0)
		return -1;
	ctx->units = units;
	ctx->nunits = nunits;
	stale = run_count_stale(ctx);
	if (stale)
		run_note(opts->report, "note: %zu recorded measurement%s of these builds were made "
			 "by another measurement (measure, deploy, ready, reboot or recover command, "
			 "testbed env, measure.inputs, objective names, parsers or model): not "
			 "reused, measured again", stale,
			 stale == 1 ? "" : "s");
	if (s->skip_equivalent)
		run_predict(ctx, units, nunits);
	if (s->share_profiles)
		run_predict_profiles(ctx, units, nunits);
	for (size_t i = 0; i < nunits; i++)
		known += journal_find_build(ctx->j, units[i].key) != NULL;
	if (journal_add_run(ctx->j, jobs, nunits, known) < 0)
		return -1;
	/* A unit with a predicted lead after every lead: its lead has been
	 * taken up (jobs start in submission order) when it starts. */
	for (int twins = 0; twins < 2; twins++)
		for (size_t i = 0; i < nunits; i++)
			if (!units[i].pred_lead == !twins)
				pool_submit(ctx->pool, 0, run_build_job, &units[i]);
	return 0;
}

/* The results of a run that went to its end (or was interrupted) from the
 * journal, and its counts. */
static void summarize(struct run_result *out, struct run_ctx *ctx, const struct run_opts *opts)
{
	run_summarize(out, ctx, ctx->units, ctx->nunits);
	run_summarize_testbeds(out, ctx, ctx->units, ctx->nunits);
	run_summarize_predictions(out, ctx);
	run_summarize_shares(out, ctx);
	run_warn_applied(out, ctx, ctx->units, ctx->nunits, opts->report);
	out->builds_done = atomic_load(&ctx->builds_done);
	out->builds_cached = atomic_load(&ctx->builds_cached);
	out->builds_failed = atomic_load(&ctx->builds_failed);
	out->builds_skipped = atomic_load(&ctx->builds_skipped);
	out->measures_done = atomic_load(&ctx->measures_done);
	out->measures_cached = atomic_load(&ctx->measures_cached);
}

/* Frees what ctx and units[0 .. nunits) hold (the pool already freed);
 * lab_started: run_lab_start() succeeded. */
static void ctx_release(struct run_ctx *ctx, struct unit *units, size_t nunits, int lab_started)
{
	for (size_t i = 0; i < nunits; i++) {
		free(units[i].cfg.flags);
		free(units[i].dir);
		free(units[i].next);
		free(units[i].twins);
		free(units[i].pooled);
		free(units[i].uncounted);
		free(units[i].ignored);
		free(units[i].prof_kind);
		free(units[i].no_boot_on);
	}
	free(units);
	for (size_t p = 0; p < ctx->npreds; p++)
		free(ctx->preds[p].ignored);
	free(ctx->preds);
	for (size_t k = 0; k < ctx->nlate; k++)
		free(ctx->late[k].kind);
	free(ctx->late);
	pthread_mutex_destroy(&ctx->pred_lock);
	pthread_mutex_destroy(&ctx->err_lock);
	free(ctx->first_error);
	if (lab_started)
		run_lab_stop(ctx);
	free(ctx->race_runs);
	free(ctx->race_verdict);
	free(ctx->cfg_first);
	free(ctx->cfg_units);
	journal_close(ctx->j);
	for (size_t r = 0; r < ctx->nsrcs; r++)
		gitsrc_release(&ctx->srcs[r]);
	free(ctx->srcs);
	free(ctx->cache_dir);
}

int run_study(struct run_result *out, const struct study *s, const struct run_opts *opts)
{
	struct run_ctx ctx;
	struct unit *units = NULL;
	size_t nunits = 0;
	char *compiler = NULL, *journal_path = NULL, *builds_root = NULL;
	unsigned jobs = opts->jobs ? opts->jobs : cpu_count();
	unsigned *workers = NULL;
	double start = now_seconds(), cpu0 = cpu_self();
	int ret = -1, lab_started = 0;
	int lock_fd = -1;

	memset(out, 0, sizeof(*out));
	ctx_init(&ctx, s, opts, jobs);
	if (open_run(out, &ctx, opts, &lock_fd, &journal_path) < 0)
		goto out;
	compiler = compiler_version();
	builds_root = xasprintf("%s/builds", out->results_dir);
	ctx.cache_dir = xasprintf("%s/cache", out->results_dir);
	if (mkdir_p(ctx.cache_dir) < 0)
		goto out;
	if (run_plan(&units, &nunits, &ctx, opts, compiler, builds_root) < 0)
		goto out;

	ctx.results_dir = out->results_dir;
	if (run_lab_start(&ctx, out->results_dir) < 0)
		goto out;
	lab_started = 1;
	for (size_t i = 0; ctx.retry_failed && i < nunits; i++)
		units[i].boot_base = journal_boot_failures(ctx.j, units[i].key);
	if (start_builds(&ctx, units, nunits, opts, jobs, &workers) < 0)
		goto out;
	run_schedule(out, &ctx, opts->report, start);
	run_status(opts->report, NULL, 1);
	pool_free(ctx.pool);
	ctx.pool = NULL;

	out->interrupted = tn_cancelled();
	if (atomic_load(&ctx.error)) {
		tn_error("a build or measurement could not be done or recorded: %s (what was "
			 "recorded is in %s)", ctx.first_error, out->results_dir);
		goto out;
	}
	if (journal_add_end(ctx.j, out->interrupted) < 0)
		goto out;
	summarize(out, &ctx, opts);
	ret = 0;
out:
	pool_free(ctx.pool);
	out->wall = now_seconds() - start;
	out->cpu_self = cpu_self() - cpu0;
	out->ended = time(NULL);
	out->compiler = compiler;
	ctx_release(&ctx, units, nunits, lab_started);
	free(workers);
	free(journal_path);
	free(builds_root);
	if (lock_fd >= 0)
		close(lock_fd);
	return ret;
}

void run_result_release(struct run_result *r)
{
	for (size_t c = 0; c < r->nconfigs; c++) {
		struct config_result *cr = &r->configs[c];
		for (size_t k = 0; k < cr->nbuilds; k++)
			free(cr->build_dirs[k]);
		free(cr->build_dirs);
		free(cr->build_code);
		free(cr->build_lead);
		free(cr->flags);
		free(cr->obj);
		free(cr->value);
		free(cr->spread);
		free(cr->tied_with);
		for (size_t i = 0; cr->samples && i < r->nobjectives; i++) {
			free(cr->samples[i].x);
			free(cr->samples[i].layout_seed);
		}
		free(cr->samples);
		applied_release(&cr->applied);
	}
	free(r->configs);
	for (size_t p = 0; p < r->npredictions; p++)
		free(r->predictions[p].ignored);
	free(r->predictions);
	for (size_t k = 0; k < r->nshares; k++)
		free(r->shares[k].kind);
	free(r->shares);
	free(r->noisy);
	free(r->results_dir);
	free(r->compiler);
	for (size_t t = 0; t < r->ntestbeds; t++) {
		free(r->testbeds[t].name);
		free(r->testbeds[t].why);
	}
	free(r->testbeds);
	run_block_release(&r->block);
	memset(r, 0, sizeof(*r));
}
