/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner compare: two variants of a study's program against each other. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_doc.h"
#include "cmd_numbers.h"
#include "cmd_options.h"
#include "cmd_targets.h"
#include "tuner/numfmt.h"
#include "tuner/outfmt.h"
#include "tuner/progress.h"
#include "tuner/run.h"
#include "tuner/space.h"
#include "tuner/stats.h"
#include "tuner/study.h"
#include "tuner/util.h"

const char compare_usage[] =
	"usage: tuner compare STUDY.yaml --a FLAGS --b FLAGS [options]\n"
	"       tuner compare STUDY.yaml --a-rev REV --b-rev REV [--flags FLAGS] [options]\n\n"
	"Measures two variants of the study's program against each other: two flag\n"
	"strings built from the study's source, or one flag string (--flags, default\n"
	"the study's first configuration) built from two revisions of it. Each\n"
	"variant is built with layout seeds 0..K-1 and every build measured N times,\n"
	"A and B interleaved (A B A B ...), on the study's testbeds. For every\n"
	"objective it prints B - A with its 95% interval and p-value (Welch's t test;\n"
	"on the layout seeds' means when K >= 2), the measurement and layout spread,\n"
	"whether the difference exceeds the layout-noise band (the 95% range of the\n"
	"difference between two builds that differ only in layout, 1.96 sqrt(2)\n"
	"layout sd), and a verdict. The verdict claims a difference only when\n"
	"Welch's test and the Mann-Whitney rank test on the same units both give\n"
	"p < 0.05, so one outlier run cannot make a claim.\n\n"
	"With one layout seed a side nothing tells a flag's effect from the layout\n"
	"luck of the two builds (2-4% on a router): the verdict is 'cannot separate\n"
	"from layout noise' unless --layout-sd gives the layout spread to assume,\n"
	"which widens the interval by it (0 for a target without layout noise).\n\n"
	"  --a FLAGS, --b FLAGS      the two flag strings\n"
	"  --a-pgo off|on, --b-pgo off|on\n"
	"                            PGO for A, for B (default off; on needs the\n"
	"                            study's train command); when they differ, --a\n"
	"                            and --b are the same flags: one change at a time\n"
	"  --a-rev REV, --b-rev REV  two revisions of the study's source\n"
	"  --flags FLAGS             the flags for --a-rev/--b-rev\n"
	"  --repeats N               measurements per build (default 10)\n"
	"  --layout K                layout seeds per variant (default: the study's\n"
	"                            layout.samples)\n"
	"  --layout-sd PCT           with K = 1: the layout standard deviation to\n"
	"                            assume, in percent of the value\n"
	"  --results DIR             where results go (default:\n"
	"                            results/<study>/compare-<id>; a rerun resumes)\n"
	"  --fail-on worse|change|never\n"
	"                            exit 4 when the verdict on the objective (the\n"
	"                            study's first, or --objective) is 'B is worse'\n"
	"                            (worse) or either 'B is better' or 'B is worse'\n"
	"                            (change); default never. For CI: a verdict that\n"
	"                            cannot separate from layout noise never fails\n"
	"  --objective NAME          the objective --fail-on judges\n"
	"  --format F                table (default), md (GitHub Markdown: a table\n"
	"                            of the objectives, the tests as bullets) or json\n"
	"                            (one object on stdout: every objective's values,\n"
	"                            B - A, interval, p-values, units per side, noise,\n"
	"                            verdict; fractions: 0.02 is +2%); progress and\n"
	"                            notes stay on stderr\n"
	"  -j, --jobs N              parallel builds (default: number of CPUs)\n"
	"  -q, --quiet               no progress on stderr\n"
	"  -h, --help                this text\n\n"
	"Exit status: 0 compared (whatever the verdict, unless --fail-on), 1 error\n"
	"(e.g. a build failed), 2 bad study file or option, 4 the verdict --fail-on\n"
	"refuses, 130 interrupted.\n";

enum fail_on { FAIL_NEVER, FAIL_WORSE, FAIL_CHANGE };

