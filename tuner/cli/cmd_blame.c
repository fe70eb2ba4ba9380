/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner blame: which flag differences explain a change (delta debugging). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_blame.h"
#include "cmd_numbers.h"
#include "cmd_options.h"
#include "tuner/ddmin.h"
#include "tuner/flagdiff.h"
#include "tuner/gccopt.h"
#include "tuner/outfmt.h"
#include "tuner/probe.h"
#include "tuner/progress.h"
#include "tuner/space.h"
#include "tuner/util.h"

const char blame_usage[] =
	"usage: tuner blame STUDY.yaml --good FLAGS --bad FLAGS [options]\n\n"
	"Finds the smallest set of the differences between two flag strings that\n"
	"explains the change in the study's first measured objective, by delta\n"
	"debugging (ddmin: Zeller and Hildebrandt, IEEE TSE 28(2), 2002). The\n"
	"differences are per switch (-O level, -fX/-fno-X, -X=V: the last one wins,\n"
	"as in GCC): added, dropped or changed. Each tested variant is good with\n"
	"some of them applied, built on K layout seeds and measured N times per\n"
	"build, and judged against good and against bad with tuner compare's rule\n"
	"(Welch's t on the layout seeds' means, and the Mann-Whitney test agreeing,\n"
	"at 5%):\n"
	"  fails       differs from good in bad's direction, and is within half\n"
	"              the change of bad (the 95% interval of variant - bad\n"
	"              inside +-|bad - good|/2): it carries most of the change;\n"
	"  passes      differs from bad, and is within half the change of good;\n"
	"  unresolved  anything else (part of the change, or too noisy): it is\n"
	"              measured again on twice the layout seeds, up to\n"
	"              --max-layout; still unresolved, ddmin treats it as not\n"
	"              failing.\n"
	"It prints each step, the culprit difference(s) with the effect of\n"
	"applying them to good (and what the rest adds) as percentages with 95%\n"
	"intervals, and the measurement runs spent. Variants are built with PGO\n"
	"off. Everything goes into one journal, so a rerun resumes and a variant\n"
	"is never measured twice.\n\n"
	"  --good FLAGS, --bad FLAGS  the two flag strings\n"
	"  --repeats N                measurements per build (default 3)\n"
	"  --layout K                 layout seeds per variant (default: the\n"
	"                             study's layout.samples, at least 4). With\n"
	"                             K = 1 a layout shift passes for an effect.\n"
	"  --max-layout K             an unresolved variant is measured again\n"
	"                             with twice the layout seeds (good and bad\n"
	"                             too), up to this many (default 4 x --layout)\n"
	"  --results DIR              where results go (default:\n"
	"                             results/<study>/blame-<id>)\n"
	"  --format F                 table (default), md (GitHub Markdown: the steps\n"
	"                             as a table, the rest as bullets) or json (one\n"
	"                             object on stdout: the differences, bad vs good,\n"
	"                             every step, the culprit's differences and\n"
	"                             effects, what it spent; effects as fractions:\n"
	"                             0.02 is +2%), printed at the end; progress and\n"
	"                             notes stay on stderr\n"
	"  -j, --jobs N               parallel builds (default: number of CPUs)\n"
	"  -q, --quiet                no progress on stderr\n"
	"  -h, --help                 this text\n\n"
	"Exit status: 0 done (also when good and bad do not differ significantly:\n"
	"nothing to blame), 1 error (e.g. good or bad failed to build), 2 bad\n"
	"study file or option, 130 interrupted (run again to resume).\n";

static struct tested *find_tested(struct blame *b, const char *flags)
{
	char id[17];

	config_id(id, flags, PGO_OFF);
	for (size_t i = 0; i < b->nt; i++)
		if (!strcmp(b->t[i].id, id))
			return &b->t[i];
	return NULL;
}

/* The 95% interval of the difference lies within +-h: equivalent to
 * within h, the two one-sided tests' way (Schuirmann, J. Pharmacokin.
 * Biopharm. 15, 1987; at 95% two-sided, a 2.5% level each side). */
static int within(const struct stats_test *t, double h)
{
	return t->diff_lo >= -h && t->diff_hi <= h;
}

