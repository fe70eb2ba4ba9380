/* SPDX-License-Identifier: GPL-2.0-or-later */
/* html: the writers of report.html, and the page of a results set made by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "report/html.h"
#include "tuner/html_report.h"
#include "tuner/space.h"
#include "tuner/util.h"
#include "scratch_dir.h"

/* Occurrences of needle in s. */
static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* No number the writers print may be "nan" or "inf". */
static void assert_finite_text(const char *s)
{
	if (strstr(s, "nan") || strstr(s, "inf") || strstr(s, "NaN"))
		fail_msg("a non-finite number in: %s", s);
}

static void test_html__escape(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	html_escape(&sb, "-DX=\"<a>\" & 'b' \x01\t");
	assert_string_equal(strbuf_str(&sb),
			    "-DX=&quot;&lt;a&gt;&quot; &amp; &#39;b&#39; &#xFFFD;\t");
	strbuf_reset(&sb);
	html_escape(&sb, NULL);
	html_escape(&sb, "caf\xc3\xa9"); /* UTF-8 passes */
	assert_string_equal(strbuf_str(&sb), "caf\xc3\xa9");
	strbuf_release(&sb);
}

static void assert_axis(double lo, double hi, unsigned max)
{
	double tol = (hi - lo) * 1e-9 + fmax(fabs(lo), fabs(hi)) * 1e-14, m;
	struct html_axis a;

	html_axis_fit(&a, lo, hi, max);
	/* Data off the frame: 4% of the range each way. */
	if (!(a.lo < lo && a.hi > hi) || fabs((lo - a.lo) - (a.hi - hi)) > tol ||
	    fabs((lo - a.lo) - 0.04 * (hi - lo)) > tol)
		fail_msg("[%g, %g]: axis [%g, %g]", lo, hi, a.lo, a.hi);
	if (a.nticks < 2 || a.nticks > max)
		fail_msg("[%g, %g]: %u ticks, at most %u", lo, hi, a.nticks, max);
	/* The ticks are multiples of the step, within the range, and the
	 * ones just outside are not. */
	if (a.first < a.lo || a.first + (a.nticks - 1) * a.step > a.hi ||
	    a.first - a.step >= a.lo || a.first + a.nticks * a.step <= a.hi ||
	    fabs(a.first / a.step - round(a.first / a.step)) > 1e-6)
		fail_msg("[%g, %g]: %u ticks of %g from %g in [%g, %g]", lo, hi, a.nticks, a.step,
			 a.first, a.lo, a.hi);
	m = a.step / pow(10, floor(log10(a.step)));
	if (fabs(m - 1) > 1e-9 && fabs(m - 2) > 1e-9 && fabs(m - 2.5) > 1e-9 && fabs(m - 5) > 1e-9)
		fail_msg("[%g, %g]: step %g is not 1, 2, 2.5 or 5 times a power of ten", lo, hi, a.step);
}

static void test_html__axis(void **state)
{
	struct html_axis a;

	(void)state;
	assert_axis(91320, 148200, 7);  /* natbench-a9's sizes */
	assert_axis(515.6, 690.1, 7);
	assert_axis(-0.031, 0.052, 7);
	assert_axis(0, 1e-9, 5);
	assert_axis(1e15, 1e15 + 4096, 7);
	/* One value, or all equal: widened around it. */
	html_axis_fit(&a, 572.2, 572.2, 7);
	assert_true(a.lo < 572.2 && a.hi > 572.2 && a.nticks >= 2);
	html_axis_fit(&a, 0, 0, 7);
	assert_true(a.lo < 0 && a.hi > 0);
	html_axis_fit(&a, -3, -3, 2);
	assert_true(a.lo < -3 && a.hi > -3 && a.nticks >= 1 && a.nticks <= 2);
	/* Nothing finite: [0, 1]. */
	html_axis_fit(&a, INFINITY, -INFINITY, 7);
	assert_true(a.lo == -0.04 && a.hi == 1.04 && a.first == 0);
	html_axis_fit(&a, NAN, 3, 7);
	assert_true(a.lo == -0.04 && a.hi == 1.04);
}

