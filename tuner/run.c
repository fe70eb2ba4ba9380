/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run: see include/tuner/run.h */
#include "tuner/run.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tuner/build.h"
#include "tuner/codeid.h"
#include "tuner/gccopt.h"
#include "tuner/runner.h"
#include "tuner/search.h"
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

/* Says text (NULL: done) through the run's reporter, if any. */
static void say_status(const struct run_reporter *rep, const char *text, int force)
{
	if (rep && rep->status)
		rep->status(rep->arg, text, force);
}

void run_note(const struct run_reporter *rep, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!rep || !rep->note)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	rep->note(rep->arg, line);
}

static void show_progress(const struct run_reporter *p, struct run_ctx *ctx, size_t nunits,
			  double start, int force)
{
	unsigned long done = atomic_load(&ctx->builds_done);
	unsigned long cached = atomic_load(&ctx->builds_cached);
	unsigned long skipped = atomic_load(&ctx->builds_skipped);
	unsigned long failed = atomic_load(&ctx->builds_failed);
	unsigned long running = atomic_load(&ctx->builds_running);
	unsigned long mdone = atomic_load(&ctx->measures_done);
	unsigned long mcached = atomic_load(&ctx->measures_cached);
	unsigned long mplanned = atomic_load(&ctx->measures_planned);
	unsigned long finished = done + cached + skipped;
	size_t queued = nunits - finished - running;
	char text[256], eta[32] = "", same[48] = "";
	double elapsed = now_seconds() - start;

	if (done > 0 && finished < nunits) {
		char d[24];
		format_duration(d, sizeof(d), elapsed / (double)done * (double)(nunits - finished));
		snprintf(eta, sizeof(eta), ", ETA %s", d);
	}
	if (skipped)
		snprintf(same, sizeof(same), ", %lu not needed", skipped);
	snprintf(text, sizeof(text),
		 "tuner: builds %lu/%zu done (%lu cached%s, %lu failed), %lu running, %zu queued; measurements %lu done, %lu waiting (%lu cached)%s",
		 finished, nunits, cached, same, failed, running, queued, mdone,
		 mplanned > mdone ? mplanned - mdone : 0, mcached, eta);
	say_status(p, text, force);
}

/* Adds config c built from source src with each layout seed. */
static void add_units(struct unit **units, size_t *nunits, size_t *alloc,
		      struct run_ctx *ctx, const struct config *c, const struct gitsrc *src,
		      const char *compiler, const char *builds_root)
{
	const struct study *s = ctx->s;
	char id[17];

	memcpy(id, c->id, sizeof(id));
	if (ctx->nsrcs > 1)
		hash64_hex(id, hash64_str(hash64_str(HASH64_INIT, c->id), src->commit));
	for (unsigned seedi = 0; seedi < s->layout_samples; seedi++) {
		struct unit *u;
		ALLOC_GROW(*units, *nunits + 1, *alloc);
		u = &(*units)[(*nunits)++];
		memset(u, 0, sizeof(*u));
		u->cfg = *c;
		u->cfg.flags = xstrdup(c->flags);
		memcpy(u->cfg.id, id, sizeof(id));
		u->seed = seedi;
		u->src = src;
		atomic_init(&u->built, 0);
		u->next = xcalloc(s->ntestbeds, sizeof(*u->next));
		u->ctx = ctx;
		build_key(u->key, s, c, seedi, src->tree, compiler);
		u->dir = xasprintf("%s/%s", builds_root, u->key);
	}
}

/* Plans the units: configurations from the strategy, times source
 * revisions, times layout seeds, one unit per distinct build key. */