struct compare_opts {
	const char *a, *b, *a_rev, *b_rev, *flags, *results;
	enum pgo_mode a_pgo, b_pgo;
	unsigned repeats, layout;
	int has_layout_sd;
	double layout_sd; /* fraction */
	enum outfmt fmt;
	enum fail_on fail_on;
	const char *objective; /* --objective, or NULL: the first */
	size_t primary;        /* its index in the study's objectives */
};

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "tuner: compare: %s%s%s\n", msg, arg ? arg : "", arg ? "'" : "");
	return EXIT_USAGE;
}

/*
 * The study to run: the space is the two flag strings (or the one, built
 * from two revisions), measured N times on K layout seeds, no racing.
 * Shares the strings of s; release with release_derived().
 */
static int derive(struct study *out, const struct study *s, const struct compare_opts *o)
{
	static char exhaustive[] = "exhaustive";
	struct config first = CONFIG_INIT;
	uint64_t h = hash64_str(HASH64_INIT, s->hash);
	const char *vals[2];
	int ret = -1;

	*out = *s;
	out->space = (struct space)SPACE_INIT;
	out->has_pgo_on = 0;
	if (o->a_rev) {
		if (o->flags) {
			vals[0] = o->flags;
		} else {
			if (space_config(&first, &s->space, 0) < 0)
				goto out;
			vals[0] = first.flags;
		}
		if (space_add_dimension(&out->space, "compare", vals, 1) < 0)
			goto out;
		/* The study's first configuration keeps its PGO mode. */
		if (!o->flags && first.pgo == PGO_ON) {
			const char *on = "on";
			if (space_add_dimension(&out->space, "pgo", &on, 1) < 0)
				goto out;
			out->has_pgo_on = 1;
		}
		h = hash64_str(hash64_str(hash64_str(h, vals[0]), o->a_rev), o->b_rev);
	} else if (o->a_pgo != o->b_pgo) {
		/* The same flags, PGO off and on (parse_options saw to it): the
		 * space's order makes A the first configuration. */
		const char *modes[2] = { o->a_pgo == PGO_ON ? "on" : "off",
					 o->b_pgo == PGO_ON ? "on" : "off" };
		if (space_add_dimension(&out->space, "compare", &o->a, 1) < 0 ||
		    space_add_dimension(&out->space, "pgo", modes, 2) < 0)
			goto out;
		out->has_pgo_on = 1;
		h = hash64_str(hash64_str(h, o->a), modes[0]);
		h = hash64_str(h, modes[1]);
	} else {
		vals[0] = o->a;
		vals[1] = o->b;
		if (space_add_dimension(&out->space, "compare", vals, 2) < 0)
			goto out;
		h = hash64_str(hash64_str(h, o->a), o->b);
		if (o->a_pgo == PGO_ON) {
			const char *on = "on";
			if (space_add_dimension(&out->space, "pgo", &on, 1) < 0)
				goto out;
			out->has_pgo_on = 1;
			h = hash64_str(h, "pgo=on");
		}
	}
	/* The journal belongs to these two variants whatever N and K: a rerun
	 * with more repeats or seeds adds to it. */
	hash64_hex(out->hash, h);
	out->repeats_min = out->repeats_max = o->repeats;
	out->layout_samples = o->layout ? o->layout : s->layout_samples;
	out->strategy = exhaustive;
	out->budget = 0;
	ret = 0;
out:
	config_release(&first);
	if (ret < 0)
		space_release(&out->space);
	return ret;
}

/* What compare found on one objective. */
enum outcome { OUT_NONE, OUT_BETTER, OUT_WORSE, OUT_UNSEPARABLE };

struct cmp_obj {
	const struct objective *ob;
	int exact;              /* a size: compared exactly, no test */
	double ma, mb, sda, sdb; /* A and B: mean (the value when exact), sd */
	size_t na, nb;          /* measurements */
	double diff, rel;       /* B - A, and as a fraction of |A| */
	struct stats_test t;    /* !exact */
	const char *how;        /* the test */
	double run_sd, lsd, band; /* relative; NaN: unknown */
	int lsd_assumed, lsd_with_runs, beyond;
	enum outcome outcome;
	const char *verdict;
};

static const char *const outcome_names[] = { "none", "better", "worse", "unseparable" };