static void test_html__scatter(void **state)
{
	const struct html_point pts[] = {
		{ 100, 500, 0, 4, "a", NULL, "-O2" },
		{ 110, 520, NAN, 0, "b", "front", "-O2 -DX=\"<i>\" & 'q'" },
		{ NAN, 530, 0, 0, "c", "front", "no x" },
		{ 120, INFINITY, 0, 0, "d", NULL, "no y" },
		{ 130, 540, 2, 3, "e", "front tied", "-O3" },
	};
	const struct html_legend legend[] = { { "front", "on the front" } };
	struct html_scatter sc = { .title = "t", .x_label = "size [bytes]", .y_label = "speed",
				   .points = pts, .npoints = 5, .link_cls = "front",
				   .link_step = HTML_STEP_HV, .legend = legend, .nlegend = 1 };
	struct strbuf sb = STRBUF_INIT;
	const char *s;

	(void)state;
	assert_int_equal(html_scatter(&sb, &sc), 3);
	s = strbuf_str(&sb);
	assert_int_equal(count(s, "data-config="), 3);
	assert_int_equal(count(s, "<circle"), 3 + 1); /* and the legend's */
	assert_int_equal(count(s, "class=\"point front"), 2);
	assert_int_equal(count(s, "tabindex=\"0\""), 3);
	assert_non_null(strstr(s, "<title>-O2 -DX=&quot;&lt;i&gt;&quot; &amp; &#39;q&#39;</title>"));
	assert_null(strstr(s, "<i>"));
	assert_null(strstr(s, "no x"));
	assert_null(strstr(s, "no y"));
	/* b and e joined by steps; a's and e's error bars. */
	assert_int_equal(count(s, "class=\"link\""), 1);
	assert_int_equal(count(s, "class=\"err\""), 3);
	assert_non_null(strstr(s, "size [bytes]"));
	assert_null(strstr(s, "http"));
	assert_finite_text(s);
	strbuf_release(&sb);
}

static void test_html__scatter_degenerate(void **state)
{
	const struct html_point one[] = { { 5, 5, 0, 0, "x", NULL, "x" } };
	const struct html_point same[] = { { 0, 7, 0, 0, "x", NULL, "x" },
					   { 0, 7, 0, 0, "y", NULL, "y" } };
	const struct html_point none[] = { { NAN, NAN, 0, 0, "x", NULL, "x" } };
	struct html_scatter sc = { .title = "t", .x_label = "x", .y_label = "y" };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	sc.points = one;
	sc.npoints = 1;
	assert_int_equal(html_scatter(&sb, &sc), 1);
	assert_finite_text(strbuf_str(&sb));
	strbuf_reset(&sb);
	sc.points = same;
	sc.npoints = 2;
	assert_int_equal(html_scatter(&sb, &sc), 2);
	assert_finite_text(strbuf_str(&sb));
	strbuf_reset(&sb);
	sc.points = none;
	sc.npoints = 1;
	assert_int_equal(html_scatter(&sb, &sc), 0);
	assert_finite_text(strbuf_str(&sb));
	assert_int_equal(count(strbuf_str(&sb), "<circle"), 0);
	strbuf_release(&sb);
}

