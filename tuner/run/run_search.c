/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run_search: a study's strategy a batch at a time, each batch run by
 * run_study() (see run_search() in include/tuner/run.h, docs/search.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/run.h"
#include "tuner/strategy.h"
#include "tuner/util.h"
#include "run_priv.h"

/* The inner run's status line behind the search's own words. */
struct search_rep {
	struct run_reporter r;
	const struct run_reporter *outer;
	char prefix[200];
	struct u64set said; /* each batch's run says the same notes: once */
};

static void rep_status(void *arg, const char *text, int force)
{
	struct search_rep *sr = arg;
	char *line;

	if (!text) {
		run_status(sr->outer, NULL, force);
		return;
	}
	line = xasprintf("%s; %s", sr->prefix, text);
	run_status(sr->outer, line, force);
	free(line);
}

static void rep_note(void *arg, const char *line)
{
	struct search_rep *sr = arg;

	if (sr->outer && sr->outer->note && u64set_add(&sr->said, hash64_str(HASH64_INIT, line)))
		sr->outer->note(sr->outer->arg, line);
}

/* The configuration result of pick in r, or NULL. */
static const struct config_result *find_result(const struct study *s,
					       const struct run_result *r, const size_t *pick)
{
	struct config c = CONFIG_INIT;
	const struct config_result *found = NULL;

	if (space_config_pick(&c, &s->space, pick) < 0)
		return NULL;
	for (size_t i = 0; i < r->nconfigs && !found; i++)
		if (!strcmp(r->configs[i].id, c.id))
			found = &r->configs[i];
	config_release(&c);
	return found;
}

/* The summary of the samples of round r of a configuration (its layout
 * seeds r * L .. (r + 1) * L - 1, run_plan_rounds()). */
static void round_summary(struct summary *out, const struct run_samples *sm, unsigned r,
			  unsigned L)
{
	double *x = xcalloc(sm->n + 1, sizeof(*x));
	size_t n = 0;

	for (size_t i = 0; i < sm->n; i++)
		if (sm->layout_seed[i] / L == r)
			x[n++] = sm->x[i];
	stats_summarize(out, x, n);
	free(x);
}

/* Fills the trail's entries from..n from the run's results: each
 * proposal's own round of its configuration's builds. */
static void observe(struct strategy_trail *t, size_t from, const struct study *s,
		    const struct run_result *r)
{
	unsigned *round = xcalloc(t->n + 1, sizeof(*round));

	run_plan_rounds(round, t->picks, t->n, t->ndims);
	for (size_t i = from; i < t->n; i++) {
		const struct config_result *cr = find_result(s, r, t->picks + i * t->ndims);

		t->failed[i] = !cr || strcmp(cr->status, "ok");
		for (size_t k = 0; cr && !t->failed[i] && k < t->nobjs; k++) {
			struct summary sm;

			round_summary(&sm, &cr->samples[k], round[i], s->layout_samples);
			t->failed[i] = !sm.n;
			t->value[i * t->nobjs + k] = sm.trimmed_mean;
			t->se[i * t->nobjs + k] = sm.n >= 2 ? sm.stddev / sqrt((double)sm.n) : 0;
		}
	}
	free(round);
}

char *run_search_describe(const struct strategy_ops *ops, void *st, const struct study *s,
			  struct strategy_trail *trail)
{
	const char **names;
	char *text;

	if (!ops->describe || !trail->n)
		return NULL;
	names = xcalloc(s->nobjectives + 1, sizeof(*names));
	for (size_t k = 0; k < s->nobjectives; k++)
		names[k] = s->objectives[k].name;
	text = ops->describe(st, names, strategy_trail_obs(trail), trail->n);
	free(names);
	return text;
}

/* The strategy's problem: the study's space and objectives (objs, filled
 * here), the options over the study's budget, seed and repeats. */
static void problem_init(struct strategy_problem *prob, struct pareto_obj *objs,
			 const struct study *s, const struct run_opts *opts)
{
	study_pareto_objs(objs, s);
	prob->s = &s->space;
	prob->objs = objs;
	prob->nobjs = s->nobjectives;
	prob->budget = opts->has_budget ? opts->budget : s->budget;
	prob->seed = opts->has_seed ? opts->seed : s->seed;
	/* A proposal that repeats an earlier one is built with
	 * layout.samples more layout seeds (run_plan()). */
	prob->repeats = opts->has_race ? opts->race : s->race;
}

/* The reporter each batch's run gets: its status behind the search's
 * words, its notes once, to outer. */
static void search_rep_init(struct search_rep *rep, const struct run_reporter *outer)
{
	memset(rep, 0, sizeof(*rep));
	rep->said = (struct u64set)U64SET_INIT;
	rep->r.status = rep_status;
	rep->r.note = rep_note;
	rep->r.arg = rep;
	rep->outer = outer;
}

/* The status line's words for batch `batches`, n proposals so far, at
 * hypervolume h (NaN: none yet). */
static void batch_prefix(struct search_rep *rep, const struct study *s, size_t batches,
			 size_t n, double h)
{
	char hvs[48];

	if (isnan(h))
		snprintf(hvs, sizeof(hvs), "hypervolume -");
	else
		snprintf(hvs, sizeof(hvs), "hypervolume %.4g", h);
	snprintf(rep->prefix, sizeof(rep->prefix), "search %s: batch %zu (%zu proposals), %s",
		 s->strategy, batches, n, hvs);
}

/* Whether search.time (limit, 0: none) has passed since start: then says
 * so, after n configurations. */
static int time_is_up(const struct study *s, const struct run_opts *opts, double limit,
		      double start, size_t n)
{
	char d[32];

	if (!(limit > 0 && now_seconds() - start >= limit))
		return 0;
	format_duration(d, sizeof(d), limit);
	run_note(opts->report, "note: search %s: the time budget (%s) has passed after "
		 "%zu configurations; no new batch", s->strategy, d, n);
	return 1;
}

/* Later batches build the first batch's revision (res's commit, into
 * commit and *rev, which o takes), whatever the branch does meanwhile;
 * not a dirty tree's or revisions the options name. */
static void pin_revision(struct run_opts *o, const char **rev, char commit[41],
			 const struct run_opts *opts, const struct run_result *res)
{
	if (*rev || opts->dirty || opts->nrevs || !res->commit[0])
		return;
	memcpy(commit, res->commit, sizeof(res->commit));
	*rev = commit;
	o->revs = rev;
	o->nrevs = 1;
}

/* Running counts over the batches. */
struct search_counts {
	unsigned long builds_done, builds_failed, measures_done;
};

/* out becomes the last batch's results res (moved), with the counts of
 * all the batches (c: res's included) and the search's wall time. */
static void search_result(struct run_result *out, struct run_result *res,
			  const struct search_counts *c, double start)
{
	/* The last batch found in the journal what the earlier ones did
	 * too: not this run's cache hits. */
	unsigned long prior_b = c->builds_done - res->builds_done + c->builds_failed -
				res->builds_failed;
	unsigned long prior_m = c->measures_done - res->measures_done;

	*out = *res;
	out->builds_done = c->builds_done;
	out->builds_failed = c->builds_failed;
	out->measures_done = c->measures_done;
	out->builds_cached = res->builds_cached > prior_b ? res->builds_cached - prior_b : 0;
	out->measures_cached = res->measures_cached > prior_m ? res->measures_cached - prior_m : 0;
	out->wall = now_seconds() - start;
}

/* The search's closing notes: what it did (n proposals over nconfigs
 * configurations in `batches`, why it stopped, hypervolume h), and what
 * the strategy says matters. */
static void say_done(const struct run_opts *opts, const struct study *s,
		     const struct strategy_ops *ops, void *st, struct strategy_trail *trail,
		     size_t nconfigs, size_t batches, const char *why, double h)
{
	/* Racing: the proposals that measured a configuration again. */
	size_t again = trail->n > nconfigs ? trail->n - nconfigs : 0;
	char *more = again ? xasprintf(", %zu more proposal%s measured one again", again,
				       again == 1 ? "" : "s")
			   : xstrdup("");
	char *text, *line, *save = NULL;

	if (isnan(h))
		run_note(opts->report, "note: search %s: %zu configurations in %zu batches%s (%s)",
			 s->strategy, trail->n - again, batches, more, why);
	else
		run_note(opts->report, "note: search %s: %zu configurations in %zu batches%s "
			 "(%s); hypervolume %.4g (in units of the first batch's ranges)",
			 s->strategy, trail->n - again, batches, more, why, h);
	free(more);
	text = run_search_describe(ops, st, s, trail);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		run_note(opts->report, "note: search %s, what matters to %s", s->strategy, line);
	free(text);
}

int run_search(struct run_result *out, const struct study *s, const struct run_opts *opts)
{
	const struct strategy_ops *ops = strategy_find(s->strategy);
	struct pareto_obj *objs = xcalloc(s->nobjectives + 1, sizeof(*objs));
	struct strategy_problem prob;
	struct strategy_trail trail;
	struct strategy_hv hv = STRATEGY_HV_INIT;
	struct search_rep rep;
	struct run_opts o = *opts;
	struct run_result res;
	struct search_counts counts = { 0 };
	double limit = opts->has_time ? opts->time : s->time, start = now_seconds(), h = NAN;
	size_t nd = s->space.ndims, batches = 0, *batch;
	/* A fixed order under a time budget: batches of two per build slot,
	 * so that the time is checked often; a learner: its own batches. */
	size_t max = ops && !ops->adaptive ? 2 * (opts->jobs ? opts->jobs : cpu_count())
					   : STRATEGY_MAX_BATCH;
	const char *rev = NULL, *why = "the strategy is done";
	char commit[41] = "";
	void *st = NULL;
	int ret = -1, have = 0;

	memset(out, 0, sizeof(*out));
	memset(&res, 0, sizeof(res));
	if (!ops) {
		free(objs);
		return tn_error("unknown search strategy '%s'", s->strategy);
	}
	if (opts->nrevs > 1) {
		free(objs);
		return tn_error("a search in batches builds one revision, not %zu", opts->nrevs);
	}
	problem_init(&prob, objs, s, opts);
	/* Bad input fails before the strategy starts. */
	if (study_check_plan(s, prob.budget, 1) < 0 || ops->init(&st, &prob) < 0) {
		free(objs);
		return -1;
	}
	strategy_trail_init(&trail, nd, s->nobjectives);
	batch = xcalloc((size_t)STRATEGY_MAX_BATCH * (nd ? nd : 1), sizeof(*batch));
	search_rep_init(&rep, opts->report);
	o.report = &rep.r;
	for (;;) {
		size_t from = trail.n;
		long k;

		if (time_is_up(s, opts, limit, start, trail.n)) {
			why = "search.time has passed";
			break;
		}
		k = ops->ask(st, batch, max, strategy_trail_obs(&trail), trail.n);
		if (k < 0)
			goto out;
		if (k == 0)
			break;
		for (long i = 0; i < k; i++)
			strategy_trail_add(&trail, batch + (size_t)i * nd);
		batches++;
		batch_prefix(&rep, s, batches, trail.n, h);
		o.picks = trail.picks;
		o.npicks = trail.n;
		if (have) {
			run_result_release(&res);
			have = 0;
		}
		if (run_study(&res, s, &o) < 0)
			goto out;
		have = 1;
		counts.builds_done += res.builds_done;
		counts.builds_failed += res.builds_failed;
		counts.measures_done += res.measures_done;
		pin_revision(&o, &rev, commit, opts, &res);
		if (res.interrupted) {
			why = "interrupted";
			break;
		}
		observe(&trail, from, s, &res);
		h = strategy_hv_progress(&hv, objs, s->nobjectives, strategy_trail_obs(&trail),
					 trail.n);
	}
	if (!have) {
		ret = tn_error("search %s proposed no configuration", s->strategy);
		goto out;
	}
	search_result(out, &res, &counts, start);
	have = 0;
	say_done(opts, s, ops, st, &trail, out->nconfigs, batches, why, h);
	ret = 0;
out:
	if (have)
		run_result_release(&res);
	ops->free(st);
	strategy_trail_release(&trail);
	strategy_hv_release(&hv);
	u64set_release(&rep.said);
	free(batch);
	free(objs);
	return ret;
}
