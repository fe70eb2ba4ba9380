/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_jobs: the jobs a run schedules on the pool: one build (or its lookup
 * in the journal, or, with build.equivalent: skip, its predicted lead's)
 * per unit, and single measurements (measure_run(), recorded). See
 * run_priv.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "build/build.h"
#include "tuner/measure.h"
#include "tuner/runner.h"
#include "tuner/uarch_score.h"
#include "tuner/util.h"
#include "run_priv.h"

static int measure_objective(const struct study *s, size_t i)
{
	return !s->objectives[i].from_size;
}

int run_has_measure(const struct study *s)
{
	for (size_t i = 0; i < s->nobjectives; i++)
		if (measure_objective(s, i))
			return 1;
	return 0;
}

void run_fail(struct run_ctx *ctx)
{
	pthread_mutex_lock(&ctx->err_lock);
	if (!ctx->first_error)
		ctx->first_error = xstrdup(*tn_errmsg() ? tn_errmsg() : "unknown error");
	pthread_mutex_unlock(&ctx->err_lock);
	atomic_store(&ctx->error, 1);
}

int run_record_current(const struct run_ctx *ctx, const struct measure_record *r)
{
	return r->mkey[0] ? !strcmp(r->mkey, ctx->mkey) : !ctx->study_changed;
}

size_t run_count_stale(struct run_ctx *ctx)
{
	size_t stale = 0;

	for (size_t i = 0; i < ctx->nunits; i++) {
		const struct measure_record **recs;
		size_t n = journal_measures(ctx->j, ctx->units[i].key, NULL, &recs);

		for (size_t k = 0; k < n; k++)
			stale += !run_record_current(ctx, recs[k]);
		free(recs);
	}
	return stale;
}

size_t run_records(const struct unit *u, size_t t, const struct measure_record ***recs,
		   size_t *ok)
{
	size_t all = journal_measures(u->ctx->j, u->key, lab_slot_testbed(u->ctx, t), recs);
	size_t n = 0;

	*ok = 0;
	for (size_t i = 0; i < all; i++) {
		if (!run_record_current(u->ctx, (*recs)[i]))
			continue;
		(*recs)[n++] = (*recs)[i];
		*ok += (*recs)[n - 1]->ok != 0;
	}
	if (!n) {
		free(*recs);
		*recs = NULL;
	}
	return n;
}

int run_record_counts(const struct study *s, const struct measure_record *r, size_t ok)
{
	return r->ok || ok < s->repeats_min;
}

int run_deploy_failed(const struct measure_record *const *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (recs[i]->deploy_failed)
			return 1;
	return 0;
}

/* The records of u in slot t that count as results (*n: all of them,
 * *ok: the ones that succeeded). A failed deploy (the build did not come
 * up) is its last result: it counts as every run still owed. */
static size_t counted(struct unit *u, size_t t, size_t *n, size_t *ok)
{
	const struct measure_record **recs;
	size_t c = 0;

	*n = run_records(u, t, &recs, ok);
	for (size_t i = 0; i < *n; i++)
		c += (size_t)run_record_counts(u->ctx->s, recs[i], *ok);
	if (!u->ctx->retry_failed && c < u->ctx->s->repeats_max && run_deploy_failed(recs, *n))
		c = u->ctx->s->repeats_max;
	free(recs);
	return c;
}

size_t run_count_measures(struct unit *u, size_t t)
{
	size_t n, ok;

	return counted(u, t, &n, &ok);
}

size_t run_count_records(struct unit *u, size_t t, size_t *done)
{
	size_t n, ok, c = counted(u, t, &n, &ok);

	*done = u->ctx->retry_failed ? ok : c;
	return n;
}

size_t run_count_shared(struct unit *u, size_t t)
{
	struct unit *lead = u->lead ? u->lead : u;
	size_t n = run_count_measures(lead, t);

	for (size_t i = 0; i < lead->ntwins; i++)
		n += run_count_measures(lead->twins[i], t);
	return n;
}

/* u has at least `want` measurements on every testbed, its twins' counted
 * (a build job asks before its unit is noticed: then its own). */
static int measured(struct unit *u, unsigned want)
{
	const struct study *s = u->ctx->s;

	if (!run_has_measure(s))
		return 1;
	for (size_t t = 0; t < study_slots(u->ctx->s); t++)
		if (run_count_shared(u, t) < want)
			return 0;
	return 1;
}

int run_measures_complete(struct unit *u)
{
	return measured(u, u->ctx->s->repeats_min);
}

/* Records the outcome rec of run m->run of m->u. 0, or -1 when the run
 * stops (out of space: not recorded; or the journal failed). */
static int record(struct mjob *m, struct measure_record *rec)
{
	struct unit *u = m->u;
	struct run_ctx *ctx = u->ctx;

	if (!rec->ok && out_of_space(NULL, u->dir)) {
		/* Not the build's result: not recorded; the run stops. */
		char *why = xstrdup(tn_errmsg());

		tn_error("measurement of %s [%s] failed: %s; not recorded", u->cfg.id,
			 u->cfg.flags, why);
		free(why);
		run_fail(ctx);
		return -1;
	}
	memcpy(rec->build_key, u->key, sizeof(rec->build_key));
	memcpy(rec->config_id, u->cfg.id, sizeof(rec->config_id));
	memcpy(rec->mkey, ctx->mkey, sizeof(rec->mkey));
	rec->testbed = (char *)ctx->s->testbeds[m->testbed];
	rec->run = m->run;
	if (journal_add_measure(ctx->j, rec) < 0) {
		run_fail(ctx);
		return -1;
	}
	atomic_fetch_add(&ctx->measures_done, 1);
	atomic_fetch_add(&ctx->measure_ms, (unsigned long)(rec->seconds * 1e3));
	return 0;
}

/*
 * The testbed was at fault: m goes to another testbed of its slot (or
 * back to this one, recovered, when it is the only one). 1 when it was
 * queued again (m is not to be freed), 0 when no testbed is left: the run
 * stops in split mode; in all mode, the testbed's share of the work is
 * lost (the configurations stay incomplete).
 */
static int again(struct mjob *m)
{
	struct run_ctx *ctx = m->u->ctx;
	size_t t = lab_pick(ctx, m->slot, m->u, m->run, m->testbed);

	if (t == SIZE_MAX) {
		atomic_fetch_sub(&ctx->measures_planned, 1);
		lab_none_left(ctx);
		return 0;
	}
	m->testbed = t;
	lab_submit(ctx, m);
	return 1;
}

/* A record of u that says its build did not come up (why). */
static void record_no_boot(struct mjob *m, char *why)
{
	const struct study *s = m->u->ctx->s;
	struct measure_record rec = { 0 };
	size_t k = 0;

	rec.names = xcalloc(s->nobjectives + 1, sizeof(*rec.names));
	rec.values = xcalloc(s->nobjectives + 1, sizeof(*rec.values));
	for (size_t i = 0; i < s->nobjectives; i++) {
		if (!measure_objective(s, i))
			continue;
		rec.names[k] = s->objectives[i].name;
		rec.values[k++] = NAN;
	}
	rec.nvalues = k;
	rec.error = xstrdup(why);
	rec.deploy_failed = 1;
	record(m, &rec);
	measure_run_release(&rec);
}

/* Takes run m->run of unit m->u on testbed m->testbed (getting the testbed
 * ready first) and records it. 1 when m was queued again. */
static int measure_once(struct mjob *m)
{
	struct unit *u = m->u;
	struct run_ctx *ctx = u->ctx;
	const struct study *s = ctx->s;
	struct tb_state *tb = &ctx->tb[m->testbed];
	struct measure_request req = { 0 };
	struct cmd_env e = { 0 };
	struct measure_record rec;
	char uarch[512];
	char **env, *why = NULL;
	int status, requeued = 0;

	if (atomic_load(&u->deploy_failed)) {
		/* Recorded once; its other runs are not taken. */
		atomic_fetch_sub(&ctx->measures_planned, 1);
		return 0;
	}
	if (atomic_load(&tb->quarantined))
		return again(m);
	e.flags = u->cfg.flags;
	e.src = u->src->dir;
	e.out = u->dir;
	e.study_dir = s->dir;
	e.pgo = u->cfg.pgo == PGO_ON ? "use" : "off";
	e.artifact = u->build->artifact;
	e.testbed = s->testbeds[m->testbed];
	e.config_id = u->cfg.id;
	e.jobs = ctx->jobs_per_build;
	e.layout_seed = u->layout_seed;
	e.run = m->run;
	e.extra = tb->env.vars;
	if (s->has_uarch) {
		ua_config_machine(&s->uarch, uarch, sizeof(uarch));
		e.uarch = uarch;
		e.uarch_plugin = ua_plugin_path();
	}
	env = cmd_env_build(&e);
	switch (lab_prepare(ctx, m->testbed, u, env, &why)) {
	case LAB_CANCEL:
		goto out;
	case LAB_FAULT:
	case LAB_MOVE:
		requeued = again(m);
		goto out;
	case LAB_NO_BOOT:
		if (!atomic_exchange(&u->deploy_failed, 1))
			record_no_boot(m, why);
		else
			atomic_fetch_sub(&ctx->measures_planned, 1);
		goto out;
	case LAB_READY:
		break;
	}
	req.study = s;
	req.testbed = m->testbed;
	req.env = env;
	req.dir = u->dir;
	req.secrets = tb->env.secrets;
	req.nsecrets = tb->env.nsecrets;
	if (measure_run(&rec, &req, &status) != 0)
		goto out;
	/* The testbed's fault, not the build's: it said so (75), or it no
	 * longer answers. The run is taken again. */
	if (!rec.ok && (status == 75 || !lab_probe(ctx, m->testbed, env, u->dir))) {
		char *what = xasprintf("measurement of %s run %u: %s%s", u->cfg.id, m->run,
				       rec.error, status == 75 ? " (75: the testbed's fault)" :
				       ", and the testbed does not answer ready");

		lab_fault(ctx, m->testbed, u->key, what, env, u->dir);
		free(what);
		requeued = again(m);
	} else {
		lab_measured(ctx, m->testbed);
		record(m, &rec);
	}
	measure_run_release(&rec);
out:
	free(why);
	cmd_env_free(env);
	return requeued;
}

void run_measure_job(void *arg, int cancelled)
{
	struct mjob *m = arg;
	/* m may be taken up by another worker once queued again. */
	struct run_ctx *ctx = m->u->ctx;
	size_t t = m->testbed;
	/* After a failed journal write nothing more is measured: it could
	 * not be recorded. */
	int requeued = !cancelled && !run_stopped(ctx) && measure_once(m);

	atomic_fetch_sub(&ctx->tb[t].load, 1);
	if (!requeued)
		free(arg);
}

/* Whether the journal holds a pair of builds that checks prediction p
 * (under ctx->pred_lock): a unit of p built, not skipped, and its lead
 * built, both fine with known code. One pair with different code
 * refutes p; else one with the same code confirms it. */
static void check_prediction(struct run_ctx *ctx, struct prediction *p)
{
	for (size_t i = 0; i < ctx->nunits && p->state != PRED_REFUTED; i++) {
		const struct unit *u = &ctx->units[i];
		const struct build_record *a, *b;

		if (!u->pred_lead || &ctx->preds[u->pred] != p)
			continue;
		a = journal_find_build(ctx->j, u->key);
		b = journal_find_build(ctx->j, u->pred_lead->key);
		if (!a || !b || a->status != BUILD_OK || b->status != BUILD_OK ||
		    a->same_build[0] || b->same_build[0] || !a->code[0] || !b->code[0])
			continue;
		if (strcmp(a->code, b->code)) {
			p->state = PRED_REFUTED;
		} else if (p->state == PRED_CONFIRMED) {
			continue;
		} else {
			p->state = PRED_CONFIRMED;
		}
		p->twin = u;
		p->lead = u->pred_lead;
	}
}

void run_nap(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

int run_stopped(const struct run_ctx *ctx)
{
	return tn_cancelled() || atomic_load(&ctx->error);
}

int run_wait_built(struct unit *v)
{
	while (!atomic_load(&v->built)) {
		if (run_stopped(v->ctx))
			return -1;
		run_nap();
	}
	return 0;
}

/*
 * build.equivalent: skip. Whether unit u (with a predicted lead) is to be
 * built: 1 when its prediction is refuted, or not checked and no build is
 * checking it (u then checks it: u->verifying), or its lead did not build
 * fine; 0 when it was recorded as its lead's build (confirmed); -1 when
 * the run stopped. Waits while another build checks the prediction, and
 * for the lead.
 */
static int build_needed(struct unit *u)
{
	struct run_ctx *ctx = u->ctx;
	struct prediction *p = &ctx->preds[u->pred];
	const struct build_record *lead;
	struct build_record rec;
	enum pred_state st;
	char *log, *note;
	int ret;

	for (;;) {
		pthread_mutex_lock(&ctx->pred_lock);
		if (p->state == PRED_UNCHECKED)
			check_prediction(ctx, p);
		st = p->state;
		if (st == PRED_UNCHECKED && !p->verifying) {
			p->verifying++;
			u->verifying = 1;
		}
		pthread_mutex_unlock(&ctx->pred_lock);
		if (st != PRED_UNCHECKED || u->verifying)
			break;
		if (run_stopped(ctx))
			return -1;
		run_nap();
	}
	if (st != PRED_CONFIRMED)
		return 1;
	if (run_wait_built(u->pred_lead) < 0)
		return -1;
	lead = u->pred_lead->build;
	if (!lead || lead->status != BUILD_OK || !lead->code[0] || !lead->artifact)
		return 1;

	memset(&rec, 0, sizeof(rec));
	memcpy(rec.key, u->key, sizeof(rec.key));
	memcpy(rec.config_id, u->cfg.id, sizeof(rec.config_id));
	rec.layout_seed = u->layout_seed;
	rec.flags = u->cfg.flags;
	rec.pgo = u->cfg.pgo == PGO_ON;
	memcpy(rec.commit, u->src->commit, sizeof(rec.commit));
	memcpy(rec.tree, u->src->tree, sizeof(rec.tree));
	rec.dirty = u->src->dirty;
	rec.status = BUILD_OK;
	rec.size = lead->size;
	rec.dir = u->dir;
	rec.artifact = lead->artifact;
	memcpy(rec.code, lead->code, sizeof(rec.code));
	memcpy(rec.same_build, lead->key, sizeof(rec.same_build));
	rec.ignored = u->ignored;
	/* Its directory says why it holds no build (measure logs go there). */
	log = xasprintf("%s/build.log", u->dir);
	note = xasprintf("== tuner: not built: gcc ignores %s at -Os and -Oz (predicted, and "
			 "confirmed: %s and %s built the same code); this configuration's build "
			 "is the one of %s: %s\n", u->ignored, p->twin->cfg.id, p->lead->cfg.id,
			 u->pred_lead->cfg.id, lead->dir);
	if (remove_tree(u->dir) < 0 || mkdir_p(u->dir) < 0 ||
	    write_file_atomic(log, note, strlen(note)) < 0)
		tn_error_clear(); /* only the note is lost */
	free(log);
	free(note);
	ret = journal_add_build(ctx->j, &rec);
	if (ret < 0) {
		run_fail(ctx);
		return -1;
	}
	u->build = journal_find_build(ctx->j, u->key);
	atomic_fetch_add(&ctx->builds_skipped, 1);
	atomic_store(&u->built, 1);
	return 0;
}

/* After u's build checked its prediction: waits for the lead, then lets
 * the pair decide it. */
static void checked(struct unit *u)
{
	struct run_ctx *ctx = u->ctx;

	if (!u->verifying)
		return;
	(void)run_wait_built(u->pred_lead);
	pthread_mutex_lock(&ctx->pred_lock);
	ctx->preds[u->pred].verifying--;
	check_prediction(ctx, &ctx->preds[u->pred]);
	pthread_mutex_unlock(&ctx->pred_lock);
	u->verifying = 0;
}

void run_summarize_predictions(struct run_result *out, struct run_ctx *ctx)
{
	if (!ctx->npreds)
		return;
	out->predictions = xcalloc(ctx->npreds, sizeof(*out->predictions));
	out->npredictions = ctx->npreds;
	for (size_t k = 0; k < ctx->npreds; k++) {
		struct prediction *p = &ctx->preds[k];
		struct run_prediction *r = &out->predictions[k];

		check_prediction(ctx, p);
		r->ignored = xstrdup(p->ignored);
		r->pgo = p->pgo;
		r->checked = p->state == PRED_CONFIRMED ? 1 : p->state == PRED_REFUTED ? -1 : 0;
		if (p->twin) {
			memcpy(r->twin, p->twin->cfg.id, sizeof(r->twin));
			memcpy(r->lead, p->lead->cfg.id, sizeof(r->lead));
		}
		for (size_t i = 0; i < ctx->nunits; i++) {
			const struct unit *u = &ctx->units[i];
			const struct build_record *b;
			if (!u->pred_lead || u->pred != k)
				continue;
			b = journal_find_build(ctx->j, u->key);
			r->skipped += b && b->same_build[0];
		}
	}
}

void run_build_job(void *arg, int cancelled)
{
	struct unit *u = arg;
	struct run_ctx *ctx = u->ctx;
	const struct build_record *prev;
	struct build_record rec;
	struct build_request req;
	struct stat st;
	char *profile_dir = NULL;
	int ret;

	if (cancelled) {
		atomic_store(&u->prof_trained, -1);
		return;
	}
	prev = journal_find_build(ctx->j, u->key);
	/*
	 * Reuse a recorded build unless its artifact is gone and it may still
	 * have measuring to do (the race may want up to repeats.max). A
	 * failed build is a result: not retried, unless --retry-failed.
	 */
	if (prev && (prev->status != BUILD_OK ? !ctx->retry_failed :
		     measured(u, ctx->s->repeats_max) ||
		     (prev->artifact && stat(prev->artifact, &st) == 0))) {
		u->build = prev;
		atomic_fetch_add(&ctx->builds_cached, 1);
		atomic_store(&u->built, 1);
		run_profile_done(u);
		return;
	}
	if (u->pred_lead) {
		int need = build_needed(u);
		if (need <= 0) {
			run_profile_done(u);
			return;
		}
	}
	memset(&req, 0, sizeof(req));
	if (u->prof_lead) {
		int share = run_profile_share(u, &profile_dir);

		if (share < 0) {
			atomic_store(&u->prof_trained, -1);
			return;
		}
		if (share) {
			req.profile_from_dir = profile_dir;
			req.profile_from_key = u->prof_lead->key;
		}
	}

	atomic_fetch_add(&ctx->builds_running, 1);
	req.study = ctx->s;
	req.config = &u->cfg;
	req.layout_seed = u->layout_seed;
	req.src_dir = u->src->dir;
	req.commit = u->src->commit;
	req.tree = u->src->tree;
	req.dirty = u->src->dirty;
	req.dir = u->dir;
	req.cache_dir = ctx->cache_dir;
	req.key = u->key;
	req.jobs = ctx->jobs_per_build;
	req.on_trained = run_profile_trained;
	req.on_trained_arg = u;
	ret = build_run(&rec, &req);
	free(profile_dir);
	atomic_fetch_sub(&ctx->builds_running, 1);
	if (ret == BUILD_ECANCELLED) {
		checked(u);
		run_profile_done(u);
		return;
	}
	if (ret < 0 || journal_add_build(ctx->j, &rec) < 0) {
		/* The run reports the first such message; the journal
		 * holds what was done. */
		run_fail(ctx);
		if (ret == 0)
			journal_build_record_release(&rec);
		run_profile_done(u);
		return;
	}
	journal_build_record_release(&rec);
	u->build = journal_find_build(ctx->j, u->key);
	atomic_fetch_add(&ctx->builds_done, 1);
	if (u->build->status != BUILD_OK)
		atomic_fetch_add(&ctx->builds_failed, 1);
	atomic_store(&u->built, 1);
	checked(u);
	run_profile_done(u);
}
