/* SPDX-License-Identifier: GPL-2.0-or-later */
/* html_report: the Pareto front of each target, plotted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "tuner/numfmt.h"
#include "html_report_priv.h"

struct html_axes html_pick_axes(const struct results *r, const struct study *s)
{
	struct html_axes a = { -1, -1 };

	if (r->nobjectives < 2)
		return a;
	a.x = results_objective(r, "size");
	for (size_t i = 0; a.x < 0 && s && i < s->nobjectives; i++)
		if (s->objectives[i].from_size)
			a.x = results_objective(r, s->objectives[i].name);
	if (a.x < 0)
		a.x = 1;
	a.y = a.x == 0 ? 1 : 0;
	return a;
}

void html_add_value(struct strbuf *sb, const struct results_objective *o, double v, int sig)
{
	char n[NUMFMT_LEN];

	numfmt(n, sizeof(n), v, sig);
	strbuf_addstr(sb, n);
	if (*o->unit)
		strbuf_addf(sb, " %s", o->unit);
}

static void objective_title(struct strbuf *sb, const struct results_objective *o)
{
	strbuf_addstr(sb, o->name);
	if (*o->unit)
		strbuf_addf(sb, " [%s]", o->unit);
	strbuf_addstr(sb, o->maximize ? ", higher is better" : ", lower is better");
	if (o->modelled)
		strbuf_addstr(sb, ", MODELLED");
}

static _Thread_local const struct results *cmp_xy_res;
static _Thread_local struct html_axes cmp_xy_ax;

static int cmp_xy(const void *a, const void *b)
{
	const struct results_config *x = &cmp_xy_res->configs[*(const size_t *)a];
	const struct results_config *y = &cmp_xy_res->configs[*(const size_t *)b];
	double d = x->obj[cmp_xy_ax.x].value - y->obj[cmp_xy_ax.x].value;

	if (d == 0)
		d = x->obj[cmp_xy_ax.y].value - y->obj[cmp_xy_ax.y].value;
	return (d > 0) - (d < 0);
}

/* A point's <title>: its id, flags, values, place; the others at the
 * same position (same[0..nsame), itself among them). */
static char *point_label(const struct results *r, struct html_axes ax, const struct results_config *c,
			 const size_t *same, size_t nsame)
{
	struct strbuf sb = STRBUF_INIT;
	int both[2] = { ax.y, ax.x };

	strbuf_addf(&sb, "%s  %s%s", c->id, *c->flags ? c->flags : "(no flags)",
		    c->pgo ? "  (PGO)" : "");
	for (int e = 0; e < 2; e++) {
		const struct results_objective *o = &r->objectives[both[e]];
		const struct results_value *v = &c->obj[both[e]];
		char se[NUMFMT_LEN];

		strbuf_addf(&sb, "\n%s: ", o->name);
		html_add_value(&sb, o, v->value, 4);
		if (isfinite(v->se) && v->se > 0) {
			numfmt(se, sizeof(se), 2 * v->se, 2);
			strbuf_addf(&sb, " ±%s (2 se)", se);
		}
		if (v->n > 1)
			strbuf_addf(&sb, ", n=%zu", v->n);
	}
	strbuf_addf(&sb, "\n%s", !c->on_front ? (c->feasible ? "dominated" : "over a limit") :
		    c->tied ? "on the front within noise (tied)" : "on the front");
	if (c->same_code_as)
		strbuf_addf(&sb, "; same code as %s", c->same_code_as);
	if (nsame > 1) {
		size_t shown = 0;

		strbuf_addf(&sb, "\nthe same point as %zu other%s:", nsame - 1, nsame == 2 ? "" : "s");
		for (size_t k = 0; k < nsame && shown < 6; k++) {
			const struct results_config *o = &r->configs[same[k]];
			if (o == c)
				continue;
			strbuf_addf(&sb, "\n  %s  %s%s", o->id, *o->flags ? o->flags : "(no flags)",
				    o->pgo ? " (PGO)" : "");
			shown++;
		}
		if (nsame - 1 > shown)
			strbuf_addf(&sb, "\n  and %zu more", nsame - 1 - shown);
	}
	return strbuf_detach(&sb);
}