/* One measured objective's comparison into *c. */
static void compare_objective(struct cmp_obj *c, const struct config_result *A,
			      const struct config_result *B, size_t i,
			      const struct compare_opts *o)
{
	const struct run_samples *a = &A->samples[i], *b = &B->samples[i];
	struct stats_test *t = &c->t;
	int significant, separable = 1;

	c->ma = A->obj[i].mean;
	c->mb = B->obj[i].mean;
	c->lsd = c->band = NAN;
	stats_compare_clustered(t, a->x, a->layout_seed, a->n, b->x, b->layout_seed, b->n, 0.95);
	if (!t->layout_unreplicated) {
		c->how = "Welch's t on the layout seeds' means";
		c->lsd = stats_pooled_sd(A->spread[i].between_sd, B->spread[i].between_sd) /
			 fabs(c->ma);
		if (!isfinite(c->lsd) && a->n == A->spread[i].clusters &&
		    b->n == B->spread[i].clusters) {
			/* One run per layout seed (a deterministic target):
			 * the seeds' spread is the layout's plus any run
			 * noise, which cannot be told apart. */
			struct summary sa, sb;

			stats_summarize(&sa, a->x, a->n);
			stats_summarize(&sb, b->x, b->n);
			c->lsd = stats_pooled_sd(sa.stddev, sb.stddev) / fabs(c->ma);
			c->lsd_with_runs = 1;
		}
	} else if (o->has_layout_sd) {
		/* Each side's mean carries its one layout's offset: add their
		 * variance, 2 (sd |mean a|)^2, to the run noise's. */
		double q = stats_t_quantile(0.975, t->df);
		double se = (t->diff_hi - t->diff) / q;
		double extra = o->layout_sd * fabs(c->ma);

		se = sqrt(se * se + 2 * extra * extra);
		if (isfinite(se) && se > 0) {
			t->statistic = t->diff / se;
			t->p = 2 * stats_t_cdf(-fabs(t->statistic), t->df);
			t->diff_lo = t->diff - q * se;
			t->diff_hi = t->diff + q * se;
			t->rel_lo = t->diff_lo / fabs(c->ma);
			t->rel_hi = t->diff_hi / fabs(c->ma);
		}
		c->how = "Welch's t over runs, widened by the assumed layout sd";
		c->lsd = o->layout_sd;
		c->lsd_assumed = 1;
	} else {
		c->how = "Welch's t over runs only: one layout seed a side";
		separable = 0;
	}
	if (isfinite(c->lsd))
		c->band = 1.96 * sqrt(2.0) * c->lsd;
	c->beyond = fabs(t->rel) > c->band;
	c->diff = t->diff;
	c->rel = t->rel;
	c->run_sd = stats_pooled_sd(A->spread[i].within_sd, B->spread[i].within_sd) / fabs(c->ma);
	significant = separable && stats_significant(t, 0.05);
	c->outcome = OUT_NONE;
	if (!separable) {
		c->verdict = "cannot separate from layout noise (use --layout K >= 2, or --layout-sd)";
		c->outcome = OUT_UNSEPARABLE;
	} else if (!significant && t->p < 0.05) {
		c->verdict = "no significant difference (Welch's p < 0.05, but the rank test disagrees)";
	} else if (!significant) {
		c->verdict = "no significant difference";
	} else if ((t->diff > 0) == (c->ob->maximize != 0)) {
		c->verdict = "B is better";
		c->outcome = OUT_BETTER;
	} else {
		c->verdict = "B is worse";
		c->outcome = OUT_WORSE;
	}
}

/* A size: exact. */
static void compare_size(struct cmp_obj *c, const struct config_result *A,
			 const struct config_result *B, size_t i)
{
	c->exact = 1;
	c->ma = A->value[i];
	c->mb = B->value[i];
	c->diff = c->mb - c->ma;
	c->rel = c->diff / fabs(c->ma);
	if (c->ma == c->mb) {
		c->verdict = "equal";
		c->outcome = OUT_NONE;
	} else if ((c->mb > c->ma) == (c->ob->maximize != 0)) {
		c->verdict = "B is better";
		c->outcome = OUT_BETTER;
	} else {
		c->verdict = "B is worse";
		c->outcome = OUT_WORSE;
	}
}

static void compare_one(struct cmp_obj *c, const struct study *d, const struct config_result *A,
			const struct config_result *B, size_t i, const struct compare_opts *o)
{
	memset(c, 0, sizeof(*c));
	c->ob = &d->objectives[i];
	c->sda = A->obj[i].stddev;
	c->sdb = B->obj[i].stddev;
	c->na = A->obj[i].n;
	c->nb = B->obj[i].n;
	c->run_sd = c->lsd = c->band = NAN;
	if (c->ob->from_size)
		compare_size(c, A, B, i);
	else
		compare_objective(c, A, B, i, o);
}

