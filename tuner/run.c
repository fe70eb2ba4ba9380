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

#include "tuner/build.h"
#include "tuner/gitsrc.h"
#include "tuner/journal.h"
#include "tuner/measure.h"
#include "tuner/pareto.h"
#include "tuner/pool.h"
#include "tuner/progress.h"
#include "tuner/runner.h"
#include "tuner/search.h"
#include "tuner/util.h"

struct run_ctx;

/* One configuration built with one layout seed. */
struct unit {
	struct config cfg;
	unsigned seed;
	char key[17];
	char *dir;
	const struct build_record *build; /* owned by the journal; NULL until built */
	struct run_ctx *ctx;
};

struct run_ctx {
	const struct study *s;
	struct journal *j;
	struct pool *pool;
	struct gitsrc src;
	unsigned jobs_per_build;
	atomic_ulong builds_done, builds_cached, builds_failed, builds_running;
	atomic_ulong measures_done, measures_cached, measures_planned;
	atomic_int error; /* a system error stopped a job */
};

struct mjob {
	struct unit *u;
	size_t testbed;
	unsigned run;
};

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

static int measure_objective(const struct study *s, size_t i)
{
	return !s->objectives[i].from_size;
}

static int has_measure(const struct study *s)
{
	for (size_t i = 0; i < s->nobjectives; i++)
		if (measure_objective(s, i))
			return 1;
	return 0;
}

static char *safe_name(const char *name)
{
	char *n = xstrdup(name);

	for (char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '_'))
			*p = '_';
	return n;
}

/* Runs deploy (if any) and the measure command once; records the result. */
static void measure_once(struct mjob *m)
{
	struct unit *u = m->u;
	struct run_ctx *ctx = u->ctx;
	const struct study *s = ctx->s;
	const char *testbed = s->testbeds[m->testbed];
	char *tb = safe_name(testbed);
	char *log = xasprintf("%s/measure-%s.log", u->dir, tb);
	struct cmd_env e = { 0 };
	struct measure_record rec = { 0 };
	struct runner r = RUNNER_INIT;
	struct strbuf err = STRBUF_INIT;
	double start = now_seconds();
	char **env;
	size_t k = 0;

	e.flags = u->cfg.flags;
	e.src = ctx->src.dir;
	e.out = u->dir;
	e.pgo = u->cfg.pgo == PGO_ON ? "use" : "off";
	e.artifact = u->build->artifact;
	e.testbed = testbed;
	e.config_id = u->cfg.id;
	e.jobs = ctx->jobs_per_build;
	e.layout_seed = u->seed;
	e.run = m->run;
	env = env_build(&e);

	if (s->deploy.command) {
		if (run_shell(&r, s->deploy.command, env, log, 0, s->deploy.timeout) < 0) {
			strbuf_addf(&err, "deploy: %s", tn_errmsg());
		} else if (r.result.cancelled) {
			goto out;
		} else if (r.result.status) {
			strbuf_addf(&err, "deploy %s with status %d",
				    r.result.timed_out ? "timed out" : "failed", r.result.status);
		}
		runner_release(&r);
	}
	if (!err.len) {
		if (run_shell(&r, s->measure.command, env, log, 1, s->measure.timeout) < 0)
			strbuf_addf(&err, "measure: %s", tn_errmsg());
		else if (r.result.cancelled)
			goto out;
		else if (r.result.timed_out)
			strbuf_addf(&err, "measure timed out after %gs", s->measure.timeout);
		else if (r.result.status)
			strbuf_addf(&err, "measure failed with status %d", r.result.status);
	}

	memcpy(rec.build_key, u->key, sizeof(rec.build_key));
	memcpy(rec.config_id, u->cfg.id, sizeof(rec.config_id));
	rec.testbed = (char *)testbed;
	rec.run = m->run;
	rec.names = xcalloc(s->nobjectives, sizeof(*rec.names));
	rec.values = xcalloc(s->nobjectives, sizeof(*rec.values));
	for (size_t i = 0; i < s->nobjectives; i++) {
		double v = NAN;
		if (!measure_objective(s, i))
			continue;
		if (!err.len && measure_parse(&v, s->objectives[i].parser, &s->model,
					      r.result.out, r.result.out_len) < 0)
			strbuf_addf(&err, "%s: %s", s->objectives[i].name, tn_errmsg());
		rec.names[k] = s->objectives[i].name;
		rec.values[k++] = v;
	}
	rec.nvalues = k;
	rec.ok = err.len == 0;
	rec.error = err.len ? err.buf : NULL;
	rec.seconds = now_seconds() - start;
	if (journal_add_measure(ctx->j, &rec) < 0)
		atomic_store(&ctx->error, 1);
	atomic_fetch_add(&ctx->measures_done, 1);
	free(rec.names);
	free(rec.values);
out:
	runner_release(&r);
	strbuf_release(&err);
	env_free(env);
	free(log);
	free(tb);
}

