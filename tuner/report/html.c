/* SPDX-License-Identifier: GPL-2.0-or-later */
/* html: see tuner/report/html.h */
#include "html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/numfmt.h"

void html_escape(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			strbuf_addstr(sb, "&amp;");
			break;
		case '<':
			strbuf_addstr(sb, "&lt;");
			break;
		case '>':
			strbuf_addstr(sb, "&gt;");
			break;
		case '"':
			strbuf_addstr(sb, "&quot;");
			break;
		case '\'':
			strbuf_addstr(sb, "&#39;");
			break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				strbuf_addstr(sb, "&#xFFFD;");
			else
				strbuf_addch(sb, (char)c);
		}
	}
}

void html_axis_fit(struct html_axis *out, double lo, double hi, unsigned max_ticks)
{
	static const double steps[] = { 1, 2, 2.5, 5 };
	double mag, pad;

	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (lo > hi) {
		double t = lo;
		lo = hi;
		hi = t;
	}
	if (lo == hi) {
		double d = lo ? fabs(lo) * 0.05 : 1;
		lo -= d;
		hi += d;
	}
	pad = (hi - lo) * 0.04;
	out->lo = lo - pad;
	out->hi = hi + pad;
	if (max_ticks < 2)
		max_ticks = 2;
	mag = pow(10, floor(log10((out->hi - out->lo) / max_ticks)));
	/* The smallest step that gives no more than max_ticks; the range is
	 * finite and not empty, so some power of ten up from mag does. */
	for (int tries = 0; tries < 40; tries++, mag *= 10) {
		for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
			double step = steps[i] * mag;
			double a = ceil(out->lo / step - 1e-9), b = floor(out->hi / step + 1e-9);

			if (b - a + 1 > max_ticks)
				continue;
			out->step = step;
			out->first = a * step;
			out->nticks = b >= a ? (unsigned)(b - a) + 1 : 0;
			return;
		}
	}
	out->first = out->lo;
	out->step = out->hi - out->lo;
	out->nticks = 2;
}

/* Tick k of axis a, to as many digits as tell the ticks apart. */
static void tick_label(char *buf, size_t len, const struct html_axis *a, unsigned k)
{
	double v = a->first + k * a->step;
	double big = fmax(fabs(a->lo), fabs(a->hi));
	int sig = (int)(floor(log10(big)) - floor(log10(a->step))) + 2;

	if (fabs(v) < a->step * 1e-9)
		v = 0;
	numfmt(buf, len, v, sig < 1 ? 1 : sig > 15 ? 15 : sig);
}

static int finite_pos(double v)
{
	return isfinite(v) && v > 0;
}

/* Whether the space-separated list cls has word. */
static int has_class(const char *cls, const char *word)
{
	size_t n = strlen(word);

	while (cls && *cls) {
		size_t k = strcspn(cls, " ");
		if (k == n && !strncmp(cls, word, n))
			return 1;
		cls += k;
		cls += strspn(cls, " ");
	}
	return 0;
}

/* class="BASE CLS" (either may be empty). */
static void add_class(struct strbuf *sb, const char *base, const char *cls)
{
	strbuf_addf(sb, " class=\"%s", base);
	if (cls && *cls) {
		if (*base)
			strbuf_addch(sb, ' ');
		html_escape(sb, cls);
	}
	strbuf_addch(sb, '"');
}

static int drawn(const struct html_point *p)
{
	return isfinite(p->x) && isfinite(p->y);
}

/* The plot's frame in the svg: left, top, width, height. */
struct frame {
	double l, t, w, h;
	struct html_axis x, y;
};

static double px(const struct frame *f, double x)
{
	return f->l + (x - f->x.lo) / (f->x.hi - f->x.lo) * f->w;
}

static double py(const struct frame *f, double y)
{
	return f->t + f->h - (y - f->y.lo) / (f->y.hi - f->y.lo) * f->h;
}

static void fit_scatter(struct frame *f, const struct html_scatter *sc)
{
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;

	for (size_t i = 0; i < sc->npoints; i++) {
		const struct html_point *p = &sc->points[i];
		double ex = finite_pos(p->x_err) ? p->x_err : 0;
		double ey = finite_pos(p->y_err) ? p->y_err : 0;

		if (!drawn(p))
			continue;
		xlo = fmin(xlo, p->x - ex);
		xhi = fmax(xhi, p->x + ex);
		ylo = fmin(ylo, p->y - ey);
		yhi = fmax(yhi, p->y + ey);
	}
	html_axis_fit(&f->x, xlo, xhi, 7);
	html_axis_fit(&f->y, ylo, yhi, 7);
}

