/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report: see include/tuner/run_output.h */
#include "tuner/run_output.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "tuner/cgmodel.h"
#include "tuner/uarch_score.h"
#include "tuner/numfmt.h"
#include "tuner/outfmt.h"
#include "tuner/util.h"
#include "run_output_priv.h"

int report_objective_modelled(const struct objective *o)
{
	return !o->from_size && (cgmodel_parser_valid(o->parser) ||
				 ua_score_parser_valid(o->parser));
}

struct sort_ctx {
	const struct study *s;
	const struct run_result *r;
};

static _Thread_local struct sort_ctx sort_ctx;

static int cmp_rows(const void *a, const void *b)
{
	const struct config_result *x = &sort_ctx.r->configs[*(const size_t *)a];
	const struct config_result *y = &sort_ctx.r->configs[*(const size_t *)b];
	int xok = !strcmp(x->status, "ok"), yok = !strcmp(y->status, "ok");
	double vx, vy;

	if (x->on_front != y->on_front)
		return y->on_front - x->on_front;
	if (xok != yok)
		return yok - xok;
	if (!sort_ctx.s->nobjectives)
		return 0;
	vx = x->value[0];
	vy = y->value[0];
	if (isnan(vx) || isnan(vy))
		return isnan(vx) - isnan(vy);
	if (vx == vy)
		return strcmp(x->id, y->id);
	if (sort_ctx.s->objectives[0].maximize)
		return vx < vy ? 1 : -1;
	return vx < vy ? -1 : 1;
}

/* A value to 4 significant digits (numfmt.h), its spread to 2; the
 * files (JSON, CSV) keep every digit. */
static void format_value(char *buf, size_t len, const struct summary *sm)
{
	char v[NUMFMT_LEN], sd[NUMFMT_LEN];

	if (sm->n == 0) {
		snprintf(buf, len, "-");
		return;
	}
	numfmt(v, sizeof(v), sm->trimmed_mean, 4);
	if (sm->n == 1) {
		snprintf(buf, len, "%s", v);
		return;
	}
	numfmt(sd, sizeof(sd), sm->stddev, 2);
	snprintf(buf, len, "%s ±%s (n=%zu)", v, sd, sm->n);
}

/* The spread column: measurement and layout sd of a noisy measured
 * objective, relative to its value, when there are layout seeds. */
static int spread_column(const struct study *s, const struct run_result *r, size_t i)
{
	return s->layout_samples > 1 && r->noisy && r->noisy[i] && !s->objectives[i].from_size;
}

