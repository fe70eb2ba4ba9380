/* SPDX-License-Identifier: GPL-2.0-or-later */
/* html_report: the regret across targets (defaults.h) as a heat map. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "tuner/numfmt.h"
#include "html_report_priv.h"

/* The rows of the heat map: the first ones, and those of the targets' bests. */
#define REGRET_ROWS 24

/* As tuner defaults takes it: name where the target has it, else the
 * study's first objective that is not its size, else its first. */
static size_t pick_objective(const struct results_target *t, const char *name)
{
	int i = name ? results_objective(&t->res, name) : -1;

	for (size_t k = 0; i < 0 && k < t->study.nobjectives; k++)
		if (!t->study.objectives[k].from_size)
			i = results_objective(&t->res, t->study.objectives[k].name);
	return i < 0 ? 0 : (size_t)i;
}

void html_regret_compute(struct html_regret *g, const struct results_target *t, size_t n,
			 const char *objective)
{
	memset(g, 0, sizeof(*g));
	g->n = n;
	g->within = 0.02;
	g->tg = xcalloc(n ? n : 1, sizeof(*g->tg));
	g->obj = xcalloc(n ? n : 1, sizeof(*g->obj));
	for (size_t i = 0; i < n; i++) {
		if (!t[i].res.nobjectives) {
			/* Nothing to rank by: no configuration counts. */
			g->tg[i].name = t[i].name;
			g->tg[i].configs = xcalloc(1, sizeof(*g->tg[i].configs));
			continue;
		}
		g->obj[i] = pick_objective(&t[i], objective);
		results_defaults_target(&g->tg[i], &t[i].res, t[i].name, g->obj[i]);
	}
	defaults_compute(&g->d, g->tg, n);
	g->verdict = defaults_verdict(&g->d, g->tg, g->within);
}

void html_regret_release(struct html_regret *g)
{
	defaults_release(&g->d);
	for (size_t i = 0; g->tg && i < g->n; i++)
		free(g->tg[i].configs);
	free(g->tg);
	free(g->obj);
	free(g->verdict);
	memset(g, 0, sizeof(*g));
}

static void pct(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.3g%%", 100 * v);
	else
		snprintf(buf, len, "?");
}

static void flags_code(struct strbuf *sb, const char *flags, int pgo)
{
	strbuf_addstr(sb, "<code>");
	html_escape(sb, *flags ? flags : "(no flags)");
	strbuf_addstr(sb, pgo ? "</code> and PGO" : "</code>");
}

static const struct defaults_config *best_of(const struct html_regret *g, size_t t)
{
	return g->d.best[t] < 0 ? NULL : &g->tg[t].configs[g->d.best[t]];
}

/* Each target's best, and the common default. */
static void bests(struct strbuf *sb, const struct html_regret *g, const struct results_target *t)
{
	strbuf_addstr(sb, "<ul class=\"bests\">\n");
	for (size_t i = 0; i < g->n; i++) {
		const struct defaults_config *b = best_of(g, i);
		const struct results_objective *ob = &t[i].res.objectives[g->obj[i]];
		char v[NUMFMT_LEN];

		strbuf_addstr(sb, "<li><b>");
		html_escape(sb, t[i].name);
		strbuf_addstr(sb, "</b>: ");
		if (!b || !t[i].res.nobjectives) {
			strbuf_addstr(sb, "no feasible configuration with a value</li>\n");
			continue;
		}
		strbuf_addstr(sb, "its best by ");
		html_escape(sb, ob->name);
		strbuf_addstr(sb, ", ");
		flags_code(sb, b->flags, b->pgo);
		numfmt(v, sizeof(v), b->value, 4);
		strbuf_addf(sb, ": %s", v);
		if (*ob->unit) {
			strbuf_addch(sb, ' ');
			html_escape(sb, ob->unit);
		}
		strbuf_addstr(sb, "</li>\n");
	}
	if (g->d.common >= 0) {
		const struct defaults_row *c = &g->d.rows[g->d.common];
		char w[32], lo[32], hi[32], m[32];

		pct(w, sizeof(w), c->worst);
		pct(lo, sizeof(lo), c->cells[c->worst_target].lo);
		pct(hi, sizeof(hi), c->cells[c->worst_target].hi);
		pct(m, sizeof(m), c->mean);
		strbuf_addstr(sb, "<li><b>Common default</b>: ");
		flags_code(sb, c->flags, c->pgo);
		strbuf_addf(sb, ", worst regret %s [%s, %s] on ", w, lo, hi);
		html_escape(sb, t[c->worst_target].name);
		strbuf_addf(sb, ", mean %s</li>\n", m);
	}
	strbuf_addstr(sb, "</ul>\n");
}

/* Whether row k is shown: among the first, or a target's best. */
static int shown(const struct html_regret *g, size_t k)
{
	if (k < REGRET_ROWS)
		return 1;
	for (size_t t = 0; t < g->n; t++)
		if (best_of(g, t) && !strcmp(best_of(g, t)->id, g->d.rows[k].id))
			return 1;
	return 0;
}