static void test_html__heatmap(void **state)
{
	const char *rows[] = { "-O2", "-Os & <x>" }, *cols[] = { "a9", "1004k" };
	const double v[] = { 0, 2.5, NAN, 10 };
	const struct html_cell cells[] = { { "best", "best", "a <t>" }, { NULL, NULL, NULL },
					   { NULL, "over a limit", NULL }, { NULL, NULL, NULL } };
	const char *row_cls[] = { "common", NULL };
	struct html_heatmap h = { .caption = "regret", .corner = "config", .rows = rows,
				  .nrows = 2, .cols = cols, .ncols = 2, .values = v,
				  .lo = NAN, .hi = NAN, .unit = "%" };
	struct strbuf sb = STRBUF_INIT;
	const char *s;

	(void)state;
	html_heatmap(&sb, &h);
	s = strbuf_str(&sb);
	assert_int_equal(count(s, "<td class=\"none\"></td>"), 1);
	assert_non_null(strstr(s, "background:#f1f6fb;color:#111\">0%</td>"));
	assert_non_null(strstr(s, "background:#08306b;color:#fff\">10%</td>"));
	assert_non_null(strstr(s, "<th>-Os &amp; &lt;x&gt;</th>"));
	assert_non_null(strstr(s, "scale: 0%"));
	assert_finite_text(s);
	strbuf_release(&sb);

	/* Cells with classes, notes and titles; rows with classes. */
	h.cells = cells;
	h.row_cls = row_cls;
	html_heatmap(&sb, &h);
	s = strbuf_str(&sb);
	assert_non_null(strstr(s, "<td class=\"best\" title=\"a &lt;t&gt;\" style=\"background:#f1f6fb;"
				  "color:#111\">0% <span class=\"note\">best</span></td>"));
	assert_non_null(strstr(s, "<td class=\"none\">over a limit</td>"));
	assert_non_null(strstr(s, "<tr class=\"common\"><th>-O2</th>"));
	assert_non_null(strstr(s, "<tr><th>-Os &amp; &lt;x&gt;</th>"));
	assert_non_null(strstr(s, "<td style=\"background:#08306b;color:#fff\">10%</td>"));
	strbuf_release(&sb);
}

static void test_html__bars(void **state)
{
	const struct html_bar bars[] = {
		{ "-fno-reorder-blocks at -O2", 0.14, 0.1, 0.18, NULL, NULL, NULL, NULL, NULL },
		{ "nothing", NAN, NAN, NAN, NULL, NULL, NULL, NULL, NULL },
		{ "-fno-reorder-blocks -falign-functions=64 -fno-tree-ch at -Os", -0.16, -0.2,
		  -0.12, "neg", NULL, NULL, NULL, NULL },
		{ "no interval", 0.01, NAN, NAN, NULL, "its own title", NULL, NULL, NULL },
	};
	struct html_bars b = { .title = "effects", .x_label = "throughput, relative",
			       .bars = bars, .nbars = 4, .ref = 0 };
	struct strbuf sb = STRBUF_INIT;
	const char *s;

	(void)state;
	assert_int_equal(html_bars(&sb, &b), 3);
	s = strbuf_str(&sb);
	assert_int_equal(count(s, "<rect"), 3);
	assert_int_equal(count(s, "class=\"err\""), 2);
	assert_int_equal(count(s, "class=\"ref\""), 1);
	assert_null(strstr(s, "nothing"));
	/* A long label is cut, whole in its title. */
	assert_non_null(strstr(s, "<title>-fno-reorder-blocks -falign-functions=64 -fno-tree-ch at -Os: "));
	assert_non_null(strstr(s, "\xe2\x80\xa6</text>"));
	assert_non_null(strstr(s, "<title>its own title</title>"));
	assert_finite_text(s);
	strbuf_release(&sb);
}

/* Bars in groups (a row of text where the group changes), keys, a unit. */
static void test_html__bars_grouped(void **state)
{
	const struct html_bar bars[] = {
		{ "a", 14, 10, 18, "t0", NULL, "k<1>", "reorder: -fno-reorder-blocks", "flip" },
		{ "b", -16, -20, -12, "t1", NULL, "k2", "reorder: -fno-reorder-blocks", "flip" },
		{ "a", NAN, NAN, NAN, "t0", NULL, "k3", "opt: -Os", NULL },
		{ "b", -3, -4, -2, "t1 unclear", NULL, "k4", "opt: -Os", NULL },
		{ "c", 1, 0, 2, NULL, NULL, NULL, NULL, NULL },
	};
	struct html_bars b = { .title = "effects", .x_label = "speed [%]", .bars = bars,
			       .nbars = 5, .ref = 0, .unit = "%", .sign = 1 };
	struct strbuf sb = STRBUF_INIT;
	const char *s;

	(void)state;
	assert_int_equal(html_bars(&sb, &b), 4);
	s = strbuf_str(&sb);
	assert_int_equal(count(s, "<text class=\"group"), 2);
	assert_int_equal(count(s, "<text class=\"group flip\""), 1);
	assert_int_equal(count(s, "class=\"sep\""), 1);
	assert_int_equal(count(s, "data-key="), 3);
	assert_non_null(strstr(s, "<g class=\"bar t0\" data-key=\"k&lt;1&gt;\" tabindex=\"0\"><title>a: +14%</title>"));
	assert_non_null(strstr(s, "<g class=\"bar t1 unclear\" data-key=\"k4\""));
	assert_non_null(strstr(s, ">+14%</text>"));
	assert_non_null(strstr(s, ">-16%</text>"));
	/* Six rows of 22 px (4 bars, 2 groups), 8 above, 52 below. */
	assert_non_null(strstr(s, "height=\"192\""));
	assert_finite_text(s);
	strbuf_release(&sb);
}