static int interrupted(struct blame *b, const struct run_result *res)
{
	if (!res->interrupted && !tn_cancelled())
		return 0;
	b->interrupted = 1;
	return 1;
}

/*
 * Measures good, bad and flags[0..n) (distinct) and judges each of flags
 * against good and bad into b->t (a new entry, or the old one's verdict
 * replaced). 0, or -1 (error or interrupted).
 */
static int measure(struct blame *b, char **flags, size_t n)
{
	const char **all = xcalloc(n + 2, sizeof(*all));
	struct run_result res;
	struct stats_test t0;
	double half;
	int ret = -1;

	all[0] = b->good;
	all[1] = b->bad;
	for (size_t i = 0; i < n; i++)
		all[2 + i] = flags[i];
	if (probe_measure(&b->p, &res, all, n + 2, NULL, 0) < 0)
		goto out;
	if (interrupted(b, &res))
		goto release;
	if (b->p.layout > b->kmax)
		b->kmax = b->p.layout;
	/* Half the change, from this call's (maybe better measured) ends. */
	probe_judge(&t0, &b->p, &res.configs[0], &res.configs[1]);
	half = fabs(t0.diff) / 2;
	for (size_t i = 0; i < n; i++) {
		const struct config_result *g = &res.configs[0], *x = &res.configs[2 + i];
		struct tested *t = find_tested(b, flags[i]);
		int jg, jb;

		if (!t) {
			ALLOC_GROW(b->t, b->nt + 1, b->alloc);
			t = &b->t[b->nt++];
			t->flags = xstrdup(flags[i]);
			config_id(t->id, flags[i], PGO_OFF);
		}
		t->k = b->p.layout;
		jg = probe_judge(&t->vs_good, &b->p, g, x);
		jb = probe_judge(&t->vs_bad, &b->p, &res.configs[1], x);
		if (strcmp(x->status, "ok"))
			t->outcome = DD_UNRESOLVED;
		else if (jg == b->dir && within(&t->vs_bad, half))
			t->outcome = DD_FAIL;
		else if (jb == -b->dir && within(&t->vs_good, half))
			t->outcome = DD_PASS;
		else
			t->outcome = DD_UNRESOLVED;
	}
	ret = 0;
release:
	run_result_release(&res);
out:
	free(all);
	return ret;
}

/*
 * Unresolved variants of flags[0..n) get more layout seeds, doubling K
 * (for them and for good and bad) up to --max-layout, until they resolve;
 * K then goes back for the next variants. 0, or -1.
 */
static int resolve(struct blame *b, char **flags, size_t n)
{
	unsigned k = b->p.layout;
	int ret = 0;

	while (b->p.layout < b->o->m.max_layout) {
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			if (find_tested(b, flags[i])->outcome == DD_UNRESOLVED)
				flags[m++] = flags[i];
		n = m;
		if (!n)
			break;
		b->p.layout = 2 * b->p.layout < b->o->m.max_layout ? 2 * b->p.layout
								 : b->o->m.max_layout;
		if (!b->o->m.quiet)
			fprintf(stderr, "tuner: blame: %zu unresolved variant(s): %u layout seeds\n", n,
				b->p.layout);
		ret = measure(b, flags, n);
		if (ret < 0)
			break;
	}
	b->p.layout = k;
	return ret;
}

static void add_step(struct blame *b, const size_t *set, size_t n, const struct tested *t)
{
	struct step *st;

	ALLOC_GROW(b->steps, b->nsteps + 1, b->steps_alloc);
	st = &b->steps[b->nsteps++];
	st->set = xcalloc(n + 1, sizeof(*st->set));
	memcpy(st->set, set, n * sizeof(*set));
	st->n = n;
	st->vs_good = t->vs_good;
	st->vs_bad = t->vs_bad;
	st->k = t->k;
	st->outcome = t->outcome;
}

static int dd_test(void *ctx, const size_t *const *sets, const size_t *sizes, size_t nsets,
		   enum dd_outcome *results)
{
	struct blame *b = ctx;
	char **flags = xcalloc(nsets, sizeof(*flags)), **todo = xcalloc(nsets, sizeof(*todo));
	size_t ntodo = 0;
	int ret = -1;