/* "1011 ±12 (n=20)"; exact: "100 k" (6 digits: enough for a byte count). */
static void format_side(char *buf, size_t len, const struct cmp_obj *c, double m, double sd,
			size_t n)
{
	char v[NUMFMT_LEN], s[NUMFMT_LEN];

	numfmt(v, sizeof(v), m, c->exact ? 6 : 4);
	numfmt(s, sizeof(s), sd, 2);
	if (c->exact)
		snprintf(buf, len, "%s", v);
	else
		snprintf(buf, len, "%s ±%s (n=%zu)", v, s, n);
}

/* "+10.2 (+1.01%)" */
static void format_diff(char *buf, size_t len, const struct cmp_obj *c)
{
	char d[32], r[32];

	cmd_format_signed(d, sizeof(d), c->diff);
	cmd_format_pct(r, sizeof(r), c->rel);
	snprintf(buf, len, "%s (%s)", d, r);
}

/* "[+5.1, +15.3] ([+0.5%, +1.51%])" */
static void format_interval(char *buf, size_t len, const struct stats_test *t)
{
	char lo[32], hi[32], rlo[32], rhi[32];

	cmd_format_signed(lo, sizeof(lo), t->diff_lo);
	cmd_format_signed(hi, sizeof(hi), t->diff_hi);
	cmd_format_pct(rlo, sizeof(rlo), t->rel_lo);
	cmd_format_pct(rhi, sizeof(rhi), t->rel_hi);
	snprintf(buf, len, "[%s, %s] ([%s, %s])", lo, hi, rlo, rhi);
}

/* "run sd 0.5%, layout sd 2% (assumed); layout band ±5.5%: the difference
 * is within it" */
static void format_noise(char *buf, size_t len, const struct cmp_obj *c, unsigned K)
{
	char run[64];

	if (c->lsd_with_runs)
		snprintf(run, sizeof(run), "one run per layout seed");
	else
		snprintf(run, sizeof(run), "run sd %.2g%%", 100 * c->run_sd);
	if (isfinite(c->lsd))
		snprintf(buf, len, "%s, layout sd %.2g%%%s; layout band ±%.2g%%: the difference is %s it",
			 run, 100 * c->lsd,
			 c->lsd_assumed ? " (assumed)" :
			 c->lsd_with_runs ? " (the seeds' spread, run noise included)" : "",
			 100 * c->band, c->beyond ? "beyond" : "within");
	else
		snprintf(buf, len, "%s, layout sd unknown (%u layout seed a side); layout band unknown",
			 run, K);
}

static void print_text(const struct cmp_obj *c, unsigned K)
{
	const struct objective *ob = c->ob;
	char a[96], b[96], d[96], ci[160], p[NUMFMT_LEN], pr[NUMFMT_LEN], noise[200];

	format_side(a, sizeof(a), c, c->ma, c->sda, c->na);
	format_side(b, sizeof(b), c, c->mb, c->sdb, c->nb);
	format_diff(d, sizeof(d), c);
	if (c->exact) {
		printf("%s (%s): A %s, B %s%s%s\n  B - A = %s, exact\n", ob->name,
		       ob->maximize ? "max" : "min", a, b, *ob->unit ? " " : "", ob->unit, d);
	} else {
		format_interval(ci, sizeof(ci), &c->t);
		numfmt_p(p, sizeof(p), c->t.p);
		numfmt_p(pr, sizeof(pr), c->t.p_rank);
		format_noise(noise, sizeof(noise), c, K);
		printf("%s (%s): A %s, B %s\n", ob->name, ob->maximize ? "max" : "min", a, b);
		printf("  B - A = %s, 95%% CI %s, %s\n", d, ci, p);
		printf("  test: %s (%zu against %zu); Mann-Whitney %s\n", c->how, c->t.na, c->t.nb,
		       pr);
		printf("  noise: %s\n", noise);
	}
	printf("  verdict: %s\n", c->verdict);
}

/* The objectives as one Markdown table, then each test and its noise as
 * bullets. */