/* The points in drawing order: dominated, tied, front (on top). */
static size_t plot_points(struct html_point *pts, char **labels, const struct results *r,
			  struct html_axes ax, size_t *coincide)
{
	size_t *idx = xcalloc(r->nconfigs ? r->nconfigs : 1, sizeof(*idx)), n = 0, np = 0;

	for (size_t k = 0; k < r->nconfigs; k++)
		if (value_known(&r->configs[k], ax.x) && value_known(&r->configs[k], ax.y))
			idx[n++] = k;
	cmp_xy_res = r;
	cmp_xy_ax = ax;
	qsort(idx, n, sizeof(*idx), cmp_xy);
	*coincide = 0;
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && !cmp_xy(&idx[a], &idx[b]); b++)
			;
		if (b - a > 1)
			*coincide += b - a;
		for (size_t k = a; k < b; k++)
			labels[idx[k]] = point_label(r, ax, &r->configs[idx[k]], &idx[a], b - a);
	}
	for (int layer = 0; layer < 3; layer++)
		for (size_t k = 0; k < r->nconfigs; k++) {
			const struct results_config *c = &r->configs[k];
			int l = !c->on_front ? 0 : c->tied ? 1 : 2;
			struct html_point *p;

			if (l != layer || !labels[k])
				continue;
			p = &pts[np++];
			p->x = c->obj[ax.x].value;
			p->y = c->obj[ax.y].value;
			p->x_err = 2 * c->obj[ax.x].se;
			p->y_err = 2 * c->obj[ax.y].se;
			p->id = c->id;
			p->cls = l == 2 ? "front" : l == 1 ? "front tied" : NULL;
			p->label = labels[k];
		}
	free(idx);
	return np;
}

/* What one target's plot drew. */
struct plotted {
	size_t drawn, coincide, bars;
	size_t have[3]; /* front, tied, other */
};

/* The kinds of point r's plot has, as bits: 1 on the front, 2 tied, 4
 * neither (the legend's entries). */
static unsigned kinds(const struct results *r, struct html_axes ax)
{
	unsigned k = 0;

	for (size_t i = 0; i < r->nconfigs; i++) {
		const struct results_config *c = &r->configs[i];

		if (value_known(c, ax.x) && value_known(c, ax.y))
			k |= !c->on_front ? 4 : c->tied ? 2 : 1;
	}
	return k;
}

/* Target r's front as an svg of w x h px, with the legend entries of
 * kinds() bits keys. */
static void front_svg(struct strbuf *sb, const struct results *r, struct html_axes ax, unsigned w,
		      unsigned h, unsigned keys, struct plotted *out)
{
	static const struct html_legend all[] = {
		{ "front", "on the Pareto front" },
		{ "front tied", "on the front within noise (tied)" },
		{ NULL, "dominated or over a limit" },
	};
	struct html_legend legend[3];
	struct html_point *pts = xcalloc(r->nconfigs ? r->nconfigs : 1, sizeof(*pts));
	char **labels = xcalloc(r->nconfigs ? r->nconfigs : 1, sizeof(*labels));
	struct strbuf xl = STRBUF_INIT, yl = STRBUF_INIT, title = STRBUF_INIT;
	struct html_scatter sc = { 0 };
	size_t np, nl = 0;

	memset(out, 0, sizeof(*out));
	np = plot_points(pts, labels, r, ax, &out->coincide);
	for (size_t k = 0; k < np; k++) {
		out->have[!pts[k].cls ? 2 : strcmp(pts[k].cls, "front") ? 1 : 0]++;
		out->bars += (isfinite(pts[k].x_err) && pts[k].x_err > 0) ||
			     (isfinite(pts[k].y_err) && pts[k].y_err > 0);
	}
	for (size_t k = 0; k < 3; k++)
		if (keys & (1u << k))
			legend[nl++] = all[k];
	objective_title(&xl, &r->objectives[ax.x]);
	objective_title(&yl, &r->objectives[ax.y]);
	strbuf_addf(&title, "%s against %s, one point per configuration", r->objectives[ax.y].name,
		    r->objectives[ax.x].name);
	sc.title = title.buf;
	sc.x_label = xl.buf;
	sc.y_label = yl.buf;
	sc.points = pts;
	sc.npoints = np;
	sc.link_cls = "front";
	sc.link_step = r->objectives[ax.x].maximize ? HTML_STEP_VH : HTML_STEP_HV;
	sc.width = w;
	sc.height = h;
	sc.legend = legend;
	sc.nlegend = nl;
	out->drawn = html_scatter(sb, &sc);
	for (size_t k = 0; k < r->nconfigs; k++)
		free(labels[k]);
	free(labels);
	free(pts);
	strbuf_release(&xl);
	strbuf_release(&yl);
	strbuf_release(&title);
}

