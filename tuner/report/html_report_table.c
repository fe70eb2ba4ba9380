/* SPDX-License-Identifier: GPL-2.0-or-later */
/* html_report: the tables of every configuration and of what failed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "tuner/measure.h"
#include "tuner/numfmt.h"
#include "html_report_priv.h"

static _Thread_local const struct results *sort_r;
static _Thread_local int sort_y;

/* Front first, then what worked, then by y (best first), then by id. */
static int cmp_rows(const void *a, const void *b)
{
	const struct results_config *x = &sort_r->configs[*(const size_t *)a];
	const struct results_config *y = &sort_r->configs[*(const size_t *)b];
	int kx = value_known(x, sort_y), ky = value_known(y, sort_y);

	if (x->on_front != y->on_front)
		return y->on_front - x->on_front;
	if (config_ok(x) != config_ok(y))
		return config_ok(y) - config_ok(x);
	if (kx != ky)
		return ky - kx;
	if (kx && x->obj[sort_y].value != y->obj[sort_y].value) {
		int better = x->obj[sort_y].value > y->obj[sort_y].value;
		return sort_r->objectives[sort_y].maximize == better ? -1 : 1;
	}
	return strcmp(x->id, y->id);
}

static size_t *row_order(const struct results *r, int y)
{
	size_t *order = xcalloc(r->nconfigs ? r->nconfigs : 1, sizeof(*order));

	for (size_t i = 0; i < r->nconfigs; i++)
		order[i] = i;
	sort_r = r;
	sort_y = y < 0 ? 0 : y;
	if (r->nobjectives)
		qsort(order, r->nconfigs, sizeof(*order), cmp_rows);
	return order;
}

/* The largest layout sd relative to the value of objective i, over the
 * configurations with several layout seeds; 0: no spread to show. */
static double layout_max(const struct results *r, size_t i)
{
	double max = 0;

	for (size_t k = 0; k < r->nconfigs; k++) {
		const struct results_value *v = &r->configs[k].obj[i];
		if (v->known && v->layout_seeds > 1 && isfinite(v->layout_sd) && v->value)
			max = fmax(max, fabs(v->layout_sd / v->value));
	}
	return max;
}

static void spread_cell(struct strbuf *sb, const struct results_value *v, double max)
{
	double rel = v->known && v->value ? fabs(v->layout_sd / v->value) : NAN;
	double run = v->known && v->value ? fabs(v->run_sd / v->value) : NAN;

	if (v->layout_seeds < 2 || !isfinite(rel)) {
		strbuf_addstr(sb, "<td class=\"num muted\">&ndash;</td>");
		return;
	}
	strbuf_addf(sb, "<td class=\"num\" title=\"layout sd %.2g%% over %u layout seeds; run sd "
		    "%.2g%%\">%.2g%%<span class=\"barbox\"><span class=\"barfill\" style=\"width:%.0f%%\">"
		    "</span></span></td>", 100 * rel, v->layout_seeds, 100 * run, 100 * rel,
		    max > 0 ? 100 * rel / max : 0);
}

static void value_cell(struct strbuf *sb, const struct results_value *v)
{
	char n[NUMFMT_LEN], sd[NUMFMT_LEN];

	if (!v->known || !isfinite(v->value)) {
		strbuf_addstr(sb, "<td class=\"num muted\">&ndash;</td>");
		return;
	}
	numfmt(n, sizeof(n), v->value, 4);
	strbuf_addf(sb, "<td class=\"num\">%s", n);
	if (v->n > 1 && isfinite(v->sd)) {
		numfmt(sd, sizeof(sd), v->sd, 2);
		strbuf_addf(sb, " &plusmn;%s <span class=\"muted\">(n=%zu)</span>", sd, v->n);
	}
	strbuf_addstr(sb, "</td>");
}

/* The flags, each an unbreakable unit (a line never breaks at a flag's
 * own hyphens), wrapping between them. */