static void print_md(const struct cmp_obj *c, size_t n, unsigned K)
{
	struct outfmt_table tb;
	char buf[200], ps[80];

	outfmt_table_init(&tb, 7);
	outfmt_cell(&tb, "objective");
	outfmt_cell(&tb, "A");
	outfmt_cell(&tb, "B");
	outfmt_cell(&tb, "B - A");
	outfmt_cell(&tb, "95%% interval");
	outfmt_cell(&tb, "p");
	outfmt_cell(&tb, "verdict");
	for (size_t i = 0; i < n; i++) {
		const struct objective *ob = c[i].ob;

		outfmt_cell(&tb, "%s%s%s (%s)", ob->name, *ob->unit ? " " : "", ob->unit,
			    ob->maximize ? "max" : "min");
		format_side(buf, sizeof(buf), &c[i], c[i].ma, c[i].sda, c[i].na);
		outfmt_cell(&tb, "%s", buf);
		format_side(buf, sizeof(buf), &c[i], c[i].mb, c[i].sdb, c[i].nb);
		outfmt_cell(&tb, "%s", buf);
		format_diff(buf, sizeof(buf), &c[i]);
		outfmt_cell(&tb, "%s", buf);
		if (c[i].exact) {
			outfmt_cell(&tb, "exact");
			outfmt_cell(&tb, "-");
		} else {
			format_interval(buf, sizeof(buf), &c[i].t);
			outfmt_cell(&tb, "%s", buf);
			cmd_format_ps(ps, sizeof(ps), c[i].t.p, c[i].t.p_rank);
			outfmt_cell(&tb, "%s", ps);
		}
		outfmt_cell(&tb, "%s", c[i].verdict);
	}
	outfmt_table_print(stdout, &tb, OUTFMT_MD);
	outfmt_table_release(&tb);
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		if (c[i].exact)
			continue;
		format_noise(buf, sizeof(buf), &c[i], K);
		printf("- %s: %s (%zu against %zu); noise: %s\n", c[i].ob->name, c[i].how,
		       c[i].t.na, c[i].t.nb, buf);
	}
}

static json_t *side_json(const struct compare_opts *o, const struct config_result *X, int b)
{
	json_t *j = json_object();
	const char *rev = b ? o->b_rev : o->a_rev;

	json_object_set_new(j, "flags", json_string(X->flags));
	json_object_set_new(j, "pgo", json_string(X->pgo ? "on" : "off"));
	json_object_set_new(j, "rev", rev ? json_string(rev) : json_null());
	json_object_set_new(j, "commit", json_string(X->commit));
	json_object_set_new(j, "config", json_string(X->id));
	json_object_set_new(j, "status", json_string(X->status));
	return j;
}

static json_t *value_json(double m, double sd, size_t n, int exact)
{
	json_t *j = json_object();

	json_object_set_new(j, "value", cmd_json_num(m));
	json_object_set_new(j, "sd", exact ? json_null() : cmd_json_num(sd));
	json_object_set_new(j, "n", json_integer((json_int_t)n));
	return j;
}

static json_t *objective_json(const struct cmp_obj *c)
{
	json_t *j = json_object();

	json_object_set_new(j, "name", json_string(c->ob->name));
	json_object_set_new(j, "unit", json_string(c->ob->unit));
	json_object_set_new(j, "goal", json_string(c->ob->maximize ? "max" : "min"));
	json_object_set_new(j, "exact", json_boolean(c->exact));
	json_object_set_new(j, "a", value_json(c->ma, c->sda, c->na, c->exact));
	json_object_set_new(j, "b", value_json(c->mb, c->sdb, c->nb, c->exact));
	json_object_set_new(j, "diff", cmd_json_num(c->diff));
	json_object_set_new(j, "rel", cmd_json_num(c->rel));
	json_object_set_new(j, "test", c->exact ? json_null() :
			    cmd_test_json(&c->t, c->outcome == OUT_BETTER ||
					  c->outcome == OUT_WORSE));
	json_object_set_new(j, "method", c->exact ? json_string("exact") : json_string(c->how));
	json_object_set_new(j, "run_sd", cmd_json_num(c->run_sd));
	json_object_set_new(j, "layout_sd", cmd_json_num(c->lsd));
	json_object_set_new(j, "layout_sd_assumed", json_boolean(c->lsd_assumed));
	json_object_set_new(j, "layout_sd_with_runs", json_boolean(c->lsd_with_runs));
	json_object_set_new(j, "layout_band", cmd_json_num(c->band));
	json_object_set_new(j, "beyond_band", isfinite(c->band) ? json_boolean(c->beyond) :
			    json_null());
	json_object_set_new(j, "verdict", json_string(c->verdict));
	json_object_set_new(j, "outcome", json_string(outcome_names[c->outcome]));
	return j;
}

