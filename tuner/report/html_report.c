/* SPDX-License-Identifier: GPL-2.0-or-later */
/* html_report: see include/tuner/html_report.h */
#include "tuner/html_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "tuner/numfmt.h"
#include "html_report_priv.h"

static const char css[] =
	":root{color-scheme:light}\n"
	"body{font:15px/1.45 system-ui,\"DejaVu Sans\",Arial,sans-serif;color:#111;background:#fff;"
	"max-width:1120px;margin:0 auto;padding:12px 24px 48px}\n"
	"h1{font-size:1.55em;margin:.3em 0 .5em}h2{font-size:1.25em;margin:1.8em 0 .5em;"
	"padding-bottom:.15em;border-bottom:2px solid #d0d4da}\n"
	"code,.mono,td.id,td.flags{font-family:\"DejaVu Sans Mono\",Menlo,Consolas,monospace;"
	"font-size:.9em}\n"
	"dl.prov{display:grid;grid-template-columns:max-content 1fr;gap:2px 18px;margin:0}"
	"dl.prov dt{color:#4a4f57}dl.prov dd{margin:0;overflow-wrap:anywhere}\n"
	".modelled{display:inline-block;background:#a34700;color:#fff;font-weight:700;"
	"font-size:.8em;padding:0 .4em;border-radius:3px;letter-spacing:.03em}\n"
	".warn{color:#a30000;font-weight:600}.muted{color:#555}\n"
	"ul.glance{padding-left:1.2em;margin:.3em 0}\n"
	"svg{display:block;max-width:100%;height:auto}svg text{font-size:13px;fill:#222}\n"
	".frame{fill:none;stroke:#555}.grid{stroke:#e4e6ea}.tick{font-size:12px;fill:#333}\n"
	".axis-title{font-size:14px;font-weight:600}\n"
	".point circle,.key circle{fill:#a3a9b1;stroke:#fff;stroke-width:1}\n"
	".point.front circle,.key.front circle{fill:#1f5fbf;stroke:#0c2f6b;stroke-width:1}\n"
	".point.tied circle,.key.tied circle{fill:#fff;stroke:#d9480f;stroke-width:2.5}\n"
	".point:focus{outline:none}.point:focus circle,.point:hover circle{stroke:#000;"
	"stroke-width:3}\n"
	".err{fill:none;stroke:#6b7078;stroke-width:1.2}.point.front .err{stroke:#1f5fbf}\n"
	".link{fill:none;stroke:#1f5fbf;stroke-width:1.5;stroke-dasharray:5 3}\n"
	".bar rect{fill:#1f5fbf}.ref{stroke:#111}.value{font-size:12px}.bar .err{stroke:#111}\n"
	".t0 rect,span.t0{fill:#1f5fbf;background:#1f5fbf}.t1 rect,span.t1{fill:#d9480f;"
	"background:#d9480f}.t2 rect,span.t2{fill:#2b8a3e;background:#2b8a3e}.t3 rect,span.t3{"
	"fill:#862e9c;background:#862e9c}.t4 rect,span.t4{fill:#0b7285;background:#0b7285}"
	".t5 rect,span.t5{fill:#a61e4d;background:#a61e4d}\n"
	".bar.unclear rect{fill-opacity:.35}.bar:focus{outline:none}.bar:focus rect,.bar:hover rect{"
	"stroke:#000;stroke-width:1.5}\n"
	"span.key{display:inline-block;width:12px;height:12px;margin:0 5px 0 14px;"
	"vertical-align:-1px;border-radius:2px}span.key:first-child{margin-left:0}"
	"span.key.unclear{background:#1f5fbf;opacity:.35}p.keys{margin:.3em 0}\n"
	"text.group{font-size:13.5px;font-weight:700}text.group.flip{fill:#a30000}.sep{stroke:#c9ced6}\n"
	"h3{font-size:1.08em;margin:1.3em 0 .35em}\n"
	"table.prov{width:auto}table.prov th{white-space:nowrap}table.prov tbody th{color:#4a4f57;"
	"font-weight:400}table.prov td{overflow-wrap:anywhere}\n"
	".multiples{display:grid;grid-template-columns:repeat(auto-fit,minmax(440px,1fr));"
	"gap:8px 28px}figure{margin:0}figcaption{font-weight:700;font-size:1.1em;margin:.4em 0 0}\n"
	"p.verdict{font-size:1.08em;background:#f2f6fc;border-left:4px solid #1f5fbf;"
	"padding:6px 10px}\n"
	"table.heatmap{width:auto;min-width:60%}.heatmap caption{text-align:left;font-weight:600;"
	"padding:4px 0}.heatmap tbody th{font-family:\"DejaVu Sans Mono\",Menlo,Consolas,monospace;"
	"font-weight:400;font-size:.9em}.heatmap thead th{text-align:right}\n"
	".heatmap thead th:first-child,.heatmap td.scale{text-align:left}\n"
	".heatmap td{min-width:7em}.heatmap td.best{outline:3px solid #d9480f;outline-offset:-3px;"
	"font-weight:700}.heatmap td.none{background:#f4f5f7;color:#555;font-style:italic}"
	".heatmap tr.common th{font-weight:700;color:#0c2f6b}.heatmap tr.partial th{color:#666}"
	".note{font-size:.85em}\n"
	"p.caption{font-size:.92em;color:#333;margin:.4em 0 0}\n"
	"table{border-collapse:collapse;width:100%;font-size:.92em}\n"
	"th,td{padding:3px 7px;border-bottom:1px solid #e1e4e8;text-align:left;vertical-align:top}\n"
	"thead th{border-bottom:2px solid #999;background:#f4f5f7}\n"
	"td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}\n"
	"td.flags{min-width:14em}.fl{display:inline-block;max-width:100%;overflow-wrap:anywhere}"
	"td.id{white-space:nowrap;color:#333}\n"
	"tr.front td{background:#eef4ff}tr.failed td{background:#fff1f0}\n"
	".mark{font-weight:700}.mark.front{color:#1f5fbf}.mark.tied{color:#d9480f}\n"
	".barbox{display:inline-block;width:56px;height:8px;background:#e4e6ea;margin-left:6px;"
	"vertical-align:middle}.barfill{display:block;height:8px;background:#1f5fbf}\n"
	"pre.log{margin:.2em 0;padding:4px 6px;background:#f6f6f6;white-space:pre-wrap;"
	"overflow-wrap:anywhere;font-size:.85em}\n"
	".heatmap td{text-align:right}.swatch{display:inline-block;width:120px;height:10px;"
	"vertical-align:middle}\n"

	"#tip{position:absolute;z-index:9;background:#fffff0;border:1px solid #888;"
	"padding:4px 7px;white-space:pre;font-size:13px;pointer-events:none}\n"
	"@media print{body{max-width:none;padding:0;font-size:10pt}#tip{display:none}"
	"h2{break-after:avoid}tr,svg,pre{break-inside:avoid}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n";

