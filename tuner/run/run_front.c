/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_front: from the journal to samples per configuration and objective,
 * the noise-aware front and the summary of a run. See run_priv.h.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/stats.h"
#include "tuner/util.h"
#include "run_priv.h"

/* The samples of one configuration on one objective, with the layout seed
 * of each as its cluster. */
struct samples {
	double *x;
	unsigned *cl;
	size_t n, alloc, calloc_;
};

static void push(struct samples *b, double v, unsigned cluster)
{
	ALLOC_GROW(b->x, b->n + 1, b->alloc);
	ALLOC_GROW(b->cl, b->n + 1, b->calloc_);
	b->x[b->n] = v;
	b->cl[b->n++] = cluster;
}

struct collecting {
	struct samples *b;
	unsigned cluster;
	const double *shift; /* per testbed (log scale), or NULL */
};

static void collect_one(double v, size_t t, void *arg)
{
	struct collecting *c = arg;

	if (c->shift && t != SIZE_MAX)
		v *= exp(-c->shift[t]);
	push(c->b, v, c->cluster);
}

/* Appends u's samples of objective o, runs < limit on each testbed, each
 * taken back by its testbed's effect (shift, NULL: none). */
static void collect(struct samples *b, struct run_ctx *ctx, struct unit *u,
		    const struct objective *o, unsigned limit, const double *shift)
{
	struct collecting c = { b, u->layout_seed, shift };

	run_each_sample(ctx, u, o, limit, collect_one, &c);
}

/* Gathers samples[c * m + i] for every configuration and objective, each
 * taken back by its testbed's effect where the testbeds differ
 * (run_block(); into blk when not NULL). */
static struct samples *gather(struct run_ctx *ctx, struct unit *units, size_t nconfigs,
			      const unsigned *runs, struct run_block *blk)
{
	const struct study *s = ctx->s;
	size_t m = s->nobjectives;
	struct samples *b = xcalloc(nconfigs * m + 1, sizeof(*b));
	struct run_block own;

	if (!blk)
		blk = &own;
	run_block(blk, ctx, units, nconfigs, runs);
	for (size_t c = 0; c < nconfigs; c++)
		for (size_t i = 0; i < m; i++)
			for (size_t k = 0; k < ctx->cfg_units[c]; k++)
				collect(&b[c * m + i], ctx, &units[ctx->cfg_first[c] + k],
					&s->objectives[i],
					runs ? runs[c] : UINT_MAX,
					blk->adjusted[i] ? &blk->shift[i * s->ntestbeds] : NULL);
	if (blk == &own)
		run_block_release(&own);
	return b;
}

static void samples_free(struct samples *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(b[i].x);
		free(b[i].cl);
	}
	free(b);
}

/* The front of values (NaN rows: infeasible) over samples b. */
static size_t front_of(struct pareto_verdict *out, int *noisy, const struct run_ctx *ctx,
		       const double *values, const struct samples *b, size_t nconfigs)
{
	const struct study *s = ctx->s;
	size_t m = s->nobjectives;
	struct pareto_obj *po = xcalloc(m ? m : 1, sizeof(*po));
	struct pareto_samples *ps = xcalloc(nconfigs * m + 1, sizeof(*ps));
	size_t nfront;

	/* A size is known exactly; its spread over layout seeds is the
	 * layouts', not noise. */
	study_pareto_objs(po, s);
	for (size_t q = 0; q < nconfigs * m; q++) {
		ps[q].x = b[q].x;
		/* Compared by layout-seed means where it has several. */
		ps[q].cluster = ctx->cfg_units[q / m] > 1 ? b[q].cl : NULL;
		ps[q].n = b[q].n;
	}
	nfront = pareto_front_noisy(out, noisy, values, ps, nconfigs, po, m, RUN_LEVEL);
	free(po);
	free(ps);
	return nfront;
}

size_t run_front(struct pareto_verdict *out, int *noisy, struct run_ctx *ctx,
		 struct unit *units, size_t nconfigs, const unsigned *runs,
		 const int *skip)
{
	size_t m = ctx->s->nobjectives;
	struct samples *b = gather(ctx, units, nconfigs, runs, NULL);
	double *values = xcalloc(nconfigs * m + 1, sizeof(*values));
	struct summary sm;
	size_t nfront;

	for (size_t q = 0; q < nconfigs * m; q++) {
		stats_summarize(&sm, b[q].x, b[q].n);
		values[q] = skip && skip[q / m] ? NAN : sm.trimmed_mean;
	}
	nfront = front_of(out, noisy, ctx, values, b, nconfigs);
	samples_free(b, nconfigs * m);
	free(values);
	return nfront;
}