/* A results set as results_load() would give it: objectives speed
 * (modelled) and size; a on the front, b tied on it, c dominated at a's
 * point, d failed. */
static void make_results(struct results *r, const char *dir)
{
	static struct results_objective objs[2] = {
		{ .name = "speed", .unit = "Mbit/s <m>", .maximize = 1, .modelled = 1 },
		{ .name = "size", .unit = "bytes" },
	};
	static struct results_value vals[4][2];
	static struct results_config cfgs[4];
	static char *dirs[1];
	static char log[512];
	const char *flags[4] = { "-O2 -DX=\"<b>\"&'y'", "-O3", "-Os", "-O1 -fbroken" };

	memset(r, 0, sizeof(*r));
	r->dir = (char *)dir;
	r->study = "t<s>";
	strcpy(r->study_hash, "0123456789abcdef");
	r->tuner = "0.1.0";
	strcpy(r->commit, "c0ffee");
	r->complete = 1;
	r->objectives = objs;
	r->nobjectives = 2;
	r->configs = cfgs;
	r->nconfigs = 4;
	for (int k = 0; k < 4; k++) {
		struct results_config *c = &cfgs[k];

		memset(c, 0, sizeof(*c));
		snprintf(c->id, sizeof(c->id), "%016x", k + 1);
		c->flags = (char *)flags[k];
		c->status = k == 3 ? "failed" : "ok";
		c->feasible = k < 3;
		c->obj = vals[k];
		for (int i = 0; i < 2; i++) {
			struct results_value *v = &vals[k][i];

			v->known = k < 3;
			v->value = k == 3 ? NAN : i ? 1000 + 100 * (k % 2) : 500 + 10 * (k % 2);
			v->n = 6;
			v->sd = 2;
			v->run_sd = 1;
			v->layout_sd = 5;
			v->layout_seeds = 2;
			v->se = i ? 0 : 1.5;
		}
	}
	cfgs[0].on_front = cfgs[1].on_front = 1;
	cfgs[1].tied = 1;
	cfgs[2].same_code_as = cfgs[0].id;
	snprintf(log, sizeof(log), "%s/b3", dir);
	dirs[0] = log;
	cfgs[3].build_dirs = dirs;
	cfgs[3].nbuilds = 1;
}

/* r as the one target of a page (a study with no space, no testbeds). */
static void one_target(struct results_target *t, struct results *r)
{
	memset(t, 0, sizeof(*t));
	t->name = r->study;
	t->res = *r;
}

