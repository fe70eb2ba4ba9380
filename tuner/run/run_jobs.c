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

#include "build/build.h"
#include "tuner/measure.h"
#include "tuner/runner.h"
#include "tuner/uarch_score.h"
#include "tuner/util.h"
#include "run_priv.h"

/* Records the outcome rec of run m->run of m->u, whose command ended
 * with status (-1: none). 0, or -1 when the run stops (out of space or
 * past the file size limit: not recorded; or the journal failed). */
static int record(struct mjob *m, struct measure_record *rec, int status)
{
	struct unit *u = m->u;
	struct run_ctx *ctx = u->ctx;
	int env_fault = 0;

	if (!rec->ok) {
		char *log = measure_log_path(u->dir, ctx->s->testbeds[m->testbed]);

		env_fault = out_of_space(NULL, u->dir) || over_file_size_limit(log, status);
		free(log);
	}
	if (env_fault) {
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
	size_t t = run_lab_pick(ctx, m->slot, m->u, m->run, m->testbed);

	if (t == SIZE_MAX) {
		atomic_fetch_sub(&ctx->measures_planned, 1);
		run_lab_none_left(ctx);
		return 0;
	}
	m->testbed = t;
	run_measure_submit(ctx, m);
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
		if (s->objectives[i].from_size)
			continue;
		rec.names[k] = s->objectives[i].name;
		rec.values[k++] = NAN;
	}
	rec.nvalues = k;
	rec.error = xstrdup(why);
	rec.deploy_failed = 1;
	record(m, &rec, -1);
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
	switch (run_lab_prepare(ctx, m->testbed, u, env, &why)) {
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
	if (measure_run(&rec, &req, &status) == TN_ECANCELLED)
		goto out;
	/* The testbed's fault, not the build's: it said so (75), or it no
	 * longer answers. The run is taken again. */
	if (!rec.ok && (status == 75 || !run_lab_probe(ctx, m->testbed, env, u->dir))) {
		char *what = xasprintf("measurement of %s run %u: %s%s", u->cfg.id, m->run,
				       rec.error, status == 75 ? " (75: the testbed's fault)" :
				       ", and the testbed does not answer ready");

		run_lab_fault(ctx, m->testbed, u->key, what, env, u->dir);
		free(what);
		requeued = again(m);
	} else {
		run_lab_measured(ctx, m->testbed);
		record(m, &rec, status);
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

void run_measure_submit(struct run_ctx *ctx, struct mjob *m)
{
	atomic_fetch_add(&ctx->tb[m->testbed].load, 1);
	pool_submit(ctx->pool, 1 + m->testbed, run_measure_job, m);
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
		     run_measured(u, ctx->s->repeats_max) ||
		     (prev->artifact && stat(prev->artifact, &st) == 0))) {
		u->build = prev;
		atomic_fetch_add(&ctx->builds_cached, 1);
		atomic_store(&u->built, 1);
		run_profile_done(u);
		return;
	}
	if (u->pred_lead) {
		int need = run_predict_needed(u);
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
	if (ret == TN_ECANCELLED) {
		run_predict_checked(u);
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
	run_predict_checked(u);
	run_profile_done(u);
}
