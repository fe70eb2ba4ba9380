/* SPDX-License-Identifier: GPL-2.0-or-later */
/* html_report: the per-flag effects of every target (effects.h), as bar charts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "tuner/numfmt.h"
#include "html_report_priv.h"

/* The target colours of the CSS: t0 .. t5, then again. */
#define NCOLOURS 6

static void add_objective(struct html_effects *e, const char *name)
{
	for (size_t i = 0; i < e->nobjs; i++)
		if (!strcmp(e->objs[i], name))
			return;
	e->objs = xrealloc(e->objs, (e->nobjs + 1) * sizeof(*e->objs));
	e->objs[e->nobjs++] = name;
}

void html_effects_compute(struct html_effects *e, const struct results_target *t, size_t n)
{
	memset(e, 0, sizeof(*e));
	e->t = t;
	e->n = n;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < t[k].res.nobjectives; i++)
			add_objective(e, t[k].res.objectives[i].name);
	e->rows = results_effect_rows(t, n, &e->nrows);
	e->eff = xcalloc(e->nobjs * n + 1, sizeof(*e->eff));
	e->has = xcalloc(e->nobjs * n + 1, sizeof(*e->has));
	for (size_t o = 0; o < e->nobjs; o++)
		for (size_t k = 0; k < n; k++) {
			int i = results_objective(&t[k].res, e->objs[o]);

			/* A pick outside its dimension, the only failure, cannot
			 * be: results_load() placed them in this space. */
			e->has[o * n + k] = i >= 0 && results_effects(&e->eff[o * n + k], &t[k].res,
								      &t[k].study.space,
								      (size_t)i) == 0;
		}
}

void html_effects_release(struct html_effects *e)
{
	for (size_t i = 0; e->has && i < e->nobjs * e->n; i++)
		if (e->has[i])
			effects_release(&e->eff[i]);
	results_effect_rows_free(e->rows, e->nrows);
	free(e->eff);
	free(e->has);
	free(e->objs);
	memset(e, 0, sizeof(*e));
}

const struct effect_est *html_effect(const struct html_effects *e, size_t o,
				     const struct results_effect_row *r, size_t t)
{
	if (!e->has[o * e->n + t] || r->at[t] < 0)
		return NULL;
	return &e->eff[o * e->n + t].values[r->at[t]].main;
}

int html_effect_flips(const struct html_effects *e, size_t o, const struct results_effect_row *r)
{
	for (size_t t = 0; t < e->n; t++)
		for (size_t u = 0; u < t; u++) {
			const struct effect_est *a = html_effect(e, o, r, t);
			const struct effect_est *b = html_effect(e, o, r, u);

			if (a && b && effects_sign_change(a, b))
				return 1;
		}
	return 0;
}

const char *html_effect_label(char *buf, size_t len, const struct html_effects *e,
			      const struct results_effect_row *r, int ref)
{
	for (size_t t = 0; t < e->n; t++)
		if (r->at[t] >= 0)
			return results_value_label(buf, len, &e->t[t].study.space.dims[r->d[t]],
					   ref ? r->ref : r->value);
	snprintf(buf, len, "?");
	return buf;
}

static void format_pct(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%+.3g%%", 100 * v);
	else
		snprintf(buf, len, "?");
}

/* "+14.2% [+12.1%, +16.3%]" of fractions (NaN: "?"), as tuner effects says it. */
static void html_format_rel(char *buf, size_t len, double v, double lo, double hi)
{
	char a[32], b[32], c[32];

	format_pct(a, sizeof(a), v);
	format_pct(b, sizeof(b), lo);
	format_pct(c, sizeof(c), hi);
	snprintf(buf, len, "%s [%s, %s]", a, b, c);
}

/* The objective o of the first target that has it. */
static const struct results_objective *objective(const struct html_effects *e, size_t o,
						 size_t *t)
{
	for (*t = 0; *t < e->n; (*t)++) {
		int i = results_objective(&e->t[*t].res, e->objs[o]);
		if (i >= 0)
			return &e->t[*t].res.objectives[i];
	}
	return NULL;
}