/* Shows a point's label on keyboard focus; hover has its <title>. */
static const char script[] =
	"(function(){var t=document.getElementById('tip');if(!t)return;\n"
	"document.addEventListener('focusin',function(e){var g=e.target;\n"
	"if(!g.classList||!(g.classList.contains('point')||g.classList.contains('bar')))return;\n"
	"var s=g.querySelector('title'),r=g.getBoundingClientRect();\n"
	"t.textContent=s?s.textContent:'';t.style.left=(r.right+scrollX+8)+'px';\n"
	"t.style.top=(r.top+scrollY)+'px';t.hidden=false;});\n"
	"document.addEventListener('focusout',function(){t.hidden=true;});})();\n";

/* value, escaped, or "not recorded" when NULL. */
static void recorded(struct strbuf *sb, const char *value)
{
	if (value)
		html_escape(sb, value);
	else
		strbuf_addstr(sb, "<span class=\"muted\">not recorded</span>");
}

static void objectives_item(struct strbuf *sb, const struct results *r)
{
	for (size_t i = 0; i < r->nobjectives; i++) {
		const struct results_objective *o = &r->objectives[i];
		char lim[NUMFMT_LEN];

		strbuf_addstr(sb, i ? "; " : "");
		html_escape(sb, o->name);
		strbuf_addf(sb, " (%s", o->maximize ? "max" : "min");
		if (*o->unit) {
			strbuf_addstr(sb, ", ");
			html_escape(sb, o->unit);
		}
		if (o->has_limit) {
			numfmt(lim, sizeof(lim), o->limit, 6);
			strbuf_addf(sb, ", limit %s %s", o->maximize ? "&ge;" : "&le;", lim);
		}
		strbuf_addstr(sb, o->noisy ? ", compared under noise)" : ")");
		if (o->modelled)
			strbuf_addstr(sb, " <span class=\"modelled\" title=\"a model's value, not "
				    "measured on hardware\">MODELLED</span>");
	}
}

static const char *const prov_names[] = {
	"study", "source", "tuner", "compiler", "host", "date", "results", "objectives",
};