static void flags_cell(struct strbuf *sb, const char *flags, int pgo)
{
	strbuf_addstr(sb, "<td class=\"flags\">");
	if (!*flags)
		strbuf_addstr(sb, "(no flags)");
	while (*flags) {
		size_t n = strcspn(flags, " ");
		char *flag = xstrndup(flags, n);

		strbuf_addstr(sb, "<span class=\"fl\">");
		html_escape(sb, flag);
		strbuf_addstr(sb, "</span>");
		free(flag);
		flags += n;
		if (*flags)
			strbuf_addch(sb, ' ');
		flags += strspn(flags, " ");
	}
	strbuf_addstr(sb, pgo ? " (PGO)</td>" : "</td>");
}

static void status_cell(struct strbuf *sb, const struct html_tgt *g, const struct results_config *c)
{
	strbuf_addstr(sb, "<td>");
	if (config_failed(c)) {
		strbuf_addf(sb, "<a class=\"warn\" href=\"#%sf-%s\">", g->pfx, c->id);
		html_escape(sb, c->status);
		strbuf_addstr(sb, "</a>");
	} else if (!config_ok(c)) {
		html_escape(sb, c->status);
	} else {
		strbuf_addstr(sb, c->feasible ? "ok" : "over a limit");
	}
	if (c->same_code_as)
		strbuf_addf(sb, "; same code as <code>%s</code>", c->same_code_as);
	strbuf_addstr(sb, "</td>");
}

/* <section id="PFXwhat">, its heading, ": NAME" with several targets. */
static void section(struct strbuf *sb, const struct html_tgt *g, const char *id,
		    const char *heading)
{
	strbuf_addf(sb, "<section id=\"%s%s\">\n<h2>%s", g->pfx, id, heading);
	if (g->name) {
		strbuf_addstr(sb, ": ");
		html_escape(sb, g->name);
	}
	strbuf_addstr(sb, "</h2>\n");
}

void html_report_table(struct strbuf *sb, const struct html_tgt *g, int y)
{
	const struct results *r = &g->t->res;
	size_t *order = row_order(r, y);
	double *lmax = xcalloc(r->nobjectives ? r->nobjectives : 1, sizeof(*lmax));
	int spread = 0;

	section(sb, g, "configs", "Every configuration");
	strbuf_addstr(sb, "<table>\n<thead><tr><th></th><th>config</th><th>flags</th><th>PGO</th>");
	for (size_t i = 0; i < r->nobjectives; i++) {
		strbuf_addstr(sb, "<th class=\"num\">");
		html_escape(sb, r->objectives[i].name);
		if (*r->objectives[i].unit) {
			strbuf_addstr(sb, "<br><span class=\"muted\">");
			html_escape(sb, r->objectives[i].unit);
			strbuf_addstr(sb, "</span>");
		}
		strbuf_addstr(sb, "</th>");
	}
	for (size_t i = 0; i < r->nobjectives; i++) {
		lmax[i] = layout_max(r, i);
		if (lmax[i] <= 0)
			continue;
		spread = 1;
		strbuf_addstr(sb, "<th class=\"num\">");
		html_escape(sb, r->objectives[i].name);
		strbuf_addstr(sb, "<br>layout sd</th>");
	}
	strbuf_addstr(sb, "<th>status</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < r->nconfigs; k++) {
		const struct results_config *c = &r->configs[order[k]];
		const char *w = front_word(c);

		strbuf_addf(sb, "<tr id=\"%sc-%s\"%s><td>", g->pfx, c->id, w ? " class=\"front\"" :
			    config_failed(c) ? " class=\"failed\"" : "");
		if (w)
			strbuf_addf(sb, "<span class=\"mark %s\">%s</span>", w, w);
		strbuf_addf(sb, "</td><td class=\"id\">%s</td>", c->id);
		flags_cell(sb, c->flags, 0);
		strbuf_addf(sb, "<td>%s</td>", c->pgo ? "on" : "off");
		for (size_t i = 0; i < r->nobjectives; i++)
			value_cell(sb, &c->obj[i]);
		for (size_t i = 0; i < r->nobjectives; i++)
			if (lmax[i] > 0)
				spread_cell(sb, &c->obj[i], lmax[i]);
		status_cell(sb, g, c);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n<p class=\"caption\">Values: the trimmed mean the "
		    "front used, &plusmn; the standard deviation of the samples (n of them). ");
	if (spread)
		strbuf_addstr(sb, "Layout sd: the standard deviation between layout-seed builds "
			    "(the same flags, code placed differently), relative to the value; the "
			    "bar is to the largest. ");
	else
		strbuf_addstr(sb, "No layout spread: one layout seed per configuration (see "
			    "layout.samples), so layout luck is not told from the flags' effect. ");
	strbuf_addstr(sb, "</p>\n</section>\n");
	free(lmax);
	free(order);
}

