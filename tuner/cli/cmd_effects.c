/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner effects: what each value of each dimension does, target by target. */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_doc.h"
#include "cmd_numbers.h"
#include "cmd_targets.h"
#include "tuner/effects.h"
#include "tuner/outfmt.h"
#include "tuner/results.h"
#include "tuner/util.h"

const char effects_usage[] =
	"usage: tuner effects STUDY.yaml... [--results DIR]... [--objective NAME]\n"
	"                     [--format table|md|json]\n\n"
	"From the results of finished runs (pareto.json; nothing is built or\n"
	"measured), the effect of every value of every dimension of the space on\n"
	"each objective, against the dimension's first value (the reference),\n"
	"averaged over the other dimensions: each configuration holding the value\n"
	"is paired with the one that holds the reference instead and is the same\n"
	"in every other dimension, and the pairs' relative differences averaged,\n"
	"with a 95% interval (a t interval over the pairs, never narrower than the\n"
	"configurations' own noise: layout seeds as the unit where there are\n"
	"several; include/tuner/effects.h has the formulas). A value 'helps' or\n"
	"'hurts' when its interval excludes 0, else it has 'no clear effect'.\n\n"
	"Interactions: a value whose effect is clearly positive at one value of\n"
	"another dimension and clearly negative at another is flagged\n"
	"('-fno-reorder-blocks helps at -O2 (...), hurts at -Os (...)').\n\n"
	"Several studies are several targets (one study per target, e.g. two\n"
	"routers), shown side by side, a column each; a value whose effect is clear\n"
	"on two targets with opposite signs is said to change sign between them,\n"
	"and one that does not is said so too.\n\n"
	"  --results DIR       a study's results (default results/<study>); give it\n"
	"                      once per study, in the studies' order\n"
	"  --objective NAME    only this objective (default: every one)\n"
	"  --format F          table (default), md (GitHub Markdown) or json; JSON\n"
	"                      effects are fractions (0.031 = +3.1%)\n"
	"  -h, --help          this text\n\n"
	"Exit status: 0 done, 1 error, 2 bad study file, results or option.\n";

struct ctx {
	struct cmd_targets *ct;
	const char **objs;   /* objective names shown */
	size_t nobjs;
	struct results_effect_row *rows;
	size_t nrows;
	/* per objective, per target: effects (has[o * n + t]: computed) */
	struct effects *eff;
	int *has;
	const char **names;  /* target names */
};

static void add_objective(struct ctx *x, const char *name)
{
	for (size_t i = 0; i < x->nobjs; i++)
		if (!strcmp(x->objs[i], name))
			return;
	x->objs = xrealloc(x->objs, (x->nobjs + 1) * sizeof(*x->objs));
	x->objs[x->nobjs++] = name;
}

/* The objectives: --objective, or every one of every target in order. */
static int collect_objectives(struct ctx *x)
{
	struct cmd_targets *ct = x->ct;

	for (size_t t = 0; t < ct->n; t++)
		for (size_t i = 0; i < ct->t[t].res.nobjectives; i++) {
			const char *name = ct->t[t].res.objectives[i].name;

			if (!ct->objective || !strcmp(ct->objective, name))
				add_objective(x, name);
		}
	if (ct->objective && !x->nobjs) {
		fprintf(stderr, "tuner: effects: no target has an objective '%s'\n", ct->objective);
		return EXIT_USAGE;
	}
	return 0;
}

static int compute(struct ctx *x)
{
	size_t n = x->ct->n;

	x->eff = xcalloc(x->nobjs * n + 1, sizeof(*x->eff));
	x->has = xcalloc(x->nobjs * n + 1, sizeof(*x->has));
	for (size_t o = 0; o < x->nobjs; o++)
		for (size_t t = 0; t < n; t++) {
			const struct results_target *tg = &x->ct->t[t];
			int i = results_objective(&tg->res, x->objs[o]);

			if (i < 0)
				continue;
			if (results_effects(&x->eff[o * n + t], &tg->res, &tg->study.space,
					    (size_t)i) < 0)
				return cmd_error();
			x->has[o * n + t] = 1;
		}
	return 0;
}

