/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner bisect: its measurements and judgements (see cmd_bisect.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_bisect.h"
#include "cmd_doc.h"
#include "cmd_numbers.h"
#include "tuner/progress.h"
#include "tuner/util.h"

void bisect_say(const struct bisect_session *ss, const char *fmt, ...)
{
	va_list ap;

	if (ss->quiet)
		return;
	va_start(ap, fmt);
	fputs("bisect: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void account(struct bisect_session *ss, const char *tree, const struct config_result *c,
		    size_t objective)
{
	struct bisect_used *u = NULL;

	for (size_t i = 0; i < ss->nused && !u; i++)
		if (*tree && !strcmp(ss->used[i].tree, tree))
			u = &ss->used[i];
	if (!u) {
		ALLOC_GROW(ss->used, ss->nused + 1, ss->used_alloc);
		u = &ss->used[ss->nused++];
		memset(u, 0, sizeof(*u));
		snprintf(u->tree, sizeof(u->tree), "%s", tree);
	}
	if (c->nbuilds > u->builds)
		u->builds = c->nbuilds;
	if (c->samples && c->samples[objective].n > u->runs)
		u->runs = c->samples[objective].n;
}

int bisect_measure(struct bisect_session *ss, struct run_result *out,
		   const struct gitsrc_commit *const *which, size_t n, size_t *slot)
{
	const char **revs = xcalloc(n, sizeof(*revs)), **trees = xcalloc(n, sizeof(*trees));
	size_t nrevs = 0;
	int ret = -1;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < nrevs && !(*which[i]->tree && !strcmp(trees[j], which[i]->tree)))
			j++;
		if (j == nrevs) {
			revs[nrevs] = which[i]->id;
			trees[nrevs++] = which[i]->tree;
		}
		slot[i] = j;
	}
	if (probe_measure(&ss->p, out, &ss->flags, 1, revs, nrevs) < 0) {
		run_result_release(out);
		goto out;
	}
	if (out->interrupted) {
		ss->interrupted = 1;
		run_result_release(out);
		goto out;
	}
	for (size_t j = 0; j < nrevs; j++)
		account(ss, trees[j], &out->configs[j], ss->p.objective);
	ret = 0;
out:
	free(revs);
	free(trees);
	return ret;
}

void bisect_format_test(char *buf, size_t len, const struct stats_test *t)
{
	char rel[96], ps[80];

	cmd_format_rel(rel, sizeof(rel), t->rel, t->rel_lo, t->rel_hi);
	cmd_format_ps(ps, sizeof(ps), t->p, t->p_rank);
	snprintf(buf, len, "%s (%s)", rel, ps);
}

void bisect_md_flush(struct outfmt_table *t)
{
	size_t ncols = t->ncols;

	if (!t->ncells)
		return;
	printf("\n");
	outfmt_table_print(stdout, t, OUTFMT_MD);
	outfmt_table_release(t);
	outfmt_table_init(t, ncols);
}

/* One judgement of bad against good, as the format wants it. */
static void endpoints_line(struct bisect_session *ss, const struct stats_test *t)
{
	const char *verdict = !ss->dir ? "no significant difference" :
			      ss->dir > 0 ? "bad is better" : "bad is worse";
	char e[160];
	json_t *j;

	bisect_format_test(e, sizeof(e), t);
	if (ss->fmt == OUTFMT_TABLE) {
		printf("endpoints, K=%u: bad vs good %s: %s\n", ss->p.layout, e, verdict);
	} else if (ss->fmt == OUTFMT_MD) {
		if (!ss->md_ends.ncells) {
			outfmt_cell(&ss->md_ends, "layout seeds");
			outfmt_cell(&ss->md_ends, "bad vs good");
			outfmt_cell(&ss->md_ends, "verdict");
		}
		outfmt_cell(&ss->md_ends, "%u", ss->p.layout);
		outfmt_cell(&ss->md_ends, "%s", e);
		outfmt_cell(&ss->md_ends, "%s", verdict);
	} else {
		j = json_object();
		json_object_set_new(j, "layout_seeds", json_integer(ss->p.layout));
		json_object_set_new(j, "bad_vs_good", cmd_test_json(t, ss->dir != 0));
		json_object_set_new(j, "verdict", json_string(verdict));
		json_array_append_new(json_object_get(ss->doc, "endpoints"), j);
	}
}

static int endpoints_ok(const struct config_result *g, const struct config_result *b,
			const char *dir)
{
	if (!strcmp(g->status, "ok") && !strcmp(b->status, "ok"))
		return 1;
	tn_error("good is %s, bad is %s (see %s)", g->status, b->status, dir);
	return 0;
}