/* Item k of prov_names of results r, as HTML. */
static void prov_item(struct strbuf *sb, const struct results *r, size_t k)
{
	switch (k) {
	case 0:
		html_escape(sb, r->study);
		strbuf_addf(sb, " (study hash <code>%s</code>)", r->study_hash);
		break;
	case 1:
		strbuf_addstr(sb, "commit <code>");
		html_escape(sb, r->commit);
		strbuf_addstr(sb, "</code>, tree <code>");
		html_escape(sb, r->tree);
		strbuf_addf(sb, "</code>, %s", r->dirty ? "<span class=\"warn\">dirty: uncommitted "
			    "changes were built</span>" : "clean");
		break;
	case 2:
		recorded(sb, r->tuner);
		break;
	case 3:
		recorded(sb, r->compiler);
		break;
	case 4:
		recorded(sb, r->host);
		break;
	case 5:
		recorded(sb, r->date);
		break;
	case 6:
		strbuf_addstr(sb, "<code>");
		html_escape(sb, r->dir);
		strbuf_addf(sb, "</code>%s", r->complete ? "" :
			    " <span class=\"warn\">interrupted: what finished only</span>");
		break;
	default:
		objectives_item(sb, r);
	}
}

/* One target: a list; several: a table, a column per target. */
static void provenance(struct strbuf *sb, const struct results_target *t, size_t n)
{
	if (n == 1) {
		strbuf_addstr(sb, "<dl class=\"prov\">\n");
		for (size_t k = 0; k < ARRAY_SIZE(prov_names); k++) {
			strbuf_addf(sb, "<dt>%s</dt><dd>", prov_names[k]);
			prov_item(sb, &t->res, k);
			strbuf_addstr(sb, "</dd>\n");
		}
		strbuf_addstr(sb, "</dl>\n");
		return;
	}
	strbuf_addstr(sb, "<table class=\"prov\">\n<thead><tr><th>target</th>");
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(sb, "<th>");
		html_escape(sb, t[i].name);
		strbuf_addstr(sb, "</th>");
	}
	strbuf_addstr(sb, "</tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < ARRAY_SIZE(prov_names); k++) {
		strbuf_addf(sb, "<tr><th>%s</th>", prov_names[k]);
		for (size_t i = 0; i < n; i++) {
			strbuf_addstr(sb, "<td>");
			prov_item(sb, &t[i].res, k);
			strbuf_addstr(sb, "</td>");
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
}

/* The front member with the best value of objective i; NULL: none. */
static const struct results_config *front_best(const struct results *r, int i)
{
	const struct results_config *best = NULL;

	for (size_t k = 0; k < r->nconfigs; k++) {
		const struct results_config *c = &r->configs[k];
		if (!c->on_front || !value_known(c, i))
			continue;
		if (!best || (r->objectives[i].maximize ? c->obj[i].value > best->obj[i].value :
			      c->obj[i].value < best->obj[i].value))
			best = c;
	}
	return best;
}

static void glance(struct strbuf *sb, const struct results *r, struct html_axes ax, const char *pfx)
{
	struct strbuf v = STRBUF_INIT;
	size_t front = 0, tied = 0, bad = 0, over = 0;

	for (size_t k = 0; k < r->nconfigs; k++) {
		front += r->configs[k].on_front;
		tied += r->configs[k].on_front && r->configs[k].tied;
		bad += config_failed(&r->configs[k]);
		over += config_ok(&r->configs[k]) && !r->configs[k].feasible;
	}
	strbuf_addf(sb, "<ul class=\"glance\">\n<li>%zu configuration%s: <b>%zu on the Pareto "
		    "front</b>", r->nconfigs, numfmt_s(r->nconfigs), front);
	if (tied)
		strbuf_addf(sb, " (%zu of them only within noise)", tied);
	strbuf_addf(sb, "; %s%zu failed%s", bad ? "<span class=\"warn\">" : "", bad,
		    bad ? "</span>" : "");
	if (bad)
		strbuf_addf(sb, " (see <a href=\"#%sfailures\">what failed</a>)", pfx);
	if (over)
		strbuf_addf(sb, "; %zu over a limit", over);
	strbuf_addstr(sb, ".</li>\n");
	for (int e = 0; e < 2; e++) {
		int i = e ? ax.x : ax.y;
		const struct results_config *c = i >= 0 ? front_best(r, i) : NULL;

		if (!c)
			continue;
		strbuf_addf(sb, "<li>%s ", r->objectives[i].maximize ? "Highest" : "Lowest");
		html_escape(sb, r->objectives[i].name);
		strbuf_addstr(sb, " on the front: <b>");
		strbuf_reset(&v);
		html_add_value(&v, &r->objectives[i], c->obj[i].value, 4);
		html_escape(sb, v.buf);
		strbuf_addstr(sb, "</b>");
		if (r->objectives[i].modelled && !strcasestr(r->objectives[i].unit, "modelled"))
			strbuf_addstr(sb, " (MODELLED)");
		strbuf_addstr(sb, ", with <code>");
		html_escape(sb, *c->flags ? c->flags : "(no flags)");
		strbuf_addf(sb, "</code>%s.</li>\n", c->pgo ? " and PGO" : "");
	}
	strbuf_addstr(sb, "</ul>\n");
	strbuf_release(&v);
}

/* At a glance: each target's counts and ends; over several, the verdict
 * and the sign changes. */
static void glances(struct strbuf *sb, const struct html_tgt *g, size_t n, const struct html_axes *ax,
		    const struct html_effects *e, const struct html_regret *reg)
{
	size_t flips = 0;

	strbuf_addstr(sb, "<section id=\"glance\">\n<h2>At a glance</h2>\n");
	for (size_t i = 0; i < n; i++) {
		if (g[i].name) {
			strbuf_addstr(sb, "<h3>");
			html_escape(sb, g[i].name);
			strbuf_addstr(sb, "</h3>\n");
		}
		glance(sb, &g[i].t->res, ax[i], g[i].pfx);
	}
	if (!reg) {
		strbuf_addstr(sb, "</section>\n");
		return;
	}
	strbuf_addstr(sb, "<h3>Across the targets</h3>\n<ul class=\"glance\">\n<li>Verdict: ");
	html_escape(sb, reg->verdict);
	strbuf_addstr(sb, " (<a href=\"#regret\">the regret</a>).</li>\n<li>");
	for (size_t o = 0; o < e->nobjs; o++)
		for (size_t k = 0; k < e->nrows; k++) {
			char v[256];

			if (!html_effect_flips(e, o, &e->rows[k]))
				continue;
			strbuf_addstr(sb, flips++ ? ", <b>" : "Changes sign between targets: <b>");
			html_escape(sb, e->rows[k].dim);
			strbuf_addstr(sb, " <code>");
			html_escape(sb, html_effect_label(v, sizeof(v), e, &e->rows[k], 0));
			strbuf_addstr(sb, "</code></b> on ");
			html_escape(sb, e->objs[o]);
		}
	if (flips)
		strbuf_addstr(sb, " (<a href=\"#effects\">the effects</a>).");
	else
		strbuf_addstr(sb, "No value's effect changes sign between the targets (clearly "
			    "positive on one, clearly negative on another).");
	strbuf_addstr(sb, "</li>\n</ul>\n</section>\n");
}

static void join_names(struct strbuf *sb, const struct results_target *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(sb, i == 0 ? "" : i + 1 == n ? " and " : ", ");
		html_escape(sb, t[i].name);
	}
}