static int maximize(const struct html_effects *e, size_t o, size_t t)
{
	int i = results_objective(&e->t[t].res, e->objs[o]);

	return i >= 0 && e->t[t].res.objectives[i].maximize;
}

/* "helps on T (+14.2% [+12.1%, +16.3%])", or on one target "helps: ...". */
static void est_text(struct strbuf *sb, const struct html_effects *e, size_t o, size_t t,
		     const struct effect_est *est)
{
	char rel[128];

	html_format_rel(rel, sizeof(rel), est->mean, est->lo, est->hi);
	strbuf_addf(sb, "%s", effects_word(est, maximize(e, o, t)));
	if (e->n > 1) {
		strbuf_addstr(sb, " on ");
		html_escape(sb, e->t[t].name);
	}
	strbuf_addf(sb, " (%s, n=%zu)", rel, est->n);
}

/* The bars of objective o: per row, one per target. Strings the bars
 * point to go to strs (4 per bar), for the caller to free. */
static size_t make_bars(struct html_bar *bars, char **strs, const struct html_effects *e,
			size_t o)
{
	static const char *const colour[2][NCOLOURS] = {
		{ "t0", "t1", "t2", "t3", "t4", "t5" },
		{ "t0 unclear", "t1 unclear", "t2 unclear", "t3 unclear", "t4 unclear", "t5 unclear" },
	};
	size_t nb = 0, drawable = 0;

	for (size_t k = 0; k < e->nrows; k++) {
		const struct results_effect_row *r = &e->rows[k];
		int flips = e->n > 1 && html_effect_flips(e, o, r);
		char v[256], ref[256];
		char *group = NULL;

		html_effect_label(v, sizeof(v), e, r, 0);
		html_effect_label(ref, sizeof(ref), e, r, 1);
		if (e->n > 1)
			group = xasprintf("%s: %s, against %s%s", r->dim, v, ref,
					  flips ? " \xe2\x80\x94 changes sign between targets" : "");
		for (size_t t = 0; t < e->n; t++) {
			const struct effect_est *est = html_effect(e, o, r, t);
			struct html_bar *b = &bars[nb];
			char **s = &strs[4 * nb++];
			char rel[128];

			s[0] = e->n > 1 ? xstrdup(e->t[t].name) : xasprintf("%s: %s", r->dim, v);
			s[1] = xasprintf("%s:%s:%s=%s", e->objs[o], e->t[t].name, r->dim, r->value);
			s[2] = t == 0 ? group : NULL;
			b->label = s[0];
			b->key = s[1];
			b->group = group;
			b->group_cls = flips ? "flip" : NULL;
			b->value = b->lo = b->hi = NAN;
			if (!est || !est->n)
				continue;
			drawable++;
			b->value = 100 * est->mean;
			b->lo = 100 * est->lo;
			b->hi = 100 * est->hi;
			html_format_rel(rel, sizeof(rel), est->mean, est->lo, est->hi);
			s[3] = xasprintf("%s%s%s: %s against %s: %s, %s (n=%zu pair%s)", e->n > 1 ?
					 e->t[t].name : "", e->n > 1 ? ", " : "", r->dim, v, ref, rel,
					 effects_word(est, maximize(e, o, t)), est->n,
					 numfmt_s(est->n));
			b->title = s[3];
			b->cls = colour[est->sign == 0][t % NCOLOURS];
		}
	}
	return drawable;
}

/* The targets' colours, and what a pale bar is. */
static void keys(struct strbuf *sb, const struct html_effects *e)
{
	strbuf_addstr(sb, "<p class=\"keys\">");
	for (size_t t = 0; e->n > 1 && t < e->n; t++) {
		strbuf_addf(sb, "<span class=\"key t%zu\"></span>", t % NCOLOURS);
		html_escape(sb, e->t[t].name);
		strbuf_addstr(sb, " ");
	}
	strbuf_addstr(sb, "<span class=\"key unclear\"></span>pale: no clear effect (the interval "
		    "holds 0)</p>\n");
}