int bisect_judge(struct bisect_session *ss, struct bisect_verdict *v, size_t m)
{
	const struct gitsrc_commit *ends[2] = { &ss->r.good, &ss->r.bad }, *c = &ss->r.commits[m];
	const struct config_result *G, *B, *M;
	struct run_result e, r = { 0 };
	unsigned k = ss->p.layout;
	size_t slot[2], one;
	int ret = -1;

	memset(v, 0, sizeof(*v));
	if (ss->k_end < k)
		ss->k_end = k;
	ss->p.layout = ss->k_end;
	ret = bisect_measure(ss, &e, ends, 2, slot);
	ss->p.layout = k;
	if (ret < 0)
		return -1;
	ret = -1;
	G = &e.configs[slot[0]];
	B = &e.configs[slot[1]];
	if (!endpoints_ok(G, B, e.results_dir))
		goto out;
	/* A commit that builds like an endpoint is that endpoint. */
	if (!strcmp(c->tree, ss->r.good.tree) || !strcmp(c->tree, ss->r.bad.tree)) {
		M = !strcmp(c->tree, ss->r.good.tree) ? G : B;
	} else {
		if (bisect_measure(ss, &r, &c, 1, &one) < 0)
			goto out;
		M = &r.configs[one];
	}
	ss->judged[m] = k;
	if (strcmp(M->status, "ok")) {
		v->mark = BISECT_SKIP;
		v->why = M->status; /* static */
	} else {
		/* The sign of compare's verdict (0.05), kept at each level. */
		int g = probe_judge(&v->g, &ss->p, G, M), b = probe_judge(&v->b, &ss->p, B, M);

		v->vs_good[0] = stats_significant(&v->g, ss->alpha.differ) ? g : 0;
		v->vs_bad[0] = stats_significant(&v->b, ss->alpha.differ) ? b : 0;
		v->vs_good[1] = stats_significant(&v->g, ss->alpha.contradict) ? g : 0;
		v->vs_bad[1] = stats_significant(&v->b, ss->alpha.contradict) ? b : 0;
		v->mark = bisect_classify(&v->why, v->vs_good, v->vs_bad, ss->dir);
	}
	ret = 0;
out:
	run_result_release(&r);
	run_result_release(&e);
	return ret;
}

int bisect_more_layout(struct bisect_session *ss)
{
	if (ss->p.layout >= ss->max_layout)
		return 0;
	ss->p.layout = ss->p.layout * 2 < ss->max_layout ? ss->p.layout * 2 : ss->max_layout;
	return 1;
}

/*
 * The layout seeds a commit needs (the other side having `other`, 0: as
 * many): 90% power at alpha.differ for the smallest change the endpoints'
 * interval allows (its near end), given the sd of one layout seed's mean
 * (layout and run noise), which the endpoints' test gives back: its
 * standard error is sd sqrt(1/na + 1/nb). The near end, not the estimate:
 * a change found significant on few seeds tends to look bigger than it
 * is, and the endpoints serve every step.
 */
static unsigned plan(const struct bisect_session *ss, const struct stats_test *t,
		     unsigned other, double *near, double *sd)
{
	double se = (t->rel_hi - t->rel) / stats_t_quantile(0.975, t->df);

	*sd = se / sqrt(1.0 / t->na + 1.0 / t->nb);
	*near = fmin(fabs(t->rel_lo), fabs(t->rel_hi));
	return bisect_plan_layout(*near, *sd, ss->alpha.differ, 0.9, other);
}

/*
 * Step 1. K doubles while bad and good do not differ (up to the most);
 * once they do, they get the seeds the plan wants for them (measured and
 * judged again each time K grows), and the steps start at what the plan
 * wants for a commit against endpoints that well known. The endpoints
 * keep their seeds: every step compares with them.
 */
int bisect_endpoints(struct bisect_session *ss)
{
	const struct gitsrc_commit *which[2] = { &ss->r.good, &ss->r.bad };
	struct run_result res;
	struct stats_test t;
	size_t slot[2];
	unsigned start = ss->p.layout, want;
	double near, sd;
	char e[160];

	for (;;) {
		bisect_say(ss, "measuring good and bad on %u layout seeds", ss->p.layout);
		if (bisect_measure(ss, &res, which, 2, slot) < 0)
			return -1;
		if (!endpoints_ok(&res.configs[slot[0]], &res.configs[slot[1]], res.results_dir)) {
			run_result_release(&res);
			return -1;
		}
		ss->dir = probe_judge(&t, &ss->p, &res.configs[slot[0]], &res.configs[slot[1]]);
		run_result_release(&res);
		endpoints_line(ss, &t);
		if (!ss->dir && !bisect_more_layout(ss))
			return 0;
		if (!ss->dir)
			continue;
		want = plan(ss, &t, 0, &near, &sd);
		if (want <= ss->p.layout || !bisect_more_layout(ss))
			break;
		while (ss->p.layout < want && bisect_more_layout(ss))
			;
	}
	ss->k_end = ss->p.layout;
	want = plan(ss, &t, ss->k_end, &near, &sd);
	ss->base = want < start ? start : want > ss->k_end ? ss->k_end : want;
	ss->p.layout = ss->base;
	if (want == UINT32_MAX)
		snprintf(e, sizeof(e), "more than any number wanted");
	else
		snprintf(e, sizeof(e), "%u wanted", want);
	if (ss->fmt == OUTFMT_JSON) {
		json_t *j = json_object();

		json_object_set_new(j, "layout_seeds", json_integer(ss->base));
		json_object_set_new(j, "wanted", want == UINT32_MAX ? json_null() : json_integer(want));
		json_object_set_new(j, "endpoints_layout_seeds", json_integer(ss->k_end));
		json_object_set_new(j, "power", json_real(0.9));
		json_object_set_new(j, "alpha", json_real(ss->alpha.differ));
		json_object_set_new(j, "change", cmd_json_num(near));
		json_object_set_new(j, "seed_sd", cmd_json_num(sd));
		json_object_set_new(ss->doc, "plan", j);
		return 0;
	}
	bisect_md_flush(&ss->md_ends);
	printf("%splan: %u layout seeds a commit (%s; good and bad have %u) for 90%% power at p < %.2g to see a change of %.2g%% (the interval's near end), a seed's mean having sd %.2g%%\n",
	       ss->fmt == OUTFMT_MD ? "\n- " : "  ", ss->base, e, ss->k_end, ss->alpha.differ,
	       100 * near, 100 * sd);
	return 0;
}