static void test_html__report(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct results_target t;
	struct results r;
	char *path;
	const char *s;

	make_results(&r, *state);
	r.compiler = "gcc (Debian 12.2.0-14) 12.2.0";
	r.host = "box (x86_64)";
	r.date = "2026-12-02T10:00:00Z";
	one_target(&t, &r);
	path = xasprintf("%s/b3", (char *)*state);
	assert_int_equal(mkdir_p(path), 0);
	free(path);
	path = xasprintf("%s/b3/build.log", (char *)*state);
	assert_int_equal(write_file_atomic(path, "cc -c x.c\n\nx.c:1: error: <oops>\n\n", 33), 0);
	free(path);

	assert_int_equal(html_report(&sb, &t, 1, NULL), 3);
	s = strbuf_str(&sb);
	assert_int_equal(count(s, "data-config="), 3);
	assert_int_equal(count(s, "class=\"point front"), 2);
	assert_int_equal(count(s, "class=\"point front tied\""), 1);
	assert_non_null(strstr(s, "<h1>tuner report: t&lt;s&gt;</h1>"));
	assert_non_null(strstr(s, "<title>0000000000000001  -O2 -DX=&quot;&lt;b&gt;&quot;&amp;&#39;y&#39;\n"));
	assert_non_null(strstr(s, "<td class=\"flags\"><span class=\"fl\">-O2</span> "
				  "<span class=\"fl\">-DX=&quot;&lt;b&gt;&quot;&amp;&#39;y&#39;</span></td>"));
	assert_null(strstr(s, "<b>\""));
	assert_non_null(strstr(s, ">MODELLED</span>"));
	assert_null(strstr(s, "<m>"));
	assert_non_null(strstr(s, "Highest speed on the front: <b>510 Mbit/s &lt;m&gt;</b> (MODELLED)"));
	assert_non_null(strstr(s, "<dt>compiler</dt><dd>gcc (Debian 12.2.0-14) 12.2.0</dd>"));
	assert_non_null(strstr(s, "<dt>host</dt><dd>box (x86_64)</dd>"));
	assert_non_null(strstr(s, "<dt>date</dt><dd>2026-12-02T10:00:00Z</dd>"));
	/* a and c share a point: each names the other. */
	assert_int_equal(count(s, "the same point as 1 other:"), 2);
	/* What failed: its status, log and last line. */
	assert_non_null(strstr(s, "<tr id=\"f-0000000000000004\">"));
	assert_non_null(strstr(s, "href=\"#f-0000000000000004\""));
	assert_non_null(strstr(s, "/b3/build.log</code>"));
	assert_non_null(strstr(s, "x.c:1: error: &lt;oops&gt;\n</pre>"));
	/* The layout spread column: 5 / 500 = 1%. */
	assert_non_null(strstr(s, "<br>layout sd</th>"));
	assert_non_null(strstr(s, ">1%<span class=\"barbox\">"));
	/* No space: no effects; one target: no regret. */
	assert_non_null(strstr(s, "<section id=\"effects\">"));
	assert_non_null(strstr(s, "No dimension has two values or more"));
	assert_non_null(strstr(s, "<section id=\"regret\">"));
	assert_non_null(strstr(s, "The regret takes two targets or more"));
	assert_null(strstr(s, "http://"));
	assert_null(strstr(s, "https://"));
	assert_null(strstr(s, "<script src"));
	assert_null(strstr(s, "<link"));
	assert_finite_text(s);
	strbuf_release(&sb);

	/* Without provenance (an older pareto.json), and with one objective:
	 * no plot. */
	r.compiler = r.host = r.date = NULL;
	r.nobjectives = 1;
	one_target(&t, &r);
	assert_int_equal(html_report(&sb, &t, 1, NULL), 0);
	s = strbuf_str(&sb);
	assert_int_equal(count(s, "data-config="), 0);
	assert_int_equal(count(s, "not recorded"), 3);
	assert_non_null(strstr(s, "One objective: no front to plot"));
	strbuf_release(&sb);
}

/*
 * Two targets over opt [-O2, -Os]: speed, -Os +10% on "a" and -10% on
 * "b" (a sign change, with se 1 of 100: clear), size the same on both; b's
 * -Os over b's size limit. Configurations in pareto.json's order: -O2,
 * -Os.
 */
static void make_targets(struct results_target t[2], struct results_config cfgs[2][2],
			 struct results_value vals[2][2][2], size_t picks[2][1])
{
	static struct results_objective objs[2] = {
		{ .name = "speed", .unit = "Mbit/s", .maximize = 1 },
		{ .name = "size", .unit = "bytes" },
	};
	static const char *const opt[] = { "-O2", "-Os" };
	static const char *const names[2] = { "a", "b<x>" };