static int plan(struct unit **out, size_t *n, struct run_ctx *ctx,
		const struct run_opts *opts, const char *compiler, const char *builds_root)
{
	const struct study *s = ctx->s;
	const struct search_ops *ops = search_find(s->strategy);
	uint64_t budget = opts->has_budget ? opts->budget : s->budget;
	uint64_t seed = opts->has_seed ? opts->seed : s->seed;
	struct unit *units = NULL;
	size_t nunits = 0, alloc = 0, nseen = 0, seen_alloc = 0;
	char (*seen)[17] = NULL;
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
		for (size_t i = 0; i < nseen && !dup; i++)
			dup = !strcmp(seen[i], c.id);
		if (dup) {
			config_release(&c);
			continue;
		}
		ALLOC_GROW(seen, nseen + 1, seen_alloc);
		memcpy(seen[nseen++], c.id, sizeof(c.id));
		for (size_t r = 0; r < ctx->nsrcs; r++)
			add_units(&units, &nunits, &alloc, ctx, &c, &ctx->srcs[r], compiler,
				  builds_root);
		config_release(&c);
	}
	ops->free(st);
	free(seen);
	*out = units;
	*n = nunits;
	return 0;
}

/* The kinds of the switches in `ignored` (gccopt_kind()), in order. */
static char *ignored_kinds(const char *ignored)
{
	struct strbuf kinds = STRBUF_INIT, kind = STRBUF_INIT, setting = STRBUF_INIT;
	char **w;
	size_t n = gccopt_words(&w, ignored, 0);

	for (size_t i = 0; i < n; i++) {
		gccopt_kind(&kind, &setting, w[i]);
		if (kinds.len)
			strbuf_addch(&kinds, ' ');
		strbuf_addstr(&kinds, strbuf_str(&kind));
	}
	gccopt_words_free(w, n);
	strbuf_release(&kind);
	strbuf_release(&setting);
	return strbuf_detach(&kinds);
}

/*
 * build.equivalent: skip. Gives each unit that GCC is predicted to build
 * as an earlier one (equal gccopt_predicted() forms, same source, layout
 * seed and PGO) its lead and its prediction: one per kinds of ignored
 * switch and PGO, which the first pair built confirms or refutes.
 */
static void predict(struct run_ctx *ctx, struct unit *units, size_t n)
{
	char **form = xcalloc(n + 1, sizeof(*form));

	for (size_t i = 0; i < n; i++) {
		struct unit *u = &units[i];
		char *ignored, *kinds;
		size_t p;

		form[i] = gccopt_predicted(u->cfg.flags, &ignored);
		for (size_t j = 0; j < i && *ignored && !u->pred_lead; j++) {
			struct unit *v = &units[j];
			if (!v->pred_lead && v->src == u->src && v->seed == u->seed &&
			    v->cfg.pgo == u->cfg.pgo && !strcmp(form[j], form[i]))
				u->pred_lead = v;
		}
		if (!u->pred_lead) {
			free(ignored);
			continue;
		}
		u->ignored = ignored;
		kinds = ignored_kinds(ignored);
		for (p = 0; p < ctx->npreds; p++)
			if (ctx->preds[p].pgo == (u->cfg.pgo == PGO_ON) &&
			    !strcmp(ctx->preds[p].ignored, kinds))
				break;
		if (p == ctx->npreds) {
			ctx->preds = xrealloc(ctx->preds, (p + 1) * sizeof(*ctx->preds));
			memset(&ctx->preds[p], 0, sizeof(*ctx->preds));
			ctx->preds[p].ignored = kinds;
			ctx->preds[p].pgo = u->cfg.pgo == PGO_ON;
			ctx->npreds++;
		} else {
			free(kinds);
		}
		u->pred = p;
	}
	for (size_t i = 0; i < n; i++)
		free(form[i]);
	free(form);
}

/* The measurement scheduler of one run (main thread only). */
struct sched {
	struct run_ctx *ctx;
	struct unit *units;
	size_t nunits, nconfigs, L;
	const struct run_reporter *prog;
	double start;
	struct unit **last;   /* per testbed: the unit measured last */
	size_t unbuilt;       /* units whose build has not finished */
};

static int stopping(struct run_ctx *ctx)
{
	return tn_cancelled() || atomic_load(&ctx->error);
}

static int unit_ok(const struct unit *u)
{
	return u->noticed && u->build->status == BUILD_OK;
}

