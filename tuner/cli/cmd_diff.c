/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner diff: two results compared configuration by configuration. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_diff.h"
#include "tuner/util.h"

const char diff_usage[] =
	"usage: tuner diff STUDY.yaml --results DIR_A --results DIR_B [options]\n"
	"       tuner diff STUDY_A.yaml STUDY_B.yaml [--results DIR_A --results DIR_B]\n"
	"                  [--objective NAME] [--all] [--format table|md|json]\n\n"
	"Compares two finished runs, B against A (e.g. one study built by two\n"
	"compilers, or for two kernel versions, into two results directories),\n"
	"configuration by configuration, from their results (pareto.json), without\n"
	"building or measuring anything: benchstat's role. Configurations are\n"
	"matched by their id (flags and PGO). One study file with two --results is\n"
	"the usual use; two study files (default results/<study> each) compare two\n"
	"studies over the same flags.\n\n"
	"Per objective and configuration: the change (B - A) / |A| with a 95%\n"
	"interval from the two standard errors (their run and layout spread, the\n"
	"layout seeds as the unit where there are several; Welch's degrees of\n"
	"freedom), and a verdict by the objective's goal: 'better' or 'worse' when\n"
	"the interval excludes 0, else 'no clear change'. Exact objectives (a size,\n"
	"a model's value) or samples that never varied compare exactly ('no change'\n"
	"when equal); a side with one sample of a noisy objective gives 'no\n"
	"interval'. Then the configurations only in A or only in B, and a summary:\n"
	"how many better, worse, unclear, and the geometric mean of B/A with its\n"
	"interval (configurations with the same code counted once). Of N\n"
	"configurations without a change, about N/20 look changed by chance: the\n"
	"summary says how many that is. include/tuner/diff.h has the formulas.\n\n"
	"  --results DIR       A's results, then B's (one study: both required;\n"
	"                      two studies: none or both)\n"
	"  --objective NAME    only this objective (default: every one both have)\n"
	"  --all               every configuration in both (default: the clear\n"
	"                      changes and the failures), every one only in A or B\n"
	"  --format F          table (default), md (GitHub Markdown) or json (every\n"
	"                      configuration; changes as fractions, 0.031 = +3.1%)\n"
	"  -h, --help          this text\n\n"
	"Exit status: 0 done (whatever changed), 1 error, 2 bad study file, results\n"
	"or option.\n";

/* A configuration in both: its comparison per objective shown. */
/* ---- Loading ---- */

static int parse_options(struct cmd_diff *x, int argc, char **argv)
{
	enum { OPT_ALL = 3000 };
	static const struct option longopts[] = {
		CMD_TARGETS_LONGOPTS,
		{ "all", no_argument, NULL, OPT_ALL },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == OPT_ALL) {
			x->all = 1;
			continue;
		}
		ret = cmd_targets_option(&x->ct, c, "diff", argv);
		if (ret)
			return ret > 0 ? ret : EXIT_USAGE;
	}
	return 0;
}

/* A and B: one study with two --results, or two studies. */
static int load(struct cmd_diff *x, int argc, char **argv)
{
	size_t nstudies = argc > optind ? (size_t)(argc - optind) : 0;
	char *av[3];
	char *ra, *rb;
	int ret;

	if (!(nstudies == 1 && x->ct.ndirs == 2) && nstudies != 2) {
		fprintf(stderr, "tuner: diff: give one study file and two --results (A's, then B's), or two study files (see 'tuner diff --help')\n");
		return EXIT_USAGE;
	}
	av[0] = argv[0];
	av[1] = argv[optind];
	av[2] = argv[argc - 1];
	optind = 1;
	ret = cmd_targets_load(&x->ct, 3, av, "diff");
	if (ret)
		return ret;
	ra = realpath(cmd_diff_res(x, 0)->dir, NULL);
	rb = realpath(cmd_diff_res(x, 1)->dir, NULL);
	if (ra && rb && !strcmp(ra, rb))
		fprintf(stderr, "tuner: diff: note: A and B are the same results (%s): nothing can have changed\n",
			cmd_diff_res(x, 0)->dir);
	else if (strcmp(cmd_diff_res(x, 0)->study, cmd_diff_res(x, 1)->study))
		fprintf(stderr, "tuner: diff: note: two studies, %s and %s: their configurations are matched by id (flags and PGO)\n",
			cmd_diff_res(x, 0)->study, cmd_diff_res(x, 1)->study);
	free(ra);
	free(rb);
	return 0;
}