/* Whether the journal holds a failed deploy of u (it did not come up). */
static int deploy_failed(struct run_ctx *ctx, struct unit *u)
{
	int failed = 0;

	for (size_t t = 0; t < study_slots(ctx->s) && !failed; t++) {
		const struct measure_record **recs;
		size_t ok, n = run_records(u->lead ? u->lead : u, t, &recs, &ok);

		failed = run_deploy_failed(recs, n);
		free(recs);
	}
	return failed;
}

/* Status of configuration c: "ok", a build status, "incomplete" (fewer
 * than repeats.min runs somewhere), "deploy-failed" (a build did not come
 * up on the testbeds) or "measure-failed". */
static const char *config_status(struct run_ctx *ctx, struct unit *first, size_t L,
				 const struct samples *b)
{
	const char *status = "ok";
	int complete = 1;

	for (size_t k = 0; k < L; k++) {
		struct unit *u = &first[k];
		if (!atomic_load(&u->built) || !u->build)
			complete = 0;
		else if (u->build->status != BUILD_OK)
			return journal_build_status_name(u->build->status);
		else if (deploy_failed(ctx, u))
			return "deploy-failed";
		else if (!run_measures_complete(u))
			complete = 0;
	}
	if (!complete)
		return "incomplete";
	for (size_t i = 0; i < ctx->s->nobjectives; i++) {
		struct summary sm;
		stats_summarize(&sm, b[i].x, b[i].n);
		if (sm.n == 0 || sm.n < b[i].n)
			status = "measure-failed";
	}
	return status;
}

/* The configuration unit u of units[] belongs to (its index). */
static size_t unit_config(const struct run_ctx *ctx, const struct unit *units,
			  const struct unit *u)
{
	size_t i = (size_t)(u - units);

	for (size_t c = 0; c < ctx->nconfigs; c++)
		if (i >= ctx->cfg_first[c] && i < ctx->cfg_first[c] + ctx->cfg_units[c])
			return c;
	return SIZE_MAX;
}

void run_summarize(struct run_result *out, struct run_ctx *ctx,
		   struct unit *units, size_t nunits)
{
	const struct study *s = ctx->s;
	size_t m = s->nobjectives, nc = ctx->nconfigs;
	struct samples *b = gather(ctx, units, nc, NULL, &out->block);
	double *matrix = xcalloc(nc * m + 1, sizeof(*matrix));
	struct pareto_verdict *v = xcalloc(nc + 1, sizeof(*v));