/* The last lines (up to max) of the log at path, whatever its length. */
static void log_tail(struct strbuf *sb, const char *path, int max)
{
	char buf[4096], *line[16];
	FILE *f = fopen(path, "rb");
	size_t n;
	long end;
	int nl = 0;

	if (!f) {
		strbuf_addstr(sb, "<span class=\"muted\">(cannot be read)</span>");
		return;
	}
	fseek(f, 0, SEEK_END);
	end = ftell(f);
	fseek(f, end > (long)sizeof(buf) - 1 ? end - (long)sizeof(buf) + 1 : 0, SEEK_SET);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (char *p = strtok(buf, "\n"); p; p = strtok(NULL, "\n")) {
		if (!p[strspn(p, " \t\r")])
			continue;
		if (nl == max)
			memmove(line, line + 1, --nl * sizeof(*line));
		line[nl++] = p;
	}
	if (!nl) {
		strbuf_addstr(sb, "<span class=\"muted\">(empty)</span>");
		return;
	}
	strbuf_addstr(sb, "<pre class=\"log\">");
	for (int k = 0; k < nl; k++) {
		html_escape(sb, line[k]);
		strbuf_addch(sb, '\n');
	}
	strbuf_addstr(sb, "</pre>");
}

static void log_item(struct strbuf *sb, const char *path)
{
	strbuf_addstr(sb, "<li><code>");
	html_escape(sb, path);
	strbuf_addstr(sb, "</code>");
	log_tail(sb, path, 3);
	strbuf_addstr(sb, "</li>\n");
}

static void failure_logs(struct strbuf *sb, const struct results_config *c, const struct study *s)
{
	int measure = !strcmp(c->status, "measure-failed");

	if (measure && c->same_code_as) {
		strbuf_addf(sb, "<li>measured as <code>%s</code> (the same code): its logs</li>\n",
			    c->same_code_as);
		return;
	}
	for (size_t k = 0; k < c->nbuilds; k++) {
		char *log;

		if (!measure) {
			log = xasprintf("%s/build.log", c->build_dirs[k]);
			log_item(sb, log);
			free(log);
			continue;
		}
		for (size_t t = 0; s && t < s->ntestbeds; t++) {
			log = measure_log_path(c->build_dirs[k], s->testbeds[t]);
			log_item(sb, log);
			free(log);
		}
	}
}

void html_report_failures(struct strbuf *sb, const struct html_tgt *g)
{
	const struct results *r = &g->t->res;
	size_t n = 0;

	section(sb, g, "failures", "What failed");
	for (size_t k = 0; k < r->nconfigs; k++) {
		const struct results_config *c = &r->configs[k];

		if (config_ok(c))
			continue;
		if (!n++)
			strbuf_addstr(sb, "<table>\n<thead><tr><th>config</th><th>flags</th>"
				    "<th>status</th><th>logs (last lines)</th></tr></thead>\n<tbody>\n");
		strbuf_addf(sb, "<tr id=\"%sf-%s\"><td class=\"id\">%s</td>", g->pfx, c->id, c->id);
		flags_cell(sb, c->flags, c->pgo);
		strbuf_addstr(sb, "<td class=\"warn\">");
		html_escape(sb, c->status);
		strbuf_addstr(sb, "</td><td><ul>\n");
		if (strcmp(c->status, "incomplete"))
			failure_logs(sb, c, &g->t->study);
		else
			strbuf_addstr(sb, "<li>fewer runs than measure.repeats (min) somewhere: the "
				    "run was interrupted</li>\n");
		strbuf_addstr(sb, "</ul></td></tr>\n");
	}
	if (n)
		strbuf_addstr(sb, "</tbody>\n</table>\n<p class=\"caption\">A failed build or "
			    "measurement is a result, kept: <code>tuner run --retry-failed</code> "
			    "tries them again.</p>\n");
	else
		strbuf_addstr(sb, "<p>Nothing failed: every configuration was built and measured.</p>\n");
	strbuf_addstr(sb, "</section>\n");
}