/* An objective is exact when the run has no noise of it to see. */
static int objective_exact(const struct cmd_diff *x, size_t oa)
{
	const struct study *s = &x->ct.t[0].study;
	const struct results_objective *ob = &cmd_diff_res(x, 0)->objectives[oa];

	if (ob->modelled)
		return 1;
	for (size_t i = 0; i < s->nobjectives; i++)
		if (!strcmp(s->objectives[i].name, ob->name))
			return s->objectives[i].from_size;
	return 0;
}

/* The objectives both have (--objective: that one), in A's order. */
static int collect_objectives(struct cmd_diff *x)
{
	const struct results *a = cmd_diff_res(x, 0), *b = cmd_diff_res(x, 1);
	const char *want = x->ct.objective;

	x->oa = xcalloc(a->nobjectives + 1, sizeof(*x->oa));
	x->ob = xcalloc(a->nobjectives + 1, sizeof(*x->ob));
	x->exact = xcalloc(a->nobjectives + 1, sizeof(*x->exact));
	for (size_t i = 0; i < a->nobjectives; i++) {
		const struct results_objective *o = &a->objectives[i];
		int j = results_objective(b, o->name);

		if (want && strcmp(want, o->name))
			continue;
		if (j < 0) {
			fprintf(stderr, "tuner: diff: note: objective '%s' is only in A\n", o->name);
			continue;
		}
		if (b->objectives[j].maximize != o->maximize)
			fprintf(stderr, "tuner: diff: note: objective '%s' is maximized in %s, minimized in %s: A's goal decides\n",
				o->name, o->maximize ? "A" : "B", o->maximize ? "B" : "A");
		x->oa[x->nobjs] = i;
		x->ob[x->nobjs] = (size_t)j;
		x->exact[x->nobjs++] = objective_exact(x, i);
	}
	for (size_t j = 0; !want && j < b->nobjectives; j++)
		if (results_objective(a, b->objectives[j].name) < 0)
			fprintf(stderr, "tuner: diff: note: objective '%s' is only in B\n",
				b->objectives[j].name);
	if (!x->nobjs) {
		if (want)
			fprintf(stderr, "tuner: diff: '%s' is not an objective of both A and B\n", want);
		else
			fprintf(stderr, "tuner: diff: A and B have no objective in common\n");
		return EXIT_USAGE;
	}
	return 0;
}

/* ---- Matching and comparing ---- */

static int cmp_config_id(const void *p, const void *q)
{
	const struct results_config *const *a = p, *const *b = q;

	return strcmp((*a)->id, (*b)->id);
}

static struct diff_side side_of(const struct results_value *v)
{
	struct diff_side s = { NAN, NAN, 0 };

	if (!v->known)
		return s;
	s.value = v->value;
	s.se = v->se;
	/* The units of the standard error (results.h). */
	s.df = v->layout_seeds >= 2 ? v->layout_seeds - 1.0 : v->n ? (double)v->n - 1 : 0;
	return s;
}

static const char *code_of(const struct results_config *c)
{
	return c->same_code_as ? c->same_code_as : c->id;
}

/* Row k shares its measurements on both sides with an earlier row. */
static int shared(const struct cmd_diff *x, size_t k)
{
	const struct cmd_diff_row *r = &x->rows[k];

	if (!r->a->same_code_as && !r->b->same_code_as)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (!strcmp(code_of(x->rows[i].a), code_of(r->a)) &&
		    !strcmp(code_of(x->rows[i].b), code_of(r->b)))
			return 1;
	return 0;
}