static void measure_job(void *arg, int cancelled)
{
	if (!cancelled)
		measure_once(arg);
	free(arg);
}

static size_t count_measures(struct unit *u, const char *testbed)
{
	const struct measure_record **recs;
	size_t n = journal_measures(u->ctx->j, u->key, testbed, &recs);

	free(recs);
	return n;
}

static int measures_complete(struct unit *u)
{
	const struct study *s = u->ctx->s;

	if (!has_measure(s))
		return 1;
	for (size_t t = 0; t < s->ntestbeds; t++)
		if (count_measures(u, s->testbeds[t]) < s->repeats_min)
			return 0;
	return 1;
}

static void queue_measures(struct unit *u)
{
	struct run_ctx *ctx = u->ctx;
	const struct study *s = ctx->s;

	if (!has_measure(s))
		return;
	for (size_t t = 0; t < s->ntestbeds; t++) {
		size_t have = count_measures(u, s->testbeds[t]);
		atomic_fetch_add(&ctx->measures_cached, have < s->repeats_min ? have : s->repeats_min);
		if (have < s->repeats_min)
			atomic_fetch_add(&ctx->measures_planned, s->repeats_min - have);
		for (size_t run = have; run < s->repeats_min; run++) {
			struct mjob *m = xmalloc(sizeof(*m));
			m->u = u;
			m->testbed = t;
			m->run = (unsigned)run;
			pool_submit(ctx->pool, 1 + t, measure_job, m);
		}
	}
}

static void build_job(void *arg, int cancelled)
{
	struct unit *u = arg;
	struct run_ctx *ctx = u->ctx;
	const struct build_record *prev;
	struct build_record rec;
	struct build_request req;
	struct stat st;
	int ret;

	if (cancelled)
		return;
	prev = journal_find_build(ctx->j, u->key);
	/* Reuse a recorded build unless its artifact is gone and it still has
	 * measuring to do. A failed build is a result: not retried. */
	if (prev && (prev->status != BUILD_OK || measures_complete(u) ||
		     (prev->artifact && stat(prev->artifact, &st) == 0))) {
		u->build = prev;
		atomic_fetch_add(&ctx->builds_cached, 1);
		goto measure;
	}

	atomic_fetch_add(&ctx->builds_running, 1);
	req.study = ctx->s;
	req.config = &u->cfg;
	req.layout_seed = u->seed;
	req.src_dir = ctx->src.dir;
	req.commit = ctx->src.commit;
	req.tree = ctx->src.tree;
	req.dirty = ctx->src.dirty;
	req.dir = u->dir;
	req.key = u->key;
	req.jobs = ctx->jobs_per_build;
	ret = build_run(&rec, &req);
	atomic_fetch_sub(&ctx->builds_running, 1);
	if (ret == BUILD_ECANCELLED)
		return;
	if (ret < 0 || journal_add_build(ctx->j, &rec) < 0) {
		/* The message stays with this thread; the run reports a
		 * generic failure and the journal holds what was done. */
		atomic_store(&ctx->error, 1);
		if (ret == 0)
			build_record_release(&rec);
		return;
	}
	build_record_release(&rec);
	u->build = journal_find_build(ctx->j, u->key);
	atomic_fetch_add(&ctx->builds_done, 1);
	if (u->build->status != BUILD_OK)
		atomic_fetch_add(&ctx->builds_failed, 1);
measure:
	if (u->build->status == BUILD_OK)
		queue_measures(u);
}