/*
 * A unit built fine joins the lead of the same code, as a twin whose runs
 * so far pool with the lead's, or leads itself. The lead is always the
 * first of them in configuration order, whichever build finished first,
 * so that what the tables say does not depend on timing: a unit before
 * the lead takes over, and the runs the old lead has (or has queued)
 * count as pooled. The code id comes from the build record, or from the
 * artifact for a build recorded by an older tuner; unknown: never shared.
 */
static void share(struct sched *sc, struct unit *u)
{
	const struct study *s = sc->ctx->s;
	struct unit *lead = NULL;

	u->lead = u;
	u->pooled = xcalloc(s->ntestbeds, sizeof(*u->pooled));
	u->uncounted = xcalloc(s->ntestbeds, sizeof(*u->uncounted));
	memcpy(u->code, u->build->code, sizeof(u->code));
	if (s->share_same_code && !u->code[0] && u->build->artifact &&
	    code_id(u->code, u->build->artifact) < 0) {
		u->code[0] = '\0';
		tn_error_clear();
	}
	for (size_t i = 0; i < sc->nunits && s->share_same_code && u->code[0] && !lead; i++) {
		struct unit *v = &sc->units[i];
		if (v != u && v->lead == v && !strcmp(v->code, u->code))
			lead = v;
	}
	for (size_t t = 0; t < s->ntestbeds; t++) {
		size_t have, n = run_count_records(u, t, &have);

		atomic_fetch_add(&sc->ctx->measures_cached,
				 have < s->repeats_min ? have : s->repeats_min);
		if (lead && lead < u) {
			lead->pooled[t] += (unsigned)have;
		} else {
			/* New runs get new indices after every record. */
			u->next[t] = (unsigned)n;
			u->uncounted[t] = (unsigned)(n - have);
			if (lead) {
				u->pooled[t] = lead->next[t] - lead->uncounted[t] + lead->pooled[t];
				lead->pooled[t] = 0;
			}
		}
	}
	if (!lead)
		return;
	if (lead < u) {
		u->lead = lead;
		ALLOC_GROW(lead->twins, lead->ntwins + 1, lead->twins_alloc);
		lead->twins[lead->ntwins++] = u;
		return;
	}
	u->twins = lead->twins;
	u->ntwins = lead->ntwins;
	u->twins_alloc = lead->twins_alloc;
	lead->twins = NULL;
	lead->ntwins = lead->twins_alloc = 0;
	ALLOC_GROW(u->twins, u->ntwins + 1, u->twins_alloc);
	u->twins[u->ntwins++] = lead;
	for (size_t i = 0; i < u->ntwins; i++)
		u->twins[i]->lead = u;
}

/* Notices finished builds: a build's runs continue from what the journal
 * holds. */
static void notice_builds(struct sched *sc)
{
	const struct study *s = sc->ctx->s;

	for (size_t i = 0; i < sc->nunits; i++) {
		struct unit *u = &sc->units[i];

		if (u->noticed || !atomic_load(&u->built))
			continue;
		u->noticed = 1;
		sc->unbuilt--;
		if (u->build->status == BUILD_OK && run_has_measure(s))
			share(sc, u);
	}
}

static void submit(struct sched *sc, struct unit *u, size_t t)
{
	struct mjob *m = xmalloc(sizeof(*m));

	m->u = u;
	m->testbed = t;
	m->run = u->next[t]++;
	sc->last[t] = u;
	atomic_fetch_add(&sc->ctx->measures_planned, 1);
	pool_submit(sc->ctx->pool, 1 + t, run_measure_job, m);
}

/*
 * Queues one round on testbed t: the next run of every built unit with
 * fewer than `upto` runs (its lead's and the lead's twins' together: the
 * lead is the one measured), in configuration order, among the
 * configurations with racing[c] set (racing NULL: all). The unit measured
 * last is never measured again first: while builds are running it waits
 * for the next round (another build may come to go between), else it goes
 * last in this one. Returns the number queued.
 */