/* The values whose effect changes sign between targets, and each
 * target's flagged interactions. */
static void notes(struct strbuf *sb, const struct html_effects *e, size_t o)
{
	size_t shown = 0, inter = 0;

	for (size_t k = 0; e->n > 1 && k < e->nrows; k++) {
		const struct results_effect_row *r = &e->rows[k];
		char v[256];

		if (!html_effect_flips(e, o, r))
			continue;
		strbuf_addstr(sb, shown++ ? "" : "<ul class=\"flips\">\n");
		strbuf_addstr(sb, "<li><b>");
		html_escape(sb, r->dim);
		strbuf_addstr(sb, " <code>");
		html_escape(sb, html_effect_label(v, sizeof(v), e, r, 0));
		strbuf_addstr(sb, "</code> changes sign between targets</b>: ");
		for (size_t t = 0, m = 0; t < e->n; t++) {
			const struct effect_est *est = html_effect(e, o, r, t);

			if (!est || !est->n)
				continue;
			strbuf_addstr(sb, m++ ? ", " : "");
			est_text(sb, e, o, t, est);
		}
		strbuf_addstr(sb, ".</li>\n");
	}
	if (shown)
		strbuf_addstr(sb, "</ul>\n");
	else if (e->n > 1)
		strbuf_addstr(sb, "<p>No value's effect changes sign between the targets (clearly "
			    "positive on one, clearly negative on another).</p>\n");
	for (size_t t = 0; t < e->n; t++) {
		const struct effects *ef = &e->eff[o * e->n + t];
		const struct space *sp = &e->t[t].study.space;

		for (size_t i = 0; e->has[o * e->n + t] && i < ef->ninter; i++) {
			const struct effects_interaction *in = &ef->inter[i];
			const struct effects_value *ev = &ef->values[in->value];
			const struct dimension *d = &sp->dims[ev->dim], *x = &sp->dims[in->other];
			size_t w[2] = { in->pos, in->neg };
			char v[256];

			if (!maximize(e, o, t)) {
				w[0] = in->neg;
				w[1] = in->pos;
			}
			strbuf_addstr(sb, inter++ ? "<li>" : "<p>Interactions: a value's effect "
				    "clearly positive at one value of another dimension, clearly "
				    "negative at another.</p>\n<ul class=\"inter\">\n<li>");
			if (e->n > 1) {
				html_escape(sb, e->t[t].name);
				strbuf_addstr(sb, ": ");
			}
			strbuf_addstr(sb, "<code>");
			html_escape(sb, results_value_label(v, sizeof(v), d, d->values[ev->value]));
			strbuf_addstr(sb, "</code>");
			for (int j = 0; j < 2; j++) {
				const struct effect_est *c = &ev->cond[ef->cond_off[in->other] + w[j]];
				char rel[128];

				html_format_rel(rel, sizeof(rel), c->mean, c->lo, c->hi);
				strbuf_addf(sb, "%s %s at <code>", j ? "," : "",
					    effects_word(c, maximize(e, o, t)));
				html_escape(sb, results_value_label(v, sizeof(v), x, x->values[w[j]]));
				strbuf_addf(sb, "</code> (%s, n=%zu)", rel, c->n);
			}
			strbuf_addstr(sb, "</li>\n");
		}
	}
	strbuf_addstr(sb, inter ? "</ul>\n" : "<p>No interaction flagged.</p>\n");
}