	for (size_t i = 0; i < nsets; i++) {
		flags[i] = flagdiff_apply(&b->d, sets[i], sizes[i]);
		if (find_tested(b, flags[i]))
			continue;
		for (size_t j = 0; j < ntodo; j++)
			if (gccopt_equal(todo[j], flags[i]))
				goto next;
		todo[ntodo++] = flags[i];
next:;
	}
	if (ntodo && measure(b, todo, ntodo) < 0)
		goto out;
	if (resolve(b, todo, ntodo) < 0)
		goto out;
	for (size_t i = 0; i < nsets; i++) {
		const struct tested *t = find_tested(b, flags[i]);
		char g[96], r[96], *sub;

		results[i] = t->outcome;
		add_step(b, sets[i], sizes[i], t);
		if (b->o->m.fmt != OUTFMT_TABLE)
			continue;
		cmd_format_rel(g, sizeof(g), t->vs_good.rel, t->vs_good.rel_lo, t->vs_good.rel_hi);
		cmd_format_rel(r, sizeof(r), t->vs_bad.rel, t->vs_bad.rel_lo, t->vs_bad.rel_hi);
		sub = blame_subset_text(b, sets[i], sizes[i]);
		printf("  test %s: vs good %s, vs bad %s, %u seeds: %s\n", sub, g, r, t->k,
		       blame_outcome_name(t->outcome));
		free(sub);
	}
	fflush(stdout);
	ret = 0;
out:
	for (size_t i = 0; i < nsets; i++)
		free(flags[i]);
	free(flags);
	free(todo);
	return ret;
}

/* The culprit's effect on good, and what the rest of the change adds. */
static int report(struct blame *b, const size_t *set, size_t n)
{
	char *flags = flagdiff_apply(&b->d, set, n);
	const char *all[3] = { b->good, b->bad, flags };
	struct run_result res;
	int dup = gccopt_equal(flags, b->bad), ret = -1;
	unsigned k = b->p.layout;

	/* Judged on the most layout seeds used, for good and bad alike. */
	if (b->kmax > k)
		b->p.layout = b->kmax;
	ret = probe_measure(&b->p, &res, all, dup ? 2 : 3, NULL, 0);
	b->p.layout = k;
	if (ret < 0)
		goto out;
	ret = -1;
	if (interrupted(b, &res))
		goto release;
	b->culprit = xcalloc(n + 1, sizeof(*b->culprit));
	memcpy(b->culprit, set, n * sizeof(*set));
	b->nculprit = n;
	probe_judge(&b->effect, &b->p, &res.configs[0], &res.configs[dup ? 1 : 2]);
	if (!dup)
		probe_judge(&b->rest, &b->p, &res.configs[2], &res.configs[1]);
	b->has_rest = !dup;
	if (b->o->m.fmt == OUTFMT_TABLE)
		blame_print_culprit(b, OUTFMT_TABLE);
	ret = 0;
release:
	run_result_release(&res);
out:
	free(flags);
	return ret;
}