static size_t queue_round(struct sched *sc, size_t t, unsigned upto, const int *racing)
{
	struct unit *prev = sc->last[t], *held = NULL;
	size_t n = 0;

	for (size_t c = 0; c < sc->nconfigs; c++) {
		if (racing && !racing[c])
			continue;
		for (size_t k = 0; k < sc->L; k++) {
			struct unit *u = &sc->units[c * sc->L + k];
			if (!unit_ok(u) || !u->lead)
				continue;
			u = u->lead;
			if (u->next[t] - u->uncounted[t] + u->pooled[t] >= upto)
				continue;
			if (u == prev) {
				if (!sc->unbuilt || stopping(sc->ctx))
					held = u;
				continue;
			}
			submit(sc, u, t);
			n++;
		}
	}
	if (held) {
		submit(sc, held, t);
		n++;
	}
	return n;
}

/*
 * Builds, and the first repeats.min runs of every build as builds finish:
 * whenever a testbed has nothing queued, the next round of the builds done
 * so far goes to it. Returns when the pool is idle with nothing to add.
 */
static void build_and_measure(struct sched *sc)
{
	struct run_ctx *ctx = sc->ctx;
	const struct study *s = ctx->s;

	for (;;) {
		int idle = pool_wait(ctx->pool, 0.05);
		size_t queued_now = 0;

		notice_builds(sc);
		for (size_t t = 0; t < s->ntestbeds && run_has_measure(s) && !stopping(ctx); t++) {
			size_t queued;
			pool_counts(ctx->pool, 1 + t, &queued, NULL, NULL);
			if (!queued)
				queued_now += queue_round(sc, t, s->repeats_min, NULL);
		}
		show_progress(sc->prog, ctx, sc->nunits, sc->start, 0);
		if (idle && !queued_now)
			break;
	}
}

/* Waits for the pool to run dry, showing progress. */
static void drain(struct sched *sc)
{
	while (!pool_wait(sc->ctx->pool, 0.1))
		show_progress(sc->prog, sc->ctx, sc->nunits, sc->start, 0);
}

/* The configurations that can race: every build fine, every build with its
 * repeats.min runs. */
static int *race_entrants(struct sched *sc)
{
	int *racing = xcalloc(sc->nconfigs + 1, sizeof(*racing));

	for (size_t c = 0; c < sc->nconfigs; c++) {
		racing[c] = 1;
		for (size_t k = 0; k < sc->L && racing[c]; k++) {
			struct unit *u = &sc->units[c * sc->L + k];
			racing[c] = unit_ok(u) && run_measures_complete(u);
		}
	}
	return racing;
}

static const char *verdict_name(const struct pareto_verdict *v)
{
	if (!v->feasible)
		return "infeasible";
	return v->on_front ? "front" : "dominated";
}

