/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner blame: what it prints (see cmd_blame.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd_blame.h"
#include "cmd_doc.h"
#include "cmd_numbers.h"
#include "tuner/study.h"
#include "tuner/util.h"

const char *blame_outcome_name(enum dd_outcome o)
{
	return o == DD_FAIL ? "fails" : o == DD_PASS ? "passes" : "unresolved";
}

char *blame_subset_text(const struct blame *b, const size_t *set, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addch(&sb, '{');
	for (size_t i = 0; i < n; i++) {
		char *s = flagdiff_describe(&b->d, set[i]);

		strbuf_addf(&sb, "%s%s", i ? ", " : "", s);
		free(s);
	}
	strbuf_addch(&sb, '}');
	return strbuf_detach(&sb);
}

void blame_print_effect(const char *li, const char *label, const struct stats_test *t)
{
	char e[96], ps[80];

	cmd_format_rel(e, sizeof(e), t->rel, t->rel_lo, t->rel_hi);
	cmd_format_ps(ps, sizeof(ps), t->p, t->p_rank);
	printf("%s%s: %s, %s%s\n", li, label, e, ps,
	       stats_significant(t, 0.05) ? "" : ", not significant");
}

const char blame_nothing[] =
	"no significant difference between good and bad: nothing to blame";

void blame_print_head(const struct blame *b, const struct study *s, enum outfmt fmt)
{
	const int md = fmt == OUTFMT_MD;
	const char *li = md ? "- " : "  ";
	char *g = md ? cmd_flags_text(b->good, fmt) : xstrdup(b->good);
	char *x = md ? cmd_flags_text(b->bad, fmt) : xstrdup(b->bad);

	char *name = outfmt_text(fmt, s->name);
	char *oname = outfmt_text(fmt, s->objectives[b->p.objective].name);

	printf("%sblame: %s, objective %s, %u runs on each of %u layout seeds per variant\n%s",
	       md ? "### tuner " : "", name, oname, b->p.repeats, b->p.layout, md ? "\n" : "");
	free(name);
	free(oname);
	printf("%sgood: %s\n%sbad:%s%s\n%s%zu difference(s):", li, g, li, md ? " " : "  ", x, li,
	       b->d.nchanges);
	for (size_t i = 0; i < b->d.nchanges; i++) {
		char *c = flagdiff_describe(&b->d, i), *e = outfmt_text(fmt, c);

		printf(" %s%s", e, i + 1 < b->d.nchanges ? ";" : "\n");
		free(c);
		free(e);
	}
	free(g);
	free(x);
}

void blame_print_culprit(const struct blame *b, enum outfmt fmt)
{
	const int md = fmt == OUTFMT_MD;
	char *raw = blame_subset_text(b, b->culprit, b->nculprit), *sub = outfmt_text(fmt, raw);

	printf("%sculprit: %s%s%s\n%s", md ? "\n**" : "", sub,
	       b->nculprit == b->d.nchanges ? " (all of the differences)" : "", md ? "**" : "",
	       md ? "\n" : "");
	free(sub);
	free(raw);
	blame_print_effect(md ? "- " : "  ", "good + culprit vs good", &b->effect);
	if (b->has_rest)
		blame_print_effect(md ? "- " : "  ", "bad vs good + culprit (the rest)", &b->rest);
}

void blame_print_tail(const struct blame *b, enum outfmt fmt, const char *dir)
{
	const char *li = cmd_bullet(fmt);
	char *d;

	printf("%sspent: %lu measurement runs, %lu builds (new in this invocation; the rest came from the journal)\n",
	       li, b->p.measures_done, b->p.builds_done);
	d = outfmt_text(fmt, dir);
	printf("%sresults: %s\n", li, d);
	free(d);
}

/* The steps as a Markdown table. */
static void print_steps_md(const struct blame *b)
{
	struct outfmt_table tb;

	outfmt_table_init(&tb, 5);
	outfmt_cell(&tb, "variant");
	outfmt_cell(&tb, "vs good");
	outfmt_cell(&tb, "vs bad");
	outfmt_cell(&tb, "layout seeds");
	outfmt_cell(&tb, "outcome");
	for (size_t i = 0; i < b->nsteps; i++) {
		const struct step *st = &b->steps[i];
		char g[96], r[96], *sub = blame_subset_text(b, st->set, st->n);

		cmd_format_rel(g, sizeof(g), st->vs_good.rel, st->vs_good.rel_lo, st->vs_good.rel_hi);
		cmd_format_rel(r, sizeof(r), st->vs_bad.rel, st->vs_bad.rel_lo, st->vs_bad.rel_hi);
		outfmt_cell(&tb, "%s", sub);
		outfmt_cell(&tb, "%s", g);
		outfmt_cell(&tb, "%s", r);
		outfmt_cell(&tb, "%u", st->k);
		outfmt_cell(&tb, "%s", blame_outcome_name(st->outcome));
		free(sub);
	}
	printf("\n");
	outfmt_table_print(stdout, &tb, OUTFMT_MD);
	outfmt_table_release(&tb);
}

static json_t *test_json(const struct stats_test *t)
{
	return cmd_test_json(t, stats_significant(t, 0.05));
}

/* The differences set[0..n) as an array of their descriptions. */
static json_t *subset_json(const struct blame *b, const size_t *set, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		char *c = flagdiff_describe(&b->d, set ? set[i] : i);

		json_array_append_new(a, json_string(c));
		free(c);
	}
	return a;
}