/* Ticks, grid lines and tick labels of both axes, and the axis titles. */
static void scatter_axes(struct strbuf *sb, const struct frame *f, const struct html_scatter *sc)
{
	char lab[NUMFMT_LEN];

	strbuf_addf(sb, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		    f->l, f->t, f->w, f->h);
	for (unsigned k = 0; k < f->x.nticks; k++) {
		double x = px(f, f->x.first + k * f->x.step);

		tick_label(lab, sizeof(lab), &f->x, k);
		strbuf_addf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			    x, f->t, x, f->t + f->h + 5, x, f->t + f->h + 20, lab);
	}
	for (unsigned k = 0; k < f->y.nticks; k++) {
		double y = py(f, f->y.first + k * f->y.step);

		tick_label(lab, sizeof(lab), &f->y, k);
		strbuf_addf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			    f->l - 5, y, f->l + f->w, y, f->l - 8, y + 4, lab);
	}
	strbuf_addf(sb, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		    f->l + f->w / 2, f->t + f->h + 44);
	html_escape(sb, sc->x_label);
	/* Above the y axis, not along it: a long title stays whole. */
	strbuf_addstr(sb, "</text>\n<text class=\"axis-title\" x=\"8\" y=\"18\">");
	html_escape(sb, sc->y_label);
	strbuf_addstr(sb, "</text>\n");
}

/* The legend, in rows above the plot from its left edge; returns the
 * height it takes. With emit 0 it only measures. */
static double scatter_legend(struct strbuf *sb, const struct html_scatter *sc, double left,
			     double right, int emit)
{
	double x = left, y = 42;

	for (size_t i = 0; i < sc->nlegend; i++) {
		const struct html_legend *l = &sc->legend[i];
		/* About 7 px a character at the legend's 13 px. */
		double w = 24 + 7.0 * (double)strlen(l->text ? l->text : "");

		if (x > left && x + w > right) {
			x = left;
			y += 20;
		}
		if (emit) {
			strbuf_addstr(sb, "<g");
			add_class(sb, "key", l->cls);
			strbuf_addf(sb, "><circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\"/><text x=\"%.1f\" y=\"%.1f\">",
				    x + 6, y - 4, x + 16, y);
			html_escape(sb, l->text);
			strbuf_addstr(sb, "</text></g>\n");
		}
		x += w + 16;
	}
	return sc->nlegend ? y + 14 : 30;
}

static _Thread_local const struct html_scatter *cmp_sc;

static int cmp_x(const void *a, const void *b)
{
	double x = cmp_sc->points[*(const size_t *)a].x, y = cmp_sc->points[*(const size_t *)b].x;

	return (x > y) - (x < y);
}

/* The line through the points of class link_cls, in the order of x. */
static void scatter_link(struct strbuf *sb, const struct frame *f, const struct html_scatter *sc)
{
	size_t *idx, n = 0;

	if (!sc->link_cls)
		return;
	idx = xcalloc(sc->npoints ? sc->npoints : 1, sizeof(*idx));
	for (size_t i = 0; i < sc->npoints; i++)
		if (drawn(&sc->points[i]) && has_class(sc->points[i].cls, sc->link_cls))
			idx[n++] = i;
	cmp_sc = sc;
	qsort(idx, n, sizeof(*idx), cmp_x);
	if (n > 1) {
		strbuf_addstr(sb, "<path class=\"link\" d=\"");
		for (size_t k = 0; k < n; k++) {
			double x = px(f, sc->points[idx[k]].x), y = py(f, sc->points[idx[k]].y);

			if (!k)
				strbuf_addf(sb, "M%.1f %.1f", x, y);
			else if (sc->link_step == HTML_STEP_HV)
				strbuf_addf(sb, "H%.1fV%.1f", x, y);
			else if (sc->link_step == HTML_STEP_VH)
				strbuf_addf(sb, "V%.1fH%.1f", y, x);
			else
				strbuf_addf(sb, "L%.1f %.1f", x, y);
		}
		strbuf_addstr(sb, "\"/>\n");
	}
	free(idx);
}