static void show_progress(struct progress *p, struct run_ctx *ctx, size_t nunits,
			  double start, int force)
{
	unsigned long done = atomic_load(&ctx->builds_done);
	unsigned long cached = atomic_load(&ctx->builds_cached);
	unsigned long failed = atomic_load(&ctx->builds_failed);
	unsigned long running = atomic_load(&ctx->builds_running);
	unsigned long mdone = atomic_load(&ctx->measures_done);
	unsigned long mcached = atomic_load(&ctx->measures_cached);
	unsigned long mplanned = atomic_load(&ctx->measures_planned);
	unsigned long finished = done + cached;
	size_t queued = nunits - finished - running;
	char text[256], eta[32] = "";
	double elapsed = now_seconds() - start;

	if (done > 0 && finished < nunits) {
		char d[24];
		progress_duration(d, sizeof(d), elapsed / (double)done * (double)(nunits - finished));
		snprintf(eta, sizeof(eta), ", ETA %s", d);
	}
	snprintf(text, sizeof(text),
		 "tuner: builds %lu/%zu done (%lu cached, %lu failed), %lu running, %zu queued; measurements %lu done, %lu waiting (%lu cached)%s",
		 finished, nunits, cached, failed, running, queued, mdone,
		 mplanned > mdone ? mplanned - mdone : 0, mcached, eta);
	progress_show(p, text, force);
}

/* Plans the units: configurations from the strategy, times layout seeds,
 * one unit per distinct build key. */
static int plan(struct unit **out, size_t *n, struct run_ctx *ctx,
		const struct run_opts *opts, const char *compiler, const char *builds_root)
{
	const struct study *s = ctx->s;
	const struct search_ops *ops = search_find(s->strategy);
	uint64_t budget = opts->has_budget ? opts->budget : s->budget;
	uint64_t seed = opts->has_seed ? opts->seed : s->seed;
	struct unit *units = NULL;
	size_t nunits = 0, alloc = 0;
	void *st;
	uint64_t idx;

	if (!ops)
		return tn_error("unknown search strategy '%s'", s->strategy);
	if (ops->init(&st, &s->space, budget, seed) < 0)
		return -1;
	while (ops->next(st, &idx) == 1) {
		struct config c = CONFIG_INIT;
		int dup = 0;

		if (space_config(&c, &s->space, idx) < 0)
			continue;
		/* Two flag strings with the same normalized set are one config. */
		for (size_t i = 0; i < nunits && !dup; i += s->layout_samples)
			dup = !strcmp(units[i].cfg.id, c.id);
		if (dup) {
			config_release(&c);
			continue;
		}
		for (unsigned seedi = 0; seedi < s->layout_samples; seedi++) {
			struct unit *u;
			ALLOC_GROW(units, nunits + 1, alloc);
			u = &units[nunits++];
			memset(u, 0, sizeof(*u));
			u->cfg = c;
			u->cfg.flags = xstrdup(c.flags);
			u->seed = seedi;
			u->ctx = ctx;
			build_key(u->key, s, &c, seedi, ctx->src.tree, compiler);
			u->dir = xasprintf("%s/%s", builds_root, u->key);
		}
		config_release(&c);
	}
	ops->free(st);
	*out = units;
	*n = nunits;
	return 0;
}

static void collect_values(double **vals, size_t *nvals, size_t *alloc,
			   const struct run_ctx *ctx, const struct unit *u,
			   const struct objective *o)
{
	const struct measure_record **recs;
	size_t n;

	if (!u->build || u->build->status != BUILD_OK)
		return;
	if (o->from_size) {
		ALLOC_GROW(*vals, *nvals + 1, *alloc);
		(*vals)[(*nvals)++] = u->build->size;
		return;
	}
	n = journal_measures(ctx->j, u->key, NULL, &recs);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < recs[i]->nvalues; k++)
			if (!strcmp(recs[i]->names[k], o->name)) {
				ALLOC_GROW(*vals, *nvals + 1, *alloc);
				(*vals)[(*nvals)++] = recs[i]->values[k];
			}
	free(recs);
}

