/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html: small writers of self-contained HTML with inline SVG, for the
 * report (html_report.h) and for anything else that wants a chart: text
 * escaped, a scatter plot with error bars, a heat-map table with a colour
 * scale, a horizontal bar chart with intervals. No scripts, no styles
 * fetched from anywhere: the markup carries class names, and the page
 * that holds it styles them (html_report.c's CSS knows every class named
 * below). SVG is written for HTML5 (no xmlns, which inline SVG does not
 * need). Each writer appends to a strbuf (util.h) and allocates nothing
 * the caller must free; numbers for people go through numfmt.h.
 *
 * Values that are NaN or infinite are not drawn: a point or bar with one
 * is left out (the writers return how many they drew), a heat-map cell
 * with one is empty.
 */
#ifndef TUNER_HTML_H
#define TUNER_HTML_H

#include <stddef.h>

#include "tuner/util.h"

/*
 * Appends s with &, <, >, " and ' escaped (safe in text and in quoted
 * attributes); control characters other than tab and newline become
 * U+FFFD. s NULL appends nothing.
 */
void html_escape(struct strbuf *sb, const char *s);

/* An axis: the range shown [lo, hi] and its ticks first, first + step,
 * ... (nticks of them, all within the range). */
struct html_axis {
	double lo, hi;
	double first, step;
	unsigned nticks;
};

/*
 * Fits an axis to the data range [lo, hi]: the range widened by 4% each
 * way (no point on the frame), ticks at the multiples of a "nice" step (1,
 * 2, 2.5 or 5 times a power of ten) within it, the smallest step that
 * gives at most max_ticks (>= 2) of them. A range of one value (lo == hi)
 * is first widened by 5% of the value each way (1 for 0); one that is not
 * finite becomes [0, 1].
 */
void html_axis_fit(struct html_axis *out, double lo, double hi, unsigned max_ticks);

/* One point of a scatter plot. */
struct html_point {
	double x, y;          /* not finite: not drawn */
	double x_err, y_err;  /* error bars' half widths; 0 or not finite: none */
	const char *id;       /* its data-config attribute; NULL: none */
	const char *cls;      /* classes besides "point" ("front tied"); NULL: none */
	const char *label;    /* its <title>, shown on hover and keyboard focus */
};

/* A legend entry: a sample marker (<g class="key CLS">, a circle) and its text. */
struct html_legend {
	const char *cls;
	const char *text;
};

struct html_scatter {
	const char *title;             /* the svg's accessible name */
	const char *x_label, *y_label; /* axis titles, with units */
	const struct html_point *points;
	size_t npoints;
	/* The points with this class (a word of cls) joined by a line in
	 * the order of x (a <path class="link">); NULL: no line. */
	const char *link_cls;
	/* How: straight (HTML_STEP_NONE), or as steps, horizontal then
	 * vertical (HTML_STEP_HV: a front whose x is minimized) or vertical
	 * then horizontal (HTML_STEP_VH: x maximized), so that the line
	 * bounds what the points dominate and claims nothing between them. */
	enum { HTML_STEP_NONE, HTML_STEP_HV, HTML_STEP_VH } link_step;
	const struct html_legend *legend;
	size_t nlegend;
	unsigned width, height;        /* in px (the viewBox); 0: 760 x 480 */
};

/*
 * Appends sc as an <svg class="scatter">: the axes fitted to the points
 * and their error bars (html_axis_fit()), ticks and grid lines, the axis
 * titles (y's above the plot, where a long one fits), the legend under
 * it, the link line, then per drawn point, in the order given (the last
 * on top),
 *   <g class="point CLS" data-config="ID" tabindex="0"><title>LABEL</title>
 * its error bars (class "err") and one <circle>. Returns how many points
 * it drew.
 */
size_t html_scatter(struct strbuf *sb, const struct html_scatter *sc);

/* A heat-map cell's extras (struct html_heatmap.cells). */
struct html_cell {
	const char *cls;               /* classes of its <td>; NULL: none */
	const char *note;              /* after the value (<span class="note">), or the
	                                  whole text of a cell without one; NULL: none */
	const char *title;             /* its title attribute (hover text); NULL: none */
};

/* A heat-map table: rows x cols values, each cell coloured by its value. */
struct html_heatmap {
	const char *caption;           /* NULL: none */
	const char *corner;            /* the row labels' column heading */
	const char *const *rows;
	size_t nrows;
	const char *const *cols;
	size_t ncols;
	const double *values;          /* nrows * ncols, row by row */
	/* The colour scale's ends (lightest, darkest); either not finite:
	 * the finite values' minimum and maximum. */
	double lo, hi;
	int sig;                       /* significant digits shown; 0: 3 */
	const char *unit;              /* after each value ("%"); NULL: none */
	const struct html_cell *cells; /* nrows * ncols, row by row; NULL: none */
	const char *const *row_cls;    /* per row, classes of its <tr>; NULL: none */
};

/*
 * Appends h as a <table class="heatmap">: a header row of cols, then a
 * row per row label whose cells hold the value (numfmt) on a background
 * from light (lo) to dark blue (hi), the text white where dark enough to
 * need it, and the cell's note; then a caption row with the scale's ends.
 * A cell whose value is not finite has no colour (class "none") and holds
 * only its note.
 */
void html_heatmap(struct strbuf *sb, const struct html_heatmap *h);

/* One bar: from the chart's reference (or the axis start) to value, and
 * the interval [lo, hi] drawn across it (not finite: none). */
struct html_bar {
	const char *label;             /* at its left; cut to fit, whole in its title */
	double value, lo, hi;
	const char *cls;               /* classes besides "bar"; NULL: none */
	const char *title;             /* hover text; NULL: label and value */
	const char *key;               /* its data-key attribute; NULL: none */
	/* A drawn bar whose group differs from the previous drawn bar's
	 * begins the group: a row above it holds the group's text (<text
	 * class="group GROUP_CLS">, cut to the chart's width); NULL: none. */
	const char *group, *group_cls;
};

struct html_bars {
	const char *title;             /* the svg's accessible name */
	const char *x_label;           /* the value axis's title, with unit */
	const struct html_bar *bars;
	size_t nbars;
	double ref;                    /* bars start here (0 for effects); not finite: the axis start */
	const char *unit;              /* after each value ("%"); NULL: none */
	int sign;                      /* 1: each value with its sign ("+14.5") */
	unsigned width;                /* px; 0: 760; the height follows the bars */
};

/*
 * Appends b as an <svg class="bars">: one row per drawn bar (and one per
 * group), label at the left, the bar (<g class="bar CLS" data-key="KEY">
 * holding a <rect>) from ref to value, its interval as a line with end
 * ticks (class "err"), the value and unit at the right; a line at ref,
 * the value axis below. Returns how many bars it drew.
 */
size_t html_bars(struct strbuf *sb, const struct html_bars *b);

#endif