static const struct results_objective *objective_of(const struct ctx *x, size_t o, size_t *t)
{
	for (*t = 0; *t < x->ct->n; (*t)++) {
		int i = results_objective(&x->ct->t[*t].res, x->objs[o]);
		if (i >= 0)
			return &x->ct->t[*t].res.objectives[i];
	}
	return NULL;
}

static int maximize_of(const struct ctx *x, size_t o, size_t t)
{
	int i = results_objective(&x->ct->t[t].res, x->objs[o]);

	return i >= 0 && x->ct->t[t].res.objectives[i].maximize;
}

/* The estimate of row r on target t for objective o, or NULL. */
static const struct effect_est *est_of(const struct ctx *x, size_t o, const struct results_effect_row *r,
				       size_t t)
{
	if (!x->has[o * x->ct->n + t] || r->at[t] < 0)
		return NULL;
	return &x->eff[o * x->ct->n + t].values[r->at[t]].main;
}

static void format_est(char *buf, size_t len, const struct effect_est *e)
{
	cmd_format_rel(buf, len, e->mean, e->lo, e->hi);
}

/* The row's value and reference as people read them. */
static const char *row_label(char *buf, size_t len, const struct ctx *x, const struct results_effect_row *r,
			     int ref)
{
	for (size_t t = 0; t < x->ct->n; t++)
		if (r->at[t] >= 0)
			return results_value_label(buf, len, &x->ct->t[t].study.space.dims[r->d[t]],
					       ref ? r->ref : r->value);
	return "?";
}

/*
 * Across targets: "changes sign between targets: helps on A (...), hurts
 * on B (...)" or "no sign change between A and B (...)". NULL when fewer
 * than two targets have pairs. Caller frees.
 */
static char *sign_note(const struct ctx *x, size_t o, const struct results_effect_row *r, int *changes)
{
	struct strbuf sb = STRBUF_INIT, how = STRBUF_INIT;
	const char **names = xcalloc(x->ct->n, sizeof(*names));
	size_t m = 0;
	char joined[512];

	*changes = 0;
	for (size_t t = 0; t < x->ct->n; t++) {
		const struct effect_est *a = est_of(x, o, r, t);
		char e[96];

		if (!a || !a->n)
			continue;
		for (size_t u = 0; u < t; u++) {
			const struct effect_est *b = est_of(x, o, r, u);
			if (b && effects_sign_change(a, b))
				*changes = 1;
		}
		format_est(e, sizeof(e), a);
		strbuf_addf(&how, "%s%s on %s (%s)", m ? ", " : "",
			    effects_word(a, maximize_of(x, o, t)), x->names[t], e);
		names[m++] = x->names[t];
	}
	if (m >= 2) {
		cmd_join_names(joined, sizeof(joined), names, m);
		if (*changes)
			strbuf_addf(&sb, "changes sign between targets: %s", strbuf_str(&how));
		else
			strbuf_addf(&sb, "no sign change between %s: %s", joined, strbuf_str(&how));
	}
	strbuf_release(&how);
	free(names);
	return m >= 2 ? strbuf_detach(&sb) : NULL;
}

