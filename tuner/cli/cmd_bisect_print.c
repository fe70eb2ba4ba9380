/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner bisect: what it prints, as text, Markdown or JSON (see cmd_bisect.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_bisect.h"
#include "cmd_doc.h"
#include "tuner/study.h"
#include "tuner/util.h"

static const char *mark_name(enum bisect_mark m)
{
	return m == BISECT_GOOD ? "good" : m == BISECT_BAD ? "bad" :
	       m == BISECT_SKIP ? "skipped" : "unclear";
}

void bisect_print_step(struct bisect_session *ss, unsigned step, const struct gitsrc_commit *c,
		       size_t left, size_t below)
{
	json_t *j;

	if (ss->fmt == OUTFMT_TABLE)
		printf("step %u: %s %s (%zu candidates, %zu at or below it)\n", step, c->id,
		       c->subject, left, below);
	if (ss->fmt != OUTFMT_JSON)
		return;
	j = json_object();
	json_object_set_new(j, "step", json_integer(step));
	json_object_set_new(j, "commit", json_string(c->id));
	json_object_set_new(j, "subject", json_string(c->subject));
	json_object_set_new(j, "candidates", json_integer((json_int_t)left));
	json_object_set_new(j, "at_or_below", json_integer((json_int_t)below));
	json_object_set_new(j, "judgements", json_array());
	json_array_append_new(json_object_get(ss->doc, "steps"), j);
}

static json_t *verdict_json(const struct bisect_session *ss, const struct bisect_verdict *v)
{
	json_t *j = json_object();
	int skip = v->mark == BISECT_SKIP;

	json_object_set_new(j, "layout_seeds", json_integer(ss->p.layout));
	json_object_set_new(j, "endpoints_layout_seeds",
			    json_integer(ss->k_end > ss->p.layout ? ss->k_end : ss->p.layout));
	json_object_set_new(j, "vs_good", skip ? json_null() : cmd_test_json(&v->g, v->vs_good[0]));
	json_object_set_new(j, "vs_bad", skip ? json_null() : cmd_test_json(&v->b, v->vs_bad[0]));
	json_object_set_new(j, "mark", json_string(mark_name(v->mark)));
	json_object_set_new(j, "why", v->why ? json_string(v->why) : json_null());
	return j;
}

void bisect_print_verdict(struct bisect_session *ss, const struct bisect_verdict *v,
			  unsigned step, const struct gitsrc_commit *c, size_t left)
{
	struct outfmt_table *t = &ss->md_steps;
	char g[200] = "-", b[200] = "-", ends[32] = "";
	json_t *steps;

	if (ss->fmt == OUTFMT_JSON) {
		steps = json_object_get(ss->doc, "steps");
		json_array_append_new(json_object_get(json_array_get(steps, json_array_size(steps) - 1),
						      "judgements"), verdict_json(ss, v));
		return;
	}
	if (v->mark == BISECT_SKIP && ss->fmt == OUTFMT_TABLE) {
		printf("  K=%u: not measured (%s): skipped\n", ss->p.layout, v->why);
		return;
	}
	if (ss->k_end > ss->p.layout)
		snprintf(ends, sizeof(ends), " (good, bad: %u)", ss->k_end);
	if (v->mark != BISECT_SKIP) {
		bisect_format_test(g, sizeof(g), &v->g);
		bisect_format_test(b, sizeof(b), &v->b);
	}
	if (ss->fmt == OUTFMT_TABLE) {
		printf("  K=%u%s: vs good %s; vs bad %s: %s%s%s\n", ss->p.layout, ends, g, b,
		       mark_name(v->mark), v->why ? ", " : "", v->why ? v->why : "");
		return;
	}
	if (!t->ncells) {
		static const char *const head[] = { "step", "commit", "subject", "candidates",
						    "layout seeds", "vs good", "vs bad", "mark" };

		for (size_t i = 0; i < ARRAY_SIZE(head); i++)
			outfmt_cell(t, "%s", head[i]);
	}
	outfmt_cell(t, "%u", step);
	char id[13];

	snprintf(id, sizeof(id), "%.12s", c->id);
	outfmt_code_cell(t, id, NULL);
	outfmt_cell(t, "%s", c->subject);
	outfmt_cell(t, "%zu", left);
	outfmt_cell(t, "%u%s", ss->p.layout, ends);
	outfmt_cell(t, "%s", g);
	outfmt_cell(t, "%s", b);
	if (v->mark == BISECT_SKIP)
		outfmt_cell(t, "skipped (not measured: %s)", v->why);
	else
		outfmt_cell(t, "%s%s%s", mark_name(v->mark), v->why ? ", " : "", v->why ? v->why : "");
}

void bisect_print_range(struct bisect_session *ss, const char *why, const char *sep,
			const char *intro)
{
	const int md = ss->fmt == OUTFMT_MD;
	size_t *cand = xcalloc(ss->b.n, sizeof(*cand));
	size_t n = bisect_candidates(&ss->b, cand);
	json_t *range = json_array();

	bisect_md_flush(&ss->md_steps);
	if (ss->fmt != OUTFMT_JSON)
		printf("%sno culprit named: %s%s%s: one of %zu commit%s:%s\n", md ? "\n**" : "",
		       why, sep, intro, n, n == 1 ? "" : "s", md ? "**\n" : "");
	for (size_t k = 0; k < n; k++) {
		const struct gitsrc_commit *c = &ss->r.commits[cand[k]];
		int skipped = ss->b.mark[cand[k]] == BISECT_SKIP;
		json_t *j;

		if (ss->fmt == OUTFMT_JSON) {
			j = json_object();
			json_object_set_new(j, "commit", json_string(c->id));
			json_object_set_new(j, "subject", json_string(c->subject));
			json_object_set_new(j, "skipped", json_boolean(skipped));
			json_array_append_new(range, j);
			continue;
		}
		if (n > 50 && k == 25) {
			printf("%s... %zu more\n", md ? "- " : "  ", n - 50);
			k = n - 25;
			c = &ss->r.commits[cand[k]];
			skipped = ss->b.mark[cand[k]] == BISECT_SKIP;
		}
		char *subject = outfmt_text(ss->fmt, c->subject);

		printf("%s%s%s %s%s\n", md ? "- `" : "  ", c->id, md ? "`" : "", subject,
		       skipped ? " (skipped)" : "");
		free(subject);
	}
	if (ss->fmt == OUTFMT_JSON) {
		json_object_set_new(ss->doc, "no_culprit", json_string(why));
		json_object_set_new(ss->doc, "range", range);
	} else {
		json_decref(range);
	}
	free(cand);
}

void bisect_print_spent(struct bisect_session *ss, unsigned steps)
{
	const char *li = cmd_bullet(ss->fmt);
	unsigned long runs = 0, builds = 0;

	for (size_t i = 0; i < ss->nused; i++) {
		runs += ss->used[i].runs;
		builds += ss->used[i].builds;
	}
	if (ss->fmt == OUTFMT_JSON) {
		json_object_set_new(ss->doc, "measurement_runs", json_integer((json_int_t)runs));
		json_object_set_new(ss->doc, "measurement_runs_new",
				    json_integer((json_int_t)ss->p.measures_done));
		json_object_set_new(ss->doc, "builds", json_integer((json_int_t)builds));
		json_object_set_new(ss->doc, "builds_new", json_integer((json_int_t)ss->p.builds_done));
		json_object_set_new(ss->doc, "commits_measured", json_integer((json_int_t)ss->nused));
		json_object_set_new(ss->doc, "results", json_string(ss->p.results));
		return;
	}
	printf("%s%sspent: %lu measurement runs (%lu new, %lu from the journal), %lu builds (%lu new, %lu from the journal); %zu commits measured in %u step%s\n",
	       *li ? "\n" : "", li, runs, ss->p.measures_done,
	       runs > ss->p.measures_done ? runs - ss->p.measures_done : 0, builds,
	       ss->p.builds_done, builds > ss->p.builds_done ? builds - ss->p.builds_done : 0,
	       ss->nused, steps, steps == 1 ? "" : "s");
	printf("%sresults: %s\n", li, ss->p.results);
}

void bisect_print_head(struct bisect_session *ss, int first_parent, size_t nchanged,
		       unsigned looks)
{
	const struct study *s = ss->s;
	const struct objective *ob = &s->objectives[ss->p.objective];
	const int md = ss->fmt == OUTFMT_MD;
	const char *li = md ? "- " : "  ";
	json_t *d = ss->doc;
	char *flags, *name, *path, *oname;

	if (ss->fmt == OUTFMT_JSON) {
		json_object_set_new(d, "study", json_string(s->name));
		json_object_set_new(d, "good", json_string(ss->r.good.id));
		json_object_set_new(d, "bad", json_string(ss->r.bad.id));
		json_object_set_new(d, "commits", json_integer((json_int_t)ss->r.n));
		json_object_set_new(d, "candidates", json_integer((json_int_t)nchanged));
		json_object_set_new(d, "first_parent", json_boolean(first_parent));
		json_object_set_new(d, "path", json_string(s->source_path));
		json_object_set_new(d, "objective", json_string(ob->name));
		json_object_set_new(d, "goal", json_string(ob->maximize ? "max" : "min"));
		json_object_set_new(d, "flags", json_string(ss->flags));
		json_object_set_new(d, "repeats", json_integer(ss->p.repeats));
		json_object_set_new(d, "layout_seeds", json_integer(ss->p.layout));
		json_object_set_new(d, "max_layout_seeds", json_integer(ss->max_layout));
		json_object_set_new(d, "alpha_differ", json_real(ss->alpha.differ));
		json_object_set_new(d, "alpha_contradict", json_real(ss->alpha.contradict));
		json_object_set_new(d, "endpoints", json_array());
		json_object_set_new(d, "nothing_to_bisect", json_false());
		json_object_set_new(d, "steps", json_array());
		json_object_set_new(d, "first_bad", json_null());
		json_object_set_new(d, "no_culprit", json_null());
		return;
	}
	name = outfmt_text(ss->fmt, s->name);
	path = outfmt_text(ss->fmt, *s->source_path ? s->source_path : "the tree");
	oname = outfmt_text(ss->fmt, ob->name);
	printf("%sbisect (study %s): %zu commit%s from good %.12s to bad %.12s%s, %zu changing %s\n%s",
	       md ? "### tuner " : "", name, ss->r.n, ss->r.n == 1 ? "" : "s", ss->r.good.id,
	       ss->r.bad.id, first_parent ? " (first parents)" : "", nchanged, path,
	       md ? "\n" : "");
	flags = md && *ss->flags ? outfmt_md_code(ss->flags) :
		xstrdup(*ss->flags ? ss->flags : "(none)");
	printf("%sobjective %s (%s), flags: %s; %u run%s on each of %u layout seeds per commit, up to %u\n",
	       li, oname, ob->maximize ? "max" : "min", flags, ss->p.repeats,
	       ss->p.repeats == 1 ? "" : "s", ss->p.layout, ss->max_layout);
	free(name);
	free(path);
	free(oname);
	printf("%sa difference: p < %.2g; a contradiction: p < %.2g (Bonferroni over %u looks)\n",
	       li, ss->alpha.differ, ss->alpha.contradict, looks);
	fflush(stdout);
	free(flags);
}