static void error_bar(struct strbuf *sb, double x1, double y1, double x2, double y2, int vertical)
{
	double c = 3; /* half the cap's length */

	strbuf_addf(sb, "<path class=\"err\" d=\"M%.1f %.1fL%.1f %.1f", x1, y1, x2, y2);
	if (vertical)
		strbuf_addf(sb, "M%.1f %.1fh%.1fM%.1f %.1fh%.1f", x1 - c, y1, 2 * c, x2 - c, y2, 2 * c);
	else
		strbuf_addf(sb, "M%.1f %.1fv%.1fM%.1f %.1fv%.1f", x1, y1 - c, 2 * c, x2, y2 - c, 2 * c);
	strbuf_addstr(sb, "\"/>");
}

size_t html_scatter(struct strbuf *sb, const struct html_scatter *sc)
{
	struct frame f;
	double w = sc->width ? sc->width : 760, h = sc->height ? sc->height : 480;
	size_t n = 0;

	fit_scatter(&f, sc);
	f.l = 84;
	f.w = w - f.l - 20;
	f.t = scatter_legend(sb, sc, f.l, f.l + f.w, 0) + 6;
	f.h = h - f.t - 56;
	strbuf_addf(sb, "<svg class=\"scatter\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
		    "role=\"img\" aria-label=\"", w, h, w, h);
	html_escape(sb, sc->title);
	strbuf_addstr(sb, "\">\n<title>");
	html_escape(sb, sc->title);
	strbuf_addstr(sb, "</title>\n");
	scatter_legend(sb, sc, f.l, f.l + f.w, 1);
	scatter_axes(sb, &f, sc);
	scatter_link(sb, &f, sc);
	for (size_t i = 0; i < sc->npoints; i++) {
		const struct html_point *p = &sc->points[i];
		double x, y;

		if (!drawn(p))
			continue;
		x = px(&f, p->x);
		y = py(&f, p->y);
		strbuf_addstr(sb, "<g");
		add_class(sb, "point", p->cls);
		if (p->id) {
			strbuf_addstr(sb, " data-config=\"");
			html_escape(sb, p->id);
			strbuf_addch(sb, '"');
		}
		strbuf_addstr(sb, " tabindex=\"0\"><title>");
		html_escape(sb, p->label);
		strbuf_addstr(sb, "</title>");
		if (finite_pos(p->x_err))
			error_bar(sb, px(&f, p->x - p->x_err), y, px(&f, p->x + p->x_err), y, 0);
		if (finite_pos(p->y_err))
			error_bar(sb, x, py(&f, p->y - p->y_err), x, py(&f, p->y + p->y_err), 1);
		strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\"/></g>\n", x, y);
		n++;
	}
	strbuf_addstr(sb, "</svg>\n");
	return n;
}