size_t html_report(struct strbuf *sb, const struct results_target *t, size_t n,
		   const char *objective)
{
	struct html_tgt *g = xcalloc(n ? n : 1, sizeof(*g));
	struct html_axes *ax = xcalloc(n ? n : 1, sizeof(*ax));
	struct html_effects eff;
	struct html_regret reg;
	size_t drawn;

	for (size_t i = 0; i < n; i++) {
		g[i].t = &t[i];
		if (n > 1) {
			snprintf(g[i].pfx, sizeof(g[i].pfx), "t%zu-", i + 1);
			g[i].name = t[i].name;
		}
		ax[i] = html_pick_axes(&t[i].res, &t[i].study);
	}
	html_effects_compute(&eff, t, n);
	if (n > 1)
		html_regret_compute(&reg, t, n, objective);
	strbuf_addstr(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<title>tuner report: ");
	join_names(sb, t, n);
	strbuf_addf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n"
		    "<h1>tuner report: ", css);
	join_names(sb, t, n);
	strbuf_addstr(sb, "</h1>\n");
	provenance(sb, t, n);
	strbuf_addstr(sb, "</header>\n");
	glances(sb, g, n, ax, &eff, n > 1 ? &reg : NULL);
	drawn = html_report_fronts(sb, t, n, ax);
	html_report_effects(sb, &eff);
	html_report_regret(sb, n > 1 ? &reg : NULL, t, n);
	for (size_t i = 0; i < n; i++) {
		html_report_table(sb, &g[i], ax[i].y);
		html_report_failures(sb, &g[i]);
	}
	strbuf_addstr(sb, "<footer class=\"muted\"><p>Written by tuner ");
	html_escape(sb, TUNER_VERSION);
	strbuf_addstr(sb, " from ");
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(sb, i == 0 ? "" : i + 1 == n ? " and " : ", ");
		strbuf_addstr(sb, "<code>");
		html_escape(sb, t[i].res.dir);
		strbuf_addstr(sb, "/pareto.json</code>");
	}
	strbuf_addf(sb, ".</p></footer>\n<div id=\"tip\" hidden></div>\n"
		    "<script>\n%s</script>\n</body>\n</html>\n", script);
	html_effects_release(&eff);
	if (n > 1)
		html_regret_release(&reg);
	free(ax);
	free(g);
	return drawn;
}

int html_report_write(const char *path, const struct results_target *t, size_t n,
		      const char *objective)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	html_report(&sb, t, n, objective);
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
