/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner compare: what it prints, as text, Markdown or JSON (cmd_compare.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_compare.h"
#include "cmd_doc.h"
#include "cmd_numbers.h"
#include "tuner/numfmt.h"
#include "tuner/outfmt.h"
#include "tuner/study.h"
#include "tuner/util.h"

static const char *const outcome_names[] = { "none", "better", "worse", "unseparable",
					      "same_code" };

/* What *same says, into sb (md: code in backticks); 0 when it has nothing
 * to say. */
static int same_text(struct strbuf *sb, const struct cmp_same *same, int md)
{
	const char *q = md ? "`" : "";

	if (same->one) {
		strbuf_addf(sb, "%sA and B built the same code%s (code id %s%.12s%s", md ? "**" : "",
			    md ? "**" : "", q, same->code ? same->code : "?", q);
		if (same->builds > 1)
			strbuf_addf(sb, "; so did each of the %zu layout seeds", same->builds);
		strbuf_addf(sb, "): their measurements are of one program, measured once and "
			    "shared, so this comparison cannot tell them apart. If the measure "
			    "command judges anything but the artifact (the flags, its environment, "
			    "files of its own), set %smeasure.same_code: separate%s in the study "
			    "to measure each build.", q, q);
	} else if (same->shared) {
		strbuf_addf(sb, "note: %zu of the %zu builds of A and B %s the same code as one "
			    "of the other side's (code id %s%.12s%s): measured once and shared, "
			    "their samples draw the comparison toward no difference; "
			    "%smeasure.same_code: separate%s measures each build.", same->shared,
			    2 * same->builds, same->shared == 1 ? "has" : "have", q,
			    same->code ? same->code : "?", q, q, q);
	} else if (same->alike) {
		strbuf_addf(sb, "note: A and B built the same code (code id %s%.12s%s), each measured "
			    "(%smeasure.same_code: separate%s): a difference below is the measure "
			    "command's, not the code's.", q, same->code, q, q, q);
	} else {
		return 0;
	}
	return 1;
}

/* s on stdout in lines of at most 78 columns (a longer word alone). */
static void print_wrapped(const char *s)
{
	size_t col = 0;

	while (*s) {
		size_t n = strcspn(s, " ");

		if (col && col + 1 + n > 78) {
			putchar('\n');
			col = 0;
		} else if (col) {
			putchar(' ');
			col++;
		}
		fwrite(s, 1, n, stdout);
		col += n;
		s += n;
		s += strspn(s, " ");
	}
	putchar('\n');
}

void compare_print_same(const struct cmp_same *same, const struct compare_opts *o)
{
	struct strbuf sb = STRBUF_INIT;

	if (same_text(&sb, same, o->fmt == OUTFMT_MD)) {
		/* JSON carries it (same_code); stderr only says what changes
		 * the verdict, so a -q document comes alone otherwise. */
		if (o->fmt == OUTFMT_JSON) {
			if (same->one)
				fprintf(stderr, "tuner: compare: %s\n", sb.buf);
		} else if (o->fmt == OUTFMT_MD)
			printf("- %s\n\n", sb.buf);
		else
			print_wrapped(sb.buf);
	}
	strbuf_release(&sb);
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

void compare_print_text(const struct cmp_obj *c, unsigned K)
{
	const struct objective *ob = c->ob;
	char a[96], b[96], d[96], ci[160], p[NUMFMT_LEN], pr[NUMFMT_LEN], noise[200];

	format_side(a, sizeof(a), c, c->ma, c->sda, c->na);
	format_side(b, sizeof(b), c, c->mb, c->sdb, c->nb);
	format_diff(d, sizeof(d), c);
	if (c->exact) {
		printf("%s (%s): A %s, B %s%s%s\n  B - A = %s, exact\n", ob->name,
		       ob->maximize ? "max" : "min", a, b, *ob->unit ? " " : "", ob->unit, d);
	} else if (c->outcome == OUT_SAME) {
		/* B's samples are A's: no test of them against themselves. */
		printf("%s (%s): A %s, B the same measurements\n", ob->name,
		       ob->maximize ? "max" : "min", a);
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

void compare_print_md(const struct cmp_obj *c, size_t n, unsigned K)
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
		if (c[i].outcome == OUT_SAME) {
			outfmt_cell(&tb, "the same measurements");
			outfmt_cell(&tb, "-");
		} else {
			format_side(buf, sizeof(buf), &c[i], c[i].mb, c[i].sdb, c[i].nb);
			outfmt_cell(&tb, "%s", buf);
			format_diff(buf, sizeof(buf), &c[i]);
			outfmt_cell(&tb, "%s", buf);
		}
		if (c[i].exact) {
			outfmt_cell(&tb, "exact");
			outfmt_cell(&tb, "-");
		} else if (c[i].outcome == OUT_SAME) {
			outfmt_cell(&tb, "-");
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
		if (c[i].exact || c[i].outcome == OUT_SAME)
			continue;
		char *name = outfmt_md_text(c[i].ob->name);

		format_noise(buf, sizeof(buf), &c[i], K);
		printf("- %s: %s (%zu against %zu); noise: %s\n", name, c[i].how,
		       c[i].t.na, c[i].t.nb, buf);
		free(name);
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

/* {"code": ID, "builds": N, "shared": N, "one_program": B} or null */
static json_t *same_json(const struct cmp_same *same)
{
	json_t *j;

	if (!same->code && !same->shared)
		return json_null();
	j = json_object();
	json_object_set_new(j, "code", same->code ? json_string(same->code) : json_null());
	json_object_set_new(j, "one_program", json_boolean(same->one));
	json_object_set_new(j, "shared_builds", json_integer((json_int_t)same->shared));
	json_object_set_new(j, "measured_each", json_boolean(same->alike));
	return j;
}

void compare_print_json(const struct study *d, const struct run_result *res,
			const struct compare_opts *o, const struct cmp_same *same,
			const struct cmp_obj *c, size_t n)
{
	json_t *root = json_object(), *objs = json_array();

	json_object_set_new(root, "study", json_string(d->name));
	json_object_set_new(root, "measurements_per_build",
			    json_integer(d->repeats_min * study_slots(d)));
	json_object_set_new(root, "layout_seeds", json_integer(d->layout_samples));
	json_object_set_new(root, "a", side_json(o, &res->configs[0], 0));
	json_object_set_new(root, "b", side_json(o, &res->configs[1], 1));
	json_object_set_new(root, "same_code", same_json(same));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(objs, objective_json(&c[i]));
	json_object_set_new(root, "objectives", objs);
	json_object_set_new(root, "primary", json_string(d->objectives[o->primary].name));
	json_object_set_new(root, "verdict", n ? json_string(c[o->primary].verdict) : json_null());
	json_object_set_new(root, "outcome", n ? json_string(outcome_names[c[o->primary].outcome]) :
			    json_null());
	json_object_set_new(root, "fail_on", json_string(compare_fail_on_names[o->fail_on]));
	json_object_set_new(root, "failed", json_boolean(n && compare_fails(o, &c[o->primary])));
	json_object_set_new(root, "results", json_string(res->results_dir));
	cmd_print_json(root);
}

void compare_print_head(const struct study *d, const struct run_result *res,
			const struct compare_opts *o)
{
	const struct config_result *A = &res->configs[0], *B = &res->configs[1];
	const char *li = o->fmt == OUTFMT_MD ? "- " : "  ";
	char *fa = cmd_flags_text(A->flags, o->fmt), *fb = cmd_flags_text(B->flags, o->fmt);
	char *name = outfmt_text(o->fmt, d->name);
	char *ra = o->a_rev ? outfmt_text(o->fmt, o->a_rev) : NULL;
	char *rb = o->b_rev ? outfmt_text(o->fmt, o->b_rev) : NULL;

	printf("%scompare (study %s): %u measurement%s x %u layout seed%s a side, interleaved\n%s",
	       o->fmt == OUTFMT_MD ? "### tuner " : "", name,
	       d->repeats_min * (unsigned)study_slots(d), numfmt_s(d->repeats_min * study_slots(d)),
	       d->layout_samples, numfmt_s(d->layout_samples), o->fmt == OUTFMT_MD ? "\n" : "");
	if (o->a_rev)
		printf("%sA: %s (%.12s)\n%sB: %s (%.12s)\n%sflags: %s\n", li, ra, A->commit, li,
		       rb, B->commit, li, fa);
	else
		printf("%sA: %s%s\n%sB: %s%s\n", li, fa, A->pgo ? " (PGO on)" : "", li, fb,
		       B->pgo ? " (PGO on)" : "");
	if (o->fmt == OUTFMT_MD)
		printf("\n");
	free(fa);
	free(fb);
	free(name);
	free(ra);
	free(rb);
}