	for (int k = 0; k < 2; k++) {
		struct results *r = &t[k].res;

		memset(&t[k], 0, sizeof(t[k]));
		t[k].name = (char *)names[k];
		assert_int_equal(space_add_dimension(&t[k].study.space, "opt", opt, 2), 0);
		r->dir = "d";
		r->study = (char *)names[k];
		r->tuner = "0.1.0";
		r->complete = 1;
		r->objectives = objs;
		r->nobjectives = 2;
		r->configs = cfgs[k];
		r->nconfigs = 2;
		for (int c = 0; c < 2; c++) {
			struct results_config *x = &cfgs[k][c];

			memset(x, 0, sizeof(*x));
			snprintf(x->id, sizeof(x->id), "%016x", c + 1);
			x->flags = (char *)opt[c];
			x->status = "ok";
			x->feasible = !(k == 1 && c == 1);
			x->on_front = 1;
			picks[c][0] = (size_t)c;
			x->pick = picks[c];
			x->obj = vals[k][c];
			for (int i = 0; i < 2; i++) {
				struct results_value *v = &vals[k][c][i];

				memset(v, 0, sizeof(*v));
				v->known = 1;
				v->n = 4;
				v->sd = 2;
				v->se = 1;
				v->value = i ? (c ? 900 : 1000) : c ? (k ? 90 : 110) : 100;
			}
		}
	}
}

static void test_html__report_targets(void **state)
{
	struct results_target t[2];
	struct results_config cfgs[2][2];
	struct results_value vals[2][2][2];
	size_t picks[2][1];
	struct strbuf sb = STRBUF_INIT;
	const char *s;

	(void)state;
	make_targets(t, cfgs, vals, picks);
	assert_int_equal(html_report(&sb, t, 2, NULL), 4);
	s = strbuf_str(&sb);
	assert_non_null(strstr(s, "<h1>tuner report: a and b&lt;x&gt;</h1>"));
	/* A plot per target; ids prefixed per target. */
	assert_int_equal(count(s, "<figure data-target="), 2);
	assert_non_null(strstr(s, "<section id=\"t1-configs\">"));
	assert_non_null(strstr(s, "<section id=\"t2-failures\">"));
	assert_non_null(strstr(s, "<tr id=\"t2-c-0000000000000002\""));
	/* Effects: one value x two targets, for each objective; -Os on
	 * speed changes sign. */
	assert_int_equal(count(s, "data-key=\"speed:"), 2);
	assert_int_equal(count(s, "data-key=\"size:"), 2);
	assert_non_null(strstr(s, "data-key=\"speed:b&lt;x&gt;:opt=-Os\""));
	assert_non_null(strstr(s, "<g class=\"bar t1\" data-key=\"speed:b&lt;x&gt;:opt=-Os\""));
	assert_non_null(strstr(s, "opt: -Os, against -O2 \xe2\x80\x94 changes sign between targets"));
	assert_non_null(strstr(s, "<code>-Os</code> changes sign between targets</b>: helps on a "
				  "(+10% [+7."));
	assert_non_null(strstr(s, "Changes sign between targets: <b>opt <code>-Os</code></b> on speed"));
	/* Regret: -O2 is the only configuration feasible on both (b's -Os
	 * over its limit), the common default; a's best is -Os. */
	assert_non_null(strstr(s, "<p class=\"verdict\"><b>Verdict:</b> per-target defaults gain "
				  "9.09% on a"));
	assert_non_null(strstr(s, "<tr class=\"common\"><th>-O2  (common default)</th>"));
	assert_non_null(strstr(s, "<td class=\"none\">over a limit</td>"));
	assert_int_equal(count(s, "<td class=\"best\""), 2);
	assert_finite_text(s);
	strbuf_release(&sb);
	for (int k = 0; k < 2; k++)
		space_release(&t[k].study.space);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html__escape),
		cmocka_unit_test(test_html__axis),
		cmocka_unit_test(test_html__scatter),
		cmocka_unit_test(test_html__scatter_degenerate),
		cmocka_unit_test(test_html__heatmap),
		cmocka_unit_test(test_html__bars),
		cmocka_unit_test(test_html__bars_grouped),
		cmocka_unit_test_setup_teardown(test_html__report, setup_dir, teardown_dir),
		cmocka_unit_test(test_html__report_targets),
	};

	return cmocka_run_group_tests_name("html", tests, NULL, NULL);
}