/* The bars not drawn: "No bar (no pairs): reorder -fno-reorder-blocks on mt7621". */
static void no_bars(struct strbuf *sb, const struct html_effects *e, size_t o,
		    const struct html_bar *bars)
{
	size_t m = 0;

	strbuf_addstr(sb, "<p class=\"caption\">No bar, as no two configurations with values "
		    "differ in the value alone (no pairs): ");
	for (size_t k = 0; k < e->nrows; k++)
		for (size_t t = 0; t < e->n; t++) {
			char v[256];

			if (isfinite(bars[k * e->n + t].value))
				continue;
			strbuf_addstr(sb, m++ ? ", " : "");
			html_escape(sb, e->rows[k].dim);
			strbuf_addstr(sb, " <code>");
			html_escape(sb, html_effect_label(v, sizeof(v), e, &e->rows[k], 0));
			strbuf_addstr(sb, "</code>");
			if (e->n > 1) {
				strbuf_addstr(sb, " on ");
				html_escape(sb, e->t[t].name);
			}
			if (!html_effect(e, o, &e->rows[k], t))
				strbuf_addstr(sb, " (not in its space, or no such objective)");
		}
	strbuf_addstr(sb, ".</p>\n");
}

static void objective_chart(struct strbuf *sb, const struct html_effects *e, size_t o)
{
	size_t t0, nb = e->nrows * e->n, drawn, missing = 0;
	const struct results_objective *ob = objective(e, o, &t0);
	struct html_bar *bars = xcalloc(nb + 1, sizeof(*bars));
	char **strs = xcalloc(4 * nb + 1, sizeof(*strs));
	struct strbuf title = STRBUF_INIT, xl = STRBUF_INIT;
	struct html_bars hb = { 0 };

	strbuf_addstr(sb, "<h3>");
	html_escape(sb, ob->name);
	if (*ob->unit) {
		strbuf_addstr(sb, " [");
		html_escape(sb, ob->unit);
		strbuf_addstr(sb, "]");
	}
	strbuf_addf(sb, ", %s is better%s</h3>\n", ob->maximize ? "higher" : "lower",
		    ob->modelled ? " <span class=\"modelled\">MODELLED</span>" : "");
	drawn = make_bars(bars, strs, e, o);
	for (size_t k = 0; k < nb; k++)
		missing += !isfinite(bars[k].value);
	if (!drawn) {
		strbuf_addstr(sb, "<p class=\"muted\">No pairs: no two configurations that differ "
			    "in one dimension alone have values, so no effect can be told.</p>\n");
	} else {
		strbuf_addf(&title, "the effect of each value on %s against its dimension's first "
			    "value", ob->name);
		strbuf_addf(&xl, "change in %s against the dimension's first value [%%]", ob->name);
		hb.title = title.buf;
		hb.x_label = xl.buf;
		hb.bars = bars;
		hb.nbars = nb;
		hb.ref = 0;
		hb.unit = "%";
		hb.sign = 1;
		hb.width = 1040;
		keys(sb, e);
		html_bars(sb, &hb);
		if (missing)
			no_bars(sb, e, o, bars);
	}
	notes(sb, e, o);
	for (size_t k = 0; k < 4 * nb; k++)
		free(strs[k]);
	free(strs);
	free(bars);
	strbuf_release(&title);
	strbuf_release(&xl);
}

void html_report_effects(struct strbuf *sb, const struct html_effects *e)
{
	strbuf_addstr(sb, "<section id=\"effects\">\n<h2>Per-flag effects</h2>\n");
	if (!e->nrows || !e->nobjs) {
		strbuf_addstr(sb, "<p class=\"muted\">No dimension has two values or more: no "
			    "effects to show.</p>\n</section>\n");
		return;
	}
	strbuf_addstr(sb, "<p>Each value of each dimension against the dimension's first value "
		    "(the reference), averaged over the other dimensions: every configuration "
		    "holding the value is paired with the one holding the reference instead and "
		    "the same in every other dimension. A bar is the pairs' mean relative "
		    "difference, its line the 95% interval (layout seeds as the unit where there "
		    "are several); to the right of 0 the objective is higher with the value. "
		    "<code>tuner effects</code> prints the same as a table.</p>\n");
	for (size_t o = 0; o < e->nobjs; o++)
		objective_chart(sb, e, o);
	strbuf_addstr(sb, "</section>\n");
}