/* "V helps at W1 (...), hurts at W2 (...)" of one flagged interaction. */
static char *interaction_text(const struct ctx *x, size_t o, size_t t,
			      const struct effects_interaction *in)
{
	const struct effects *ef = &x->eff[o * x->ct->n + t];
	const struct effects_value *ev = &ef->values[in->value];
	const struct space *sp = &x->ct->t[t].study.space;
	const struct dimension *d = &sp->dims[ev->dim], *e = &sp->dims[in->other];
	const struct effect_est *pos = &ev->cond[ef->cond_off[in->other] + in->pos];
	const struct effect_est *neg = &ev->cond[ef->cond_off[in->other] + in->neg];
	const struct effect_est *first = pos, *second = neg;
	size_t w1 = in->pos, w2 = in->neg;
	char v[256], a[256], b[256], ea[96], eb[96];

	if (!maximize_of(x, o, t)) {
		first = neg;
		second = pos;
		w1 = in->neg;
		w2 = in->pos;
	}
	format_est(ea, sizeof(ea), first);
	format_est(eb, sizeof(eb), second);
	return xasprintf("%s %s at %s (%s, n=%zu), %s at %s (%s, n=%zu)",
			 results_value_label(v, sizeof(v), d, d->values[ev->value]),
			 effects_word(first, maximize_of(x, o, t)),
			 results_value_label(a, sizeof(a), e, e->values[w1]), ea, first->n,
			 effects_word(second, maximize_of(x, o, t)),
			 results_value_label(b, sizeof(b), e, e->values[w2]), eb, second->n);
}

static void print_title(const struct ctx *x, size_t o, enum outfmt fmt)
{
	size_t t;
	const struct results_objective *ob = objective_of(x, o, &t);

	char *label = cmd_objective_label(ob->name, ob->unit, ob->maximize, fmt);

	printf("%s%s: effect of each value against its dimension's first, averaged over the other dimensions; 95%% intervals, n pairs\n",
	       fmt == OUTFMT_MD ? "### " : "", label);
	free(label);
	if (fmt == OUTFMT_MD)
		putchar('\n');
}