static void summarize(struct run_result *out, struct run_ctx *ctx,
		      struct unit *units, size_t nunits)
{
	const struct study *s = ctx->s;
	size_t L = s->layout_samples, m = s->nobjectives;
	size_t nc = nunits / L;
	struct pareto_obj *po = xcalloc(m, sizeof(*po));
	double *matrix = xcalloc(nc * m, sizeof(*matrix));
	int *front = xcalloc(nc, sizeof(*front));
	int *feasible = xcalloc(nc, sizeof(*feasible));

	out->nconfigs = nc;
	out->configs = xcalloc(nc, sizeof(*out->configs));
	for (size_t c = 0; c < nc; c++) {
		struct config_result *cr = &out->configs[c];
		struct unit *first = &units[c * L];
		int complete = 1;

		memcpy(cr->id, first->cfg.id, sizeof(cr->id));
		cr->flags = xstrdup(first->cfg.flags);
		cr->pgo = first->cfg.pgo == PGO_ON;
		cr->status = "ok";
		cr->nbuilds = L;
		cr->build_dirs = xcalloc(L, sizeof(*cr->build_dirs));
		for (size_t k = 0; k < L; k++) {
			struct unit *u = &units[c * L + k];
			cr->build_dirs[k] = xstrdup(u->dir);
			if (!u->build)
				complete = 0;
			else if (u->build->status != BUILD_OK && !strcmp(cr->status, "ok"))
				cr->status = build_status_name(u->build->status);
			else if (!measures_complete(u))
				complete = 0;
		}
		if (!complete && !strcmp(cr->status, "ok"))
			cr->status = "incomplete";
		cr->obj = xcalloc(m, sizeof(*cr->obj));
		cr->value = xcalloc(m, sizeof(*cr->value));
		for (size_t i = 0; i < m; i++) {
			double *vals = NULL;
			size_t nv = 0, alloc = 0;
			for (size_t k = 0; k < L; k++)
				collect_values(&vals, &nv, &alloc, ctx, &units[c * L + k], &s->objectives[i]);
			stats_summarize(&cr->obj[i], vals, nv);
			free(vals);
			if (cr->obj[i].n < nv && !strcmp(cr->status, "ok"))
				cr->status = "measure-failed";
			if (cr->obj[i].n == 0 && !strcmp(cr->status, "ok"))
				cr->status = "measure-failed";
			cr->value[i] = cr->obj[i].trimmed_mean;
		}
		for (size_t i = 0; i < m; i++)
			matrix[c * m + i] = strcmp(cr->status, "ok") ? NAN : cr->value[i];
	}
	for (size_t i = 0; i < m; i++) {
		po[i].maximize = s->objectives[i].maximize;
		po[i].has_limit = s->objectives[i].has_limit;
		po[i].limit = s->objectives[i].limit;
	}
	out->nfront = pareto_front(front, feasible, matrix, nc, po, m);
	for (size_t c = 0; c < nc; c++) {
		out->configs[c].on_front = front[c];
		out->configs[c].feasible = feasible[c];
	}
	free(po);
	free(matrix);
	free(front);
	free(feasible);
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
	tn_error_at(s->path, at.line, at.col, "%s", msg);
	free(msg);
	return -1;
}

/* Resolves (results NULL) or exports the study's source. */
static int source(struct gitsrc *out, const struct study *s, const char *results, int dirty)
{
	struct gitsrc_opts go = GITSRC_OPTS_INIT;
	char *repo = s->source_repo[0] == '/' ? xstrdup(s->source_repo)
					      : xasprintf("%s/%s", s->dir, s->source_repo);
	char *dest = results ? xasprintf("%s/src", results) : NULL;
	int ret;

	go.repo = repo;
	go.rev = s->source_rev;
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
	int ret = source(&g, s, NULL, 0);

	memcpy(commit, g.commit, 41);
	return ret;
}

