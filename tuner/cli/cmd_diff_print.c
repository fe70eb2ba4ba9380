/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner diff: its output as text, Markdown and JSON. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_diff.h"
#include "cmd_doc.h"
#include "cmd_numbers.h"
#include "tuner/numfmt.h"
#include "tuner/outfmt.h"
#include "tuner/util.h"

#define ONLY_SHOWN 10 /* configurations only in A or B listed without --all */

/* ---- Text and Markdown ---- */

/* Worse first (the largest loss first), then better (the largest gain
 * first), failures, then the rest by change. */
static const struct cmd_diff *sort_x;
static size_t sort_o;

static int verdict_rank(enum diff_verdict v)
{
	static const int rank[] = { [DIFF_WORSE] = 0, [DIFF_BETTER] = 1, [DIFF_MISSING] = 2,
				    [DIFF_UNCLEAR] = 3, [DIFF_NO_INTERVAL] = 4, [DIFF_SAME] = 5 };
	return rank[v];
}

static int cmp_rows(const void *p, const void *q)
{
	size_t i = *(const size_t *)p, j = *(const size_t *)q;
	const struct diff_est *a = &sort_x->rows[i].it[sort_o].est;
	const struct diff_est *b = &sort_x->rows[j].it[sort_o].est;
	int max = cmd_diff_res(sort_x, 0)->objectives[sort_x->oa[sort_o]].maximize;
	double ga = max ? a->rel : -a->rel, gb = max ? b->rel : -b->rel;

	if (verdict_rank(a->verdict) != verdict_rank(b->verdict))
		return verdict_rank(a->verdict) - verdict_rank(b->verdict);
	if (a->verdict == DIFF_BETTER) {
		double t = ga;
		ga = gb;
		gb = t;
	}
	if (ga != gb && isfinite(ga) && isfinite(gb))
		return ga < gb ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int shown(const struct cmd_diff *x, const struct diff_est *e)
{
	return x->all || e->verdict == DIFF_BETTER || e->verdict == DIFF_WORSE ||
	       e->verdict == DIFF_MISSING;
}

static void value_cell(struct outfmt_table *tb, const struct results_config *c,
		       const struct diff_side *s)
{
	char v[NUMFMT_LEN], se[NUMFMT_LEN];

	if (!isfinite(s->value)) {
		outfmt_cell(tb, "%s", strcmp(c->status, "ok") ? c->status : "no value");
		return;
	}
	numfmt(v, sizeof(v), s->value, 4);
	numfmt(se, sizeof(se), s->se, 2);
	outfmt_cell(tb, "%s ±%s", v, se);
}

static void change_cell(struct outfmt_table *tb, const struct diff_est *e)
{
	char buf[128];

	if (e->verdict == DIFF_MISSING) {
		outfmt_cell(tb, "-");
	} else if (e->exact || e->verdict == DIFF_NO_INTERVAL) {
		cmd_format_pct(buf, sizeof(buf), e->rel);
		outfmt_cell(tb, "%s (%s)", buf, e->exact ? "exact" : "no interval");
	} else {
		cmd_format_rel(buf, sizeof(buf), e->rel, e->lo, e->hi);
		outfmt_cell(tb, "%s", buf);
	}
}

/* The verdict and why a comparison could not be made. */
static void verdict_cell(struct outfmt_table *tb, const struct cmd_diff_row *r, const struct diff_item *it)
{
	struct strbuf sb = STRBUF_INIT;
	int one_a = isfinite(it->a.value) && it->a.df < 1;
	int one_b = isfinite(it->b.value) && it->b.df < 1;

	if (it->est.verdict == DIFF_NO_INTERVAL)
		strbuf_addf(&sb, "no interval: one sample %s", one_a && one_b ? "each" :
			    one_a ? "in A" : "in B");
	else if (it->est.verdict == DIFF_MISSING && !isfinite(it->a.value))
		strbuf_addf(&sb, "no value in A (%s)", r->a->status);
	else if (it->est.verdict == DIFF_MISSING && !isfinite(it->b.value))
		strbuf_addf(&sb, "no value in B (%s)", r->b->status);
	else if (it->est.verdict == DIFF_MISSING)
		strbuf_addstr(&sb, "A is 0: no relative change");
	else
		strbuf_addstr(&sb, diff_verdict_word(it->est.verdict));
	if (r->a->same_code_as)
		strbuf_addf(&sb, " [A: same code as %s]", r->a->same_code_as);
	if (r->b->same_code_as)
		strbuf_addf(&sb, " [B: same code as %s]", r->b->same_code_as);
	outfmt_cell(tb, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
}

/* The start of a line under a table: a bullet in Markdown, an indent in
 * text. */
static const char *item(enum outfmt fmt)
{
	return fmt == OUTFMT_MD ? "- " : "  ";
}

static void print_side(const struct cmd_diff *x, int side, enum outfmt fmt)
{
	const struct results *r = cmd_diff_res(x, side);

	printf("%s%s: %s (study %s, commit %.12s%s%s, %zu configuration%s)\n",
	       cmd_bullet(fmt), side ? "B" : "A", r->dir, r->study,
	       *r->commit ? r->commit : "?", r->dirty ? ", dirty" : "",
	       r->complete ? "" : ", interrupted", r->nconfigs, numfmt_s(r->nconfigs));
}

static void print_summary(const struct cmd_diff *x, size_t o, enum outfmt fmt)
{
	const struct diff_summary *s = &x->sum[o];
	static const enum diff_verdict order[] = { DIFF_WORSE, DIFF_BETTER, DIFF_UNCLEAR,
						   DIFF_NO_INTERVAL, DIFF_SAME, DIFF_MISSING };
	char g[128];
	int first = 1;
	size_t nshared = 0;

	for (size_t k = 0; k < x->nrows; k++)
		nshared += x->rows[k].it[o].shared && x->rows[k].it[o].est.verdict != DIFF_MISSING;

	printf("%ssummary: of %zu configuration%s in both, ", fmt == OUTFMT_MD ? "\n**" : "",
	       s->n, numfmt_s(s->n));
	for (size_t k = 0; k < ARRAY_SIZE(order); k++) {
		if (!s->count[order[k]] && order[k] != DIFF_WORSE && order[k] != DIFF_BETTER)
			continue;
		printf("%s%zu %s", first ? "" : ", ", s->count[order[k]],
		       diff_verdict_word(order[k]));
		first = 0;
	}
	printf("%s\n", fmt == OUTFMT_MD ? "**\n" : "");
	if (!s->ngeo) {
		printf("%sgeometric mean of B/A: none (no configuration has positive values on both sides)\n",
		       item(fmt));
	} else {
		if (s->geo_no_interval) {
			cmd_format_pct(g, sizeof(g), s->geo);
			printf("%sgeometric mean of B/A: %s over %zu (no interval: %zu with one sample)\n",
			       item(fmt), g, s->ngeo, s->geo_no_interval);
		} else {
			cmd_format_rel(g, sizeof(g), s->geo, s->geo_lo, s->geo_hi);
			printf("%sgeometric mean of B/A: %s over %zu, its interval from their noise\n",
			       item(fmt), g, s->ngeo);
		}
		if (nshared)
			printf("%s(%zu configuration%s with the same code as another on both sides left out: counted once)\n",
			       item(fmt), nshared, numfmt_s(nshared));
	}
	if (s->chance > 0)
		printf("%sby chance alone about %.2g of the %zu with an interval would look changed at 95%%\n",
		       item(fmt), s->chance,
		       s->count[DIFF_BETTER] + s->count[DIFF_WORSE] + s->count[DIFF_UNCLEAR]);
}

/* "4 more not shown (3 no clear change, 1 no interval; --all shows them)" */
static void print_hidden(const struct cmd_diff *x, size_t o, size_t nshown, enum outfmt fmt)
{
	static const enum diff_verdict hidden[] = { DIFF_UNCLEAR, DIFF_NO_INTERVAL, DIFF_SAME };
	const struct diff_summary *s = &x->sum[o];
	int first = 1;

	printf("%s%s%zu more not shown (", fmt == OUTFMT_MD && nshown ? "\n" : "",
	       item(fmt), x->nrows - nshown);
	for (size_t k = 0; k < ARRAY_SIZE(hidden); k++) {
		if (!s->count[hidden[k]])
			continue;
		printf("%s%zu %s", first ? "" : ", ", s->count[hidden[k]],
		       diff_verdict_word(hidden[k]));
		first = 0;
	}
	printf("; --all shows them)\n");
}

static void print_objective(const struct cmd_diff *x, size_t o, enum outfmt fmt)
{
	const struct results_objective *ob = &cmd_diff_res(x, 0)->objectives[x->oa[o]];
	size_t *order = xcalloc(x->nrows + 1, sizeof(*order)), nshown = 0;
	struct outfmt_table tb;

	char *label = cmd_objective_label(ob->name, ob->unit, ob->maximize, fmt);

	printf("%s%s: B against A, configuration by configuration; 95%% intervals%s\n",
	       fmt == OUTFMT_MD ? "### " : "", label, x->exact[o] ? " (exact: no noise)" : "");
	free(label);
	if (fmt == OUTFMT_MD)
		putchar('\n');
	for (size_t k = 0; k < x->nrows; k++)
		order[k] = k;
	sort_x = x;
	sort_o = o;
	qsort(order, x->nrows, sizeof(*order), cmp_rows);
	outfmt_table_init(&tb, 6);
	outfmt_cell(&tb, "config");
	outfmt_cell(&tb, "flags");
	outfmt_cell(&tb, "A");
	outfmt_cell(&tb, "B");
	outfmt_cell(&tb, "change");
	outfmt_cell(&tb, "verdict");
	for (size_t k = 0; k < x->nrows; k++) {
		const struct cmd_diff_row *r = &x->rows[order[k]];
		const struct diff_item *it = &r->it[o];

		if (!shown(x, &it->est))
			continue;
		outfmt_cell(&tb, "%s", r->a->id);
		cmd_flags_cell(&tb, r->a->flags, r->a->pgo);
		value_cell(&tb, r->a, &it->a);
		value_cell(&tb, r->b, &it->b);
		change_cell(&tb, &it->est);
		verdict_cell(&tb, r, it);
		nshown++;
	}
	if (nshown)
		outfmt_table_print(stdout, &tb, fmt);
	else
		printf("%sno configuration changed clearly\n", item(fmt));
	if (nshown < x->nrows)
		print_hidden(x, o, nshown, fmt);
	outfmt_table_release(&tb);
	free(order);
	print_summary(x, o, fmt);
}

static void print_only(const struct cmd_diff *x, int side, enum outfmt fmt)
{
	size_t n = x->nonly[side], lim = x->all ? n : ONLY_SHOWN;

	if (!n)
		return;
	printf("\n%sonly in %s (%zu configuration%s):\n%s", fmt == OUTFMT_MD ? "**" : "",
	       side ? "B" : "A", n, numfmt_s(n), fmt == OUTFMT_MD ? "**\n\n" : "");
	for (size_t i = 0; i < n && i < lim; i++) {
		const struct results_config *c = x->only[side][i];
		char *f = cmd_flags_text(c->flags, fmt);

		printf("%s%s %s%s (%s)\n", item(fmt), c->id, f, c->pgo ? " + PGO" : "", c->status);
		free(f);
	}
	if (n > lim)
		printf("%s... and %zu more (--all lists them)\n", item(fmt),
		       n - lim);
}

void cmd_diff_print_text(const struct cmd_diff *x, enum outfmt fmt)
{
	print_side(x, 0, fmt);
	print_side(x, 1, fmt);
	for (size_t o = 0; o < x->nobjs; o++) {
		putchar('\n');
		print_objective(x, o, fmt);
	}
	print_only(x, 0, fmt);
	print_only(x, 1, fmt);
}

/* ---- JSON ---- */

static json_t *side_json(const struct cmd_diff *x, int side)
{
	const struct results *r = cmd_diff_res(x, side);
	json_t *o = json_object();

	json_object_set_new(o, "study", json_string(r->study));
	json_object_set_new(o, "study_file", json_string(x->ct.t[side].study.path));
	json_object_set_new(o, "results", json_string(r->dir));
	json_object_set_new(o, "commit", json_string(r->commit));
	json_object_set_new(o, "dirty", json_boolean(r->dirty));
	json_object_set_new(o, "complete", json_boolean(r->complete));
	json_object_set_new(o, "configs", json_integer((json_int_t)r->nconfigs));
	return o;
}

static json_t *value_json(const struct diff_side *s)
{
	json_t *o;

	if (!isfinite(s->value))
		return json_null();
	o = json_object();
	json_object_set_new(o, "value", cmd_json_num(s->value));
	json_object_set_new(o, "se", cmd_json_num(s->se));
	json_object_set_new(o, "df", cmd_json_num(s->df));
	return o;
}

static json_t *item_json(const struct diff_item *it)
{
	json_t *o = json_object();

	json_object_set_new(o, "a", value_json(&it->a));
	json_object_set_new(o, "b", value_json(&it->b));
	json_object_set_new(o, "change", cmd_json_num(it->est.rel));
	json_object_set_new(o, "lo", cmd_json_num(it->est.lo));
	json_object_set_new(o, "hi", cmd_json_num(it->est.hi));
	json_object_set_new(o, "df", cmd_json_num(it->est.df));
	json_object_set_new(o, "exact", json_boolean(it->est.exact));
	json_object_set_new(o, "verdict", json_string(diff_verdict_key(it->est.verdict)));
	json_object_set_new(o, "shared", json_boolean(it->shared));
	return o;
}

/* What a configuration is on one side: its status and same_code_as. */
static json_t *status_json(json_t *o, const struct results_config *c)
{
	json_object_set_new(o, "status", json_string(c->status));
	json_object_set_new(o, "same_code_as",
			    c->same_code_as ? json_string(c->same_code_as) : json_null());
	return o;
}

/* id, flags, pgo. */
static json_t *config_json(const struct results_config *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "id", json_string(c->id));
	json_object_set_new(o, "flags", json_string(c->flags));
	json_object_set_new(o, "pgo", json_string(c->pgo ? "on" : "off"));
	return o;
}

static json_t *summary_json(const struct diff_summary *s)
{
	json_t *o = json_object(), *geo = json_object();

	json_object_set_new(o, "configs", json_integer((json_int_t)s->n));
	for (int v = 0; v <= DIFF_MISSING; v++)
		json_object_set_new(o, diff_verdict_key((enum diff_verdict)v),
				    json_integer((json_int_t)s->count[v]));
	json_object_set_new(geo, "n", json_integer((json_int_t)s->ngeo));
	json_object_set_new(geo, "change", cmd_json_num(s->geo));
	json_object_set_new(geo, "lo", cmd_json_num(s->geo_lo));
	json_object_set_new(geo, "hi", cmd_json_num(s->geo_hi));
	json_object_set_new(geo, "no_interval", json_integer((json_int_t)s->geo_no_interval));
	json_object_set_new(o, "geomean", geo);
	json_object_set_new(o, "chance", json_real(s->chance));
	return o;
}

void cmd_diff_print_json(const struct cmd_diff *x)
{
	json_t *root = json_object(), *objs = json_array(), *rows = json_array();
	json_t *only[2] = { json_array(), json_array() };

	json_object_set_new(root, "a", side_json(x, 0));
	json_object_set_new(root, "b", side_json(x, 1));
	json_object_set_new(root, "confidence", json_real(CMD_DIFF_LEVEL));
	for (size_t o = 0; o < x->nobjs; o++) {
		const struct results_objective *ob = &cmd_diff_res(x, 0)->objectives[x->oa[o]];
		json_t *j = json_object();

		json_object_set_new(j, "name", json_string(ob->name));
		json_object_set_new(j, "unit", json_string(ob->unit));
		json_object_set_new(j, "goal", json_string(ob->maximize ? "max" : "min"));
		json_object_set_new(j, "exact", json_boolean(x->exact[o]));
		json_object_set_new(j, "summary", summary_json(&x->sum[o]));
		json_array_append_new(objs, j);
	}
	for (size_t k = 0; k < x->nrows; k++) {
		const struct cmd_diff_row *r = &x->rows[k];
		json_t *j = config_json(r->a), *per = json_object();

		json_object_set_new(j, "a", status_json(json_object(), r->a));
		json_object_set_new(j, "b", status_json(json_object(), r->b));
		for (size_t o = 0; o < x->nobjs; o++)
			json_object_set_new(per, cmd_diff_res(x, 0)->objectives[x->oa[o]].name,
					    item_json(&r->it[o]));
		json_object_set_new(j, "objectives", per);
		json_array_append_new(rows, j);
	}
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < x->nonly[s]; i++)
			json_array_append_new(only[s], status_json(config_json(x->only[s][i]), x->only[s][i]));
	json_object_set_new(root, "objectives", objs);
	json_object_set_new(root, "configs", rows);
	json_object_set_new(root, "only_a", only[0]);
	json_object_set_new(root, "only_b", only[1]);
	cmd_print_json(root);
}