/* The colour of t in [0, 1] on a light-to-dark blue scale. */
static void scale_colour(char out[8], double t)
{
	static const unsigned char a[3] = { 0xf1, 0xf6, 0xfb }, b[3] = { 0x08, 0x30, 0x6b };
	int c[3];

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	for (int i = 0; i < 3; i++)
		c[i] = (int)lround(a[i] + (b[i] - a[i]) * t);
	snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static void heat_cell(struct strbuf *sb, const struct html_heatmap *h, size_t i, double lo,
		      double hi)
{
	const struct html_cell *x = h->cells ? &h->cells[i] : NULL;
	double v = h->values[i], t;
	char col[8], num[NUMFMT_LEN];

	strbuf_addstr(sb, "<td");
	if (!isfinite(v) || (x && x->cls))
		add_class(sb, isfinite(v) ? "" : "none", x ? x->cls : NULL);
	if (x && x->title) {
		strbuf_addstr(sb, " title=\"");
		html_escape(sb, x->title);
		strbuf_addch(sb, '"');
	}
	if (!isfinite(v)) {
		strbuf_addch(sb, '>');
		html_escape(sb, x ? x->note : NULL);
		strbuf_addstr(sb, "</td>");
		return;
	}
	t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
	scale_colour(col, t);
	numfmt(num, sizeof(num), v, h->sig ? h->sig : 3);
	strbuf_addf(sb, " style=\"background:%s;color:%s\">%s", col, t > 0.5 ? "#fff" : "#111",
		    num);
	html_escape(sb, h->unit);
	if (x && x->note) {
		strbuf_addstr(sb, " <span class=\"note\">");
		html_escape(sb, x->note);
		strbuf_addstr(sb, "</span>");
	}
	strbuf_addstr(sb, "</td>");
}

void html_heatmap(struct strbuf *sb, const struct html_heatmap *h)
{
	double lo = h->lo, hi = h->hi;
	char a[8], b[8], nlo[NUMFMT_LEN], nhi[NUMFMT_LEN];

	if (!isfinite(lo) || !isfinite(hi)) {
		lo = INFINITY;
		hi = -INFINITY;
		for (size_t i = 0; i < h->nrows * h->ncols; i++)
			if (isfinite(h->values[i])) {
				lo = fmin(lo, h->values[i]);
				hi = fmax(hi, h->values[i]);
			}
	}
	strbuf_addstr(sb, "<table class=\"heatmap\">\n");
	if (h->caption) {
		strbuf_addstr(sb, "<caption>");
		html_escape(sb, h->caption);
		strbuf_addstr(sb, "</caption>\n");
	}
	strbuf_addstr(sb, "<thead><tr><th>");
	html_escape(sb, h->corner);
	strbuf_addstr(sb, "</th>");
	for (size_t c = 0; c < h->ncols; c++) {
		strbuf_addstr(sb, "<th>");
		html_escape(sb, h->cols[c]);
		strbuf_addstr(sb, "</th>");
	}
	strbuf_addstr(sb, "</tr></thead>\n<tbody>\n");
	for (size_t r = 0; r < h->nrows; r++) {
		strbuf_addstr(sb, "<tr");
		if (h->row_cls && h->row_cls[r])
			add_class(sb, "", h->row_cls[r]);
		strbuf_addstr(sb, "><th>");
		html_escape(sb, h->rows[r]);
		strbuf_addstr(sb, "</th>");
		for (size_t c = 0; c < h->ncols; c++)
			heat_cell(sb, h, r * h->ncols + c, lo, hi);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n");
	if (isfinite(lo)) {
		scale_colour(a, 0);
		scale_colour(b, 1);
		numfmt(nlo, sizeof(nlo), lo, h->sig ? h->sig : 3);
		numfmt(nhi, sizeof(nhi), hi, h->sig ? h->sig : 3);
		strbuf_addf(sb, "<tfoot><tr><td class=\"scale\" colspan=\"%zu\">scale: %s", h->ncols + 1,
			    nlo);
		html_escape(sb, h->unit);
		strbuf_addf(sb, " <span class=\"swatch\" style=\"background:linear-gradient(to right,%s,%s)\">"
			    "</span> %s", a, b, nhi);
		html_escape(sb, h->unit);
		strbuf_addstr(sb, "</td></tr></tfoot>\n");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* label cut to n characters (bytes of UTF-8 kept whole), "…" when cut. */
static void cut_label(struct strbuf *sb, const char *label, size_t n)
{
	size_t len = strlen(label ? label : ""), k = 0, chars = 0;
	char *part;

	if (len <= n) {
		html_escape(sb, label);
		return;
	}
	while (k < len && chars < n - 1) {
		k++;
		while (k < len && ((unsigned char)label[k] & 0xc0) == 0x80)
			k++;
		chars++;
	}
	part = xstrndup(label, k);
	html_escape(sb, part);
	strbuf_addstr(sb, "\xe2\x80\xa6");
	free(part);
}

static int bar_drawn(const struct html_bar *b)
{
	return isfinite(b->value);
}

/* Whether drawn bar i begins a group (its group differs from the previous
 * drawn bar's). */
static int begins_group(const struct html_bars *b, size_t i)
{
	const char *g = b->bars[i].group;

	if (!g)
		return 0;
	while (i-- > 0)
		if (bar_drawn(&b->bars[i]))
			return !b->bars[i].group || strcmp(b->bars[i].group, g);
	return 1;
}

static void one_bar(struct strbuf *sb, const struct html_bars *b, const struct html_bar *r,
		    const struct frame *f, double base, double y)
{
	double x0 = px(f, fmin(base, r->value)), x1 = px(f, fmax(base, r->value));
	char lab[NUMFMT_LEN];

	strbuf_addstr(sb, "<g");
	add_class(sb, "bar", r->cls);
	if (r->key) {
		strbuf_addstr(sb, " data-key=\"");
		html_escape(sb, r->key);
		strbuf_addch(sb, '"');
	}
	strbuf_addstr(sb, " tabindex=\"0\"><title>");
	if (r->title) {
		html_escape(sb, r->title);
	} else {
		(b->sign ? numfmt_signed : numfmt)(lab, sizeof(lab), r->value, 4);
		html_escape(sb, r->label);
		strbuf_addf(sb, ": %s", lab);
		html_escape(sb, b->unit);
	}
	strbuf_addf(sb, "</title><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", f->l - 8, y + 15);
	cut_label(sb, r->label, 34);
	strbuf_addf(sb, "</text><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\"/>", x0,
		    y + 4, fmax(x1 - x0, 1));
	if (isfinite(r->lo) && isfinite(r->hi))
		error_bar(sb, px(f, r->lo), y + 11, px(f, r->hi), y + 11, 0);
	(b->sign ? numfmt_signed : numfmt)(lab, sizeof(lab), r->value, 3);
	strbuf_addf(sb, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\">%s", f->l + f->w + 8, y + 15,
		    lab);
	html_escape(sb, b->unit);
	strbuf_addstr(sb, "</text></g>\n");
}

size_t html_bars(struct strbuf *sb, const struct html_bars *b)
{
	struct frame f;
	double lo = INFINITY, hi = -INFINITY, w = b->width ? b->width : 760, row = 22, base, y;
	size_t n = 0, groups = 0;
	char lab[NUMFMT_LEN];

	for (size_t i = 0; i < b->nbars; i++) {
		const struct html_bar *r = &b->bars[i];
		if (!bar_drawn(r))
			continue;
		n++;
		groups += begins_group(b, i);
		lo = fmin(lo, r->value);
		hi = fmax(hi, r->value);
		if (isfinite(r->lo) && isfinite(r->hi)) {
			lo = fmin(lo, r->lo);
			hi = fmax(hi, r->hi);
		}
	}
	if (isfinite(b->ref)) {
		lo = fmin(lo, b->ref);
		hi = fmax(hi, b->ref);
	}
	html_axis_fit(&f.x, lo, hi, 7);
	f.l = 250;
	f.w = w - f.l - 80;
	f.t = 8;
	f.h = row * (double)(n + groups);
	base = isfinite(b->ref) ? b->ref : f.x.lo;
	strbuf_addf(sb, "<svg class=\"bars\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
		    "role=\"img\" aria-label=\"", w, f.t + f.h + 52, w, f.t + f.h + 52);
	html_escape(sb, b->title);
	strbuf_addstr(sb, "\">\n<title>");
	html_escape(sb, b->title);
	strbuf_addstr(sb, "</title>\n");
	for (unsigned t = 0; t < f.x.nticks; t++) {
		double x = px(&f, f.x.first + t * f.x.step);

		tick_label(lab, sizeof(lab), &f.x, t);
		strbuf_addf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			    x, f.t, x, f.t + f.h + 5, x, f.t + f.h + 20, lab);
	}
	y = f.t;
	for (size_t i = 0; i < b->nbars; i++) {
		const struct html_bar *r = &b->bars[i];

		if (!bar_drawn(r))
			continue;
		if (begins_group(b, i)) {
			if (y > f.t)
				strbuf_addf(sb, "<line class=\"sep\" x1=\"4\" y1=\"%.1f\" x2=\"%.1f\" "
					    "y2=\"%.1f\"/>\n", y + 1, w - 4, y + 1);
			strbuf_addstr(sb, "<text");
			add_class(sb, "group", r->group_cls);
			strbuf_addf(sb, " x=\"8\" y=\"%.1f\">", y + 16);
			cut_label(sb, r->group, (size_t)((w - 16) / 7.5));
			strbuf_addstr(sb, "</text>\n");
			y += row;
		}
		one_bar(sb, b, r, &f, base, y);
		y += row;
	}
	if (isfinite(b->ref))
		strbuf_addf(sb, "<line class=\"ref\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			    px(&f, b->ref), f.t, px(&f, b->ref), f.t + f.h);
	strbuf_addf(sb, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		    f.l + f.w / 2, f.t + f.h + 42);
	html_escape(sb, b->x_label);
	strbuf_addstr(sb, "</text>\n</svg>\n");
	return n;
}