int run_study(struct run_result *out, const struct study *s, const struct run_opts *opts)
{
	struct run_ctx ctx;
	struct unit *units = NULL;
	size_t nunits = 0;
	char *compiler = NULL, *journal_path = NULL, *builds_root = NULL;
	unsigned jobs = opts->jobs ? opts->jobs : cpu_count();
	unsigned *workers = NULL;
	struct progress prog;
	double start = now_seconds(), cpu0 = cpu_self();
	unsigned long known = 0;
	int changed = 0, ret = -1;

	memset(out, 0, sizeof(*out));
	memset(&ctx, 0, sizeof(ctx));
	ctx.s = s;
	ctx.src = (struct gitsrc)GITSRC_INIT;
	ctx.jobs_per_build = cpu_count() / jobs ? cpu_count() / jobs : 1;
	progress_init(&prog, (enum progress_mode)opts->progress);

	/* Bad input fails before anything is created. */
	if (source(&ctx.src, s, NULL, 0) < 0)
		goto out;
	out->results_dir = results_dir(s, opts);
	if (!out->results_dir)
		goto out;
	if (source(&ctx.src, s, out->results_dir, opts->dirty) < 0)
		goto out;
	memcpy(out->commit, ctx.src.commit, sizeof(out->commit));
	memcpy(out->tree, ctx.src.tree, sizeof(out->tree));
	out->dirty = ctx.src.dirty;
	out->worktree_dirty = ctx.src.worktree_dirty;

	journal_path = xasprintf("%s/journal.jsonl", out->results_dir);
	if (journal_open(&ctx.j, journal_path, s->name, s->hash, &changed) < 0)
		goto out;
	if (journal_torn(ctx.j))
		fprintf(stderr, "tuner: warning: %s: dropped a torn last record (an interrupted write)\n",
			journal_path);
	if (changed)
		fprintf(stderr, "tuner: note: %s changed since the journal was started; reusing what still matches\n",
			s->path);

	compiler = compiler_version();
	builds_root = xasprintf("%s/builds", out->results_dir);
	if (plan(&units, &nunits, &ctx, opts, compiler, builds_root) < 0)
		goto out;

	workers = xcalloc(1 + s->ntestbeds, sizeof(*workers));
	workers[0] = jobs;
	for (size_t t = 0; t < s->ntestbeds; t++)
		workers[1 + t] = 1;
	if (pool_new(&ctx.pool, workers, 1 + s->ntestbeds) < 0)
		goto out;
	for (size_t i = 0; i < nunits; i++)
		known += journal_find_build(ctx.j, units[i].key) != NULL;
	journal_add_run(ctx.j, jobs, nunits, known);
	for (size_t i = 0; i < nunits; i++)
		pool_submit(ctx.pool, 0, build_job, &units[i]);
	while (!pool_wait(ctx.pool, 0.1))
		show_progress(&prog, &ctx, nunits, start, 0);
	show_progress(&prog, &ctx, nunits, start, 1);
	progress_clear(&prog);
	pool_free(ctx.pool);
	ctx.pool = NULL;

	out->interrupted = tn_cancelled();
	journal_add_end(ctx.j, out->interrupted);
	if (atomic_load(&ctx.error)) {
		tn_error("a build or measurement could not be recorded (disk full? see %s)",
			 out->results_dir);
		goto out;
	}
	summarize(out, &ctx, units, nunits);
	out->builds_done = atomic_load(&ctx.builds_done);
	out->builds_cached = atomic_load(&ctx.builds_cached);
	out->builds_failed = atomic_load(&ctx.builds_failed);
	out->measures_done = atomic_load(&ctx.measures_done);
	out->measures_cached = atomic_load(&ctx.measures_cached);
	ret = 0;
out:
	pool_free(ctx.pool);
	out->wall = now_seconds() - start;
	out->cpu_self = cpu_self() - cpu0;
	for (size_t i = 0; i < nunits; i++) {
		free(units[i].cfg.flags);
		free(units[i].dir);
	}
	free(units);
	free(workers);
	journal_close(ctx.j);
	gitsrc_release(&ctx.src);
	free(compiler);
	free(journal_path);
	free(builds_root);
	return ret;
}

void run_result_release(struct run_result *r)
{
	for (size_t c = 0; c < r->nconfigs; c++) {
		struct config_result *cr = &r->configs[c];
		for (size_t k = 0; k < cr->nbuilds; k++)
			free(cr->build_dirs[k]);
		free(cr->build_dirs);
		free(cr->flags);
		free(cr->obj);
		free(cr->value);
	}
	free(r->configs);
	free(r->results_dir);
	memset(r, 0, sizeof(*r));
}