static int blame(struct blame *b, const struct study *s)
{
	const char *ends[2];
	struct run_result res;
	size_t *set = NULL, n;
	int ret = EXIT_FAIL;

	b->good = flagdiff_apply(&b->d, NULL, 0);
	{
		size_t *every = xcalloc(b->d.nchanges, sizeof(*every));

		for (size_t i = 0; i < b->d.nchanges; i++)
			every[i] = i;
		b->bad = flagdiff_apply(&b->d, every, b->d.nchanges);
		free(every);
	}
	if (b->o->m.fmt == OUTFMT_TABLE)
		blame_print_head(b, s, OUTFMT_TABLE);
	ends[0] = b->good;
	ends[1] = b->bad;
	if (probe_measure(&b->p, &res, ends, 2, NULL, 0) < 0) {
		return cmd_error();
	}
	if (interrupted(b, &res))
		goto release;
	if (strcmp(res.configs[0].status, "ok") || strcmp(res.configs[1].status, "ok")) {
		fprintf(stderr, "tuner: blame: good is %s, bad is %s (see %s)\n",
			res.configs[0].status, res.configs[1].status, res.results_dir);
		goto release;
	}
	b->dir = probe_judge(&b->ends, &b->p, &res.configs[0], &res.configs[1]);
	if (b->o->m.fmt == OUTFMT_TABLE)
		blame_print_effect("  ", "bad vs good", &b->ends);
	if (b->ends.layout_unreplicated)
		fprintf(stderr, "tuner: blame: warning: one layout seed per variant: a layout shift passes for an effect (use --layout K >= 2)\n");
	if (!b->dir) {
		if (b->o->m.fmt == OUTFMT_TABLE)
			printf("%s\n", blame_nothing);
		else
			blame_print_doc(b, s, res.results_dir);
		ret = EXIT_OK;
		goto release;
	}
	if (b->d.nchanges == 1) {
		set = xcalloc(1, sizeof(*set));
		n = 1;
	} else if (ddmin(&set, &n, b->d.nchanges, dd_test, b) < 0) {
		if (!b->interrupted)
			cmd_print_error(tn_errmsg());
		goto release;
	}
	if (report(b, set, n) < 0) {
		if (!b->interrupted)
			cmd_print_error(tn_errmsg());
		goto release;
	}
	if (b->o->m.fmt == OUTFMT_TABLE)
		blame_print_tail(b, OUTFMT_TABLE, res.results_dir);
	else
		blame_print_doc(b, s, res.results_dir);
	ret = EXIT_OK;
release:
	if (b->interrupted) {
		fprintf(stderr, "tuner: blame: interrupted; run again to resume\n");
		ret = EXIT_INTERRUPTED;
	}
	free(set);
	run_result_release(&res);
	return ret;
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "tuner: blame: %s%s%s\n", msg, arg ? arg : "", arg ? "'" : "");
	return EXIT_USAGE;
}

static int parse_options(struct blame_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		CMD_SEARCH_LONGOPTS,
		CMD_MEASURE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, CMD_MEASURE_SHORTOPTS, longopts, NULL)) != -1) {
		ret = cmd_measure_option(&o->m, c, "blame", argv);
		if (ret > 0)
			return ret;
	}
	return cmd_search_args_ok(&o->m, argc, "blame", "FLAGS") ? -1 : EXIT_USAGE;
}

int cmd_blame(int argc, char **argv)
{
	struct blame_opts o = { .m = { .repeats = 3 } };
	struct blame b = { .o = &o };
	struct cmd_reporter rep;
	struct study s;
	char *key;
	int ret;

	if (cmd_wants_help(argc, argv, blame_usage))
		return EXIT_OK;
	ret = parse_options(&o, argc, argv);
	if (ret >= 0)
		return ret;
	flagdiff_compute(&b.d, o.m.good, o.m.bad);
	if (!b.d.nchanges) {
		flagdiff_release(&b.d);
		return usage_error("--good and --bad set every switch alike: nothing to blame", NULL);
	}
	ret = cmd_open_study(&s, argv[optind], "blame", 1);
	if (ret) {
		flagdiff_release(&b.d);
		return ret;
	}
	key = xasprintf("%s\n%s", o.m.good, o.m.bad);
	if (probe_init(&b.p, &s, "blame", key, o.m.results, o.m.repeats,
		       o.m.layout ? o.m.layout : (s.layout_samples > 4 ? s.layout_samples : 4)) < 0) {
		cmd_print_error(tn_errmsg());
		ret = EXIT_USAGE;
	} else {
		if (!o.m.max_layout)
			o.m.max_layout = 4 * b.p.layout;
		else if (o.m.max_layout < b.p.layout)
			o.m.max_layout = b.p.layout;
		b.p.jobs = o.m.jobs;
		cmd_reporter_init(&rep, o.m.quiet);
		b.p.report = &rep.r;
		ret = blame(&b, &s);
		probe_release(&b.p);
	}
	for (size_t i = 0; i < b.nt; i++)
		free(b.t[i].flags);
	free(b.t);
	for (size_t i = 0; i < b.nsteps; i++)
		free(b.steps[i].set);
	free(b.steps);
	free(b.culprit);
	free(b.good);
	free(b.bad);
	free(key);
	flagdiff_release(&b.d);
	cmd_close_study(&s);
	return ret;
}