/* "4 of 5 configurations plotted (...)" */
static void plotted_text(struct strbuf *sb, const struct results *r, const struct plotted *p)
{
	strbuf_addf(sb, "%zu of %zu configuration%s plotted", p->drawn, r->nconfigs,
		    numfmt_s(r->nconfigs));
	if (p->drawn < r->nconfigs)
		strbuf_addstr(sb, " (the others have no value: see the table and what failed)");
	if (p->coincide)
		strbuf_addf(sb, "; %zu share their point with another (the same code, or equal "
			    "values), and each such point's label names the others", p->coincide);
	strbuf_addstr(sb, ". ");
}

/* What the marks mean, given whether some plot has ties and error bars. */
static void plot_legend_text(struct strbuf *sb, int tied, int bars)
{
	strbuf_addstr(sb, "Blue: on the front, joined by the dashed line");
	if (tied)
		strbuf_addstr(sb, "; orange rings: on it only within noise (a configuration "
			    "dominates its estimates, not significantly at 95%)");
	strbuf_addstr(sb, "; grey: dominated, or over a limit. ");
	if (bars)
		strbuf_addstr(sb, "Error bars: &plusmn;2 standard errors of the value (run-to-run "
			    "and layout-seed spread). ");
	else
		strbuf_addstr(sb, "No error bars: no configuration has a spread (one sample each, "
			    "or equal samples), so the front compared the values as exact. ");
	strbuf_addstr(sb, "Hover over a point, or Tab to it, for its flags.");
}

static const char one_objective[] = "<p class=\"muted\">One objective: no front to plot (the "
				    "table below ranks the configurations).</p>\n";

/* The fronts: one plot, or one per target side by side. */
size_t html_report_fronts(struct strbuf *sb, const struct results_target *t, size_t n,
			  const struct html_axes *ax)
{
	struct plotted p;
	size_t drawn = 0;
	int tied = 0, bars = 0;
	unsigned keys = 0;

	strbuf_addf(sb, "<section id=\"front\">\n<h2>The Pareto front%s</h2>\n", n > 1 ?
		    "s, target by target" : "");
	if (n == 1) {
		if (ax[0].x < 0) {
			strbuf_addf(sb, "%s</section>\n", one_objective);
			return 0;
		}
		front_svg(sb, &t->res, ax[0], 1040, 580, kinds(&t->res, ax[0]), &p);
		strbuf_addstr(sb, "<p class=\"caption\">");
		plotted_text(sb, &t->res, &p);
		plot_legend_text(sb, p.have[1] > 0, p.bars > 0);
		strbuf_addstr(sb, "</p>\n</section>\n");
		return p.drawn;
	}
	/* One legend for all, so that the plots line up. */
	for (size_t i = 0; i < n; i++)
		keys |= ax[i].x < 0 ? 0 : kinds(&t[i].res, ax[i]);
	strbuf_addstr(sb, "<div class=\"multiples\">\n");
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(sb, "<figure data-target=\"");
		html_escape(sb, t[i].name);
		strbuf_addstr(sb, "\">\n<figcaption>");
		html_escape(sb, t[i].name);
		strbuf_addstr(sb, "</figcaption>\n");
		if (ax[i].x < 0) {
			strbuf_addf(sb, "%s</figure>\n", one_objective);
			continue;
		}
		front_svg(sb, &t[i].res, ax[i], 540, 440, keys, &p);
		strbuf_addstr(sb, "<p class=\"caption\">");
		plotted_text(sb, &t[i].res, &p);
		strbuf_addstr(sb, "</p>\n</figure>\n");
		drawn += p.drawn;
		tied |= p.have[1] > 0;
		bars |= p.bars > 0;
	}
	strbuf_addstr(sb, "</div>\n<p class=\"caption\">Each target on its own axes. ");
	plot_legend_text(sb, tied, bars);
	strbuf_addstr(sb, "</p>\n</section>\n");
	return drawn;
}