static void print_objective(const struct ctx *x, size_t o, enum outfmt fmt)
{
	size_t n = x->ct->n, shown = 0;
	struct outfmt_table tb;
	const char *bullet = fmt == OUTFMT_MD ? "- " : "  ";

	print_title(x, o, fmt);
	outfmt_table_init(&tb, 3 + n);
	outfmt_cell(&tb, "dimension");
	outfmt_cell(&tb, "value");
	outfmt_cell(&tb, "against");
	for (size_t t = 0; t < n; t++)
		outfmt_cell(&tb, "%s", x->names[t]);
	for (size_t k = 0; k < x->nrows; k++) {
		const struct results_effect_row *r = &x->rows[k];
		char v[256], ref[256];

		row_label(v, sizeof(v), x, r, 0);
		row_label(ref, sizeof(ref), x, r, 1);
		outfmt_cell(&tb, "%s", r->dim);
		if (*r->value)
			outfmt_code_cell(&tb, v, NULL);
		else
			outfmt_cell(&tb, "%s", v);
		if (*r->ref)
			outfmt_code_cell(&tb, ref, NULL);
		else
			outfmt_cell(&tb, "%s", ref);
		for (size_t t = 0; t < n; t++) {
			const struct effect_est *e = est_of(x, o, r, t);
			char b[96];

			if (!e)
				outfmt_cell(&tb, "-");
			else if (!e->n)
				outfmt_cell(&tb, "no pairs");
			else {
				format_est(b, sizeof(b), e);
				outfmt_cell(&tb, "%s %s (n=%zu)", b, effects_word(e, maximize_of(x, o, t)),
					    e->n);
			}
		}
	}
	outfmt_table_print(stdout, &tb, fmt);
	outfmt_table_release(&tb);
	if (n >= 2) {
		printf("%sacross targets:\n%s", fmt == OUTFMT_MD ? "\n" : "",
		       fmt == OUTFMT_MD ? "\n" : "");
		for (size_t k = 0; k < x->nrows; k++) {
			char v[256];
			int changes;
			char *note = sign_note(x, o, &x->rows[k], &changes);

			if (!note)
				continue;
			const char *label = row_label(v, sizeof(v), x, &x->rows[k], 0);
			char *dim = outfmt_text(fmt, x->rows[k].dim);
			char *val = *x->rows[k].value && fmt == OUTFMT_MD ? outfmt_md_code(label) :
				    outfmt_text(fmt, label);
			char *what = outfmt_text(fmt, note);

			printf("%s%s %s: %s\n", bullet, dim, val, what);
			free(dim);
			free(val);
			free(what);
			free(note);
			shown++;
		}
		if (!shown)
			printf("%s(no value has pairs on two targets)\n", bullet);
	}
	printf("%sinteractions (a value's effect clearly positive at one value of another dimension, clearly negative at another):\n%s",
	       fmt == OUTFMT_MD ? "\n" : "", fmt == OUTFMT_MD ? "\n" : "");
	shown = 0;
	for (size_t t = 0; t < n; t++) {
		const struct effects *ef = &x->eff[o * n + t];

		if (!x->has[o * n + t])
			continue;
		for (size_t i = 0; i < ef->ninter; i++) {
			char *s = interaction_text(x, o, t, &ef->inter[i]);

			char *name = outfmt_text(fmt, x->names[t]), *what = outfmt_text(fmt, s);

			printf("%s%s: %s\n", bullet, name, what);
			free(name);
			free(what);
			free(s);
			shown++;
		}
	}
	if (!shown)
		printf("%snone flagged\n", bullet);
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *est_json(const struct effect_est *e, int maximize)
{
	json_t *o = json_object();

	json_object_set_new(o, "n", json_integer((json_int_t)e->n));
	json_object_set_new(o, "effect", num(e->mean));
	json_object_set_new(o, "lo", num(e->lo));
	json_object_set_new(o, "hi", num(e->hi));
	json_object_set_new(o, "verdict", json_string(effects_word(e, maximize)));
	return o;
}

static json_t *interactions_json(const struct ctx *x, size_t o)
{
	json_t *arr = json_array();
	size_t n = x->ct->n;

	for (size_t t = 0; t < n; t++) {
		const struct effects *ef = &x->eff[o * n + t];
		const struct space *sp = &x->ct->t[t].study.space;
		int max = maximize_of(x, o, t);

		for (size_t i = 0; x->has[o * n + t] && i < ef->ninter; i++) {
			const struct effects_interaction *in = &ef->inter[i];
			const struct effects_value *ev = &ef->values[in->value];
			const struct dimension *d = &sp->dims[ev->dim], *e = &sp->dims[in->other];
			json_t *j = json_object(), *pos, *neg;
			char *text = interaction_text(x, o, t, in);

			pos = est_json(&ev->cond[ef->cond_off[in->other] + in->pos], max);
			neg = est_json(&ev->cond[ef->cond_off[in->other] + in->neg], max);
			json_object_set_new(pos, "at", json_string(e->values[in->pos]));
			json_object_set_new(neg, "at", json_string(e->values[in->neg]));
			json_object_set_new(j, "target", json_string(x->names[t]));
			json_object_set_new(j, "objective", json_string(x->objs[o]));
			json_object_set_new(j, "dimension", json_string(d->name));
			json_object_set_new(j, "value", json_string(d->values[ev->value]));
			json_object_set_new(j, "other", json_string(e->name));
			json_object_set_new(j, "positive", pos);
			json_object_set_new(j, "negative", neg);
			json_object_set_new(j, "text", json_string(text));
			json_array_append_new(arr, j);
			free(text);
		}
	}
	return arr;
}

static void print_json(const struct ctx *x)
{
	json_t *root = json_object(), *targets = json_array(), *objs = json_array(),
	       *effects = json_array(), *inter = json_array(), *ij;
	size_t n = x->ct->n;

	for (size_t t = 0; t < n; t++) {
		const struct results_target *tg = &x->ct->t[t];
		json_t *j = json_object();

		json_object_set_new(j, "name", json_string(x->names[t]));
		json_object_set_new(j, "study", json_string(tg->study.path));
		json_object_set_new(j, "results", json_string(tg->res.dir));
		json_object_set_new(j, "complete", json_boolean(tg->res.complete));
		json_object_set_new(j, "configs", json_integer((json_int_t)tg->res.nconfigs));
		json_object_set_new(j, "not_in_space", json_integer((json_int_t)tg->unplaced));
		json_array_append_new(targets, j);
	}
	for (size_t o = 0; o < x->nobjs; o++) {
		size_t t0;
		const struct results_objective *ob = objective_of(x, o, &t0);
		json_t *j = json_object();

		json_object_set_new(j, "name", json_string(ob->name));
		json_object_set_new(j, "unit", json_string(ob->unit));
		json_object_set_new(j, "goal", json_string(ob->maximize ? "max" : "min"));
		json_array_append_new(objs, j);
		for (size_t k = 0; k < x->nrows; k++) {
			const struct results_effect_row *r = &x->rows[k];
			json_t *e = json_object(), *per = json_object();
			int changes;
			char *note = sign_note(x, o, r, &changes);

			json_object_set_new(e, "objective", json_string(ob->name));
			json_object_set_new(e, "dimension", json_string(r->dim));
			json_object_set_new(e, "value", json_string(r->value));
			json_object_set_new(e, "reference", json_string(r->ref));
			for (size_t t = 0; t < n; t++) {
				const struct effect_est *est = est_of(x, o, r, t);
				json_object_set_new(per, x->names[t], est ?
						    est_json(est, maximize_of(x, o, t)) : json_null());
			}
			json_object_set_new(e, "targets", per);
			json_object_set_new(e, "sign_change", json_boolean(changes));
			json_object_set_new(e, "across", note ? json_string(note) : json_null());
			json_array_append_new(effects, e);
			free(note);
		}
		ij = interactions_json(x, o);
		json_array_extend(inter, ij);
		json_decref(ij);
	}
	json_object_set_new(root, "targets", targets);
	json_object_set_new(root, "objectives", objs);
	json_object_set_new(root, "confidence", json_real(0.95));
	json_object_set_new(root, "effects", effects);
	json_object_set_new(root, "interactions", inter);
	cmd_print_json(root);
}

static void release(struct ctx *x)
{
	for (size_t i = 0; x->eff && i < x->nobjs * x->ct->n; i++)
		if (x->has[i])
			effects_release(&x->eff[i]);
	results_effect_rows_free(x->rows, x->nrows);
	free(x->eff);
	free(x->has);
	free(x->objs);
	free(x->names);
}

int cmd_effects(int argc, char **argv)
{
	static const struct option longopts[] = { CMD_TARGETS_LONGOPTS, { NULL, 0, NULL, 0 } };
	struct cmd_targets ct = CMD_TARGETS_INIT;
	struct ctx x = { .ct = &ct };
	int c, ret;

	if (cmd_wants_help(argc, argv, effects_usage))
		return EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		ret = cmd_targets_option(&ct, c, "effects", argv);
		if (ret) {
			free(ct.dirs);
			return ret > 0 ? ret : EXIT_USAGE;
		}
	}
	ret = cmd_targets_load(&ct, argc, argv, "effects");
	if (ret)
		goto out;
	x.names = xcalloc(ct.n, sizeof(*x.names));
	for (size_t t = 0; t < ct.n; t++)
		x.names[t] = ct.t[t].name;
	ret = collect_objectives(&x);
	if (ret)
		goto out;
	x.rows = results_effect_rows(x.ct->t, x.ct->n, &x.nrows);
	ret = compute(&x);
	if (ret)
		goto out;
	if (ct.fmt == OUTFMT_JSON) {
		print_json(&x);
	} else {
		for (size_t o = 0; o < x.nobjs; o++) {
			if (o)
				putchar('\n');
			print_objective(&x, o, ct.fmt);
		}
	}
out:
	release(&x);
	cmd_targets_release(&ct);
	return ret;
}