static const char *const fail_on_names[] = { "never", "worse", "change" };

/* --fail-on: 1 when the primary objective's outcome is the one refused. */
static int fails(const struct compare_opts *o, const struct cmp_obj *c)
{
	return (o->fail_on == FAIL_WORSE && c->outcome == OUT_WORSE) ||
	       (o->fail_on == FAIL_CHANGE && (c->outcome == OUT_WORSE ||
					      c->outcome == OUT_BETTER));
}

static void print_json(const struct study *d, const struct run_result *res,
		       const struct compare_opts *o, const struct cmp_obj *c, size_t n)
{
	json_t *root = json_object(), *objs = json_array();

	json_object_set_new(root, "study", json_string(d->name));
	json_object_set_new(root, "measurements_per_build",
			    json_integer(d->repeats_min * study_slots(d)));
	json_object_set_new(root, "layout_seeds", json_integer(d->layout_samples));
	json_object_set_new(root, "a", side_json(o, &res->configs[0], 0));
	json_object_set_new(root, "b", side_json(o, &res->configs[1], 1));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(objs, objective_json(&c[i]));
	json_object_set_new(root, "objectives", objs);
	json_object_set_new(root, "primary", json_string(d->objectives[o->primary].name));
	json_object_set_new(root, "verdict", n ? json_string(c[o->primary].verdict) : json_null());
	json_object_set_new(root, "outcome", n ? json_string(outcome_names[c[o->primary].outcome]) :
			    json_null());
	json_object_set_new(root, "fail_on", json_string(fail_on_names[o->fail_on]));
	json_object_set_new(root, "failed", json_boolean(n && fails(o, &c[o->primary])));
	json_object_set_new(root, "results", json_string(res->results_dir));
	cmd_print_json(root);
}

/* The heading and the two variants, as text or Markdown. */
static void print_head(const struct study *d, const struct run_result *res,
		       const struct compare_opts *o)
{
	const struct config_result *A = &res->configs[0], *B = &res->configs[1];
	const char *li = o->fmt == OUTFMT_MD ? "- " : "  ";
	char *fa = cmd_flags_text(A->flags, o->fmt), *fb = cmd_flags_text(B->flags, o->fmt);

	printf("%scompare (study %s): %u measurement%s x %u layout seed%s a side, interleaved\n%s",
	       o->fmt == OUTFMT_MD ? "### tuner " : "", d->name,
	       d->repeats_min * (unsigned)study_slots(d), numfmt_s(d->repeats_min * study_slots(d)),
	       d->layout_samples, numfmt_s(d->layout_samples), o->fmt == OUTFMT_MD ? "\n" : "");
	if (o->a_rev)
		printf("%sA: %s (%.12s)\n%sB: %s (%.12s)\n%sflags: %s\n", li, o->a_rev, A->commit, li,
		       o->b_rev, B->commit, li, fa);
	else
		printf("%sA: %s%s\n%sB: %s%s\n", li, fa, A->pgo ? " (PGO on)" : "", li, fb,
		       B->pgo ? " (PGO on)" : "");
	if (o->fmt == OUTFMT_MD)
		printf("\n");
	free(fa);
	free(fb);
}