static void print_json(const struct blame *b, const struct study *s, const char *dir)
{
	json_t *root = json_object(), *steps = json_array(), *culprit = json_null();

	json_object_set_new(root, "study", json_string(s->name));
	json_object_set_new(root, "objective", json_string(s->objectives[b->p.objective].name));
	json_object_set_new(root, "good", json_string(b->good));
	json_object_set_new(root, "bad", json_string(b->bad));
	json_object_set_new(root, "differences", subset_json(b, NULL, b->d.nchanges));
	json_object_set_new(root, "repeats", json_integer(b->p.repeats));
	json_object_set_new(root, "layout_seeds", json_integer(b->p.layout));
	json_object_set_new(root, "max_layout_seeds", json_integer(b->o->m.max_layout));
	json_object_set_new(root, "bad_vs_good", test_json(&b->ends));
	json_object_set_new(root, "nothing_to_blame", json_boolean(!b->dir));
	for (size_t i = 0; i < b->nsteps; i++) {
		const struct step *st = &b->steps[i];
		json_t *j = json_object();
		char *flags = flagdiff_apply(&b->d, st->set, st->n);

		json_object_set_new(j, "differences", subset_json(b, st->set, st->n));
		json_object_set_new(j, "flags", json_string(flags));
		json_object_set_new(j, "vs_good", test_json(&st->vs_good));
		json_object_set_new(j, "vs_bad", test_json(&st->vs_bad));
		json_object_set_new(j, "layout_seeds", json_integer(st->k));
		json_object_set_new(j, "outcome", json_string(blame_outcome_name(st->outcome)));
		json_array_append_new(steps, j);
		free(flags);
	}
	json_object_set_new(root, "steps", steps);
	if (b->culprit) {
		char *flags = flagdiff_apply(&b->d, b->culprit, b->nculprit);

		culprit = json_object();
		json_object_set_new(culprit, "differences",
				    subset_json(b, b->culprit, b->nculprit));
		json_object_set_new(culprit, "all", json_boolean(b->nculprit == b->d.nchanges));
		json_object_set_new(culprit, "flags", json_string(flags));
		json_object_set_new(culprit, "effect", test_json(&b->effect));
		json_object_set_new(culprit, "rest", b->has_rest ? test_json(&b->rest) : json_null());
		free(flags);
	}
	json_object_set_new(root, "culprit", culprit);
	json_object_set_new(root, "measurement_runs", json_integer((json_int_t)b->p.measures_done));
	json_object_set_new(root, "builds", json_integer((json_int_t)b->p.builds_done));
	json_object_set_new(root, "results", json_string(dir));
	cmd_print_json(root);
}

void blame_print_doc(const struct blame *b, const struct study *s, const char *dir)
{
	if (b->o->m.fmt == OUTFMT_JSON) {
		print_json(b, s, dir);
		return;
	}
	blame_print_head(b, s, OUTFMT_MD);
	blame_print_effect("- ", "bad vs good", &b->ends);
	if (!b->dir) {
		printf("\n**%s**\n", blame_nothing);
		return;
	}
	if (b->nsteps)
		print_steps_md(b);
	blame_print_culprit(b, OUTFMT_MD);
	blame_print_tail(b, OUTFMT_MD, dir);
}