	out->nconfigs = nc;
	out->nobjectives = m;
	out->configs = xcalloc(nc + 1, sizeof(*out->configs));
	out->noisy = xcalloc(m ? m : 1, sizeof(*out->noisy));
	for (size_t c = 0; c < nc; c++) {
		struct config_result *cr = &out->configs[c];
		struct unit *first = &units[ctx->cfg_first[c]];
		size_t L = ctx->cfg_units[c];

		memcpy(cr->id, first->cfg.id, sizeof(cr->id));
		memcpy(cr->commit, first->src->commit, sizeof(cr->commit));
		cr->flags = xstrdup(first->cfg.flags);
		cr->pgo = first->cfg.pgo == PGO_ON;
		cr->status = config_status(ctx, first, L, &b[c * m]);
		cr->nbuilds = L;
		cr->build_dirs = xcalloc(L, sizeof(*cr->build_dirs));
		for (size_t k = 0; k < L; k++)
			cr->build_dirs[k] = xstrdup(first[k].dir);
		cr->obj = xcalloc(m ? m : 1, sizeof(*cr->obj));
		cr->value = xcalloc(m ? m : 1, sizeof(*cr->value));
		cr->spread = xcalloc(m ? m : 1, sizeof(*cr->spread));
		for (size_t i = 0; i < m; i++) {
			const struct samples *q = &b[c * m + i];
			stats_summarize(&cr->obj[i], q->x, q->n);
			stats_layout_spread(&cr->spread[i], q->x, q->cl, q->n);
			cr->value[i] = cr->obj[i].trimmed_mean;
			matrix[c * m + i] = strcmp(cr->status, "ok") ? NAN : cr->value[i];
		}
		if (ctx->race_verdict) {
			cr->runs = ctx->race_runs[c];
			cr->race = ctx->race_verdict[c];
		}
		for (size_t k = 0; k < L; k++)
			if (atomic_load(&first[k].built) && first[k].build)
				applied_merge(&cr->applied, &first[k].build->applied);
		cr->build_code = xcalloc(L, sizeof(*cr->build_code));
		cr->build_lead = xcalloc(L, sizeof(*cr->build_lead));
		for (size_t k = 0; k < L; k++) {
			memcpy(cr->build_code[k], first[k].code, sizeof(cr->build_code[k]));
			cr->build_lead[k] = first[k].lead ? unit_config(ctx, units, first[k].lead) : SIZE_MAX;
		}
		for (size_t k = 0; k < L && !cr->same_code_as[0]; k++) {
			const struct unit *lead = first[k].lead;
			if (lead && lead != &first[k] && strcmp(lead->cfg.id, cr->id))
				memcpy(cr->same_code_as, lead->cfg.id, sizeof(cr->same_code_as));
		}
	}
	front_of(v, out->noisy, ctx, matrix, b, nc);
	for (size_t c = 0; c < nc; c++) {
		struct config_result *cr = &out->configs[c];
		/*
		 * What the race settled stands, as in any race: a stopped
		 * configuration got no more samples while its rivals did, so a
		 * test on all of them can lose a significance it had; the
		 * decision was made at its 5% when it was taken.
		 */
		if (cr->race && !strcmp(cr->race, "dominated")) {
			pareto_verdicts_release(&v[c], 1);
			v[c].on_front = v[c].tied = 0;
		} else if (cr->race && !strcmp(cr->race, "front") && v[c].feasible)
			v[c].on_front = 1;
		out->nfront += (size_t)v[c].on_front;
		cr->on_front = v[c].on_front;
		cr->feasible = v[c].feasible;
		cr->tied = v[c].tied;
		cr->ntied = v[c].ntied;
		if (v[c].ntied)
			cr->tied_with = xcalloc(v[c].ntied, sizeof(*cr->tied_with));
		for (size_t k = 0; k < v[c].ntied; k++)
			memcpy(cr->tied_with[k], out->configs[v[c].tied_with[k]].id, 17);
	}
	pareto_verdicts_release(v, nc);
	free(v);
	free(matrix);
	/* The samples move into the results. */
	for (size_t c = 0; c < nc; c++) {
		struct config_result *cr = &out->configs[c];
		cr->samples = xcalloc(m ? m : 1, sizeof(*cr->samples));
		for (size_t i = 0; i < m; i++) {
			cr->samples[i].x = b[c * m + i].x;
			cr->samples[i].layout_seed = b[c * m + i].cl;
			cr->samples[i].n = b[c * m + i].n;
		}
	}
	free(b);
}

void run_warn_applied(const struct run_result *r, struct run_ctx *ctx,
		      struct unit *units, size_t nunits, const struct run_reporter *rep)
{
	struct strbuf sb = STRBUF_INIT;
	size_t unchecked = 0;

	if (ctx->s->applied == APPLIED_OFF)
		return;
	for (size_t c = 0; c < r->nconfigs; c++) {
		const struct config_result *cr = &r->configs[c];
		char *prefix = xasprintf("warning: %s (%s): ", cr->id,
					 *cr->flags ? cr->flags : "no flags");

		applied_describe(&sb, &cr->applied, prefix);
		free(prefix);
	}
	/* One note per line. */
	for (char *line = sb.buf; line && *line;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		run_note(rep, "%s", line);
		line = nl ? nl + 1 : NULL;
	}
	for (size_t i = 0; i < nunits; i++)
		unchecked += atomic_load(&units[i].built) && units[i].build &&
			     units[i].build->status == BUILD_OK &&
			     !units[i].build->same_build[0] && /* not built */
			     !units[i].build->applied.checked;
	if (unchecked)
		run_note(rep, "note: %zu builds from the journal were made before build.applied was set: their flags were not checked (remove their builds from %s to check them)",
			 unchecked, r->results_dir);
	strbuf_release(&sb);
}