static void compare_row(struct cmd_diff *x, size_t k)
{
	struct cmd_diff_row *r = &x->rows[k];
	int sh = shared(x, k);

	r->it = xcalloc(x->nobjs, sizeof(*r->it));
	for (size_t o = 0; o < x->nobjs; o++) {
		struct diff_item *it = &r->it[o];

		it->a = side_of(&r->a->obj[x->oa[o]]);
		it->b = side_of(&r->b->obj[x->ob[o]]);
		it->shared = sh;
		diff_compare(&it->est, &it->a, &it->b, x->exact[o],
			     cmd_diff_res(x, 0)->objectives[x->oa[o]].maximize, CMD_DIFF_LEVEL);
	}
}

static void match(struct cmd_diff *x)
{
	const struct results *a = cmd_diff_res(x, 0), *b = cmd_diff_res(x, 1);
	const struct results_config **byid = xcalloc(b->nconfigs + 1, sizeof(*byid));
	unsigned char *seen = xcalloc(b->nconfigs + 1, 1);

	for (size_t i = 0; i < b->nconfigs; i++)
		byid[i] = &b->configs[i];
	qsort(byid, b->nconfigs, sizeof(*byid), cmp_config_id);
	x->rows = xcalloc(a->nconfigs + 1, sizeof(*x->rows));
	for (int s = 0; s < 2; s++)
		x->only[s] = xcalloc(cmd_diff_res(x, s)->nconfigs + 1, sizeof(*x->only[s]));
	for (size_t i = 0; i < a->nconfigs; i++) {
		const struct results_config *key = &a->configs[i];
		const struct results_config **hit =
			bsearch(&key, byid, b->nconfigs, sizeof(*byid), cmp_config_id);

		if (!hit) {
			x->only[0][x->nonly[0]++] = key;
			continue;
		}
		seen[*hit - b->configs] = 1;
		x->rows[x->nrows].a = key;
		x->rows[x->nrows].b = *hit;
		compare_row(x, x->nrows++);
	}
	for (size_t i = 0; i < b->nconfigs; i++)
		if (!seen[i])
			x->only[1][x->nonly[1]++] = &b->configs[i];
	free(byid);
	free(seen);
}

static void summarize(struct cmd_diff *x)
{
	struct diff_item *items = xcalloc(x->nrows + 1, sizeof(*items));

	x->sum = xcalloc(x->nobjs, sizeof(*x->sum));
	for (size_t o = 0; o < x->nobjs; o++) {
		for (size_t k = 0; k < x->nrows; k++)
			items[k] = x->rows[k].it[o];
		diff_summarize(&x->sum[o], items, x->nrows, CMD_DIFF_LEVEL);
	}
	free(items);
}

static void release(struct cmd_diff *x)
{
	for (size_t k = 0; k < x->nrows; k++)
		free(x->rows[k].it);
	free(x->rows);
	free(x->only[0]);
	free(x->only[1]);
	free(x->sum);
	free(x->oa);
	free(x->ob);
	free(x->exact);
	cmd_targets_release(&x->ct);
}

int cmd_diff(int argc, char **argv)
{
	struct cmd_diff x = { .ct = CMD_TARGETS_INIT };
	int ret;

	if (cmd_wants_help(argc, argv, diff_usage))
		return EXIT_OK;
	ret = parse_options(&x, argc, argv);
	if (!ret)
		ret = load(&x, argc, argv);
	if (!ret)
		ret = collect_objectives(&x);
	if (ret)
		goto out;
	match(&x);
	summarize(&x);
	if (x.ct.fmt == OUTFMT_JSON)
		cmd_diff_print_json(&x);
	else
		cmd_diff_print_text(&x, x.ct.fmt);
out:
	release(&x);
	return ret;
}