static int report(const struct study *d, const struct run_result *res,
		  const struct compare_opts *o)
{
	const struct config_result *A, *B;
	struct cmp_obj *c;
	size_t n;
	int ok, ret = EXIT_OK;

	if (res->nconfigs != 2) {
		fprintf(stderr, "tuner: compare: the two variants are one configuration (the same flags)\n");
		return EXIT_USAGE;
	}
	A = &res->configs[0];
	B = &res->configs[1];
	ok = !strcmp(A->status, "ok") && !strcmp(B->status, "ok");
	n = ok ? d->nobjectives : 0;
	c = xcalloc(n + 1, sizeof(*c));
	for (size_t i = 0; i < n; i++)
		compare_one(&c[i], d, A, B, i, o);
	if (o->fmt == OUTFMT_JSON)
		print_json(d, res, o, c, n);
	else
		print_head(d, res, o);
	if (!ok) {
		fprintf(stderr, "tuner: compare: A is %s, B is %s (see %s)\n", A->status, B->status,
			res->results_dir);
		free(c);
		return EXIT_FAIL;
	}
	if (o->fmt == OUTFMT_MD)
		print_md(c, n, d->layout_samples);
	for (size_t i = 0; i < n && o->fmt == OUTFMT_TABLE; i++)
		print_text(&c[i], d->layout_samples);
	if (o->fmt != OUTFMT_JSON)
		printf("%sresults: %s\n", o->fmt == OUTFMT_MD ? "- " : "", res->results_dir);
	if (fails(o, &c[o->primary])) {
		fprintf(stderr, "tuner: compare: %s: %s (--fail-on %s)\n", c[o->primary].ob->name,
			c[o->primary].verdict, fail_on_names[o->fail_on]);
		ret = EXIT_VERDICT;
	} else if (o->fail_on != FAIL_NEVER && c[o->primary].outcome == OUT_UNSEPARABLE) {
		fprintf(stderr, "tuner: compare: note: --fail-on %s: %s: %s, so not failing\n",
			fail_on_names[o->fail_on], c[o->primary].ob->name, c[o->primary].verdict);
	}
	free(c);
	return ret;
}

static int run_compare(const struct study *s, struct compare_opts *o, struct run_opts *ro)
{
	const char *revs[2] = { o->a_rev, o->b_rev };
	struct run_result res;
	struct study d;
	char *dir = NULL;
	int ret;

	if ((o->a_pgo == PGO_ON || o->b_pgo == PGO_ON) && !s->train.command) {
		fprintf(stderr, "tuner: compare: %s: PGO on needs the study's train command "
			"(train: {command: ...})\n", s->path);
		return EXIT_USAGE;
	}
	if (o->objective) {
		for (o->primary = 0; o->primary < s->nobjectives; o->primary++)
			if (!strcmp(s->objectives[o->primary].name, o->objective))
				break;
		if (o->primary == s->nobjectives) {
			fprintf(stderr, "tuner: compare: %s has no objective '%s'\n", s->path,
				o->objective);
			return EXIT_USAGE;
		}
	}
	if (derive(&d, s, o) < 0) {
		/* The space refuses two equal flag strings. */
		fprintf(stderr, "tuner: compare: %s\n", tn_errmsg());
		return EXIT_USAGE;
	}
	if (!ro->results) {
		dir = xasprintf("results/%s/compare-%s", s->name, d.hash);
		ro->results = dir;
	}
	if (o->a_rev) {
		ro->revs = revs;
		ro->nrevs = 2;
	}
	if (run_study(&res, &d, ro) < 0) {
		ret = cmd_error();
	} else if (res.interrupted) {
		fprintf(stderr, "tuner: compare: interrupted; run again to resume\n");
		ret = EXIT_INTERRUPTED;
	} else {
		ret = report(&d, &res, o);
	}
	run_result_release(&res);
	space_release(&d.space);
	free(dir);
	return ret;
}