/* The cell of row r on target t: value, class, note and title. */
static double cell(struct html_cell *c, char **title, const struct html_regret *g,
		   const struct defaults_row *r, size_t t)
{
	static const char *const state[] = {
		[DEFAULTS_MISSING] = "not run", [DEFAULTS_UNKNOWN] = "no value",
		[DEFAULTS_INFEASIBLE] = "over a limit",
	};
	const struct defaults_cell *x = &r->cells[t];
	const struct defaults_config *b = best_of(g, t);
	char v[32], lo[32], hi[32];

	if (x->state != DEFAULTS_OK || !isfinite(x->regret)) {
		c->note = x->state == DEFAULTS_OK ? "no best" : state[x->state];
		return NAN;
	}
	if (b && !strcmp(b->id, r->id)) {
		c->cls = "best";
		c->note = "best";
	}
	pct(v, sizeof(v), x->regret);
	pct(lo, sizeof(lo), x->lo);
	pct(hi, sizeof(hi), x->hi);
	*title = xasprintf("%s: regret %s [%s, %s] against its best", g->tg[t].name, v, lo, hi);
	c->title = *title;
	return 100 * x->regret;
}

static void heatmap(struct strbuf *sb, const struct html_regret *g, const struct results_target *t)
{
	size_t nr = 0, n = g->n, more = 0;
	const char **rows = xcalloc(g->d.nrows + 1, sizeof(*rows));
	const char **row_cls = xcalloc(g->d.nrows + 1, sizeof(*row_cls));
	const char **cols = xcalloc(n, sizeof(*cols));
	double *vals = xcalloc(g->d.nrows * n + 1, sizeof(*vals));
	struct html_cell *cells = xcalloc(g->d.nrows * n + 1, sizeof(*cells));
	char **strs = xcalloc(g->d.nrows * (n + 1) + 1, sizeof(*strs));
	struct html_heatmap h = { 0 };

	for (size_t i = 0; i < n; i++)
		cols[i] = t[i].name;
	for (size_t k = 0; k < g->d.nrows; k++) {
		const struct defaults_row *r = &g->d.rows[k];
		int common = (long)k == g->d.common;

		if (!shown(g, k)) {
			more++;
			continue;
		}
		strs[nr * (n + 1)] = xasprintf("%s%s%s", *r->flags ? r->flags : "(no flags)",
					       r->pgo ? " + PGO" : "", common ?
					       "  (common default)" : "");
		rows[nr] = strs[nr * (n + 1)];
		row_cls[nr] = common ? "common" : r->candidate ? NULL : "partial";
		for (size_t i = 0; i < n; i++) {
			size_t c = nr * n + i;

			vals[c] = cell(&cells[c], &strs[nr * (n + 1) + 1 + i], g, r, i);
		}
		nr++;
	}
	h.caption = "regret: % lost against each target's own best";
	h.corner = "configuration";
	h.rows = rows;
	h.nrows = nr;
	h.cols = cols;
	h.ncols = n;
	h.values = vals;
	h.lo = 0;
	h.hi = NAN;
	h.sig = 3;
	h.unit = "%";
	h.cells = cells;
	h.row_cls = row_cls;
	html_heatmap(sb, &h);
	if (more)
		strbuf_addf(sb, "<p class=\"caption\">%zu more configuration%s not shown "
			    "(<code>tuner defaults --all</code> lists every one).</p>\n", more,
			    numfmt_s(more));
	for (size_t k = 0; k < g->d.nrows * (n + 1); k++)
		free(strs[k]);
	free(strs);
	free(cells);
	free(vals);
	free(cols);
	free(row_cls);
	free(rows);
}

void html_report_regret(struct strbuf *sb, const struct html_regret *g,
			const struct results_target *t, size_t n)
{
	char within[32];

	strbuf_addstr(sb, "<section id=\"regret\">\n<h2>Regret across targets</h2>\n");
	if (!g) {
		strbuf_addstr(sb, "<p class=\"muted\">The regret takes two targets or more: give "
			    "<code>tuner report</code> several studies over one flag space, one per "
			    "target (<code>tuner report a.yaml b.yaml</code>), to see whether one "
			    "default serves them all.</p>\n</section>\n");
		return;
	}
	pct(within, sizeof(within), g->within);
	strbuf_addstr(sb, "<p class=\"verdict\"><b>Verdict:</b> ");
	html_escape(sb, g->verdict);
	strbuf_addf(sb, " <span class=\"muted\">(threshold %s, <code>tuner defaults "
		    "--within</code>'s default)</span></p>\n", within);
	bests(sb, g, t);
	heatmap(sb, g, t);
	strbuf_addstr(sb, "<p class=\"caption\">Regret of a configuration on a target: how much "
		    "worse its value is than the target's own best under its limits, in % of the "
		    "best, by ");
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(sb, i == 0 ? "" : i + 1 == n ? " and " : ", ");
		html_escape(sb, t[i].res.nobjectives ? t[i].res.objectives[g->obj[i]].name : "?");
		strbuf_addstr(sb, " on ");
		html_escape(sb, t[i].name);
	}
	strbuf_addstr(sb, "; hover over a cell for its 95% interval. Darker is worse. Rows: the "
		    "configurations feasible on every target first, by their worst regret (the "
		    "first is the common default, in bold), then the others. Framed: each "
		    "target's best. A grey cell has no regret and says why: over one of the "
		    "target's limits, no value (failed), or not run there.</p>\n</section>\n");
}