static void format_percent(char *buf, size_t len, double sd, double value)
{
	if (!isfinite(sd) || !isfinite(value) || value == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2g%%", 100 * sd / fabs(value));
}

static void format_spread(char *buf, size_t len, const struct config_result *c, size_t i)
{
	char w[16], b[16];

	format_percent(w, sizeof(w), c->spread[i].within_sd, c->value[i]);
	format_percent(b, sizeof(b), c->spread[i].between_sd, c->value[i]);
	snprintf(buf, len, "%s / %s", w, b);
}

/* What the front column says: on the front, on it within noise, or not. */
static const char *front_mark(const struct config_result *c)
{
	if (!c->on_front)
		return "";
	return c->tied ? "~" : "*";
}

/* Objectives whose every configuration has at most one sample, and some
 * one: the front could not see their noise. (None at all: every build or
 * measurement failed, and there was nothing to compare.) */
static int single_samples(const struct run_result *r, size_t i)
{
	int some = 0;

	for (size_t c = 0; c < r->nconfigs; c++) {
		if (r->configs[c].obj[i].n > 1)
			return 0;
		some |= r->configs[c].obj[i].n == 1;
	}
	return some;
}

/* Whether every configuration of objective i with several samples has
 * one per layout seed, so run-to-run and layout noise cannot be told apart
 * (stats_layout_spread(): both NaN) and the noise column says "- / -". */
static int spread_unsplit(const struct run_result *r, size_t i)
{
	int some = 0;

	for (size_t c = 0; c < r->nconfigs; c++) {
		const struct config_result *cr = &r->configs[c];

		if (cr->obj[i].n < 2 || !cr->spread)
			continue;
		if (isfinite(cr->spread[i].within_sd))
			return 0;
		some = 1;
	}
	return some;
}

static void table_notes(FILE *f, const struct study *s, const struct run_result *r, int tied,
			enum outfmt fmt)
{
	const char *bullet = fmt == OUTFMT_MD ? "- " : "";
	int noisy = 0;
	size_t twins = 0;
	/* The objectives' names as the format's text (Markdown: escaped). */
	char **names = xcalloc(s->nobjectives + 1, sizeof(*names));

	for (size_t i = 0; i < s->nobjectives; i++)
		names[i] = outfmt_text(fmt, s->objectives[i].name);
	for (size_t c = 0; c < r->nconfigs; c++)
		twins += r->configs[c].same_code_as[0] != '\0';
	if (twins)
		fprintf(f, "%ssame code: %zu configuration%s built the same code as another (the allocated sections of the artifact), measured once, samples shared\n",
			bullet, twins, twins == 1 ? "" : "s");
	if (tied)
		fprintf(f, "%s~ on the front within noise: another configuration dominates its estimates, but not significantly (95%%)\n",
			bullet);
	for (size_t i = 0; i < s->nobjectives; i++) {
		const struct objective *o = &s->objectives[i];
		if (o->from_size)
			continue;
		noisy |= r->noisy && r->noisy[i];
		if (r->nconfigs && single_samples(r, i))
			fprintf(f, "%snote: %s: one sample per configuration, so the front compares the values as exact (no noise estimate; see measure.repeats, layout.samples)\n",
				bullet, names[i]);
	}
	if (noisy && s->layout_samples > 1) {
		fprintf(f, "%snoise: run / layout = measurement and layout-seed standard deviations, relative to the value (%u layout seeds)\n",
			bullet, s->layout_samples);
		for (size_t i = 0; i < s->nobjectives; i++)
			if (!s->objectives[i].from_size && spread_unsplit(r, i))
				fprintf(f, "%snoise: %s: one run per layout seed, so the two cannot be told apart (\"- / -\"); the intervals hold both (measure.repeats: 2 would split them)\n",
					bullet, names[i]);
	}
	else if (noisy)
		fprintf(f, "%snote: one layout seed per configuration: the comparisons see run-to-run noise only, not layout luck (see layout.samples)\n",
			bullet);
	for (size_t i = 0; i < s->nobjectives; i++) {
		const struct objective *o = &s->objectives[i];
		const struct ua_config *u = &s->uarch;

		if (!report_objective_modelled(o))
			continue;
		if (ua_score_parser_valid(o->parser)) {
			char soc[160] = "";

			/* The SoC's costs, where the core has them (bcm47094). */
			if (u->io_read || u->io_write || u->fetch_split || u->maint)
				snprintf(soc, sizeof(soc), ", device read %g, device write %g, fetch "
					 "group split %g%s", u->io_read, u->io_write, u->fetch_split,
					 u->maint ? "; cache maintenance acts on the caches" : "");
			fprintf(f, "%snote: %s is MODELLED (the uarch plugin's %s core, its caches and "
				   "branch predictors; cycles per instruction %g, per L1I miss %g, "
				   "L1D miss %g, L2 miss %g, taken branch %g, mispredict %g%s; %g MHz), "
				   "not measured on hardware\n",
				bullet, names[i], u->preset, u->insn, u->l1i_miss, u->l1d_miss,
				u->l2_miss, u->taken, u->mispredict, soc, u->clock_mhz);
		} else
			fprintf(f, "%snote: %s is MODELLED (a cache model over cachegrind counts: %g-cycle L1 miss, %g-cycle L2 miss, %g MHz), not measured on hardware\n",
				bullet, names[i], s->model.l1_miss, s->model.ll_miss, s->model.clock_mhz);
	}
	for (size_t i = 0; i < s->nobjectives; i++)
		free(names[i]);
	free(names);
}

/* build.applied: the requested flags that did not reach every compile,
 * "[not applied: F]" when in none, else how many they did reach
 * ("[in effect in 795/797 only: -O2]": a kernel whose lz4 forces -O3). */
static void add_missed(struct strbuf *sb, const struct config_result *c)
{
	const struct applied *a = &c->applied;
	const char *sep = "  [";

	for (size_t i = 0; i < a->nflags; i++) {
		const struct applied_flag *fl = &a->flags[i];

		if (!applied_flag_missed(a, fl))
			continue;
		if (fl->in_effect)
			strbuf_addf(sb, "%sin effect in %u/%u only: %s", sep, fl->in_effect, a->lines,
				    fl->flag);
		else
			strbuf_addf(sb, "%snot applied: %s", sep, fl->flag);
		sep = "; ";
	}
	if (*sep == ';')
		strbuf_addch(sb, ']');
	else if (a->checked && !a->lines)
		strbuf_addstr(sb, "  [applied flags unknown]");
}

/* What follows the flags: "  [failed]", "  [tied with ID]", ...; "[same
 * code as ID]" unless same_code is 0 (its row names it: same_code_rows()). */
static void add_status(struct strbuf *sb, const struct config_result *c, int same_code)
{
	if (strcmp(c->status, "ok"))
		strbuf_addf(sb, "  [%s]", c->status);
	else if (!c->feasible)
		strbuf_addstr(sb, "  [over a limit]");
	else if (c->tied && c->ntied == 1)
		strbuf_addf(sb, "  [tied with %s]", c->tied_with[0]);
	else if (c->tied)
		strbuf_addf(sb, "  [tied with %s and %zu more]", c->tied_with[0], c->ntied - 1);
	add_missed(sb, c);
	if (same_code && c->same_code_as[0])
		strbuf_addf(sb, "  [same code as %s]", c->same_code_as);
}

/* The index of the configuration with that id, or r->nconfigs. */
static size_t config_index(const struct run_result *r, const char *id)
{
	size_t j;

	for (j = 0; j < r->nconfigs; j++)
		if (!strcmp(r->configs[j].id, id))
			break;
	return j;
}

static size_t group_root(size_t *parent, size_t c)
{
	while (parent[c] != c)
		c = parent[c] = parent[parent[c]];
	return c;
}

/*
 * The front's rows: configurations that built the same code (linked by
 * same_code_as) share their samples and so their place; the first of
 * them in order shows them all. Of the shown[] configurations (in order),
 * row[c] is the one whose row shows c and next[c] the next one that row
 * names (nconfigs: none). Both arrays are the caller's, nconfigs long.
 */
static void same_code_rows(size_t *row, size_t *next, const struct run_result *r,
			   const size_t *order, const int *shown)
{
	size_t n = r->nconfigs;
	size_t *parent = xcalloc(n ? n : 1, sizeof(*parent));
	size_t *first = xcalloc(n ? n : 1, sizeof(*first));
	size_t *last = xcalloc(n ? n : 1, sizeof(*last));

	for (size_t c = 0; c < n; c++) {
		parent[c] = c;
		first[c] = row[c] = next[c] = n;
	}
	for (size_t c = 0; c < n; c++) {
		size_t j;

		if (!shown[c] || !r->configs[c].same_code_as[0])
			continue;
		j = config_index(r, r->configs[c].same_code_as);
		if (j < n)
			parent[group_root(parent, c)] = group_root(parent, j);
	}
	for (size_t k = 0; k < n; k++) {
		size_t c = order[k], g = group_root(parent, c);

		if (!shown[c])
			continue;
		if (first[g] == n)
			first[g] = c;
		else
			next[last[g]] = c;
		last[g] = c;
		row[c] = first[g];
	}
	free(parent);
	free(first);
	free(last);
}

/* A row's "  [same code: also ID, ID]": the others it shows. */
static void add_also(struct strbuf *sb, const struct run_result *r, const size_t *next, size_t c)
{
	const char *sep = "  [same code: also ";

	for (size_t j = next[c]; j < r->nconfigs; j = next[j]) {
		strbuf_addf(sb, "%s%s", sep, r->configs[j].id);
		sep = ", ";
	}
	if (*sep == ',')
		strbuf_addch(sb, ']');
}

/* One cell: a text column padded to width (none: the last), or a
 * Markdown table's cell. */
static void put_cell(FILE *f, struct outfmt_table *md, const char *sep, int width,
		     const char *v)
{
	if (md)
		outfmt_cell(md, "%s", v);
	else
		fprintf(f, "%s%-*s", sep, width, v);
}

/* The table of report_table() as text (md NULL) or into md; returns how
 * many configurations it shows and sets *tied when one of them is. */
static size_t table_rows(FILE *f, struct outfmt_table *md, const struct study *s,
			 const struct run_result *r, int all, int *tied)
{
	size_t n = r->nconfigs ? r->nconfigs : 1;
	size_t *order = xcalloc(n, sizeof(*order));
	size_t *row = xcalloc(n, sizeof(*row)), *next = xcalloc(n, sizeof(*next));
	int *fold = xcalloc(n, sizeof(*fold));
	struct strbuf st = STRBUF_INIT;
	size_t shown = 0;
	char v[128];

	for (size_t i = 0; i < r->nconfigs; i++) {
		order[i] = i;
		fold[i] = !all && r->configs[i].on_front;
	}
	sort_ctx.s = s;
	sort_ctx.r = r;
	qsort(order, r->nconfigs, sizeof(*order), cmp_rows);
	/* The front shows configurations with the same code as one row. */
	same_code_rows(row, next, r, order, fold);

	put_cell(f, md, "", 5, "front");
	put_cell(f, md, " ", 16, "config");
	put_cell(f, md, " ", 3, "pgo");
	for (size_t i = 0; i < s->nobjectives; i++) {
		const struct objective *o = &s->objectives[i];

		snprintf(v, sizeof(v), "%s%s%s (%s)", o->name, *o->unit ? " " : "", o->unit,
			 o->maximize ? "max" : "min");
		put_cell(f, md, "  ", 28, v);
	}
	for (size_t i = 0; i < s->nobjectives; i++) {
		if (!spread_column(s, r, i))
			continue;
		snprintf(v, sizeof(v), "%s noise run / layout", s->objectives[i].name);
		put_cell(f, md, "  ", 24, v);
	}
	if (md) {
		outfmt_cell(md, "flags");
		outfmt_cell(md, "status");
	} else {
		fprintf(f, "  %s\n", "flags / status");
	}
	for (size_t k = 0; k < r->nconfigs; k++) {
		const struct config_result *c = &r->configs[order[k]];
		size_t lead;

		if (!all && !c->on_front)
			continue;
		if (row[order[k]] < r->nconfigs && row[order[k]] != order[k])
			continue;
		put_cell(f, md, "", 5, front_mark(c));
		put_cell(f, md, " ", 16, c->id);
		put_cell(f, md, " ", 3, c->pgo ? "on" : "off");
		for (size_t i = 0; i < s->nobjectives; i++) {
			format_value(v, sizeof(v), &c->obj[i]);
			put_cell(f, md, "  ", 28, v);
		}
		for (size_t i = 0; i < s->nobjectives; i++) {
			if (!spread_column(s, r, i))
				continue;
			format_spread(v, sizeof(v), c, i);
			put_cell(f, md, "  ", 24, v);
		}
		strbuf_reset(&st);
		lead = c->same_code_as[0] ? config_index(r, c->same_code_as) : r->nconfigs;
		add_status(&st, c, lead == r->nconfigs || row[lead] != order[k]);
		add_also(&st, r, next, order[k]);
		if (md) {
			if (*c->flags)
				outfmt_code_cell(md, c->flags, NULL);
			else
				outfmt_cell(md, "(no flags)");
			outfmt_cell(md, "%s", strbuf_str(&st) + strspn(strbuf_str(&st), " "));
		} else {
			fprintf(f, "  %s%s\n", *c->flags ? c->flags : "(no flags)", strbuf_str(&st));
		}
		*tied |= c->tied;
		shown++;
	}
	strbuf_release(&st);
	free(order);
	free(row);
	free(next);
	free(fold);
	return shown;
}

void report_table(FILE *f, const struct study *s, const struct run_result *r, int all)
{
	int tied = 0;

	if (!table_rows(f, NULL, s, r, all, &tied))
		fprintf(f, "(no configuration is on the front)\n");
	table_notes(f, s, r, tied, OUTFMT_TABLE);
}

void report_markdown(FILE *f, const struct study *s, const struct run_result *r, int all)
{
	struct outfmt_table md;
	size_t cols = 5 + s->nobjectives, shown;
	int tied = 0;

	for (size_t i = 0; i < s->nobjectives; i++)
		cols += (size_t)spread_column(s, r, i);
	outfmt_table_init(&md, cols);
	/* With no row, the header and separator are still a table. */
	shown = table_rows(f, &md, s, r, all, &tied);
	outfmt_table_print(f, &md, OUTFMT_MD);
	fputc('\n', f);
	if (!shown)
		fprintf(f, "- (no configuration is on the front)\n");
	outfmt_table_release(&md);
	table_notes(f, s, r, tied, OUTFMT_MD);
}