static int parse_options(struct compare_opts *o, struct run_opts *ro, int *quiet,
			 int argc, char **argv)
{
	enum { OPT_A = 256, OPT_B, OPT_AREV, OPT_BREV, OPT_FLAGS, OPT_LAYOUT_SD, OPT_APGO,
	       OPT_BPGO, OPT_FAIL_ON, OPT_OBJECTIVE };
	static const struct option longopts[] = {
		{ "a", required_argument, NULL, OPT_A },
		{ "b", required_argument, NULL, OPT_B },
		{ "a-rev", required_argument, NULL, OPT_AREV },
		{ "b-rev", required_argument, NULL, OPT_BREV },
		{ "flags", required_argument, NULL, OPT_FLAGS },
		{ "layout-sd", required_argument, NULL, OPT_LAYOUT_SD },
		{ "a-pgo", required_argument, NULL, OPT_APGO },
		{ "b-pgo", required_argument, NULL, OPT_BPGO },
		{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
		{ "objective", required_argument, NULL, OPT_OBJECTIVE },
		CMD_MEASURE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct cmd_measure_opts m = { .repeats = o->repeats };
	double pct;
	int c, ret, pgo_given = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, CMD_MEASURE_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case OPT_A:
			o->a = optarg;
			break;
		case OPT_B:
			o->b = optarg;
			break;
		case OPT_AREV:
			o->a_rev = optarg;
			break;
		case OPT_BREV:
			o->b_rev = optarg;
			break;
		case OPT_FLAGS:
			o->flags = optarg;
			break;
		case OPT_APGO:
		case OPT_BPGO: {
			enum pgo_mode *mode = c == OPT_APGO ? &o->a_pgo : &o->b_pgo;
			if (!strcmp(optarg, "on"))
				*mode = PGO_ON;
			else if (!strcmp(optarg, "off"))
				*mode = PGO_OFF;
			else
				return usage_error(c == OPT_APGO ? "--a-pgo is off or on, not '" :
						   "--b-pgo is off or on, not '", optarg);
			pgo_given = 1;
			break;
		}
		case OPT_FAIL_ON:
			if (!strcmp(optarg, "worse"))
				o->fail_on = FAIL_WORSE;
			else if (!strcmp(optarg, "change"))
				o->fail_on = FAIL_CHANGE;
			else if (!strcmp(optarg, "never"))
				o->fail_on = FAIL_NEVER;
			else
				return usage_error("--fail-on is worse, change or never, not '", optarg);
			break;
		case OPT_OBJECTIVE:
			o->objective = optarg;
			break;
		case OPT_LAYOUT_SD:
			if (parse_double(&pct, optarg) < 0 || pct < 0 || !isfinite(pct))
				return usage_error("--layout-sd takes a percentage >= 0, not '", optarg);
			o->has_layout_sd = 1;
			o->layout_sd = pct / 100;
			break;
		default:
			ret = cmd_measure_option(&m, c, "compare", argv);
			if (ret > 0)
				return ret;
		}
	}
	o->repeats = m.repeats;
	o->layout = m.layout;
	o->fmt = m.fmt;
	o->results = ro->results = m.results;
	ro->jobs = m.jobs;
	*quiet = m.quiet;
	if (argc - optind != 1)
		return usage_error("need one study file (see 'tuner compare --help')", NULL);
	if (!!o->a != !!o->b)
		return usage_error("--a and --b go together", NULL);
	if (!!o->a_rev != !!o->b_rev)
		return usage_error("--a-rev and --b-rev go together", NULL);
	if (!o->a == !o->a_rev)
		return usage_error("give either --a and --b, or --a-rev and --b-rev", NULL);
	if (o->flags && !o->a_rev)
		return usage_error("--flags goes with --a-rev and --b-rev", NULL);
	if (pgo_given && !o->a)
		return usage_error("--a-pgo and --b-pgo go with --a and --b", NULL);
	if (o->a) {
		char ia[17], ib[17], fa[17], fb[17];
		config_id(ia, o->a, o->a_pgo);
		config_id(ib, o->b, o->b_pgo);
		config_id(fa, o->a, PGO_OFF);
		config_id(fb, o->b, PGO_OFF);
		if (!strcmp(ia, ib))
			return usage_error("--a and --b are the same flags and PGO mode: nothing "
					   "to compare", NULL);
		if (o->a_pgo != o->b_pgo && strcmp(fa, fb))
			return usage_error("--a-pgo and --b-pgo differ: give --a and --b the same "
					   "flags, one change at a time", NULL);
	}
	return -1;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	struct run_opts ro = RUN_OPTS_INIT;
	struct cmd_reporter rep;
	struct study s;
	int quiet = 0, ret;

	if (cmd_wants_help(argc, argv, compare_usage))
		return EXIT_OK;
	o.repeats = 10;
	ret = parse_options(&o, &ro, &quiet, argc, argv);
	if (ret >= 0)
		return ret;
	ret = cmd_open_study(&s, argv[optind], "compare", 1);
	if (ret)
		return ret;
	cmd_reporter_init(&rep, quiet);
	ro.report = &rep.r;
	ret = run_compare(&s, &o, &ro);
	cmd_close_study(&s);
	return ret;
}