/* The race of run.h, rounds repeats.min .. repeats.max - 1. */
static void race(struct sched *sc, struct run_result *out)
{
	struct run_ctx *ctx = sc->ctx;
	const struct study *s = ctx->s;
	size_t nc = sc->nconfigs, T = s->ntestbeds;
	int *racing = race_entrants(sc);
	int *skip = xcalloc(nc + 1, sizeof(*skip));
	int *noisy = xcalloc(s->nobjectives + 1, sizeof(*noisy));
	struct pareto_verdict *v = xcalloc(nc + 1, sizeof(*v));
	unsigned k = s->repeats_min;

	ctx->race_runs = xcalloc(nc + 1, sizeof(*ctx->race_runs));
	ctx->race_verdict = xcalloc(nc + 1, sizeof(*ctx->race_verdict));
	for (size_t c = 0; c < nc; c++) {
		skip[c] = !racing[c];
		ctx->race_runs[c] = racing[c] ? k : 0;
	}
	for (;;) {
		size_t left = 0;

		run_front(v, noisy, ctx, sc->units, nc, ctx->race_runs, skip);
		for (size_t c = 0; c < nc; c++) {
			if (racing[c] && v[c].settled) {
				racing[c] = 0;
				ctx->race_verdict[c] = verdict_name(&v[c]);
			}
			left += (size_t)racing[c];
		}
		pareto_verdicts_release(v, nc);
		if (!left || k >= s->repeats_max || stopping(ctx))
			break;
		for (size_t c = 0; c < nc; c++)
			for (size_t q = 0; q < sc->L * T && racing[c]; q++) {
				struct unit *u = &sc->units[c * sc->L + q / T];
				if (u->next[q % T] > k)
					atomic_fetch_add(&ctx->measures_cached, 1);
			}
		for (size_t t = 0; t < T; t++)
			queue_round(sc, t, k + 1, racing);
		drain(sc);
		if (stopping(ctx))
			break;
		k++;
		for (size_t c = 0; c < nc; c++)
			if (racing[c])
				ctx->race_runs[c] = k;
	}
	for (size_t c = 0; c < nc; c++) {
		if (racing[c])
			ctx->race_verdict[c] = stopping(ctx) ? "stopped" : "max";
		if (!skip[c]) {
			out->race_measures += (unsigned long)ctx->race_runs[c] * sc->L * T;
			out->race_full += (unsigned long)s->repeats_max * sc->L * T;
		}
	}
	free(racing);
	free(skip);
	free(noisy);
	free(v);
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

int run_study(struct run_result *out, const struct study *s, const struct run_opts *opts)
{
	struct run_ctx ctx;
	struct sched sc = { 0 };
	struct unit *units = NULL;
	size_t nunits = 0;
	char *compiler = NULL, *journal_path = NULL, *builds_root = NULL;
	unsigned jobs = opts->jobs ? opts->jobs : cpu_count();
	unsigned *workers = NULL;
	double start = now_seconds(), cpu0 = cpu_self();
	unsigned long known = 0;
	int changed = 0, ret = -1;

	memset(out, 0, sizeof(*out));
	memset(&ctx, 0, sizeof(ctx));
	ctx.s = s;
	pthread_mutex_init(&ctx.pred_lock, NULL);
	pthread_mutex_init(&ctx.err_lock, NULL);
	ctx.nsrcs = opts->nrevs ? opts->nrevs : 1;
	ctx.srcs = xcalloc(ctx.nsrcs, sizeof(*ctx.srcs));
	for (size_t r = 0; r < ctx.nsrcs; r++)
		ctx.srcs[r] = (struct gitsrc)GITSRC_INIT;
	ctx.jobs_per_build = cpu_count() / jobs ? cpu_count() / jobs : 1;
	ctx.retry_failed = opts->retry_failed;

	/* Bad input fails before anything is created. */
	for (size_t r = 0; r < ctx.nsrcs; r++)
		if (source(&ctx.srcs[r], s, opts->nrevs ? opts->revs[r] : NULL, NULL, 0) < 0)
			goto out;
	out->results_dir = results_dir(s, opts);
	if (!out->results_dir)
		goto out;
	for (size_t r = 0; r < ctx.nsrcs; r++)
		if (source(&ctx.srcs[r], s, opts->nrevs ? opts->revs[r] : NULL, out->results_dir,
			   opts->dirty) < 0)
			goto out;
	memcpy(out->commit, ctx.srcs[0].commit, sizeof(out->commit));
	memcpy(out->tree, ctx.srcs[0].tree, sizeof(out->tree));
	out->dirty = ctx.srcs[0].dirty;
	out->worktree_dirty = ctx.srcs[0].worktree_dirty;

	journal_path = xasprintf("%s/journal.jsonl", out->results_dir);
	if (journal_open(&ctx.j, journal_path, s->name, s->hash, &changed) < 0)
		goto out;
	if (journal_torn(ctx.j))
		run_note(opts->report, "warning: %s: dropped a torn last record (an interrupted write)",
			 journal_path);
	if (changed)
		run_note(opts->report, "note: %s changed since the journal was started; reusing what still matches",
			 s->path);

	compiler = compiler_version();
	builds_root = xasprintf("%s/builds", out->results_dir);
	ctx.cache_dir = xasprintf("%s/cache", out->results_dir);
	if (mkdir_p(ctx.cache_dir) < 0)
		goto out;
	if (plan(&units, &nunits, &ctx, opts, compiler, builds_root) < 0)
		goto out;

	workers = xcalloc(1 + s->ntestbeds, sizeof(*workers));
	ctx.testbed_used = xcalloc(s->ntestbeds, sizeof(*ctx.testbed_used));
	workers[0] = jobs;
	for (size_t t = 0; t < s->ntestbeds; t++)
		workers[1 + t] = 1;
	if (pool_new(&ctx.pool, workers, 1 + s->ntestbeds) < 0)
		goto out;
	ctx.units = units;
	ctx.nunits = nunits;
	if (s->skip_equivalent)
		predict(&ctx, units, nunits);
	for (size_t i = 0; i < nunits; i++)
		known += journal_find_build(ctx.j, units[i].key) != NULL;
	if (journal_add_run(ctx.j, jobs, nunits, known) < 0)
		goto out;
	/* A unit with a predicted lead after every lead: its lead has been
	 * taken up (jobs start in submission order) when it starts. */
	for (int twins = 0; twins < 2; twins++)
		for (size_t i = 0; i < nunits; i++)
			if (!units[i].pred_lead == !twins)
				pool_submit(ctx.pool, 0, run_build_job, &units[i]);
	sc.ctx = &ctx;
	sc.units = units;
	sc.nunits = nunits;
	sc.L = s->layout_samples;
	sc.nconfigs = nunits / sc.L;
	sc.prog = opts->report;
	sc.start = start;
	sc.last = xcalloc(s->ntestbeds, sizeof(*sc.last));
	sc.unbuilt = nunits;
	build_and_measure(&sc);
	out->raced = s->repeats_min < s->repeats_max && run_has_measure(s);
	if (out->raced && !stopping(&ctx))
		race(&sc, out);
	show_progress(opts->report, &ctx, nunits, start, 1);
	say_status(opts->report, NULL, 1);
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
	run_summarize(out, &ctx, units, nunits);
	run_summarize_predictions(out, &ctx);
	run_warn_applied(out, &ctx, units, nunits, opts->report);
	out->builds_done = atomic_load(&ctx.builds_done);
	out->builds_cached = atomic_load(&ctx.builds_cached);
	out->builds_failed = atomic_load(&ctx.builds_failed);
	out->builds_skipped = atomic_load(&ctx.builds_skipped);
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
		free(units[i].next);
		free(units[i].twins);
		free(units[i].pooled);
		free(units[i].uncounted);
		free(units[i].ignored);
	}
	free(units);
	for (size_t p = 0; p < ctx.npreds; p++)
		free(ctx.preds[p].ignored);
	free(ctx.preds);
	pthread_mutex_destroy(&ctx.pred_lock);
	pthread_mutex_destroy(&ctx.err_lock);
	free(ctx.first_error);
	free(workers);
	free(ctx.testbed_used);
	free(ctx.race_runs);
	free(ctx.race_verdict);
	free(sc.last);
	journal_close(ctx.j);
	for (size_t r = 0; r < ctx.nsrcs; r++)
		gitsrc_release(&ctx.srcs[r]);
	free(ctx.srcs);
	free(compiler);
	free(journal_path);
	free(builds_root);
	free(ctx.cache_dir);
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
		free(cr->spread);
		free(cr->tied_with);
		for (size_t i = 0; cr->samples && i < r->nobjectives; i++) {
			free(cr->samples[i].x);
			free(cr->samples[i].seed);
		}
		free(cr->samples);
		applied_release(&cr->applied);
	}
	free(r->configs);
	for (size_t p = 0; p < r->npredictions; p++)
		free(r->predictions[p].ignored);
	free(r->predictions);
	free(r->noisy);
	free(r->results_dir);
	memset(r, 0, sizeof(*r));
}
