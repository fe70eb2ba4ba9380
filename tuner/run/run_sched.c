/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run_sched: the scheduler: builds noticed as they finish, builds with the same code joined, measurement rounds per testbed, the race, and the status line (see run_priv.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "build/codeid.h"
#include "tuner/util.h"
#include "run_priv.h"

/*
 * The time left until every build is made and measured measure.repeats
 * (min) times (racing past that is not foreseen): the builds at the rate
 * they have been finishing, then at least one measurement; the
 * measurements still owed, at their mean time, one testbed at a time each.
 * Nothing until something of each kind was timed.
 */
static void eta_text(char *buf, size_t len, struct run_ctx *ctx, size_t nunits, double elapsed)
{
	const struct study *s = ctx->s;
	unsigned long done = atomic_load(&ctx->builds_done);
	unsigned long finished = done + atomic_load(&ctx->builds_cached) +
				 atomic_load(&ctx->builds_skipped);
	unsigned long mdone = atomic_load(&ctx->measures_done);
	unsigned long mcached = atomic_load(&ctx->measures_cached);
	double per_measure = mdone ? (double)atomic_load(&ctx->measure_ms) / 1e3 / (double)mdone : NAN;
	double builds = 0, measures = 0, left;
	unsigned long owed = 0;
	char d[24];

	buf[0] = '\0';
	if (finished < nunits) {
		if (!done)
			return;
		builds = elapsed / (double)done * (double)(nunits - finished);
	}
	if (run_has_measure(s)) {
		/* Twins are measured as their lead. */
		owed = (unsigned long)(nunits - ctx->twins) * s->repeats_min * study_slots(ctx->s);
		owed = owed > mdone + mcached ? owed - mdone - mcached : 0;
		if (owed && isnan(per_measure))
			return;
		if (owed)
			measures = (double)owed * per_measure / (double)s->ntestbeds;
		if (finished < nunits && !isnan(per_measure))
			builds += per_measure;
	}
	left = builds > measures ? builds : measures;
	if (left <= 0)
		return;
	format_duration(d, sizeof(d), left);
	snprintf(buf, len, ", ETA %s", d);
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

	eta_text(eta, sizeof(eta), ctx, nunits, elapsed);
	if (skipped)
		snprintf(same, sizeof(same), ", %lu not needed", skipped);
	snprintf(text, sizeof(text),
		 "tuner: builds %lu/%zu done (%lu cached%s, %lu failed), %lu running, %zu queued; measurements %lu done, %lu waiting (%lu cached)%s",
		 finished, nunits, cached, same, failed, running, queued, mdone,
		 mplanned > mdone ? mplanned - mdone : 0, mcached, eta);
	run_status(p, text, force);
}

/* The measurement scheduler of one run (main thread only). */
struct sched {
	struct run_ctx *ctx;
	struct unit *units;
	size_t nunits, nconfigs;
	const struct run_reporter *prog;
	double start;
	struct unit **last;   /* per testbed: the unit measured last */
	size_t unbuilt;       /* units whose build has not finished */
};

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
	u->pooled = xcalloc(study_slots(sc->ctx->s), sizeof(*u->pooled));
	u->uncounted = xcalloc(study_slots(sc->ctx->s), sizeof(*u->uncounted));
	memcpy(u->code, u->build->code, sizeof(u->code));
	if (s->share_same_code && !u->code[0] && u->build->artifact &&
	    codeid_file(u->code, u->build->artifact) < 0) {
		u->code[0] = '\0';
		tn_error_clear();
	}
	for (size_t i = 0; i < sc->nunits && s->share_same_code && u->code[0] && !lead; i++) {
		struct unit *v = &sc->units[i];
		if (v != u && v->lead == v && !strcmp(v->code, u->code))
			lead = v;
	}
	for (size_t t = 0; t < study_slots(sc->ctx->s); t++) {
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
	/* One more twin, whichever of the two leads. */
	sc->ctx->twins++;
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

/* Queues u's next run of slot t, on the testbed run_lab_pick() gives: 1, or 0
 * when no testbed is left (split: the run stops). */
static int submit(struct sched *sc, struct unit *u, size_t t)
{
	struct run_ctx *ctx = sc->ctx;
	size_t tb = run_lab_pick(ctx, t, u, u->next[t], SIZE_MAX);
	struct mjob *m;

	if (tb == SIZE_MAX) {
		run_lab_none_left(ctx);
		return 0;
	}
	m = xmalloc(sizeof(*m));
	m->u = u;
	m->slot = t;
	m->testbed = tb;
	m->run = u->next[t]++;
	sc->last[t] = u;
	atomic_fetch_add(&ctx->measures_planned, 1);
	run_measure_submit(ctx, m);
	return 1;
}

/* Queues u's runs of slot t up to `upto`: one (lab.order rounds), or all
 * of them back to back (builds). The number queued. */
static size_t submit_runs(struct sched *sc, struct unit *u, size_t t, unsigned upto)
{
	size_t n = 0;

	do {
		if (!submit(sc, u, t))
			break;
		n++;
	} while (sc->ctx->s->lab.order == LAB_BUILDS &&
		 u->next[t] - u->uncounted[t] + u->pooled[t] < upto);
	return n;
}

/*
 * Queues one round on testbed t: the next run of every built unit with
 * fewer than `upto` runs (its lead's and the lead's twins' together: the
 * lead is the one measured), in configuration order, among the
 * configurations with racing[c] set (racing NULL: all). The unit measured
 * last is never measured again first: while builds are running it waits
 * for the next round (another build may come to go between), else it goes
 * last in this one. With lab.order builds, a unit's runs go back to back,
 * the units a testbed held at the start first. Returns the number queued.
 */
/* One pass of queue_round() over the configurations: pass 0 takes only
 * the units a testbed held at the start, pass 1 the others (lab.order
 * builds; rounds: pass 1 takes all). prev: the unit measured last before
 * the round; *held: prev, when it is to go last. */
static size_t queue_pass(struct sched *sc, size_t t, unsigned upto, const int *racing,
			 int pass, const struct unit *prev, struct unit **held)
{
	const int builds = sc->ctx->s->lab.order == LAB_BUILDS;
	size_t n = 0;

	for (size_t c = 0; c < sc->nconfigs; c++) {
		if (racing && !racing[c])
			continue;
		for (size_t k = 0; k < sc->ctx->cfg_units[c]; k++) {
			struct unit *u = &sc->units[sc->ctx->cfg_first[c] + k];
			if (!unit_ok(u) || !u->lead)
				continue;
			u = u->lead;
			if (u->next[t] - u->uncounted[t] + u->pooled[t] >= upto)
				continue;
			if (builds && (run_lab_held(sc->ctx, u) == SIZE_MAX) == !pass)
				continue;
			if (u == prev && !builds) {
				if (!sc->unbuilt || run_stopped(sc->ctx))
					*held = u;
				continue;
			}
			n += submit_runs(sc, u, t, upto);
		}
	}
	return n;
}

static size_t queue_round(struct sched *sc, size_t t, unsigned upto, const int *racing)
{
	struct unit *prev = sc->last[t], *held = NULL;
	size_t n = 0;

	/* lab.order builds: first the builds a testbed held when the run
	 * started (a rerun goes on with them before anything is flashed). */
	for (int pass = sc->ctx->s->lab.order == LAB_BUILDS ? 0 : 1; pass < 2; pass++)
		n += queue_pass(sc, t, upto, racing, pass, prev, &held);
	if (held)
		n += submit_runs(sc, held, t, upto);
	return n;
}

/* Whether slot t can take more: a testbed of it with nothing queued (one
 * not quarantined). */
static int slot_idle(struct run_ctx *ctx, size_t t)
{
	for (size_t k = 0; k < ctx->s->ntestbeds; k++) {
		size_t queued;

		if (run_slot(ctx, k) != t || atomic_load(&ctx->tb[k].quarantined))
			continue;
		pool_counts(ctx->pool, 1 + k, &queued, NULL, NULL);
		if (!queued)
			return 1;
	}
	return 0;
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
		for (size_t t = 0; t < study_slots(s) && run_has_measure(s) && !run_stopped(ctx); t++)
			if (slot_idle(ctx, t))
				queued_now += queue_round(sc, t, s->repeats_min, NULL);
		run_lab_say_notes(ctx, sc->prog);
		show_progress(sc->prog, ctx, sc->nunits, sc->start, 0);
		if (idle && !queued_now)
			break;
	}
}

/* Waits for the pool to run dry, showing progress. */
static void drain(struct sched *sc)
{
	while (!pool_wait(sc->ctx->pool, 0.1)) {
		run_lab_say_notes(sc->ctx, sc->prog);
		show_progress(sc->prog, sc->ctx, sc->nunits, sc->start, 0);
	}
	run_lab_say_notes(sc->ctx, sc->prog);
}

/* The configurations that can race: every build fine, every build with its
 * repeats.min runs. */
static int *race_entrants(struct sched *sc)
{
	int *racing = xcalloc(sc->nconfigs + 1, sizeof(*racing));

	for (size_t c = 0; c < sc->nconfigs; c++) {
		racing[c] = 1;
		for (size_t k = 0; k < sc->ctx->cfg_units[c] && racing[c]; k++) {
			struct unit *u = &sc->units[sc->ctx->cfg_first[c] + k];
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
	size_t nc = sc->nconfigs, T = study_slots(ctx->s);
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
		if (!left || k >= s->repeats_max || run_stopped(ctx))
			break;
		for (size_t c = 0; c < nc; c++)
			for (size_t q = 0; q < ctx->cfg_units[c] * T && racing[c]; q++) {
				struct unit *u = &sc->units[ctx->cfg_first[c] + q / T];
				if (u->next[q % T] > k)
					atomic_fetch_add(&ctx->measures_cached, 1);
			}
		for (size_t t = 0; t < T; t++)
			queue_round(sc, t, k + 1, racing);
		drain(sc);
		if (run_stopped(ctx))
			break;
		k++;
		for (size_t c = 0; c < nc; c++)
			if (racing[c])
				ctx->race_runs[c] = k;
	}
	for (size_t c = 0; c < nc; c++) {
		if (racing[c])
			ctx->race_verdict[c] = run_stopped(ctx) ? "stopped" : "max";
		if (!skip[c]) {
			out->race_measures += (unsigned long)ctx->race_runs[c] *
					      ctx->cfg_units[c] * T;
			out->race_full += (unsigned long)s->repeats_max * ctx->cfg_units[c] * T;
		}
	}
	free(racing);
	free(skip);
	free(noisy);
	free(v);
}

/*
 * The builds, the first repeats.min runs of each as builds finish, then
 * the race when measure.repeats min < max; the status line meanwhile.
 */
void run_schedule(struct run_result *out, struct run_ctx *ctx, const struct run_reporter *rep,
		  double start)
{
	const struct study *s = ctx->s;
	struct sched sc = { 0 };

	sc.ctx = ctx;
	sc.units = ctx->units;
	sc.nunits = ctx->nunits;
	sc.nconfigs = ctx->nconfigs;
	sc.prog = rep;
	sc.start = start;
	sc.last = xcalloc(study_slots(ctx->s), sizeof(*sc.last));
	sc.unbuilt = ctx->nunits;
	build_and_measure(&sc);
	out->raced = s->repeats_min < s->repeats_max && run_has_measure(s);
	if (out->raced && !run_stopped(ctx))
		race(&sc, out);
	show_progress(rep, ctx, ctx->nunits, start, 1);
	free(sc.last);
}
